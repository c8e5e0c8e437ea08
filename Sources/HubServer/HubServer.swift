import Foundation
import HubCore
import WebSocketTransport

/// The hub on the wire: one libwebsockets server serving `/hub` (protocol v1),
/// the web viewer's files and `/healthz`, ticking every room on the server's
/// loop thread. The `Hub` value lives in `state` and is touched only on that thread.
public final class HubServer: @unchecked Sendable {
    public let configuration: HubServerConfiguration
    private let server: WebSocketServer
    private let state: State
    private var timer: LoopTimer?

    /// Loop-thread-only state.
    private final class State: @unchecked Sendable {
        var hub: Hub
        let start = ContinuousClock.now
        init(hub: Hub) { self.hub = hub }

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
        let state = State(hub: Hub(configuration: hubConfiguration))
        self.state = state
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
        transport.httpHandlers["/healthz"] = { _ in .json(HealthReport.json(state.hub, now: state.now().seconds)) }
        server = try WebSocketServer(configuration: transport)
    }

    /// Starts listening and ticking; returns the bound port.
    /// The event loop lws runs on ("libev/epoll", or "poll" as a fallback); known after `start`.
    public var eventLoop: String { server.loop.backend }

    public func start() throws -> Int {
        let state = self.state
        let server = self.server
        let sink = TransportSink(server: server)
        let handlers = ServerHandlers(
            onOpen: { info in state.hub.open(info.id.rawValue, at: state.now()) },
            onMessage: { id, message in
                guard case .text = message.kind else {
                    sink.send(HubMessage.error(ProtocolError(.badMessage, "message: binary messages are not part of protocol v1; send JSON text")), to: id.rawValue)
                    return
                }
                state.hub.receive(message.bytes, from: id.rawValue, at: state.now(), sink: sink)
            },
            onClose: { id, _ in state.hub.closed(id.rawValue, at: state.now(), sink: sink) }
        )
        let port = try server.start(handlers)
        let interval = Duration.nanoseconds(Int64(1e9 / configuration.hub.tick))
        timer = server.loop.scheduleRepeating(every: interval) {
            if state.hub.tick(at: state.now(), sink: sink) { Self.continueSending(state, sink, on: server) }
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

    /// Closes every client with 1001 and stops. Safe from any thread, idempotent.
    public func shutdown() {
        timer?.cancel()
        server.shutdown()
    }
}
