import Foundation
import SocketTestSupport
import Testing

@testable import WebSocketTransport

/// All transport tests share one serialized suite: each starts real lws
/// threads, and the machine has two cores.
@Suite(.serialized, .timeLimit(.minutes(1)), SocketSuiteLock())
struct TransportTests {}

/// Thread-safe event log written from loop threads, read by the test.
final class Recorder<Event: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Event] = []

    func add(_ e: Event) {
        lock.lock()
        items.append(e)
        lock.unlock()
    }
    var all: [Event] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
    var count: Int { all.count }
}

/// A lock-protected value for loop-thread → test-thread hand-over.
final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ v: Value) { stored = v }
    var value: Value {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }
    func mutate(_ f: (inout Value) -> Void) {
        lock.lock()
        f(&stored)
        lock.unlock()
    }
}

enum ServerEvent: Sendable, Equatable {
    case open(ConnectionInfo)
    case message(ConnectionID, WebSocketMessage)
    case close(ConnectionID, CloseCode?)
}

enum ClientEvent: Sendable, Equatable {
    case open(ConnectionID)
    case message(ConnectionID, WebSocketMessage)
    case close(ConnectionID, ClientCloseEvent)
}

/// A started server plus the events it reported.
struct ServerHarness {
    let server: WebSocketServer
    let events: Recorder<ServerEvent>

    init(
        _ configure: (inout ServerConfiguration) -> Void = { _ in },
        onMessage: (@Sendable (WebSocketServer, ConnectionID, WebSocketMessage) -> Void)? = nil
    ) throws {
        var config = ServerConfiguration()
        config.port = 0
        config.echo = true
        configure(&config)
        let server = try WebSocketServer(configuration: config)
        let events = Recorder<ServerEvent>()
        try server.start(
            ServerHandlers(
                onOpen: { events.add(.open($0)) },
                onMessage: { [weak server] id, message in
                    events.add(.message(id, message))
                    if let server { onMessage?(server, id, message) }
                },
                onClose: { events.add(.close($0, $1)) }))
        self.server = server
        self.events = events
    }

    var port: Int { server.port }

    var opened: [ConnectionInfo] {
        events.all.compactMap { if case .open(let info) = $0 { return info } else { return nil } }
    }

    func closeCode(of id: ConnectionID) -> CloseCode?? {
        for e in events.all { if case .close(id, let code) = e { return .some(code) } }
        return .none
    }
}

/// A started client plus the events it reported.
struct ClientHarness {
    let client: WebSocketClient
    let events: Recorder<ClientEvent>

    init(_ configure: (inout ClientConfiguration) -> Void = { _ in }) throws {
        var config = ClientConfiguration()
        configure(&config)
        let client = WebSocketClient(configuration: config)
        let events = Recorder<ClientEvent>()
        try client.start(
            ClientHandlers(
                onOpen: { events.add(.open($0)) },
                onMessage: { events.add(.message($0, $1)) },
                onClose: { events.add(.close($0, $1)) }))
        self.client = client
        self.events = events
    }

    func isOpen(_ id: ConnectionID) -> Bool {
        events.all.contains(.open(id))
    }

    func closeEvent(_ id: ConnectionID) -> ClientCloseEvent? {
        for e in events.all { if case .close(id, let event) = e { return event } }
        return nil
    }

    func messages(_ id: ConnectionID) -> [WebSocketMessage] {
        events.all.compactMap { if case .message(id, let m) = $0 { return m } else { return nil } }
    }

    /// Connects and waits for the handshake; fails the test on timeout.
    func connectAndWait(_ request: ConnectRequest, sourceLocation: SourceLocation = #_sourceLocation) -> ConnectionID {
        let id = client.connect(request)
        let opened = waitUntil { isOpen(id) || closeEvent(id) != nil }
        #expect(
            opened && isOpen(id), "client did not open: \(String(describing: closeEvent(id)))",
            sourceLocation: sourceLocation)
        return id
    }
}

/// A TCP listener that never accepts: clients connect (kernel backlog) but
/// their WebSocket handshake is never answered.
final class SilentListener {
    let fd: Int32
    let port: Int
    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p -> Bool in
                bind(fd, p, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, p, &length) == 0
            }
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        guard bound else { throw TransportError("listener setup failed") }
    }
    deinit { close(fd) }
}
