import CamHubProtocol
import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing
import WebSocketTransport

/// Every integration test starts a real hub and real clients (loop threads)
/// on a two-core machine: one at a time, each bounded.
@Suite(.serialized, .timeLimit(.minutes(1)), SocketSuiteLock())
struct HubServerTests {}

/// A `HubServer` on 127.0.0.1, port 0, started in-process.
final class RunningHub {
    let server: HubServer
    let port: Int

    init(_ configure: (inout HubServerConfiguration) -> Void = { _ in }) throws {
        var configuration = HubServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configure(&configuration)
        server = try HubServer(configuration: configuration)
        port = try server.start()
    }

    func shutdown() { server.shutdown() }

    /// `GET /healthz`, parsed.
    func health() throws -> JSONValue {
        let response = try RawHTTP.request(port: port, path: "/healthz")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        return try JSONParser.parse(response.body)
    }

    /// The room's camera as `/healthz` reports it (the hub's state, exact).
    func camera(of room: String) throws -> JSONValue? {
        try health()["rooms"]?.arrayValue?.first { $0["name"]?.stringValue == room }?["camera"]
    }

    deinit { server.shutdown() }
}

/// One message as a client received it.
struct Received: Sendable {
    let text: String
    let json: JSONValue
    let at: ContinuousClock.Instant
    var type: String? { json["type"]?.stringValue }
}

/// One `WebSocketClient` (its own loop thread) with any number of hub
/// connections; records what each connection receives, under a lock.
final class HubClients: @unchecked Sendable {
    let client: WebSocketClient
    let port: Int
    private let lock = NSLock()
    private var opened: Set<ConnectionID> = []
    private var received: [ConnectionID: [Received]] = [:]
    private var closed: [ConnectionID: ClientCloseEvent] = [:]

    /// wss:// instead of ws:// (checking the certificate for `serverName`) when set.
    let tls: ClientTLS?
    let serverName: String?

    init(port: Int, tls: ClientTLS? = nil, serverName: String? = nil) throws {
        self.port = port
        self.tls = tls
        self.serverName = serverName
        var configuration = ClientConfiguration()
        configuration.tls = tls
        client = WebSocketClient(configuration: configuration)
        try client.start(
            ClientHandlers(
                onOpen: { [weak self] id in self?.locked { $0.opened.insert(id) } },
                onMessage: { [weak self] id, message in
                    guard case .text(let text) = message else { return }
                    WireCapture.record(text)  // every hub message, for the schema check (scripts/test.sh)
                    let json = (try? JSONParser.parse(text)) ?? .null
                    let item = Received(text: text, json: json, at: .now)
                    self?.locked { $0.received[id, default: []].append(item) }
                },
                onClose: { [weak self] id, event in self?.locked { $0.closed[id] = event } }))
    }

    @discardableResult
    private func locked<T>(_ body: (HubClients) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(self)
    }

    func isOpen(_ id: ConnectionID) -> Bool { locked { $0.opened.contains(id) } }
    func messages(_ id: ConnectionID) -> [Received] { locked { $0.received[id] ?? [] } }
    func closeEvent(_ id: ConnectionID) -> ClientCloseEvent? { locked { $0.closed[id] } }

    /// Opens a connection to `path` (`/hub`, subprotocol camhub.v1) and waits for the handshake.
    func open(origin: String? = nil, path: String = HubProtocol.path, sourceLocation: SourceLocation = #_sourceLocation) -> Connection {
        let connection = attempt(origin: origin, path: path)
        let done = waitUntil { isOpen(connection.id) || closeEvent(connection.id) != nil }
        #expect(
            done && isOpen(connection.id), "handshake failed: \(String(describing: closeEvent(connection.id)))",
            sourceLocation: sourceLocation)
        return connection
    }

    /// Starts opening a connection to `path` (`/hub`) and returns at once (for refusals).
    func attempt(origin: String? = nil, path: String = HubProtocol.path) -> Connection {
        let id = client.connect(
            ConnectRequest(
                host: "127.0.0.1", port: port, path: path,
                subprotocol: HubProtocol.subprotocol, origin: origin,
                useTLS: tls != nil, serverName: serverName))
        return Connection(clients: self, id: id)
    }

    /// Opens a connection and joins; waits for `welcome`.
    func join(
        _ room: String = "demo", role: String, rate: Double? = nil, token: String? = nil, path: String = HubProtocol.path,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Connection {
        let connection = open(path: path, sourceLocation: sourceLocation)
        var hello = #"{"type":"hello","room":"\#(room)","role":"\#(role)""#
        if let rate { hello += #","rate":\#(rate)"# }
        if let token { hello += #","token":"\#(token)""# }
        connection.send(hello + "}")
        let welcome = connection.next("welcome", sourceLocation: sourceLocation)
        connection.client = welcome?["client"]?.stringValue
        return connection
    }

    func shutdown() { client.shutdown() }
    deinit { client.shutdown() }
}

/// One client connection of a `HubClients`.
final class Connection: @unchecked Sendable {
    let clients: HubClients
    let id: ConnectionID
    /// The hub's client id after `welcome`.
    var client: String?
    /// How many received messages earlier `next` calls consumed.
    private var cursor = 0

    init(clients: HubClients, id: ConnectionID) {
        self.clients = clients
        self.id = id
    }

    func send(_ text: String) { clients.client.send(.text(text), to: id) }
    func sendBytes(_ bytes: [UInt8]) { clients.client.send(bytes: bytes, kind: .text, to: id) }

    var messages: [Received] { clients.messages(id) }
    func messages(_ type: String) -> [Received] { messages.filter { $0.type == type } }
    var frames: [Received] { messages("frame") }
    var closeEvent: ClientCloseEvent? { clients.closeEvent(id) }

    /// The next not yet consumed message of `type` (skipping others), waiting up to `timeout`.
    @discardableResult
    func next(_ type: String, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
        next(type, timeout: timeout, sourceLocation: sourceLocation) { $0.type == type }
    }

    /// The next `event` named `name` (skipping other messages and events, such
    /// as an `audience` count that may come first), waiting up to `timeout`.
    @discardableResult
    func nextEvent(_ name: String, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
        next("\(name) event", timeout: timeout, sourceLocation: sourceLocation) {
            $0.type == "event" && $0.json["event"]?.stringValue == name
        }
    }

    /// The next not yet consumed message that `matches` (skipping others), waiting up to `timeout`.
    private func next(
        _ what: String, timeout: Duration, sourceLocation: SourceLocation,
        matching matches: (Received) -> Bool
    ) -> JSONValue? {
        var found: JSONValue?
        waitUntil(timeout) {
            let all = messages
            guard let index = all.indices.dropFirst(cursor).first(where: { matches(all[$0]) }) else { return false }
            cursor = index + 1
            found = all[index].json
            return true
        }
        if found == nil {
            Issue.record("no \(what) within \(timeout); got \(messages.dropFirst(cursor).map(\.text))", sourceLocation: sourceLocation)
        }
        return found
    }

    /// The next `error`; records an issue unless its code is `code`.
    @discardableResult
    func nextError(_ code: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
        let error = next("error", sourceLocation: sourceLocation)
        #expect(error?["code"]?.stringValue == code, "\(String(describing: error))", sourceLocation: sourceLocation)
        return error
    }

    /// Sends a ping with a fresh `t` and waits for its pong: the connection is usable.
    func roundTrip(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let t = Double(UInt32.random(in: 1...UInt32.max))
        send(#"{"type":"ping","t":\#(t)}"#)
        return waitUntil { messages("pong").contains { $0.json["t"]?.numberValue == t } }
    }

    /// Sends a ping (a fresh negative `t`) every `interval` until one is answered: a client
    /// over its message rate is served again once its bucket refills, and as the hub answers
    /// a connection in order, that pong comes after the answers to everything sent before.
    func roundTripOnceServed(timeout: Duration = .seconds(20), interval: Duration = .milliseconds(100)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var sent: Set<Double> = []
        while ContinuousClock.now < deadline {
            let t = -Double(UInt32.random(in: 1...UInt32.max))
            sent.insert(t)
            send(#"{"type":"ping","t":\#(t)}"#)
            if waitUntil(interval, { messages("pong").contains { sent.contains($0.json["t"]?.numberValue ?? 0) } }) { return true }
        }
        return false
    }

    /// Waits for the close event.
    func waitForClose(timeout: Duration = .seconds(10)) -> ClientCloseEvent? {
        waitUntil(timeout) { closeEvent != nil }
        return closeEvent
    }
}
