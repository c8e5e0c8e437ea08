import CamHubProtocol
import CameraCore
import CameraMotion
import SharedBytes

/// When a room next needs the hub's tick.
enum Wake: Hashable {
    /// On every tick (something moves and nobody's frame time bounds it).
    case everyTick
    /// At the first tick at or after this time (seconds).
    case at(Double)
    /// Not until a command, a join or a leave wakes it.
    case never
}

/// One room: its camera (through the animator manager), its gestures, who is
/// in it, and the frame state followers are throttled against.
struct Room {
    let name: RoomName
    var manager: AnimatorManager
    /// The gesture engine while a gesture is under way, nil at rest: a room
    /// at rest holds only its state (the engine is ~250 bytes, and rooms are
    /// stored inline in the hub's table).
    private var gestureBox: GestureBox?
    /// Who is in the room and in which role (the one place roles are kept).
    var roster: Roster
    /// A connection in the room and its frame throttle (kept here, in an
    /// array, so the per-tick pass over followers does no lookups).
    struct Member {
        let connection: ConnectionKey
        var throttle: FollowerThrottle
        /// What the member says its map does (`follow`). Between the
        /// throttle and the subscriptions, in bytes the layout leaves free.
        var follow = FollowState.following
        /// How its frames are made (`hello.encoding`, `hello.render`), beside `follow` in the same spare bytes.
        let format: FrameFormat
        var encoding: FrameEncoding { format.encoding }
        /// 0: its map draws everything; else `renderVariants[renderClass - 1]` is what it draws.
        var renderClass: UInt8 { format.renderClass }
        /// What the member gets besides frames (`hello.events`, `subscribe`).
        var events: EventSubscriptions
    }

    /// Members a room holds before it marks every other joiner's throttle
    /// `staggered`. A small room's pass takes microseconds: visiting it on
    /// every tick instead of every other would cost more than spreading its
    /// frames saves.
    static let staggerFrom = 64

    /// Whether the next member's throttle is staggered: every other one, in a large room.
    var staggersNextMember: Bool { members.count >= Self.staggerFrom && members.count % 2 == 1 }

    /// Whether the staggered members' fresh schedules start a tick late on
    /// this pass: only when the whole audience is more than `tickCapacity`,
    /// the frames the owner can write in one tick interval. A pass that fits
    /// in a tick gains nothing from being split over two, and every extra
    /// burst of sends costs the kernel wake-ups (docs/BENCHMARKS.md).
    func staggers(tickCapacity: Int) -> Bool { members.count > tickCapacity }

    /// Connections in the room (in no particular order: leaving swaps the last
    /// one in). Each member's session keeps where it is (`Session.member`),
    /// so the room needs no table from connection to position.
    private(set) var members: [Member] = []
    /// Members subscribed to `roomAnimations` (0: an animation report goes to its owner alone, O(1)).
    private(set) var roomAnimationWatchers = 0
    /// Increases by one per tick in which the camera or `moving` changed.
    var seq: UInt64 = 0
    /// The manager revision and `moving` flag that `seq` describes.
    var frameRevision: UInt64 = 0
    var frameMoving = false
    /// Whether `seq`'s frame is the first after a change of course (an
    /// animation started, ended or handed over, a tracking mode changed): its
    /// `corner` flag tells followers not to fit a curve across the gap before it.
    var frameCorner = false
    /// A change of course was reported since the last frame state (`noteCourseChanged`).
    private var courseChanged = false
    /// The pointer was shown, moved or hidden since the last frame state.
    private var pointerChanged = false
    /// The newest frame at a change of course: the tick before one that is
    /// scheduled, or the first frame after one. Slow followers take it early
    /// (`FollowerThrottle` rule 4). 0: none yet.
    var promptSeq: UInt64 = 0
    /// `seq`'s frame, encoded at most once, when the first follower is due it.
    var frame: EncodedFrame?
    /// The same frame in the binary encoding, for members that asked for it.
    var binaryFrame: EncodedFrame?
    /// The distinct `hello.render` capabilities of this room's members that
    /// cannot draw everything (a member's `renderClass` is its index + 1),
    /// each with its current frames (see `Room+Render.swift`). Empty, and
    /// allocating nothing, while every map draws every camera.
    var renderVariants: [RenderVariant] = []
    /// When the last member left (the room is removed `roomTTL` later).
    var emptySince: Double?
    /// The head count changed since the last `audience` event, sent at `audienceSentAt`.
    var audienceChanged = false
    /// Whether `mirror` is set, kept by its setter (`authority` reads it): a
    /// test of `mirror == nil` copies the whole frame out of the cluster box,
    /// and the lease renewal asks for every room twice a second. In the bytes
    /// the flags leave.
    private(set) var isMirror = false
    /// Where an unfinished send pass stopped (nil: no pass under way). Next to
    /// the flag above, in the bytes it leaves before the next `Double`.
    var sendCursor: Int32?
    var audienceSentAt = -Double.infinity
    /// The time this room is queued to wake at in the hub's `WakeQueue`
    /// (nil: not queued). A queue entry at any other time is stale.
    var scheduledWake: Double?
    /// The earliest member frame time the pass under way has seen so far.
    var passMemberDue = Double.infinity
    /// The tick (grid time) the pass under way began on.
    var passTick = -Double.infinity
    /// How often the hub visited this room (ticks it was awake for).
    var visits = TickRate()
    /// Ticks that visited this room since it was created.
    var visitCount: UInt64 = 0
    /// What only a room in a cluster of hubs needs (`ClusterRoomState`), on
    /// the heap: nil until the room takes part in a cluster, so a room of a
    /// hub on its own does not carry it inline (~400 bytes per room).
    private var clusterBox: ClusterRoomBox?
    /// The presenter's follow policy and the mover's view, on the heap once
    /// either was set: a room that never had them carries 8 bytes for them.
    private var followBox: FollowRoomBox?
    /// The room's storyboard and autoplay (`StoryRoomState`), on the heap once
    /// the room has one: a room without carries 8 bytes for it.
    private var storyBox: StoryRoomBox?

    /// The storyboard as the hub that runs the camera keeps it (on a mirror: none).
    var storyRoom: StoryRoomState {
        get { storyBox?.state ?? StoryRoomState() }
        set { storyBox = newValue == StoryRoomState() ? nil : StoryRoomBox(state: newValue) }
    }

    /// When autoplay goes on to the next step (nil: it does not wait for that).
    var storyHoldUntil: Double? { storyBox?.state.holdUntil }

    /// The room's storyboard (on a mirror, the owner's, from its frames).
    var story: StoryState? {
        switch authority {
        case .owned: storyBox.map(\.state.story)
        case .mirrored: mirror?.story
        }
    }

    private var follow: FollowRoomState {
        get { followBox?.state ?? FollowRoomState() }
        set { followBox = newValue == FollowRoomState() ? nil : FollowRoomBox(state: newValue) }
    }

    /// Whether the room's clients may explore (`followPolicy`).
    var followPolicy: FollowPolicy {
        get { followBox?.state.policy ?? .open }
        set { follow.policy = newValue }
    }

    /// The view of the client whose command last moved the camera (on a
    /// mirror, the owner's, from its frames). nil: nobody moved it yet.
    var view: RoomView? {
        get {
            switch authority {
            case .owned: followBox?.state.view
            case .mirrored: mirror?.view
            }
        }
        set { follow.view = newValue }
    }

    /// How the room's map draws the world (on a mirror, the owner's, from its frames).
    var projection: MapProjection {
        get {
            switch authority {
            case .owned: followBox?.state.projection ?? .mercator
            case .mirrored: mirror?.projection ?? .mercator
            }
        }
        set { follow.projection = newValue }
    }

    /// What the room's exploring members on this hub look at (kept on every hub for its own members).
    var looks: RoomLooks {
        get { followBox?.state.looks ?? RoomLooks() }
        set { follow.looks = newValue }
    }

    /// The pointer shown now (nil: nobody points). Owner only: a mirror's frames carry the owner's.
    var pointer: RoomPointer? { followBox?.state.pointer }

    /// What the frame of the current `seq` says of the pointer.
    var framePointer: FramePointer { followBox?.state.framePointer ?? FramePointer.none }

    /// Shows (or, nil, hides) the pointer from the next frame on, which is
    /// then due even while the camera rests.
    mutating func setPointer(_ pointer: RoomPointer?) {
        guard pointer != self.pointer else { return }
        follow.pointer = pointer
        pointerChanged = true
    }

    /// Reads and changes the cluster state (a change makes a new box, so rooms
    /// copied by value never share one).
    var cluster: ClusterRoomState {
        get { clusterBox?.state ?? ClusterRoomState() }
        set { clusterBox = ClusterRoomBox(state: newValue) }
    }

    /// Set while another hub of the cluster owns this room (`RoomBroker`): its
    /// newest published frame, which this hub's followers get instead of
    /// frames of `manager` (which then stands still). nil: this hub runs the camera.
    var mirror: RoomFrame? {
        get { clusterBox?.state.mirror }
        set {
            cluster.mirror = newValue
            isMirror = newValue != nil
        }
    }
    var mirrorSeqOffset: UInt64 {
        get { cluster.mirrorSeqOffset }
        set { cluster.mirrorSeqOffset = newValue }
    }
    var mirrorStale: Bool {
        get { cluster.mirrorStale }
        set { cluster.mirrorStale = newValue }
    }
    var publishedSeq: UInt64 {
        get { cluster.publishedSeq }
        set { cluster.publishedSeq = newValue }
    }
    var publishedLimits: CameraLimits? {
        get { cluster.publishedLimits }
        set { cluster.publishedLimits = newValue }
    }
    var publishedTracking: TrackingMode {
        get { cluster.publishedTracking }
        set { cluster.publishedTracking = newValue }
    }
    var publishedView: RoomView? {
        get { cluster.publishedView }
        set { cluster.publishedView = newValue }
    }
    var publishedProjection: MapProjection {
        get { cluster.publishedProjection }
        set { cluster.publishedProjection = newValue }
    }
    var publishedStoryRevision: UInt64 {
        get { cluster.publishedStoryRevision }
        set { cluster.publishedStoryRevision = newValue }
    }
    /// Other hubs' members of this room, by hub id (the cluster's presence messages).
    var remote: [String: HubPresence] {
        get { clusterBox?.state.remote ?? [:] }
        set { cluster.remote = newValue }
    }

    var epoch: UInt64 {
        get { clusterBox?.state.epoch ?? 0 }
        set { cluster.epoch = newValue }
    }
    var mirrorRoute: [GeoCoordinate] {
        get { clusterBox?.state.route ?? [] }
        set { cluster.route = newValue }
    }

    /// The room's route as its members see it: the owner's on a mirror.
    var routePoints: [GeoCoordinate] {
        switch authority {
        case .owned: manager.route?.points ?? []
        case .mirrored: mirrorRoute
        }
    }

    /// The camera members see: the owner's newest frame on a mirror.
    var camera: Camera { mirror?.camera ?? manager.camera }
    var limits: CameraLimits { mirror?.limits ?? manager.limits }

    /// When this hub's presenter took the room (ms since the epoch).
    var presenterSince = 0.0

    /// Head counts across the cluster (this hub's roster and every other hub's).
    var audience: Audience {
        remote.values.reduce(roster.audience) { $0 + $1.audience }
    }

    /// The listed clients across the cluster: this hub's, then the other hubs'.
    var clusterRoster: [RosterEntry] {
        remote.isEmpty ? roster.entries : roster.entries + remote.sorted { $0.key < $1.key }.flatMap(\.value.entries)
    }

    /// The presenter, here or on another hub.
    var clusterPresenter: String? {
        roster.presenter ?? remote.values.lazy.flatMap(\.entries).first { $0.role == .presenter }?.client
    }

    init(name: RoomName, camera: Camera, limits: CameraLimits, listedFollowers: Int, now: Double) {
        self.name = name
        self.roster = Roster(listedFollowerLimit: listedFollowers)
        self.manager = AnimatorManager(camera: camera, limits: limits, time: now)
        self.frameRevision = manager.revision
    }

    /// Adds a connection with its throttle (O(1)); returns its position in `members`.
    mutating func addMember(
        _ connection: ConnectionKey, throttle: FollowerThrottle, events: EventSubscriptions, encoding: FrameEncoding = .json,
        renderClass: UInt8 = 0
    ) -> Int {
        members.append(
            Member(connection: connection, throttle: throttle, format: FrameFormat(encoding: encoding, renderClass: renderClass), events: events))
        if events.contains(.roomAnimations) { roomAnimationWatchers += 1 }
        return members.count - 1
    }

    mutating func setEvents(_ events: EventSubscriptions, at index: Int) {
        if members[index].events.contains(.roomAnimations) { roomAnimationWatchers -= 1 }
        if events.contains(.roomAnimations) { roomAnimationWatchers += 1 }
        members[index].events = events
    }

    /// Sets the follow state of the member at `index`; returns the state it had.
    mutating func setFollow(_ state: FollowState, at index: Int) -> FollowState {
        defer { members[index].follow = state }
        return members[index].follow
    }

    /// Removes `connection`, at `index` in `members` (O(1): the last member
    /// takes its place; a send pass under way visits the moved member if it
    /// has not yet). Returns the connection that moved to `index` (its
    /// position changed), nil when none did.
    mutating func removeMember(_ connection: ConnectionKey, at index: Int) -> ConnectionKey? {
        precondition(members[index].connection == connection, "member \(connection) is not at \(index)")
        if members[index].events.contains(.roomAnimations) { roomAnimationWatchers -= 1 }
        let last = members.removeLast()
        var moved: ConnectionKey?
        if index < members.count {
            members[index] = last
            moved = last.connection
        }
        if let cursor = sendCursor, index < Int(cursor), index < members.count {
            // The member moved into the hole was not reached yet: look at it before the rest.
            sendCursor = Int32(index)
        } else if let cursor = sendCursor, Int(cursor) > members.count {
            // The pass had reached the end of a longer list: it still has (the pass ends there).
            sendCursor = Int32(members.count)
        }
        return moved
    }

    /// Turns one gesture into camera motion (see `GestureEngine.handle`).
    mutating func gesture(_ input: GestureInput, client: GestureClient, at now: Double) -> Result<GestureOutcome, CommandError> {
        var engine = takeGestures()
        defer { keepGestures(engine) }
        return engine.handle(input, client: client, manager: &manager, at: now)
    }

    /// Ends everything `client` had going: its gestures, animations and tracking.
    mutating func clientLeft(_ client: String, at now: Double) {
        if gestureBox != nil {
            var engine = takeGestures()
            engine.clientLeft(client, manager: &manager, at: now)
            keepGestures(engine)
        }
        manager.ownerLeft(client, at: now)
        if pointer?.by == client { setPointer(nil) }
    }

    /// The room's gesture engine (a fresh one at rest), moved out of its box
    /// so that it is changed in place, not copied.
    private mutating func takeGestures() -> GestureEngine {
        defer { gestureBox = nil }
        return gestureBox?.engine ?? GestureEngine()
    }

    /// Keeps `engine` while gestures are under way; drops it at rest.
    private mutating func keepGestures(_ engine: GestureEngine) {
        gestureBox = engine.isAtRest ? nil : GestureBox(engine: engine)
    }

    /// Advances `seq` if the camera or `moving` changed since the last frame state.
    mutating func updateFrameState() {
        guard authority == .owned else { return }  // `applyRemoteFrame` sets the frame state of a mirror
        let moving = manager.isMoving
        guard manager.revision != frameRevision || moving != frameMoving || pointerChanged else { return }
        if pointerChanged || framePointer != FramePointer.none {
            let next: FramePointer = pointer.map(FramePointer.shown) ?? (pointerChanged ? FramePointer.hidden : FramePointer.none)
            if next != framePointer { follow.framePointer = next }
        }
        pointerChanged = false
        seq += 1
        frameRevision = manager.revision
        frameMoving = moving
        frameCorner = courseChanged
        courseChanged = false
        if frameCorner { promptSeq = seq }
        frame = nil
    }

    /// Notes that the camera's course changed (the motion events said so): the
    /// next frame state is a corner, sent early to slow followers.
    mutating func noteCourseChanged() {
        courseChanged = true
    }

    /// Makes the current frame a prompt one when the camera's course changes
    /// before the next tick (an animation ends or a delayed one starts by
    /// `nextTick`, seconds): slow followers then have a frame on each side of it.
    mutating func notePromptIfCourseChangesBy(_ nextTick: Double) {
        guard authority == .owned, case .moving(let next?) = manager.due, next <= nextTick else { return }
        promptSeq = seq
    }

    /// Sends the current frame to every member due one (`tickTime` on the tick
    /// grid). Returns when the room must be visited next for its members'
    /// sake: the earliest frame time of a member still owed the current `seq`
    /// (its throttle made it wait) or, while the camera moves, of any member
    /// (it will be owed a newer frame then); nil when nobody waits for one.
    ///
    /// At most `budget` frames are sent (it is decreased by each): a pass that
    /// runs out stops where it was (`sendCursor`) and returns `.unfinished`;
    /// the next call goes on from there, so every member is reached in turn,
    /// with the newest frame then.
    mutating func sendDueFrames(
        tickTime: Double, epochMilliseconds: Double, headroom: Int, budget: inout Int, tickCapacity: Int,
        sink: some HubSink
    ) -> SendPass {
        var i = Int(sendCursor ?? 0)
        if sendCursor == nil {
            passMemberDue = .infinity
            passTick = tickTime
            sink.note(.sendPassStarted)
        }
        var throttled = 0
        let staggering = staggers(tickCapacity: tickCapacity)
        while true {
            if i == members.count {
                // A pass that began on an earlier tick looked at the members
                // before its cursor then, when they may not have been due yet:
                // look again for this tick (`take` never sends twice in one).
                guard passTick < tickTime else { break }
                passTick = tickTime
                passMemberDue = .infinity
                i = 0
                continue
            }
            if budget <= 0 {
                sendCursor = Int32(i)
                if throttled > 0 { sink.note(.framesThrottled(throttled)) }
                return .unfinished
            }
            if members[i].throttle.take(roomSeq: seq, promptSeq: promptSeq, now: tickTime, staggering: staggering) {
                let frame =
                    members[i].renderClass == 0
                    ? currentFrame(time: epochMilliseconds, headroom: headroom, encoding: members[i].encoding)
                    : limitedFrame(time: epochMilliseconds, headroom: headroom, member: members[i])
                sink.sendFrame(frame, to: members[i].connection)
                budget -= 1
            } else if (members[i].throttle.lastSeq ?? 0) < seq {
                throttled += 1  // owed the newest frame, held back by its rate
            }
            if frameMoving || (members[i].throttle.lastSeq ?? 0) < seq {
                passMemberDue = min(passMemberDue, members[i].throttle.nextFrameTime)
            }
            i += 1
        }
        sendCursor = nil
        sink.note(.sendPassEnded)
        if throttled > 0 { sink.note(.framesThrottled(throttled)) }
        return .finished(memberDue: passMemberDue.isFinite ? passMemberDue : nil)
    }

    /// How a send pass over the members ended.
    enum SendPass: Equatable {
        /// Out of budget; `sendCursor` says where to go on.
        case unfinished
        /// Every member was looked at; `memberDue` as `nextWake` takes it.
        case finished(memberDue: Double?)
    }

    /// When the room next needs the hub's tick, given when a member is next
    /// due a frame (`sendDueFrames`): while the camera moves, at that time or
    /// when an animation starts or ends, whichever is first (the camera is a
    /// pure function of time, so the ticks in between would change nothing
    /// anyone sees), and also the tick before that start or end (slow
    /// followers get a frame either side of it); at rest, at the earliest of a
    /// frame still owed, a delayed start or `steady` report, the next
    /// `audience` or `viewports` event, or the end of an empty room's TTL.
    func nextWake(memberDue: Double?, configuration: HubConfiguration) -> Wake {
        var earliest = memberDue ?? .infinity
        // A mirror's camera moves by published frames, each of which wakes it.
        switch authority == .owned ? manager.due : .never {
        case .moving(let next):
            guard memberDue != nil || next != nil else { return .everyTick }
            earliest = min(earliest, (next ?? .infinity) - 1 / configuration.tick)
        case .at(let time): earliest = min(earliest, time)
        case .never: break
        }
        if audienceChanged { earliest = min(earliest, audienceSentAt + configuration.audienceInterval) }
        if let looks = followBox?.state.looks, looks.changed { earliest = min(earliest, looks.sentAt + configuration.viewportsInterval) }
        if authority == .owned, let hold = storyBox?.state.holdUntil { earliest = min(earliest, hold) }
        if let emptySince { earliest = min(earliest, emptySince + configuration.roomTTL) }
        return earliest.isFinite ? .at(earliest) : .never
    }

    /// Frees what only a moving room needs (the encoded frames) when it goes to rest.
    mutating func rest() {
        frame = nil
        binaryFrame = nil
        for i in renderVariants.indices { renderVariants[i].forgetFrames() }
    }

    /// The frame for `seq` in `encoding`, encoded on first use (with `headroom`
    /// bytes in front for the transport): once per room, tick and encoding.
    mutating func currentFrame(time: Double, headroom: Int, encoding: FrameEncoding = .json) -> EncodedFrame {
        switch encoding {
        case .json:
            if let frame, frame.seq == seq { return frame }
            let encoded = encodeFrame(time: time, headroom: headroom, encoding: .json)
            frame = encoded
            return encoded
        case .binary:
            if let binaryFrame, binaryFrame.seq == seq { return binaryFrame }
            let encoded = encodeFrame(time: time, headroom: headroom, encoding: .binary)
            binaryFrame = encoded
            return encoded
        }
    }

    /// The frame for `seq`: a mirror's as its owner published it, else this room's camera at `time`.
    /// The frame for `seq` (a mirror's as its owner published it, else this room's camera at `time`),
    /// as a map with `render` can show it.
    func encodeFrame(time: Double, headroom: Int, encoding: FrameEncoding, render: RenderCapabilities = .all) -> EncodedFrame {
        let encode = encoding == .json ? HubMessage.frame : BinaryFrame.encode
        let bytes =
            if let mirror {
                encode(
                    seq, mirror.time, render.showable(mirror.camera), mirror.moving, mirror.by, mirror.corner,
                    mirror.velocity.map { render.showable($0, at: mirror.camera) }, mirror.pointer, mirror.epoch)
            } else {
                encode(
                    seq, time, render.showable(manager.camera), frameMoving, manager.lastMovedBy, frameCorner,
                    frameMoving ? manager.velocity(at: manager.time).map { render.showable($0, at: manager.camera) } : nil, framePointer,
                    epoch)
            }
        return EncodedFrame(seq: seq, payload: SharedBytes(bytes, headroom: headroom), encoding: encoding)
    }

}

/// Heap storage for a room's gesture engine while gestures are under way.
/// Immutable: a change makes a new box, so rooms copied by value never share one.
final class GestureBox: Sendable {
    let engine: GestureEngine
    init(engine: GestureEngine) { self.engine = engine }
}
