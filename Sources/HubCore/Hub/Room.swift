import CameraCore
import CameraMotion

/// One room: its camera (through the animator manager), its gestures, who is
/// in it, and the frame state followers are throttled against.
struct Room {
    let name: RoomName
    var manager: AnimatorManager
    var gestures = GestureEngine()
    var roster = Roster()
    /// A connection in the room and its frame throttle (kept here, in an
    /// array, so the per-tick pass over followers does no lookups).
    struct Member {
        let connection: ConnectionKey
        var throttle: FollowerThrottle
    }

    /// Connections in the room, in join order.
    var members: [Member] = []
    /// Increases by one per tick in which the camera or `moving` changed.
    var seq: UInt64 = 0
    /// The manager revision and `moving` flag that `seq` describes.
    var frameRevision: UInt64 = 0
    var frameMoving = false
    /// `seq`'s frame, encoded at most once, when the first follower is due it.
    var frame: EncodedFrame?
    /// When the last member left (the room is removed `roomTTL` later).
    var emptySince: Double?
    /// Clients announced and listed in rosters: presenters, drivers and the
    /// first `listedFollowers` followers. The rest are only counted.
    var listed: Set<String> = []
    var listedFollowerCount = 0
    var followerCount = 0
    /// The head count changed since the last `audience` event, sent at `audienceSentAt`.
    var audienceChanged = false
    var audienceSentAt = -Double.infinity

    var audience: Audience { Audience(clients: members.count, followers: followerCount) }

    init(name: RoomName, camera: Camera, limits: CameraLimits, now: Double) {
        self.name = name
        self.manager = AnimatorManager(camera: camera, limits: limits, time: now)
        self.frameRevision = manager.revision
    }

    /// Turns one gesture into camera motion (see `GestureEngine.handle`).
    mutating func gesture(_ input: GestureInput, client: GestureClient, at now: Double) -> Result<GestureOutcome, CommandError> {
        gestures.handle(input, client: client, manager: &manager, at: now)
    }

    /// Ends everything `client` had going: its gestures, animations and tracking.
    mutating func clientLeft(_ client: String, at now: Double) {
        gestures.clientLeft(client, manager: &manager, at: now)
        manager.ownerLeft(client, at: now)
    }

    /// Advances `seq` if the camera or `moving` changed since the last frame state.
    mutating func updateFrameState() {
        let moving = manager.isMoving
        guard manager.revision != frameRevision || moving != frameMoving else { return }
        seq += 1
        frameRevision = manager.revision
        frameMoving = moving
        frame = nil
    }

    /// Sends the current frame to every member due one (`tickTime` on the tick grid).
    mutating func sendDueFrames(tickTime: Double, epochMilliseconds: Double, sink: some HubSink) {
        for i in members.indices where members[i].throttle.take(roomSeq: seq, now: tickTime) {
            sink.sendFrame(currentFrame(time: epochMilliseconds), to: members[i].connection)
        }
    }

    /// The frame for `seq`, encoded on first use.
    mutating func currentFrame(time: Double) -> EncodedFrame {
        if let frame, frame.seq == seq { return frame }
        let encoded = EncodedFrame(seq: seq, bytes: HubMessage.frame(seq: seq, time: time, camera: manager.camera,
                                                                     moving: frameMoving, by: manager.lastMovedBy))
        frame = encoded
        return encoded
    }
}
