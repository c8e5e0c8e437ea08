import CamHubProtocol
import CameraCore
import CameraMotion

/// The broker seam: where a room's traffic goes beyond this hub. The hub
/// calls the broker; an *engine* implements it (Centrifugo's word), and the
/// hub's code names only the broker. With no broker (`Hub.broker == nil`, the
/// default) the hub is the in-memory engine of one process: it owns every room
/// and nothing leaves it. With a broker (the Redis engine, `ClusterEngine` in
/// module `HubCluster`) a room is *owned* by
/// one hub of the cluster, which runs its camera and publishes each changed
/// frame; on the other hubs the room is a *mirror* fed with those frames
/// (`Hub.applyRemoteFrame`), whose driving messages go to the owner.
///
/// Called on the hub's thread, from inside `Hub`'s methods; an implementation
/// must not call back into the hub from these calls (it queues work instead).
public protocol RoomBroker: AnyObject {
    /// Owner: `room` has a new frame (at most once per tick per room).
    func publish(_ frame: RoomFrame, in room: RoomName)
    /// Mirror: a driving message of a local client, for the room's owner.
    func forward(_ command: ForwardedCommand)
    /// Mirror: a local client that may have sent commands left; the owner ends what it had going.
    func clientLeft(_ client: String, in room: RoomName)
    /// A room was removed from this hub (empty past its TTL).
    func roomRemoved(_ room: RoomName)
    /// Owner of lease `epoch`: a room event about the camera
    /// (`EventSubscriptions.ofTheCamera`), for the members of every mirror;
    /// it reaches them only while `epoch` is the room's.
    func relay(_ event: [UInt8], kind: EventSubscriptions, epoch: UInt64, in room: RoomName)
    /// A presenter here summoned the room: the other hubs' clients that are
    /// not following hear it (`Hub.applyRemoteSummon`), unless they know a
    /// newer epoch of the room than `epoch`, the newest this hub knows.
    func summon(by client: String, name: String, epoch: UInt64, in room: RoomName)
    /// A message for one client of another hub (ids end with their hub's id: `Hub.setClientIDSuffix`).
    func deliver(_ message: [UInt8], toClient client: String)
    /// Owner: the room's route changed; `points` is all of it now (empty: none).
    /// Kept beside the checkpoint, so that mirrors welcome with it and a new owner goes on with it.
    func routeChanged(_ points: [GeoCoordinate], epoch: UInt64, in room: RoomName)
}

/// One published frame: what a mirror needs to serve it (the encoded `frame`
/// message its followers get, byte for byte) and to answer queries and
/// welcomes from it (camera, limits).
public struct RoomFrame: Hashable, Sendable {
    /// The owner's `seq` (a mirror may number its own frames higher: `Hub.applyRemoteFrame`).
    public var seq: UInt64
    /// The owner's lease epoch (`ClusterLease`): a frame of an older epoch than
    /// a hub has seen for the room comes from an owner that lost it, and is dropped.
    public var epoch: UInt64 = 0
    /// The frame's `time` (ms since the epoch, the owner's clock).
    public var time: Double
    public var camera: Camera
    public var limits: CameraLimits
    public var moving: Bool
    /// The first frame after a change of course (`frame.corner`).
    public var corner = false
    /// A frame slow followers take early (`Room.promptSeq`): a corner, or the
    /// tick before a scheduled change of course.
    public var prompt = false
    /// The planned path's slope at this frame (`frame.velocity`).
    public var velocity: CameraVelocity?
    /// Who moved the camera last (`frame.by`).
    public var by: String?
    /// The animations running (or queued) at this frame, as a welcome lists
    /// them (times on the owner's wall clock): a mirror's welcome lists them,
    /// and a new owner reports each `cancelled` (reason `failover`) when the
    /// old owner died with them.
    public var animations: [AnimationSummary] = []
    /// The room's tracking mode (`welcome.tracking` on a mirror).
    public var trackingMode = TrackingMode.none
    /// Who runs the tracking mode, and its last location fix: a new owner
    /// goes on with it after a failover (`welcome.tracking` on a mirror).
    public var trackingOwner: Owner?
    public var trackedLocation: TrackedLocation?
    /// The view of whoever moved the camera last (`welcome.view` on a mirror).
    public var view: RoomView?
    /// What this frame says of the room's pointer (`frame.pointer`).
    public var pointer = FramePointer.none
    /// How the room's map draws the world (`welcome.projection` on a mirror).
    public var projection = MapProjection.mercator
    /// The room's storyboard and the step it is on (nil: none; a new owner
    /// goes on from it paused: autoplay's hold ended with the old owner).
    public var story: StoryState?

    public init(seq: UInt64, time: Double, camera: Camera, limits: CameraLimits, moving: Bool, by: String?) {
        self.seq = seq
        self.time = time
        self.camera = camera
        self.limits = limits
        self.moving = moving
        self.by = by
    }
}

/// A client message that must run on the room's owner (a mirror forwards it).
public struct ForwardedCommand: Hashable, Sendable {
    public var room: RoomName
    /// The client's id, role and viewport on its own hub.
    public var client: String
    public var role: Role
    public var viewport: Viewport
    /// The message as the client sent it.
    public var message: [UInt8]
    /// The forwarding hub's number for it, which the owner acknowledges once
    /// it ran it (0: none). Without that acknowledgement the client gets
    /// `unavailable`.
    public var id: UInt64 = 0
    /// The message's `ref` (its `id`, else its type), for that `unavailable` error. Not sent.
    public var ref: String?

    public init(room: RoomName, client: String, role: Role, viewport: Viewport, message: [UInt8]) {
        self.room = room
        self.client = client
        self.role = role
        self.viewport = viewport
        self.message = message
    }
}

/// Connection keys the hub gives clients of other hubs whose commands it runs
/// (at and above this value; the transport's own keys count up from 1).
public let remoteConnectionBase: ConnectionKey = 1 << 62
