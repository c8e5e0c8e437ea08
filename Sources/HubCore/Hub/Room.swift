import CameraCore
import CameraMotion

/// When a room next needs the hub's tick (the same three answers as its manager's).
typealias Wake = AnimatorManager.Due

/// One room: its camera (through the animator manager), its gestures, who is
/// in it, and the frame state followers are throttled against.
struct Room {
    let name: RoomName
    var manager: AnimatorManager
    var gestures = GestureEngine()
    /// Who is in the room and in which role (the one place roles are kept).
    var roster: Roster
    /// A connection in the room and its frame throttle (kept here, in an
    /// array, so the per-tick pass over followers does no lookups).
    struct Member {
        let connection: ConnectionKey
        var throttle: FollowerThrottle
        /// What the member gets besides frames (`hello.events`, `subscribe`).
        var events: EventSubscriptions
    }

    /// Connections in the room (in no particular order: leaving swaps the last one in).
    private(set) var members: [Member] = []
    /// Where each connection is in `members`, for O(1) leaves.
    private var memberIndex: [ConnectionKey: Int] = [:]
    /// Increases by one per tick in which the camera or `moving` changed.
    var seq: UInt64 = 0
    /// The manager revision and `moving` flag that `seq` describes.
    var frameRevision: UInt64 = 0
    var frameMoving = false
    /// `seq`'s frame, encoded at most once, when the first follower is due it.
    var frame: EncodedFrame?
    /// When the last member left (the room is removed `roomTTL` later).
    var emptySince: Double?
    /// The head count changed since the last `audience` event, sent at `audienceSentAt`.
    var audienceChanged = false
    var audienceSentAt = -Double.infinity
    /// The time this room is queued to wake at in the hub's `WakeQueue`
    /// (nil: not queued). A queue entry at any other time is stale.
    var scheduledWake: Double?
    /// How often the hub visited this room (ticks it was awake for).
    var visits = TickRate()

    var audience: Audience { roster.audience }

    init(name: RoomName, camera: Camera, limits: CameraLimits, listedFollowers: Int, now: Double) {
        self.name = name
        self.roster = Roster(listedFollowerLimit: listedFollowers)
        self.manager = AnimatorManager(camera: camera, limits: limits, time: now)
        self.frameRevision = manager.revision
    }

    /// Adds a connection with its throttle (O(1)).
    mutating func addMember(_ connection: ConnectionKey, throttle: FollowerThrottle, events: EventSubscriptions) {
        memberIndex[connection] = members.count
        members.append(Member(connection: connection, throttle: throttle, events: events))
    }

    /// The member's subscriptions (nil: not a member).
    func events(of connection: ConnectionKey) -> EventSubscriptions? {
        memberIndex[connection].map { members[$0].events }
    }

    mutating func setEvents(_ events: EventSubscriptions, of connection: ConnectionKey) {
        guard let index = memberIndex[connection] else { return }
        members[index].events = events
    }

    /// Removes a connection (O(1): the last member takes its place).
    mutating func removeMember(_ connection: ConnectionKey) {
        guard let index = memberIndex.removeValue(forKey: connection) else { return }
        let last = members.removeLast()
        if index < members.count {
            members[index] = last
            memberIndex[last.connection] = index
        }
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

    /// Sends the current frame to every member due one (`tickTime` on the tick
    /// grid). Returns true while a member is still owed the current `seq`
    /// (its throttle made it wait), so the room must be visited again.
    mutating func sendDueFrames(tickTime: Double, epochMilliseconds: Double, sink: some HubSink) -> Bool {
        var owed = false
        var throttled = 0
        sink.note(.sendPassStarted)
        for i in members.indices {
            if members[i].throttle.take(roomSeq: seq, now: tickTime) {
                sink.sendFrame(currentFrame(time: epochMilliseconds), to: members[i].connection)
            } else if (members[i].throttle.lastSeq ?? 0) < seq {
                owed = true
                throttled += 1
            }
        }
        sink.note(.sendPassEnded)
        if throttled > 0 { sink.note(.framesThrottled(throttled)) }
        return owed
    }

    /// When the room next needs the hub's tick, given whether a member is
    /// still owed a frame: every tick while anything moves or a frame is owed;
    /// otherwise at the earliest of a delayed start or `steady` report, the
    /// next `audience` event, or the end of an empty room's TTL.
    func nextWake(framesOwed: Bool, configuration: HubConfiguration) -> Wake {
        if framesOwed { return .everyTick }
        var earliest = Double.infinity
        switch manager.due {
        case .everyTick: return .everyTick
        case .at(let time): earliest = time
        case .never: break
        }
        if audienceChanged { earliest = min(earliest, audienceSentAt + configuration.audienceInterval) }
        if let emptySince { earliest = min(earliest, emptySince + configuration.roomTTL) }
        return earliest.isFinite ? .at(earliest) : .never
    }

    /// Frees what only a moving room needs (the encoded frame) when it goes to rest.
    mutating func rest() {
        frame = nil
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
