import Foundation
import HubCluster
import HubCore
import Logging
import Prometheus
import WebSocketTransport

/// The hub on the wire: one libwebsockets server serving `/hub` (protocol v1),
/// the web viewer's files and `/healthz`, ticking every room on the server's
/// loop thread. The `Hub` value lives in `state` and is touched only on that thread.
public final class HubServer: @unchecked Sendable {
    public let configuration: HubServerConfiguration
    private let server: WebSocketServer
    private let state: State
    private var timer: LoopTimer?
    private var metricsTimer: LoopTimer?
    private var leaseTimer: LoopTimer?
    private let shutdownOnce = NSLock.Protected(false)

    /// Loop-thread-only state.
    final class State: @unchecked Sendable {
        var hub: Hub
        /// The Redis engine (`--redis`); nil: the in-memory engine.
        var cluster: ClusterEngine?
        /// The hub's output, once `start` made it (the cluster's events need it).
        var sink: TransportSink?
        let metrics = HubMetrics()
        let log: ConnectionLog
        var persistence: RoomPersistence?
        let start = ContinuousClock.now
        init(hub: Hub, logger: Logger) {
            self.hub = hub
            self.log = ConnectionLog(logger: logger)
        }

        /// Set once the server exists; weak, since the server's handlers hold this state.
        weak var server: WebSocketServer?

        func flushMetrics() {
            metrics.flush(hub: hub, framesReplaced: server?.framesReplaced ?? 0, now: now().seconds)
        }

        func now() -> HubTime {
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return HubTime(seconds: seconds, epochMilliseconds: Date().timeIntervalSince1970 * 1000)
        }
    }

    public init(configuration: HubServerConfiguration) throws {
        self.configuration = configuration
        var hubConfiguration = configuration.hub
        hubConfiguration.frameHeadroom = SharedFrame.headroom
        let state = State(hub: Hub(configuration: hubConfiguration), logger: configuration.logger)
        self.state = state
        if let directory = configuration.dataDirectory {
            let store = try RoomStore(directory: directory)
            let rooms = try store.load()
            state.hub.restore(rooms)
            state.persistence = RoomPersistence(store: store, loaded: rooms, logger: configuration.logger)
            configuration.logger.info("rooms restored", metadata: ["path": "\(store.path)", "rooms": .stringConvertible(rooms.count)])
        }
        var transport = ServerConfiguration()
        transport.host = configuration.host
        transport.port = configuration.port
        transport.webRoot = configuration.webRoot
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
        transport.echoMaxMessageSize = configuration.echoMaxMessage
        transport.contentSecurityPolicy = configuration.contentSecurityPolicy
        transport.httpHandlers["/healthz"] = { _ in .json(HealthReport.json(state.hub, now: state.now().seconds, cluster: state.cluster)) }
        let endpoint = MetricsEndpoint(token: configuration.metricsToken)
        transport.httpHandlers[MetricsEndpoint.path] = { request in
            endpoint.respond(request) {
                state.flushMetrics()
                return state.metrics.exposition()
            }
        }
        server = try WebSocketServer(configuration: transport)
        state.server = server
        if let endpoint = configuration.redis { try state.joinCluster(endpoint, leaseMilliseconds: configuration.leaseMilliseconds, server: server) }
    }

    /// This hub's id in its Redis cluster (`--redis`); nil for the in-memory engine.
    public var clusterHubID: String? { state.cluster?.hubID }

    /// The swift-metrics factory behind `/metrics` (this server's own Prometheus
    /// registry): bootstrap `MetricsSystem` with it to put other metrics there too.
    public var metricsFactory: PrometheusMetricsFactory { state.metrics.factory }

    /// Starts listening and ticking; returns the bound port.
    /// The event loop lws runs on ("libev/epoll", or "poll" as a fallback); known after `start`.
    public var eventLoop: String { server.loop.backend }

    public func start() throws -> Int {
        let state = self.state
        let server = self.server
        var transportSink = TransportSink(server: server, tally: state.metrics.tally, log: state.log)
        if state.cluster != nil { transportSink.remote = { [weak state] connection, bytes in state?.cluster?.route(bytes, to: connection) ?? false } }
        let sink = transportSink
        state.sink = sink
        var handlers = ServerHandlers(
            onOpen: { info in
                state.log.opened(info.id.rawValue, remote: info.remoteAddress, origin: info.origin)
                state.hub.open(info.id.rawValue, at: state.now())
            },
            onMessage: { id, message in
                guard case .text = message.kind else {
                    sink.send(HubMessage.error(ProtocolError(.badMessage, "message: binary messages are not part of protocol v1; send JSON text")), to: id.rawValue)
                    return
                }
                if state.cluster?.hold(message.bytes, from: id.rawValue, hub: state.hub) == true { return }
                state.hub.receive(message.bytes, from: id.rawValue, at: state.now(), sink: sink)
                state.log.received(on: id.rawValue, hub: state.hub)
            },
            onClose: { id, code in
                state.metrics.tally.countClose(code: code?.rawValue)
                state.log.closed(id.rawValue, code: code?.rawValue, info: state.hub.sessionInfo(id.rawValue))
                state.hub.closed(id.rawValue, at: state.now(), sink: sink)
            }
        )
        handlers.onRefused = { remote, status, reason in state.log.refused(remote: remote, status: status, reason: reason) }
        let port = try server.start(handlers)
        logStart(port: port)
        let interval = Duration.nanoseconds(Int64(1e9 / configuration.hub.tick))
        timer = server.loop.scheduleRepeating(every: interval) {
            let started = ContinuousClock.now
            let more = state.hub.tick(at: state.now(), sink: sink)
            state.metrics.tally.tickEnded(duration: .now - started)
            if more { Self.continueSending(state, sink, on: server) }
        }
        if let cluster = state.cluster {
            cluster.start()
            leaseTimer = server.loop.scheduleRepeating(every: .milliseconds(Int64(cluster.renewInterval * 1000))) {
                state.clusterTick()
            }
        }
        metricsTimer = server.loop.scheduleRepeating(every: .seconds(1)) {
            state.flushMetrics()
            state.persistence?.flush(state.hub)
        }
        return port
    }

    /// Loop thread: a tick ran out of its send budget. The rest goes out in
    /// slices, each from a zero-delay loop timer, so it runs after the socket
    /// events already waiting (the next tick and incoming messages are never
    /// held up by a long pass) and, being outside any lws callback, may write
    /// straight to the sockets.
    private static func continueSending(_ state: State, _ sink: TransportSink, on server: WebSocketServer) {
        server.loop.schedule(after: .zero) {
            if state.hub.continueSending(at: state.now(), sink: sink) { continueSending(state, sink, on: server) }
        }
    }

    private func logStart(port: Int) {
        let c = configuration
        configuration.logger.notice("hub started", metadata: [
            "host": "\(c.host)", "port": .stringConvertible(port), "eventLoop": "\(eventLoop)",
            "tick": .stringConvertible(c.hub.tick), "roomTTL": .stringConvertible(c.hub.roomTTL),
            "web": "\(c.webRoot ?? "")", "allowedOrigins": .array(c.allowedOrigins.map { .string($0) }),
            "presenterToken": "\(c.hub.tokens.roleTokens.presenter == nil ? "none" : "set")",
            "driverToken": "\(c.hub.tokens.roleTokens.driver == nil ? "none" : "set")",
            "tokenSecret": "\(c.hub.tokens.secret == nil ? "none" : "set")",
            "metricsToken": "\(c.metricsToken == nil ? "none" : "set")",
            "engine": "\(c.redis.map { "redis \($0) hub \(clusterHubID ?? "")" } ?? "memory")",
        ])
    }

    /// Closes every client with 1001 and stops. Safe from any thread, idempotent.
    public func shutdown() { shutdown(restarting: false) }

    /// Stops accepting, closes every client with 1012 "service restart" when
    /// `restarting` (clients should come back) or 1001 "server shutting down",
    /// then saves the rooms (`--data`). Safe from any thread, idempotent.
    public func shutdown(restarting: Bool) {
        let code: CloseCode = restarting ? .serviceRestart : .goingAway
        let reason = restarting ? "service restart" : "server shutting down"
        if shutdownOnce.withLock({ let first = !$0; $0 = true; return first }) {
            configuration.logger.notice("shutting down", metadata: ["closeCode": .stringConvertible(Int(code.rawValue)), "reason": "\(reason)"])
        }
        timer?.cancel()
        metricsTimer?.cancel()
        leaseTimer?.cancel()
        let log = state.log
        server.execute { log.serverClosing(code: code.rawValue, reason: reason) }  // runs before the closes
        server.shutdown(closeCode: code, reason: reason)
        // The loop thread has stopped: the hub is ours to read.
        if server.loop.isCurrentThread == false {
            state.persistence?.finish(state.hub)
            state.cluster?.stop(hub: state.hub)
        }
    }
}

extension NSLock {
    /// A value behind a lock (for the few cross-thread flags of `HubServer`).
    final class Protected<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value
        init(_ value: Value) { self.value = value }
        func withLock<T>(_ body: (inout Value) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }
}
