import CEpoll
import CamHubClient
import CamHubProtocol
import Crypto
import Foundation
import Synchronization
import WebSocketTransport

#if canImport(Glibc)
    import Glibc
#endif

/// Plain `ws://` follower sockets for `camhub bench`, on one thread of their
/// own: non-blocking sockets on epoll, a minimal RFC 6455 client (handshake,
/// masked text out, unmasked frames in, ping → pong, close).
///
/// Why not libwebsockets' client, as everywhere else: in a 10,000-follower run
/// lws took ~38 % of the load generator's CPU (its per-byte client parser, the
/// sorted timer list it re-inserts a connection into on every read), and the
/// load generator, sharing this machine's two cores with the server it
/// measures, was what limited every server's delivery. Reading a hub's frames
/// needs only the small part of RFC 6455 here. `wss://` still goes through
/// `WebSocketClient` (TLS belongs to a library).
///
/// Threads: `connect`, `send` and `shutdown` may be called from any thread:
/// they leave a command in `inbox` and wake the loop through an eventfd. The
/// sockets, their buffers and the handlers' calls belong to the loop thread
/// (`EpollFollowerLoop`, created on it and never shared).
final class EpollFollowerClient: Sendable {
    struct Handlers: Sendable {
        var onOpen: @Sendable (ConnectionID) -> Void
        /// A whole text message; the bytes are valid during the call only.
        /// A whole message, text or binary (a binary frame starts with `BinaryFrame.kind`, JSON with `{`).
        var onMessage: @Sendable (ConnectionID, UnsafeBufferPointer<UInt8>) -> Void
        /// Once per `connect`, except for connections still open at `shutdown`.
        var onClose: @Sendable (ConnectionID, ClientCloseEvent) -> Void
    }

    enum Command {
        case connect(ConnectionID)
        case send(ConnectionID, [UInt8])
        case stop
    }

    private struct Inbox {
        var commands: [Command] = []
        var lastID: UInt64 = 0
        var started = false
        var stopped = false
    }

    private let inbox = Mutex(Inbox())
    /// eventfd that wakes the loop when `inbox` gets a command.
    private let wakeFD: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let epollFD: Int32
    private let target: EpollFollowerTarget
    private let readPause: Duration

    /// Resolves the request's host, once, here. `readPause`: how long the loop
    /// pauses after reading before it waits again (see `EpollFollowerLoop`).
    init(request: ConnectRequest, readPause: Duration = .zero) throws {
        target = try EpollFollowerTarget(request)
        self.readPause = readPause
        wakeFD = camhub_eventfd()
        guard wakeFD >= 0 else { throw ClientError("eventfd: \(String(cString: strerror(errno)))") }
        epollFD = camhub_epoll_create()
        guard epollFD >= 0 else {
            close(wakeFD)
            throw ClientError("epoll_create1: \(String(cString: strerror(errno)))")
        }
    }

    /// Starts the loop thread; call once. Commands given before wait for it.
    func start(_ handlers: Handlers) {
        let first = inbox.withLock { inbox in
            defer { inbox.started = true }
            return !inbox.started && !inbox.stopped
        }
        guard first else { return }
        let thread = Thread { [self] in
            let loop = EpollFollowerLoop(
                epollFD: epollFD, wakeFD: wakeFD, target: target, readPause: readPause, handlers: handlers)
            loop.run { self.takeCommands() }
            finished.signal()
        }
        thread.name = "camhub-bench-followers"
        thread.start()
    }

    deinit {
        close(wakeFD)
        close(epollFD)
    }

    /// Opens one more connection (any thread); ids count up from 1.
    func connect() -> ConnectionID {
        let id = inbox.withLock { inbox -> ConnectionID in
            inbox.lastID += 1
            let id = ConnectionID(rawValue: inbox.lastID)
            inbox.commands.append(.connect(id))
            return id
        }
        wake()
        return id
    }

    /// Sends a text message once the connection is open (any thread).
    func send(text: String, to id: ConnectionID) {
        inbox.withLock { $0.commands.append(.send(id, Array(text.utf8))) }
        wake()
    }

    /// Closes every connection (close 1000, no wait for the answer) and ends
    /// the loop thread; returns when it has. Idempotent.
    func shutdown() {
        let running = inbox.withLock { inbox -> Bool in
            defer { inbox.stopped = true }
            if !inbox.stopped { inbox.commands.append(.stop) }
            return inbox.started && !inbox.stopped
        }
        guard running else { return }
        wake()
        finished.wait()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Loop thread: the commands left since the last call.
    private func takeCommands() -> [Command] {
        var drained: UInt64 = 0
        _ = read(wakeFD, &drained, 8)
        return inbox.withLock { inbox in
            defer { inbox.commands.removeAll(keepingCapacity: true) }
            return inbox.commands
        }
    }
}

/// Where the followers connect: the resolved address and the upgrade request's
/// fixed part (everything but the key).
struct EpollFollowerTarget: Sendable {
    let family: Int32
    /// The `sockaddr` bytes to `connect` to.
    let address: [UInt8]
    let requestHead: String

    init(_ request: ConnectRequest) throws {
        guard !request.useTLS else { throw ClientError("wss:// followers need the libwebsockets client") }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(request.host, String(request.port), &hints, &found)
        guard status == 0, let first = found, let sockaddr = first.pointee.ai_addr else {
            throw ClientError("\(request.host): \(status == 0 ? "no address" : String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        family = first.pointee.ai_family
        address = Array(UnsafeRawBufferPointer(start: sockaddr, count: Int(first.pointee.ai_addrlen)))
        let host = request.host.contains(":") ? "[\(request.host)]" : request.host
        var head = "GET \(request.path) HTTP/1.1\r\nHost: \(host):\(request.port)\r\n"
        head += "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        if let p = request.subprotocol { head += "Sec-WebSocket-Protocol: \(p)\r\n" }
        if let o = request.origin { head += "Origin: \(o)\r\n" }
        requestHead = head
    }
}

/// The upgrade handshake of one connection (RFC 6455 §4.1).
struct UpgradeHandshake {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The base64 of 16 random bytes, new for each connection.
    let key: String

    init() {
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
        key = Data(bytes).base64EncodedString()
    }

    func request(head: String) -> [UInt8] { Array((head + "Sec-WebSocket-Key: \(key)\r\n\r\n").utf8) }

    /// The `Sec-WebSocket-Accept` a server must answer `key` with.
    var expectedAccept: String { Data(Insecure.SHA1.hash(data: Array((key + Self.guid).utf8))).base64EncodedString() }

    /// Checks a whole response head (up to the blank line): nil when it accepts
    /// the upgrade, else the refusal as `ClientCloseEvent` describes it.
    func check(responseHead: String) -> (error: String, status: Int?)? {
        let lines = responseHead.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.first.map(String.init) ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        let status = parts.count >= 2 ? Int(parts[1]) : nil
        guard status == 101 else { return ("HTTP \(parts.dropFirst().joined(separator: " "))", status) }
        var accept: Substring?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == "sec-websocket-accept" {
                accept = line[line.index(after: colon)...].drop { $0 == " " }
            }
        }
        guard let accept, accept.trimmingCharacters(in: .whitespaces) == expectedAccept else {
            return ("the server's Sec-WebSocket-Accept does not match the key", 101)
        }
        return nil
    }
}

/// Frames a client sends: masked (RFC 6455 §5.3), small (hello, pong, close).
enum ClientFrame {
    static func encode(opcode: UInt8, payload: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = [0x80 | opcode]
        let n = payload.count
        if n < 126 {
            out.append(0x80 | UInt8(n))
        } else if n <= 0xFFFF {
            out += [0x80 | 126, UInt8(n >> 8), UInt8(n & 0xFF)]
        } else {
            out.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((UInt64(n) >> UInt64(shift)) & 0xFF)) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        out += mask
        for (i, byte) in payload.enumerated() { out.append(byte ^ mask[i & 3]) }
        return out
    }
}
