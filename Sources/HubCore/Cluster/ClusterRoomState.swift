import CamHubProtocol
import CameraCore
import CameraMotion

/// The part of a room that only a cluster of hubs uses (`RoomBroker`): the
/// owner's newest frame on a mirror, what the owner last published, and the
/// other hubs' members. Kept out of `Room`'s inline storage (see `Room.cluster`).
struct ClusterRoomState: Sendable {
    /// Set while another hub owns the room: its newest published frame. nil: this hub runs the camera.
    var mirror: RoomFrame?
    /// Added to the owner's `seq` on a mirror, so that its own numbering only
    /// ever increases (after a change of owner, the new owner's may be lower).
    var mirrorSeqOffset: UInt64 = 0
    /// Set when a mirror has no frame of the owner yet (it has only its own state).
    var mirrorStale = false
    /// The last `seq` handed to the broker (an owner publishes each frame once).
    var publishedSeq: UInt64 = 0
    /// The limits last handed to the broker (a change of limits alone is published too).
    var publishedLimits: CameraLimits?
    var publishedTracking = TrackingMode.none
    /// The view last handed to the broker (a change of view alone is published too).
    var publishedView: RoomView?
    /// The projection last handed to the broker (a change of projection alone is published too).
    var publishedProjection = MapProjection.mercator
    /// The storyboard revision last handed to the broker (`StoryRoomState.revision`).
    var publishedStoryRevision: UInt64 = 0
    /// Other hubs' members of this room, by hub id (the cluster's presence messages).
    var remote: [String: HubPresence] = [:]
    /// The lease epoch: on the owner, the one its lease carries; on a mirror,
    /// the newest it has seen. Frames of an older epoch are dropped.
    var epoch: UInt64 = 0
    /// Mirror: the owner's route (`RoomBroker.routeChanged`); empty: none.
    var route: [GeoCoordinate] = []
}

/// A lease this hub holds on a room: its epoch, which grows on every change
/// of owner, and until when (hub seconds) the hub may act as the owner: the
/// moment the renewal was sent plus the lease's time to live, less a margin.
public struct ClusterLease: Hashable, Sendable {
    public var epoch: UInt64
    public var until: Double
    public init(epoch: UInt64, until: Double) {
        self.epoch = epoch
        self.until = until
    }
}

/// Heap storage for a room's `ClusterRoomState`. Immutable: a change makes a
/// new box, so rooms copied by value never share one.
final class ClusterRoomBox: Sendable {
    let state: ClusterRoomState
    init(state: ClusterRoomState) { self.state = state }
}

/// A room as a lease renewal sees it (`Hub.leaseState`).
public struct RoomLeaseState: Hashable, Sendable {
    /// This hub runs the room's camera (not a mirror).
    public var owned: Bool
    /// The room has members on this hub (a mirror with members tries to take the room when its owner is gone).
    public var hasMembers: Bool
    /// The lease epoch this hub knows for the room.
    public var epoch: UInt64
}
