import CamHubProtocol
import Foundation
import HubCluster
import HubCore
import HubRecording
import Logging
import Prometheus
import Synchronization
import TileServer
import WebSocketTransport

/// The hub on the wire: `configuration.loops` libwebsockets servers sharing
/// one port (`HubLoops`), serving `/hub` (protocol v1), the web viewer's
/// files, `/healthz` and `/metrics`. Every loop runs a `Hub` with the rooms
/// `RoomPlacement` gives it, in a `State` on that loop's thread behind a
/// `LoopBound` that checks every access (`LoopHubs`); a client's messages go
/// to its room's loop (`HubServer+Routing`).
public final class HubServer: Sendable {
    public let configuration: HubServerConfiguration
    /// The servers of the hub, one per loop (internal: tests hold a loop up through it).
    let loops: HubLoops
    /// Every loop's hub, and which loop runs a room.
    let hubs: LoopHubs
    /// The metrics' registry and gauges, on loop 0 (filled from every loop's `LoopFigures`).
    let metrics: LoopBound<HubMetrics>
    /// The swift-metrics factory behind `/metrics` (this server's own Prometheus
    /// registry): bootstrap `MetricsSystem` with it to put other metrics there too.
    public let metricsFactory: PrometheusMetricsFactory
    /// The tick and metrics timers, set by `start`, cancelled by `shutdown`
    /// (which a signal handler may call from its own thread).
    private let timers = Mutex<[LoopTimer]>([])
    private let shutdownOnce = Mutex(false)
    /// The server API's keys and per-key rate limits, shared by the loops.
    let apiAccess: APIAccess
    /// Set first on shutdown: `/healthz` answers 503 "draining" from then on.
    let draining = DrainingFlag()
    private let recorderFinished = Mutex(false)

    public init(configuration: HubServerConfiguration) throws {
        self.configuration = configuration
        apiAccess = APIAccess(keys: configuration.apiKeys)
        let count = max(1, configuration.loops)
        let admission = ConnectionAdmission(limits: configuration.limits)
        let shared = try Self.transport(configuration)
        func loopTransport(_ index: Int) -> ServerConfiguration {
            var transport = shared
            transport.loopIndex = UInt64(index)
            transport.loopCount = UInt64(count)
            transport.sharedAdmission = admission
            return transport
        }
        // Loops 1… do not listen: loop 0 accepts and hands them every other connection.
        var others: [WebSocketServer] = []
        for index in 1..<count {
            var transport = loopTransport(index)
            transport.listens = false
            others.append(try WebSocketServer(configuration: transport))
        }
        let placement = RoomPlacement(loops: count)
        var first = loopTransport(0)
        if !others.isEmpty { first.handOff = AcceptSpread(others: others, placement: placement).handOff }
        loops = HubLoops(servers: [try WebSocketServer(configuration: first)] + others, hubQueue: configuration.hubQueue)
        var hubConfiguration = configuration.hub
        hubConfiguration.frameHeadroom = SharedFrame.headroom
        hubConfiguration.tracksChangedRooms = configuration.dataDirectory != nil
        var recorder: Recorder?
        if let directory = configuration.recordDirectory {
            let logger = configuration.logger
            recorder = try Recorder(directory: directory, maxBytes: configuration.recordMaxBytes, queueLimit: configuration.recordQueue) { problem in
                logger.error("recording failed", metadata: ["problem": "\(problem)"])
            }
        }
        // In a cluster a client id ends with its hub's id, one per loop: unique without striding.
        let idStep = configuration.redis == nil ? count : 1
        let roomCount = count > 1 ? RoomCount() : nil
        let start = ContinuousClock.now
        let (logger, servers) = (configuration.logger, loops)
        let states = (0..<count).map { index in
            State(
                hub: Hub(
                    configuration: hubConfiguration, roomCount: roomCount,
                    clientIDs: ClientIDAllocator(first: UInt64(index % idStep) + 1, step: UInt64(idStep))),
                home: index, start: start,
                logger: logger, loops: servers, recorder: recorder)
        }
        if let directory = configuration.dataDirectory {
            let store = try RoomStore(directory: directory)
            let rooms = try store.load()
            // Each loop restores the rooms placed on it (a name the store holds is valid; one that is not stays unloaded).
            let byLoop = Dictionary(grouping: rooms) { room in (try? RoomName(validating: room.name)).map(placement.loop(of:)) ?? -1 }
            for state in states {
                let mine = byLoop[state.home] ?? []
                state.hub.restore(mine)
                state.persistence = RoomPersistence(store: store, loaded: mine, logger: configuration.logger)
            }
            configuration.logger.info("rooms restored", metadata: ["path": "\(store.path)", "rooms": .stringConvertible(rooms.count)])
        }
        let hubMetrics = HubMetrics(loops: count)
        metricsFactory = hubMetrics.factory
        metrics = LoopBound(hubMetrics, on: loops.hub.loop)
        hubs = LoopHubs(states: states.map { LoopBound($0, on: servers.servers[$0.home].loop) }, placement: placement)
        if let endpoint = configuration.redis {
            // Every loop is a member of the cluster, with its own Redis engine and
            // id (`ClusterEngine.memberID`: loop 0's, then it with 1, 2, …). Nothing runs on the
            // loops yet: each engine is set up here, its events go to its loop.
            let base = ClusterEngine.randomID()
            let links = ClusterLinks(loops: count)
            var ids: [String] = []
            var interval = 0.0
            for (state, bound) in zip(states, hubs.states) {
                let engine = try state.joinCluster(
                    endpoint, hubID: ClusterEngine.memberID(base, loop: state.home), leaseMilliseconds: configuration.leaseMilliseconds,
                    redisQueue: configuration.redisQueue, redisInbox: configuration.redisInbox
                ) { event in
                    _ = bound.loop.execute { bound.value.clusterEvent(event, bound: bound, links: links) }
                }
                ids.append(engine.hubID)
                interval = engine.renewInterval
            }
            clusterHubIDs = ids
            clusterRenewInterval = interval
        } else {
            clusterHubIDs = []
            clusterRenewInterval = nil
        }
    }

    /// This hub's ids in its Redis cluster (`--redis`), one per loop, loop 0's
    /// first (every loop is a member); empty for the in-memory engine.
    public let clusterHubIDs: [String]
    /// Seconds between the cluster engines' lease renewals and presence (`--redis`).
    private let clusterRenewInterval: Double?

    /// The transport settings every loop shares (the map's tile and terrain archives
    /// are opened and checked here, once: a missing or broken one throws).
    private static func transport(_ configuration: HubServerConfiguration) throws -> ServerConfiguration {
        var transport = ServerConfiguration()
        transport.host = configuration.host
        transport.port = configuration.port
        transport.webRoot = configuration.webRoot
        transport.staticMounts = configuration.staticMounts
        transport.endpoints = [WebSocketEndpoint(path: HubProtocol.path, subprotocol: HubProtocol.subprotocol)]
        transport.maxMessageSize = HubProtocol.maxMessageBytes
        transport.validateUTF8 = true
        let origins = OriginCheck(serverHost: configuration.host, extra: Set(configuration.allowedOrigins))
        transport.originPolicy = .custom { origins.allows($0) }
        transport.idle = IdlePolicy(pingAfterSeconds: configuration.pingAfter, hangupAfterSeconds: configuration.hangupAfter)
        transport.echo = configuration.echo
        // Security settings (docs/SECURITY.md).
        transport.tls = configuration.tls
        transport.limits = configuration.limits
        transport.slowClientTimeout = configuration.slowClientTimeout
        transport.maxQueuedBatches = configuration.loopQueue
        transport.drainSpread = .milliseconds(Int64(configuration.drainSpread * 1000))
        transport.drainTimeout = .milliseconds(Int64(configuration.drainTimeout * 1000))
        transport.echoMaxMessageSize = configuration.echoMaxMessage
        transport.contentSecurityPolicy = configuration.contentSecurityPolicy
        try MapEndpoints.install(
            tiles: configuration.tiles, terrain: configuration.terrain, terrainEncoding: configuration.terrainEncoding,
            style: configuration.style, tls: configuration.tls != nil,
            recordings: configuration.recordDirectory == nil ? nil : RecordingsEndpoint.path, on: &transport)
        if let directory = configuration.recordDirectory {
            RecordingsEndpoint.install(directory: directory, tokens: configuration.hub.tokens, on: &transport)
        }
        return transport
    }

    /// The event loop lws runs on ("libev/epoll", or "poll" as a fallback); known after `start`.
    public var eventLoop: String { loops.hub.loop.backend }

    /// How frames reach followers' sockets: "io_uring batches" (one submission
    /// per pass of a loop) or "one write each" (TLS, `CAMHUB_IO_URING=off`, or a
    /// kernel without io_uring); known after `start`.
    public var sendPath: String { loops.hub.batchesSends ? "io_uring batches" : "one write each" }

    /// Starts listening and ticking; returns the bound port. The other loops
    /// start first, so loop 0 can hand them connections from its first accept.
    public func start() throws -> Int {
        let port: Int
        do {
            for index in 1..<loops.count { try loops.servers[index].start(handlers(loop: index)) }
            port = try loops.hub.start(handlers(loop: 0))
        } catch {
            for server in loops.servers.dropFirst() { server.shutdown() }
            throw error
        }
        logStart(port: port)
        startTimers()
        return port
    }

    /// Every loop ticks its own hub on the shared clock and, in a cluster, runs
    /// its engine's renewals; loop 0 also gathers the metrics once a second.
    private func startTimers() {
        let interval = Duration.nanoseconds(Int64(1e9 / configuration.hub.tick))
        var started: [LoopTimer] = []
        for state in hubs.states {
            started.append(
                state.loop.scheduleRepeating(every: interval) {
                    let s = state.value
                    let more = s.sendSlice { hub, budget in
                        let started = ContinuousClock.now
                        defer { s.tally.tickEnded(duration: .now - started) }
                        return hub.tick(at: s.now(), sendBudget: &budget, sink: s.sink)
                    }
                    if more { Self.continueSending(state) }
                })
            started.append(
                state.loop.scheduleRepeating(every: .seconds(1)) {
                    let s = state.value
                    s.api.expire(at: s.now().seconds)
                    s.persistence?.flush(&s.hub)
                })
        }
        let hubs = self.hubs
        let metrics = self.metrics
        let loops = self.loops
        started.append(
            loops.hub.loop.scheduleRepeating(every: .seconds(1)) {
                hubs.states[0].value.recorder?.flush()
                Self.flushMetrics(hubs, metrics, loops) {}
            })
        if let renew = clusterRenewInterval {
            for state in hubs.states {
                _ = state.loop.execute { state.value.cluster?.start() }
                started.append(state.loop.scheduleRepeating(every: .milliseconds(Int64(renew * 1000))) { state.value.clusterTick() })
            }
        }
        timers.withLock { $0 = started }
    }

    /// Gathers every loop's figures and tally, moves them into the metrics on
    /// loop 0, then calls `done` there (a scrape writes the exposition then).
    static func flushMetrics(
        _ hubs: LoopHubs, _ metrics: LoopBound<HubMetrics>, _ loops: HubLoops, then done: @escaping @Sendable () -> Void
    ) {
        let figures: @Sendable (State) -> LoopFigures = { $0.figures() }
        hubs.gather(figures) { first, parts in
            guard let sum = parts.sum else { return done() }
            let cluster = sum.cluster
            let queues = QueueFigures(
                loopBatches: loops.queuedBatches, hubMailbox: loops.mailboxDepth, roomStore: sum.roomStore,
                recorder: first.recorder?.depth ?? 0, recordingsDropped: first.recorder?.dropped ?? 0,
                redis: cluster?.commandsInFlight ?? 0, redisFramesShed: cluster?.framesShed ?? 0,
                redisInbox: cluster?.inboxDepth ?? 0, redisInboxShed: cluster?.inboxShed ?? 0)
            metrics.value.flush(tally: sum.tally, figures: sum.hub, transport: loops.transportTotals, queues: queues)
            done()
        }
    }

    /// A loop's thread: its hub's tick ran out of its send budget. The rest goes out in
    /// slices of about a quarter of the tick interval (`SendSliceBudget`),
    /// each from a zero-delay loop timer, so it runs after the socket
    /// events already waiting (the next tick and incoming messages are never
    /// held up by a long pass) and, being outside any lws callback, may write
    /// straight to the sockets.
    private static func continueSending(_ state: LoopBound<State>) {
        guard !state.value.sliceScheduled else { return }
        state.value.sliceScheduled = true
        state.loop.schedule(after: .zero) {
            let s = state.value
            s.sliceScheduled = false
            let more = s.sendSlice { hub, budget in hub.continueSending(at: s.now(), sendBudget: &budget, sink: s.sink) }
            if more { continueSending(state) }
        }
    }

    private func logStart(port: Int) {
        let c = configuration
        configuration.logger.notice(
            "hub started",
            metadata: [
                "host": "\(c.host)", "port": .stringConvertible(port), "eventLoop": "\(eventLoop)",
                "sends": "\(sendPath)", "loops": .stringConvertible(loops.count),
                "tick": .stringConvertible(c.hub.tick), "roomTTL": .stringConvertible(c.hub.roomTTL),
                "web": "\(c.webRoot ?? "")", "allowedOrigins": .array(c.allowedOrigins.map { .string($0) }),
                "presenterToken": "\(c.hub.tokens.roleTokens.presenter == nil ? "none" : "set")",
                "driverToken": "\(c.hub.tokens.roleTokens.driver == nil ? "none" : "set")",
                "tokenSecret": "\(c.hub.tokens.secret == nil ? "none" : "set")",
                "metricsToken": "\(c.metricsToken == nil ? "none" : "set")",
                "data": "\(c.dataDirectory ?? "")", "record": "\(c.recordDirectory ?? "")",
                "engine": "\(c.redis.map { "redis \($0) hubs \(clusterHubIDs.joined(separator: ","))" } ?? "memory")",
            ])
    }

    /// The revoked token ids are now `ids` (`--revoked-file`): applied on every
    /// loop's hub, where clients holding one are closed with 4003. Safe from any thread.
    public func revokeTokens(_ ids: Set<String>) {
        let logger = configuration.logger
        let revoke: @Sendable (State) -> Int = { s in
            let closed = s.hub.revokeTokens(ids, at: s.now(), sink: s.sink)
            s.sink.flush()
            return closed
        }
        hubs.gather(revoke) { _, closed in
            logger.notice(
                "revoked tokens read",
                metadata: ["ids": .stringConvertible(ids.count), "clientsClosed": .stringConvertible(closed.reduce(0, +))])
        }
    }

    /// Closes every client with 1001 and stops. Safe from any thread, idempotent.
    public func shutdown() { shutdown(restarting: false) }

    /// Stops accepting, closes every client with 1012 "service restart" when
    /// `restarting` (clients should come back) or 1001 "server shutting down",
    /// then saves the rooms (`--data`). Safe from any thread, idempotent
    /// (on a loop's thread it only starts the shutdown). Every loop drains
    /// before any stops, so each close reaches its room's hub.
    public func shutdown(restarting: Bool) {
        let code: CloseCode = restarting ? .serviceRestart : .goingAway
        let reason = restarting ? "service restart" : "server shutting down"
        draining.raise()
        if shutdownOnce.withLock({
            let first = !$0
            $0 = true
            return first
        }) {
            configuration.logger.notice("shutting down", metadata: ["closeCode": .stringConvertible(Int(code.rawValue)), "reason": "\(reason)"])
        }
        for timer in timers.withLock({ $0 }) { timer.cancel() }
        let servers = loops.servers
        for index in 0..<hubs.count { hubs.post(to: index) { $0.log.serverClosing(code: code.rawValue, reason: reason) } }  // before the closes
        if !servers.contains(where: { $0.loop.isCurrentThread }) {
            // Every loop closes its clients while all loops run: a close reaches the
            // hub of its client's room, on whichever loop, before that loop stops.
            DispatchQueue.concurrentPerform(iterations: servers.count) { servers[$0].drain(closeCode: code, reason: reason) }
            hubs.settle(hops: 2)
        }
        let others = Array(servers.dropFirst())
        DispatchQueue.concurrentPerform(iterations: others.count) { others[$0].shutdown(closeCode: code, reason: reason) }
        loops.hub.shutdown(closeCode: code, reason: reason)
        // Every loop that has ended: its hub is ours to read.
        for state in hubs.states where state.loop.hasEnded {
            let s = state.valueAfterLoopEnded()
            s.persistence?.finish(&s.hub)
        }
        defer { leaveCluster() }
        guard loops.hub.loop.hasEnded else { return }
        let first = hubs.states[0].valueAfterLoopEnded()
        if recorderFinished.withLock({
            let isFirst = !$0
            $0 = true
            return isFirst
        }) {
            first.recorder?.finish()
        }
    }

    /// Every loop that has ended gives up its rooms and its lease in the
    /// cluster, once (the other hubs take over at once).
    private func leaveCluster() {
        for state in hubs.states where state.loop.hasEnded {
            let s = state.valueAfterLoopEnded()
            guard let engine = s.cluster else { continue }
            s.cluster = nil
            engine.stop(hub: s.hub)
        }
    }
}

/// Whether the hub is shutting down: raised once, from any thread; read by
/// the `/healthz` handler on loop 0.
final class DrainingFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}
