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
/// files, `/healthz` and `/metrics`. The `Hub` and everything around it live
/// in `State` on loop 0's thread, behind a `LoopBound` that checks every
/// access; the other loops only own their sockets.
public final class HubServer: Sendable {
    public let configuration: HubServerConfiguration
    /// The servers of the hub, one per loop (internal: tests hold a loop up through it).
    let loops: HubLoops
    private let state: LoopBound<State>
    /// The swift-metrics factory behind `/metrics` (this server's own Prometheus
    /// registry): bootstrap `MetricsSystem` with it to put other metrics there too.
    public let metricsFactory: PrometheusMetricsFactory
    /// The tick and metrics timers, set by `start`, cancelled by `shutdown`
    /// (which a signal handler may call from its own thread).
    private let timers = Mutex<[LoopTimer]>([])
    private let shutdownOnce = Mutex(false)
    /// The server API's keys and per-key rate limits, shared by the loops.
    private let apiAccess: APIAccess
    /// Set first on shutdown: `/healthz` answers 503 "draining" from then on.
    private let draining = DrainingFlag()
    private let recorderFinished = Mutex(false)

    /// Everything on the hub's loop (loop 0): the hub, its output, its metrics,
    /// log, persistence and (with `--redis`) its cluster engine.
    final class State {
        var hub: Hub
        /// The Redis engine (`--redis`); nil: the in-memory engine. Lives on loop 0
        /// like the hub; its Redis thread posts events here (`clusterEvent`).
        var cluster: ClusterEngine?
        let metrics = HubMetrics()
        let log: ConnectionLog
        var persistence: RoomPersistence?
        /// `--record`: accepted commands and animation ends (nil: not recording).
        let recorder: Recorder?
        let start = ContinuousClock.now
        var sink: TransportSink
        /// The server API's answers in waiting (`--api-key-file`).
        let api = APIAnswers()
        /// The server API's requests asked of other hubs, until they answer (`--redis`).
        let forwarded = ForwardedAPIRequests()
        /// Frames the next tick or send slice may write, sized from the measured
        /// cost of the last ones, so the 60 Hz clock never waits long for a slice.
        var sliceBudget: SendSliceBudget
        /// Whether a send slice is scheduled: one at a time. (Each tick that left
        /// a pass unfinished used to schedule one more; under load the chains
        /// piled up, every loop iteration ran all of them, and the clock fell to
        /// 38–52 ticks a second at 10,000 followers.)
        var sliceScheduled = false

        /// Loop 0: moves what the hub, the loops and the queues counted into the metrics.
        func flushMetrics(_ loops: HubLoops) {
            let queues = QueueFigures(
                loopBatches: loops.queuedBatches, hubMailbox: loops.mailboxDepth, roomStore: persistence?.depth ?? 0,
                recorder: recorder?.depth ?? 0, recordingsDropped: recorder?.dropped ?? 0,
                redis: cluster?.redis.commandsInFlight ?? 0, redisFramesShed: cluster?.redis.shed ?? 0,
                redisInbox: cluster?.inbox.depth ?? 0, redisInboxShed: cluster?.inbox.shed ?? 0)
            metrics.flush(figures: HubFigures(hub, now: now().seconds), transport: loops.transportTotals, queues: queues)
        }

        init(hub: Hub, logger: Logger, loops: HubLoops, recorder: Recorder?) {
            self.hub = hub
            log = ConnectionLog(logger: logger)
            self.recorder = recorder
            sliceBudget = SendSliceBudget(tick: hub.configuration.tick, ceiling: hub.configuration.sendBudget)
            sink = TransportSink(
                loops: loops, batches: OutboundBatches(loops: loops.count),
                tally: metrics.tally, log: log, recorder: recorder)
            sink.api = api
        }

        func now() -> HubTime {
            HubTime(seconds: (ContinuousClock.now - start).seconds, epochMilliseconds: Date().timeIntervalSince1970 * 1000)
        }

        /// Runs one tick or send slice (`body` gets the frames it may write and
        /// leaves what it did not use), hands its messages to the transport, and
        /// measures it for the next slice's budget. Returns whether sends remain.
        func sendSlice(_ body: (inout Hub, inout Int) -> Bool) -> Bool {
            let started = ContinuousClock.now
            let given = sliceBudget.frames
            var left = given
            let more = body(&hub, &left)
            sink.flush()
            sliceBudget.record(frames: given - left, seconds: (ContinuousClock.now - started).seconds)
            return more
        }
    }

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
        var first = loopTransport(0)
        if !others.isEmpty { first.handOff = AcceptSpread(others: others).handOff }
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
        let state = State(hub: Hub(configuration: hubConfiguration), logger: configuration.logger, loops: loops, recorder: recorder)
        if let directory = configuration.dataDirectory {
            let store = try RoomStore(directory: directory)
            let rooms = try store.load()
            state.hub.restore(rooms)
            state.persistence = RoomPersistence(store: store, loaded: rooms, logger: configuration.logger)
            configuration.logger.info("rooms restored", metadata: ["path": "\(store.path)", "rooms": .stringConvertible(rooms.count)])
        }
        metricsFactory = state.metrics.factory
        let bound = LoopBound(state, on: loops.hub.loop)
        if let endpoint = configuration.redis {
            let hubLoop = loops.hub
            // Nothing runs on loop 0 yet: the engine is set up here, its events go there.
            let engine = try state.joinCluster(
                endpoint, leaseMilliseconds: configuration.leaseMilliseconds, redisQueue: configuration.redisQueue,
                redisInbox: configuration.redisInbox
            ) { event in
                _ = hubLoop.execute { bound.value.clusterEvent(event, bound: bound) }
            }
            clusterHubID = engine.hubID
            clusterRenewInterval = engine.renewInterval
        } else {
            clusterHubID = nil
            clusterRenewInterval = nil
        }
        self.state = bound
    }

    /// This hub's id in its Redis cluster (`--redis`); nil for the in-memory engine.
    public let clusterHubID: String?
    /// Seconds between the cluster engine's lease renewals and presence (`--redis`).
    private let clusterRenewInterval: Double?

    /// The transport settings every loop shares (the map's tile archive is
    /// opened and checked here, once: a missing or broken one throws).
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
            tiles: configuration.tiles, style: configuration.style, tls: configuration.tls != nil,
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

    /// The handlers of loop `index`: loop 0 calls the hub at once; the others
    /// hand each event to loop 0, in order.
    private func handlers(loop index: Int) -> ServerHandlers {
        let state = self.state
        let hubLoop = loops.hub.loop
        let onHub: @Sendable (@escaping @Sendable (State) -> Void) -> Void
        if index == 0 {
            onHub = { work in work(state.value) }
        } else {
            onHub = { work in hubLoop.execute { work(state.value) } }
        }
        let gate = loops.mailboxGates[index]
        let server = loops.servers[index]
        var handlers = ServerHandlers(
            onOpen: { info in
                onHub { s in
                    s.log.opened(info.id.rawValue, remote: info.remoteAddress, origin: info.origin)
                    s.hub.open(info.id.rawValue, at: s.now())
                    s.sink.flush()
                }
            },
            onMessage: { id, message in
                guard gate?.admit() ?? true else {
                    return server.close(id, code: .tryAgainLater, reason: "the hub is behind; try again later")
                }
                onHub { s in
                    gate?.done()
                    Self.receive(message, from: id, s)
                    s.sink.flush()
                }
            },
            onClose: { id, code in
                onHub { s in
                    s.metrics.tally.countClose(code: code?.rawValue)
                    s.log.closed(id.rawValue, code: code?.rawValue, info: s.hub.sessionInfo(id.rawValue))
                    s.hub.closed(id.rawValue, at: s.now(), sink: s.sink)
                    s.sink.flush()
                }
            }
        )
        handlers.onRefused = { remote, status, reason in
            onHub { s in s.log.refused(remote: remote, status: status, reason: reason) }
        }
        (handlers.http, handlers.api) = hubEndpoints(loop: index)
        if !configuration.apiKeys.isEmpty {
            handlers.api[ServerAPI.prefix] = ServerAPI(access: apiAccess).handler(onHub: { work in
                onHub { s in
                    work(s)
                    s.sink.flush()
                }
            })
        }
        return handlers
    }

    private static func receive(_ message: WebSocketMessage, from id: ConnectionID, _ s: State) {
        guard case .text = message.kind else {
            s.sink.send(HubMessage.error(ProtocolError(.badMessage, "message: binary messages are not part of protocol v1; send JSON text")), to: id.rawValue)
            return
        }
        if s.cluster?.hold(message.bytes, from: id.rawValue, hub: s.hub, at: s.now()) == true { return }
        s.hub.receive(message.bytes, from: id.rawValue, at: s.now(), sink: s.sink)
        s.log.received(on: id.rawValue, hub: s.hub)
    }

    /// `/healthz` and `/metrics` (GET or HEAD), answered with loop 0's state:
    /// on loop 0 at once; a request that reached another loop is handed to
    /// loop 0 and answered when loop 0 answers, so its own loop goes on
    /// serving its sockets meanwhile (503 when loop 0 has not answered within 2 s).
    private func hubEndpoints(loop index: Int) -> (http: [String: HTTPHandler], api: [String: HTTPAPIHandler]) {
        let state = self.state
        let loops = self.loops
        let endpoint = MetricsEndpoint(token: configuration.metricsToken)
        let draining = self.draining
        let health: @Sendable (HTTPRequest) -> HTTPResponse = { _ in
            let s = state.value
            let isDraining = draining.isRaised
            let snapshot = HealthSnapshot(s.hub, now: s.now().seconds, cluster: s.cluster != nil)
            let report = HealthReport.json(
                snapshot, connectionsPerLoop: loops.servers.map(\.openConnections), cluster: s.cluster, draining: isDraining)
            return .json(report, status: isDraining ? 503 : 200)
        }
        let metrics: @Sendable (HTTPRequest) -> HTTPResponse = { request in
            endpoint.respond(request) {
                let s = state.value
                s.flushMetrics(loops)
                return s.metrics.exposition()
            }
        }
        if index == 0 { return (["/healthz": health, MetricsEndpoint.path: metrics], [:]) }
        return (
            [:],
            [
                "/healthz": loops.answeredOnHubLoop("/healthz", from: index, health),
                MetricsEndpoint.path: loops.answeredOnHubLoop(MetricsEndpoint.path, from: index, metrics),
            ]
        )
    }

    private func startTimers() {
        let state = self.state
        let loops = self.loops
        let interval = Duration.nanoseconds(Int64(1e9 / configuration.hub.tick))
        let tick = loops.hub.loop.scheduleRepeating(every: interval) {
            let s = state.value
            let more = s.sendSlice { hub, budget in
                let started = ContinuousClock.now
                defer { s.metrics.tally.tickEnded(duration: .now - started) }
                return hub.tick(at: s.now(), sendBudget: &budget, sink: s.sink)
            }
            if more { Self.continueSending(state) }
        }
        let metrics = loops.hub.loop.scheduleRepeating(every: .seconds(1)) {
            let s = state.value
            s.flushMetrics(loops)
            s.api.expire(at: s.now().seconds)
            s.persistence?.flush(&s.hub)
            s.recorder?.flush()
        }
        var started = [tick, metrics]
        if let renew = clusterRenewInterval {
            _ = loops.hub.execute { state.value.cluster?.start() }
            started.append(
                loops.hub.loop.scheduleRepeating(every: .milliseconds(Int64(renew * 1000))) {
                    state.value.clusterTick()
                })
        }
        timers.withLock { $0 = started }
    }

    /// Loop thread: a tick ran out of its send budget. The rest goes out in
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
                "engine": "\(c.redis.map { "redis \($0) hub \(clusterHubID ?? "")" } ?? "memory")",
            ])
    }

    /// Closes every client with 1001 and stops. Safe from any thread, idempotent.
    /// The revoked token ids are now `ids` (`--revoked-file`): applied on loop 0,
    /// where clients holding one are closed with 4003. Safe from any thread.
    public func revokeTokens(_ ids: Set<String>) {
        let state = self.state
        let logger = configuration.logger
        _ = loops.hub.execute {
            let s = state.value
            let closed = s.hub.revokeTokens(ids, at: s.now(), sink: s.sink)
            s.sink.flush()
            logger.notice(
                "revoked tokens read", metadata: ["ids": .stringConvertible(ids.count), "clientsClosed": .stringConvertible(closed)])
        }
    }

    public func shutdown() { shutdown(restarting: false) }

    /// Stops accepting, closes every client with 1012 "service restart" when
    /// `restarting` (clients should come back) or 1001 "server shutting down",
    /// then saves the rooms (`--data`). Safe from any thread, idempotent.
    /// The other loops stop first, so their clients' closes still reach the hub.
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
        let state = self.state
        loops.hub.execute { state.value.log.serverClosing(code: code.rawValue, reason: reason) }  // runs before the closes
        let others = Array(loops.servers.dropFirst())
        DispatchQueue.concurrentPerform(iterations: others.count) { others[$0].shutdown(closeCode: code, reason: reason) }
        loops.hub.shutdown(closeCode: code, reason: reason)
        // Loop 0 has ended: the hub is ours to read.
        if loops.hub.loop.hasEnded {
            let s = state.valueAfterLoopEnded()
            s.persistence?.finish(&s.hub)
            if recorderFinished.withLock({
                let first = !$0
                $0 = true
                return first
            }) {
                s.recorder?.finish()
            }
            s.cluster?.stop(hub: s.hub)
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
