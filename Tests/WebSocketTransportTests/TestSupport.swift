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

    func add(_ e: Event) { lock.lock(); items.append(e); lock.unlock() }
    var all: [Event] { lock.lock(); defer { lock.unlock() }; return items }
    var count: Int { all.count }
}

/// A lock-protected value for loop-thread → test-thread hand-over.
final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ v: Value) { stored = v }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
    func mutate(_ f: (inout Value) -> Void) { lock.lock(); f(&stored); lock.unlock() }
}

/// Polls `condition` every 2 ms until it holds or `timeout` passes.
@discardableResult
func waitUntil(_ timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
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

    init(_ configure: (inout ServerConfiguration) -> Void = { _ in },
         onMessage: (@Sendable (WebSocketServer, ConnectionID, WebSocketMessage) -> Void)? = nil) throws {
        var config = ServerConfiguration()
        config.port = 0
        config.echo = true
        configure(&config)
        let server = try WebSocketServer(configuration: config)
        let events = Recorder<ServerEvent>()
        try server.start(ServerHandlers(
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
        try client.start(ClientHandlers(
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
        #expect(opened && isOpen(id), "client did not open: \(String(describing: closeEvent(id)))",
                sourceLocation: sourceLocation)
        return id
    }
}

/// A minimal HTTP/1.1 client over a raw TCP socket (no redirects, no
/// normalization of the request path, bounded by a 5 s deadline).
struct RawHTTP {
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func request(port: Int, path: String, method: String = "GET",
                        extraHeaders: [String] = []) throws -> Response {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TransportError("socket failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TransportError("connect failed") }
        let lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"]
            + extraHeaders + ["", ""]
        let request = Array(lines.joined(separator: "\r\n").utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw TransportError("send failed")
        }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data.append(contentsOf: chunk[0..<n])
            if let parsed = parse(data, head: method == "HEAD"), parsed.complete { break }
        }
        guard let parsed = parse(data, head: method == "HEAD") else {
            throw TransportError("no HTTP response (\(data.count) bytes)")
        }
        return parsed.response
    }

    private static func parse(_ data: [UInt8], head: Bool) -> (response: Response, complete: Bool)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, data.count - 3)).first(where: { Array(data[$0..<$0 + 4]) == separator })
        else { return nil }
        let headText = String(decoding: data[0..<end], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        let body = Array(data[(end + 4)...])
        let length = headers["content-length"].flatMap { Int($0) }
        let complete = head || (length.map { body.count >= $0 } ?? false)
        return (Response(status: status, headers: headers, body: body), complete)
    }
}

/// A temporary directory tree removed at deinit.
final class TempDir {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "wst-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func write(_ relative: String, _ contents: String) throws {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(toFile: full, atomically: true, encoding: .utf8)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
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
