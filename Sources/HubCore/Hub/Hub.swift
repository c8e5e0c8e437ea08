import CamHubProtocol
import CameraCore
import CameraMotion

/// The hub's logic: sessions, rooms, roles, conflicts and throttled frames,
/// independent of any transport. Its owner (the server's loop thread, or a
/// test) calls `open`, `receive`, `closed` and `tick` with the current time
/// and a sink for the output. Not thread-safe: one owner, one thread.
public struct Hub {
    public let configuration: HubConfiguration
    var sessions: [ConnectionKey: Session] = [:]
    /// Every room here, owned or mirrored: reached only through `RoomTable`.
    var rooms = RoomTable()
    /// Client id → connection of every client something is addressed to by
    /// id: drivers and presenters (an animation's reports go to its owner) and
    /// clients of other hubs (`receiveForwarded`). Not followers: they own no
    /// animation and send nothing that runs on another hub, and a large
    /// audience should not cost an entry each.
    var connectionOfClient: [String: ConnectionKey] = [:]
    var ids: ClientIDAllocator
    /// Connections that have not joined yet → when they opened (s). The tick
    /// checks only these for the hello timeout, not every session.
    var awaitingHello: [ConnectionKey: Double] = [:]
    /// Rooms visited on every tick: something moves or a frame is owed.
    var awake: Set<RoomName> = []
    /// Rooms at rest waiting for a time of their own.
    var wakeQueue = WakeQueue()
    /// The hub's own ticks, for the achieved rate.
    var ticks = TickRate()
    /// Rooms visited in the current or the previous second of a visit (a superset of the rooms with a tick rate).
    var recentVisits = RecentRooms()
    /// Every room's roster added up (`connectionsByRole` once a second, O(1)):
    /// kept in step by `changeRoster`, the one way rosters change.
    var rosterTotals = RosterTotals()
    /// Rooms whose send pass ran out of budget, in the order they did.
    var unfinishedPasses = UnfinishedPasses()
    /// Frames the owner writes in one tick interval: four times the budget of
    /// the latest tick, since the server sizes each slice to a quarter of the
    /// interval (`SendSliceBudget`). A room larger than this staggers its
    /// members' schedules (`Room.staggers(tickCapacity:)`).
    var tickCapacity = 4_000
    /// Rooms kept from before a restart, recreated as they were on their first join (`restore`).
    var restorable: [RoomName: RoomState] = [:]
    /// Rooms that may have changed (camera, limits, tracking mode, `seq`) or
    /// gone since `takeChangedRoomStates` last drained it: every room woken or
    /// visited. Lets persistence cost nothing while all rooms are at rest.
    /// Kept only with `configuration.tracksChangedRooms`.
    var changedRooms: Set<RoomName> = []
    /// How many `RoomState`s `takeChangedRoomStates` has built (for tests: a flush with nothing changed builds none).
    public internal(set) var roomStatesBuilt = 0
    /// Where room traffic goes beyond this hub (nil: the in-memory engine, every room local; see `RoomBroker`).
    public var broker: (any RoomBroker)?
    /// The hub's lease in a cluster (nil: no cluster, or no room owned yet:
    /// every owned room runs). Past it, or before Redis confirmed a room, an
    /// owned room is *fenced* (see `runsCamera`).
    var lease: HubLease?
    /// Rooms whose own members (roster, counts, follow policy) changed since
    /// the broker last took them (`takePresenceChanges`). Kept only with a broker.
    var presenceChanged: Set<RoomName> = []
    /// The server API's session in each room it sent commands to (`Hub+ServerAPI`), and how many it made.
    var apiSessions: [RoomName: ConnectionKey] = [:]
    var apiSessionCount: ConnectionKey = 0
    /// Who may join as what: `configuration.tokens`, with the revoked token ids as last read (`revokeTokens`).
    var tokenPolicy: TokenPolicy
    /// Joined clients with a signed token → its expiry (`Hub+Tokens`).
    var tokenLeases: [ConnectionKey: TokenLease] = [:]
    /// The earliest `TokenLease.due` (seconds since 1970): tokens cost nothing until then.
    var tokenDue = Double.infinity
    /// Clients of other hubs whose forwarded commands this hub (their room's owner) runs: client id → key.
    var remoteConnections: [String: ConnectionKey] = [:]

    /// When the process runs several hubs (one per loop): `roomCount` is
    /// shared by them, so that `maxRooms` caps them together, and `clientIDs`
    /// gives each its own numbers, so that client ids never repeat across them.
    public init(
        configuration: HubConfiguration = HubConfiguration(), roomCount: RoomCount? = nil, clientIDs: ClientIDAllocator = ClientIDAllocator()
    ) {
        self.configuration = configuration
        tokenPolicy = configuration.tokens
        rooms.shared = roomCount
        ids = clientIDs
    }

    /// Connections open, joined clients, rooms. O(1): joined clients are the
    /// rosters' running total (`rosterTotals`) plus the clients of other hubs
    /// whose commands this hub runs.
    public var counts: (connections: Int, clients: Int, rooms: Int) {
        (sessions.count, rosterTotals.clients + remoteConnections.count, rooms.count)
    }

    /// Per room: name, clients, the current camera (for `/healthz` and tests).
    public var roomSummaries: [(name: String, clients: Int, camera: Camera, seq: UInt64)] {
        // The small summaries are sorted, not the rooms (704 bytes each, moved on every swap).
        rooms.values.map { ($0.name.value, $0.members.count, $0.camera, $0.seq) }.sorted { $0.name < $1.name }
    }

    /// Hub ticks in the last whole second before `seconds`.
    public func ticksPerSecond(at seconds: Double) -> Int { ticks.perSecond(at: seconds) }

    /// Per room: how many ticks visited it in the last whole second before
    /// `seconds` (the configured tick rate while it moves, 0 at rest).
    public func roomTicksPerSecond(at seconds: Double) -> [String: Int] {
        rooms.values.reduce(into: [:]) { $0[$1.name.value] = $1.visits.perSecond(at: seconds) }
    }

    /// `roomTicksPerSecond` for the rooms visited lately only (the others' rate
    /// is 0): O(busy rooms), for the once-a-second metrics of a hub holding
    /// thousands of rooms at rest.
    public func busyRoomTicksPerSecond(at seconds: Double) -> [String: Int] {
        recentVisits.rooms(at: seconds).reduce(into: [:]) { rates, name in
            // In place: `rooms[name]?` would copy the whole room.
            if let rate = rooms.read(name, { $0.visits.perSecond(at: seconds) }), rate > 0 { rates[name.value] = rate }
        }
    }

    /// Rooms visited on every tick now (the rest are at rest or asleep until a time).
    public var awakeRooms: Int { awake.count }

    /// A new connection: it has `helloTimeout` seconds to join a room.
    public mutating func open(_ connection: ConnectionKey, at time: HubTime) {
        sessions[connection] = Session()
        awaitingHello[connection] = time.seconds
    }

    /// The hub closes `connection` (with `code`) and takes its client out of its room at once.
    mutating func closeSession(_ connection: ConnectionKey, code: HubCloseCode, reason: String, at time: HubTime, sink: some HubSink) {
        sink.close(connection, code: code.rawValue, reason: reason)
        if !tokenLeases.isEmpty { tokenLeases[connection] = nil }
        if let session = sessions.removeValue(forKey: connection) { leaveRoom(session, of: connection, at: time, sink: sink) }
    }

    /// A connection went away (closed by either side): leave its room.
    public mutating func closed(_ connection: ConnectionKey, at time: HubTime, sink: some HubSink) {
        awaitingHello[connection] = nil
        if !tokenLeases.isEmpty { tokenLeases[connection] = nil }
        guard let session = sessions.removeValue(forKey: connection) else { return }
        leaveRoom(session, of: connection, at: time, sink: sink)
    }

    /// Advances the rooms that have something due to `time`, reports what
    /// happened, sends due frames, closes connections that never said hello,
    /// and removes rooms left empty for `roomTTL`.
    ///
    /// Only awake rooms are visited: a room at rest (nothing moving, no frame
    /// owed, nothing scheduled) costs nothing here until a command, a join or
    /// a leave wakes it, or the time it asked for comes (`WakeQueue`).
    ///
    /// Returns true when frames are still to be sent: the tick sends at most
    /// `configuration.sendBudget` frames, then leaves the rest to
    /// `continueSending`, so the clock keeps its rate however many followers
    /// there are (the owner calls `continueSending` after letting other
    /// work in, and the next tick goes on where a pass stopped).
    @discardableResult
    public mutating func tick(at time: HubTime, sink: some HubSink) -> Bool {
        var budget = configuration.sendBudget
        return tick(at: time, sendBudget: &budget, sink: sink)
    }

    /// `tick(at:sink:)` with the owner's own budget for this tick's sends
    /// (in place of `configuration.sendBudget`); on return `sendBudget` holds what
    /// is left, so the owner knows how many frames the tick wrote (see `SendSliceBudget`).
    @discardableResult
    public mutating func tick(at time: HubTime, sendBudget: inout Int, sink: some HubSink) -> Bool {
        tickCapacity = 4 * sendBudget  // the owner's slice is a quarter tick's frames
        ticks.record(at: time.seconds)
        var budget = sendBudget
        defer { sendBudget = budget }
        let tickTime = gridTime(time.seconds)
        // Wake times are compared on the tick grid, as the throttles compare frame times.
        for entry in wakeQueue.takeDue(at: tickTime) {
            let current = rooms.update(entry.room) { room in
                guard room.scheduledWake == entry.time else { return false }
                room.scheduledWake = nil
                return true
            }
            if current == true { awake.insert(entry.room) }
        }
        if !awake.isEmpty {
            for name in Array(awake) { visit(name, at: time, tickTime: tickTime, budget: &budget, sink: sink) }
        }
        for (connection, openedAt) in awaitingHello where time.seconds - openedAt >= configuration.helloTimeout {
            sink.send(HubMessage.error(ProtocolError(.badMessage, "hello: none within \(Int(configuration.helloTimeout)) s", ref: nil)), to: connection)
            sink.close(connection, code: HubCloseCode.policyViolation.rawValue, reason: "no hello")
            sessions[connection] = nil
            awaitingHello[connection] = nil
        }
        if !tokenLeases.isEmpty { checkTokens(at: time, sink: sink) }
        return !unfinishedPasses.isEmpty
    }

    /// One awake room's tick; then it stays awake, sleeps until a time, or rests.
    private mutating func visit(_ name: RoomName, at time: HubTime, tickTime: Double, budget: inout Int, sink: some HubSink) {
        let leaseHolds = lease?.holds(name, at: time.seconds) ?? true
        let visited = rooms.update(name) { room in
            let firstThisSecond = room.visits.record(at: time.seconds)
            room.visitCount += 1
            let runs: Bool
            switch room.authority {
            case .owned: runs = leaseHolds  // not fenced
            case .mirrored: runs = false  // the owner's frames move it
            }
            if runs { room.manager.advance(to: time.seconds) }
            return (runs: runs, fenced: room.authority == .owned && !leaseHolds, firstThisSecond: firstThisSecond)
        }
        guard let (runsCamera, fenced, firstThisSecond) = visited else {
            awake.remove(name)
            return
        }
        if configuration.tracksChangedRooms { changedRooms.insert(name) }
        if firstThisSecond { recentVisits.insert(name, at: time.seconds) }
        if runsCamera {
            deliverMotionEvents(in: name, at: time, sink: sink)
            if advanceStory(in: name, at: time, sink: sink) { deliverMotionEvents(in: name, at: time, sink: sink) }
            let nextTick = time.seconds + 1 / configuration.tick
            rooms.update(name) { room in
                room.updateFrameState()
                room.notePromptIfCourseChangesBy(nextTick)
            }
            publishFrame(of: name, at: time)
        }
        let configuration = configuration
        let tickCapacity = tickCapacity
        let (pass, audience, expired) = rooms.update(existing: name) { room in
            // A fenced owner sends nothing: its frame is from before its lease
            // ran out (a hub thawed after a stall would show that stale camera
            // after another hub took over the room).
            let pass =
                fenced
                ? .finished(memberDue: nil)
                : room.sendDueFrames(
                    tickTime: tickTime, epochMilliseconds: time.epochMilliseconds, headroom: configuration.frameHeadroom,
                    budget: &budget, tickCapacity: tickCapacity, sink: sink)
            var audience: Audience?
            if room.audienceChanged && time.seconds - room.audienceSentAt >= configuration.audienceInterval {
                room.audienceChanged = false
                room.audienceSentAt = time.seconds
                audience = room.audience
            }
            let expired = room.emptySince.map { time.seconds - $0 >= configuration.roomTTL } ?? false
            return (pass, audience, expired)
        }
        if let audience { broadcast(.audience(audience), in: name, at: time, sink: sink) }
        sendDueViewports(in: name, at: time, sink: sink)
        if expired {
            if let room = rooms.remove(name) { rosterTotals.remove(room.roster) }
            lease?.unconfirmed.remove(name)
            if !apiSessions.isEmpty { forgetAPISession(in: name) }
            awake.remove(name)
            broker?.roomRemoved(name)
            return
        }
        guard case .finished(let memberDue) = pass else {
            unfinishedPasses.append(name)
            return  // stays awake; `continueSending` or the next tick goes on
        }
        if !unfinishedPasses.isEmpty { unfinishedPasses.remove(name) }
        settle(name, memberDue: memberDue, tickTime: tickTime)
    }

    /// After a room's send pass finished: it stays awake, sleeps until a time, or rests.
    private mutating func settle(_ name: RoomName, memberDue: Double?, tickTime: Double) {
        let configuration = configuration
        switch rooms.read(existing: name, { $0.nextWake(memberDue: memberDue, configuration: configuration) }) {
        case .everyTick:
            return
        case .at(let when) where when <= tickTime:  // on the grid, as the throttles decide
            return  // overdue: stay awake for the next tick
        case .at(let when):
            awake.remove(name)
            wakeQueue.insert(name, at: when)
            rooms.update(name) { room in
                room.scheduledWake = when
                room.rest()
            }
        case .never:
            awake.remove(name)
            rooms.update(name) { $0.rest() }
        }
    }

    /// Changes `name`'s roster in place (nil: no such room), keeping
    /// `rosterTotals` in step: the room's counts are taken out before `body`
    /// and put back after it, whether it returns or throws.
    @discardableResult
    mutating func changeRoster<R, E: Error>(in name: RoomName, _ body: (inout Roster) throws(E) -> R) throws(E) -> R? {
        guard rooms.contains(name) else { return nil }
        if broker != nil { presenceChanged.insert(name) }
        var totals = rosterTotals
        defer { rosterTotals = totals }
        return try rooms.update(name) { room throws(E) in
            totals.remove(room.roster)
            defer { totals.add(room.roster) }
            return try body(&room.roster)
        }
    }

    /// `changeRoster` of a room the caller found or made while handling the
    /// same message or event (see `RoomTable.update(existing:_:)`).
    @discardableResult
    mutating func changeRoster<R, E: Error>(existing name: RoomName, _ body: (inout Roster) throws(E) -> R) throws(E) -> R {
        guard let result = try changeRoster(in: name, body) else { preconditionFailure(RoomTable.gone(name)) }
        return result
    }

    /// `seconds` on the tick grid (the nearest multiple of 1/tick): the time
    /// throttles and wake times are compared at, so that timer jitter never
    /// moves or costs a frame.
    func gridTime(_ seconds: Double) -> Double {
        (seconds * configuration.tick).rounded() / configuration.tick
    }

    /// Visits `room` from the next tick on (a command, a join or a leave may have changed it).
    mutating func wake(_ room: RoomName) {
        awake.insert(room)
        if configuration.tracksChangedRooms { changedRooms.insert(room) }
    }

    // MARK: Rooms

    mutating func join(_ hello: Hello, connection: ConnectionKey, at time: HubTime, sink: some HubSink) throws(ProtocolError) {
        guard var session = sessions[connection] else { return }
        let grant = try tokenPolicy.authorize(hello, now: time.epochMilliseconds / 1000)
        try hello.events?.authorize(hello.role, field: "events", ref: "hello")
        try checkCaps(joining: hello.room)
        let client = ids.next()
        if !rooms.contains(hello.room), !rooms.insert(newRoom(hello.room, at: time.seconds), below: configuration.maxRooms) {
            throw Self.roomsFull(configuration.maxRooms)  // another hub sharing the count took the last room since `checkCaps`
        }
        // Another hub's presenter, whom a presenter joining here takes over from.
        let remotePresenter = rooms.read(hello.room) { $0.roster.presenter == nil ? $0.clusterPresenter : nil } ?? nil
        guard rooms.read(hello.room, { $0.takesRender(hello.render) }) ?? true else {
            throw ProtocolError(.full, "room \(hello.room.value) already serves \(FrameFormat.maxRenderClasses) kinds of map (hello.render)", ref: "hello")
        }
        var outcome = try changeRoster(existing: hello.room) { roster throws(ProtocolError) in
            try roster.join(client: client, name: grant.name ?? hello.name, role: hello.role)
        }
        if outcome.presenterChange != nil, outcome.presenterChange?.previous == nil, let remotePresenter {
            outcome.presenterChange?.previous = remotePresenter  // taken over from another hub's presenter
        }
        session.client = client
        session.viewport = hello.viewport
        session.fit = hello.fit
        // Bring the room up to now so the welcome carries the current camera
        // and seq. Before the joiner becomes a member: what happened until now
        // (steady, significantChange) is for those already in the room, and
        // must not reach the joiner ahead of its welcome.
        if runsCamera(hello.room, at: time.seconds) { rooms.update(hello.room) { $0.manager.advance(to: time.seconds) } }
        deliverMotionEvents(in: hello.room, at: time, sink: sink)
        let events = hello.events ?? EventSubscriptions.defaults(for: hello.role)
        let tick = configuration.tick
        let gridNow = gridTime(time.seconds)
        var welcome = rooms.update(existing: hello.room) { room in
            room.updateFrameState()
            // The welcome carries the current frame, so the throttle starts from its seq.
            var throttle = FollowerThrottle(rate: hello.rate(tick: tick), tick: tick, staggered: room.staggersNextMember)
            // On the tick grid, as every later frame time: its frames then fall due on ticks.
            throttle.didSend(seq: room.seq, now: gridNow)
            session.room = room.name  // the room's own string: a long name is not stored again per member
            let renderClass = room.renderClass(of: hello.render) ?? 0  // checked above: there is room for it
            session.member = UInt32(
                room.addMember(connection, throttle: throttle, events: events, encoding: hello.encoding, renderClass: renderClass))
            room.emptySince = nil
            if outcome.presenterChange != nil { room.presenterSince = time.epochMilliseconds }
            if let demoted = outcome.presenterChange?.demoted { room.manager.setRank(Role.driver.rank, of: demoted) }
            room.audienceChanged = true
            if events.contains(.viewports) { room.resendViewports() }
            var welcome = room.welcome(at: time, tick: tick)
            welcome.rate = throttle.rate
            return welcome
        }
        if hello.role != .follower { connectionOfClient[client] = connection }
        welcome.client = client
        welcome.role = hello.role
        welcome.gestures = session.disabledGestures
        welcome.events = events
        welcome.fit = hello.fit
        welcome.camera = hello.render.showable(welcome.camera)
        welcome.renderLimited = hello.render.limited
        sink.send(HubMessage.welcome(welcome, time: time.epochMilliseconds), to: connection)
        sessions[connection] = session
        awaitingHello[connection] = nil
        if let exp = grant.exp { holdToken(exp: exp, jti: grant.jti, for: connection) }
        wake(hello.room)
        if outcome.isListed { broadcast(.joined(outcome.entry), in: hello.room, except: connection, at: time, sink: sink) }
        if let change = outcome.presenterChange {
            broadcast(.presenterChanged(change, by: client), in: hello.room, at: time, sink: sink)
        }
    }

    /// The role of `session`'s client in its room (nil before `hello`): the
    /// roster's for a listed client; a counted one is a follower.
    func role(of session: Session) -> Role? {
        guard let client = session.client, let room = session.room, let roster = rooms.read(room, \.roster) else { return nil }
        if let remoteRole = session.remoteRole { return remoteRole }
        return roster.role(of: client) ?? .follower
    }

    /// The joined client of `session` with its rank in its room (nil before `hello`).
    func owner(of session: Session) -> Owner? {
        guard let client = session.client, let role = role(of: session) else { return nil }
        return Owner(client: client, rank: role.rank)
    }

    mutating func leaveRoom(_ session: Session, of connection: ConnectionKey, at time: HubTime, sink: some HubSink) {
        guard let client = session.client, let name = session.room, let authority = rooms.read(name, \.authority) else { return }
        connectionOfClient[client] = nil
        switch authority {
        case .owned: break
        case .mirrored:  // the owner ends what a client of this hub had going there
            if connection < remoteConnectionBase { broker?.clientLeft(client, in: name) }
        }
        var follow = FollowState.following
        var moved: ConnectionKey?
        rooms.update(name) { room in
            if let member = session.member {
                follow = room.members[Int(member)].follow
                moved = room.removeMember(connection, at: Int(member))
            }
            room.clientLeft(client, at: time.seconds)
            _ = room.dropLook(of: client)
        }
        if let moved, let member = session.member { sessions[moved]?.member = member }
        deliverMotionEvents(in: name, at: time, sink: sink)
        storyPlayerLeft(client, in: name, at: time, sink: sink)
        rooms.update(name) { $0.audienceChanged = true }
        let left = changeRoster(existing: name) { roster in
            let outcome = roster.leave(client: client)
            if outcome == nil { roster.leaveCounted(in: follow) }
            return outcome
        }
        if let outcome = left {
            broadcast(.left(outcome.entry), in: name, at: time, sink: sink)
            if let change = outcome.presenterChange {
                broadcast(.presenterChanged(change, by: client), in: name, at: time, sink: sink)
            }
        }
        rooms.update(name) { room in
            if room.members.isEmpty { room.emptySince = time.seconds }
        }
        wake(name)
    }

    // MARK: Output

    /// Sends `event` to every member of `room` subscribed to it (encoded once,
    /// and not at all when nobody is).
    func broadcast(_ event: HubEvent, in room: RoomName, except: ConnectionKey? = nil, at time: HubTime, sink: some HubSink) {
        guard let members = rooms.read(room, \.members) else { return }
        let kind = event.subscription
        if let broker, EventSubscriptions.ofTheCamera.contains(kind), rooms.read(room, \.authority) == .owned {
            broker.relay(HubMessage.event(event, time: time.epochMilliseconds), kind: kind, epoch: epoch(of: room), in: room)
        }
        let recipients = members.lazy.filter { $0.events.contains(kind) && $0.connection != except }.map(\.connection)
        guard !recipients.isEmpty else { return }
        sink.send(HubMessage.event(event, time: time.epochMilliseconds), to: recipients)
    }

    /// The subscriptions of `connection` as a member of `room` (nil: not one).
    func events(of connection: ConnectionKey, in room: RoomName) -> EventSubscriptions? {
        guard let session = sessions[connection], session.room == room, let member = session.member else { return nil }
        return rooms.read(room) { $0.members[Int(member)].events }
    }

    /// Sends `event` to one member when it is subscribed to it.
    func send(_ event: HubEvent, to connection: ConnectionKey, in room: RoomName, at time: HubTime, sink: some HubSink) {
        // A client of another hub (`receiveForwarded`) is no member here: its own hub filters.
        guard connection >= remoteConnectionBase || events(of: connection, in: room)?.contains(event.subscription) == true else { return }
        sink.send(HubMessage.event(event, time: time.epochMilliseconds), to: connection)
    }

    /// Sends an animation report to its owner (subscribed to `animation` or
    /// `roomAnimations`) and to every other member subscribed to
    /// `roomAnimations`, encoded once. O(1) while nobody watches the room's animations.
    func deliver(_ report: AnimationReport, in name: RoomName, at time: HubTime, sink: some HubSink) {
        guard let watchers = rooms.read(name, \.roomAnimationWatchers) else { return }
        let ownerConnection = connectionOfClient[report.owner.client]
        var recipients: [ConnectionKey] = []
        if watchers > 0 {
            for member in rooms.read(existing: name, \.members)
            where member.events.contains(.roomAnimations)
                || (member.connection == ownerConnection && member.events.contains(.animation))
            {
                recipients.append(member.connection)
            }
        } else if let ownerConnection, events(of: ownerConnection, in: name)?.contains(.animation) == true {
            recipients.append(ownerConnection)
        }
        if let ownerConnection, ownerConnection >= remoteConnectionBase {
            recipients.append(ownerConnection)  // a client of another hub: its hub filters by its subscriptions
        }
        guard !recipients.isEmpty else { return }
        var message = AnimationMessage(
            id: report.id, status: AnimationMessage.Status(rawValue: report.status.rawValue)!,
            by: report.by ?? report.owner.client, lost: report.lost, clamped: report.clamped,
            camera: report.camera, reason: report.reason, owner: report.owner.client)
        if report.status == .started {
            message.to = report.to
            message.essential = report.essential
        }
        sink.send(HubMessage.animation(message, time: time.epochMilliseconds), to: recipients)
    }

    /// Reports the manager's events: animation reports to their owners (and
    /// `roomAnimations` watchers), camera events to the room.
    mutating func deliverMotionEvents(in name: RoomName, at time: HubTime, sink: some HubSink) {
        guard let (events, lastMovedBy) = rooms.update(name, { ($0.manager.takeEventsBesidesChanges(), $0.manager.lastMovedBy) }), !events.isEmpty
        else { return }
        if events.contains(where: \.changesCourse) { rooms.update(name) { $0.noteCourseChanged() } }
        for event in events {
            switch event {
            case .animation(let report):
                deliver(report, in: name, at: time, sink: sink)
                if report.status != .started && report.status != .interrupted { noteStoryMove(report, in: name, at: time, sink: sink) }
                if report.status != .started, sink.isRecording {
                    sink.record(
                        .animationEnded(
                            RecordEntry.AnimationEnd(
                                room: name.value, id: report.id, owner: report.owner.client,
                                status: report.status, camera: report.camera,
                                time: HubTime(seconds: report.time, epochMilliseconds: time.epochMilliseconds(at: report.time)))))
                }
            case .changed:
                continue  // frames carry it
            case .steady(let camera, _):
                broadcast(.steady(camera: camera), in: name, at: time, sink: sink)
            case .significantChange(let camera, _):
                broadcast(.significantChange(camera: camera, by: lastMovedBy), in: name, at: time, sink: sink)
            case .trackingModeChanged(let mode, let by, _):
                broadcast(.trackingModeChanged(mode: mode, by: by), in: name, at: time, sink: sink)
            }
        }
    }
}
