import CEpoll
import CamHubClient
import Foundation
import WebSocketTransport

#if canImport(Glibc)
    import Glibc
#endif

/// The loop thread of an `EpollFollowerClient`: its sockets, their buffers and
/// every handler call. Created on that thread and never shared, so nothing
/// here needs a lock. Level-triggered epoll; one `recv` of up to 64 KiB per
/// readable socket and wake-up.
///
/// After a wait that found readable sockets the thread pauses `readPause`
/// before it waits again, so it reads in batches and is rarely asleep in
/// `epoll_wait` when a frame arrives. On loopback the sender's system call
/// runs the receiver's TCP input and wake-up; a load generator woken for each
/// frame makes the server it measures pay for waking it, which a server does
/// not pay for followers on other machines. A quiet connection still wakes
/// the thread at once.
final class EpollFollowerLoop {
    private enum Phase {
        case connecting
        /// Upgrade request sent; the response head so far.
        case upgrading(UpgradeHandshake, [UInt8])
        case open
    }

    private struct Connection {
        let fd: Int32
        var phase: Phase
        var reader = ServerFrameReader()
        /// Bytes the socket would not take yet (written when it is writable).
        var outbox: [UInt8] = []
        /// Text messages asked for before the connection opened.
        var waiting: [[UInt8]] = []
    }

    private let epollFD: Int32
    private let wakeFD: Int32
    private let target: EpollFollowerTarget
    private let handlers: EpollFollowerClient.Handlers
    private let readPause: Duration
    /// Connection `id` is at `id − 1`; nil once closed.
    private var connections: [Connection?] = []
    private let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 << 10)
    private var running = true

    init(epollFD: Int32, wakeFD: Int32, target: EpollFollowerTarget, readPause: Duration, handlers: EpollFollowerClient.Handlers) {
        self.epollFD = epollFD
        self.wakeFD = wakeFD
        self.target = target
        self.readPause = readPause
        self.handlers = handlers
    }

    deinit { scratch.deallocate() }

    /// Runs until a `.stop` command; `commands` drains the client's inbox.
    func run(commands: () -> [EpollFollowerClient.Command]) {
        watch(wakeFD, key: 0, events: Self.readable)
        var events = [camhub_epoll_ready](repeating: camhub_epoll_ready(), count: 512)
        while running {
            let n = events.withUnsafeMutableBufferPointer { camhub_epoll_wait(epollFD, $0.baseAddress, Int32($0.count), 1000) }
            guard n >= 0 else {
                if errno == EINTR { continue }
                break
            }
            var sockets = false
            for i in 0..<Int(n) {
                let key = events[i].key
                if key == 0 {
                    for command in commands() { run(command) }
                } else {
                    sockets = true
                    handle(ConnectionID(rawValue: key), events: events[i].events)
                }
            }
            if sockets && readPause > .zero { pause() }
        }
        for case let c? in connections {
            // Best effort: a close frame, then the socket goes.
            let close = ClientFrame.encode(opcode: 0x8, payload: [0x03, 0xE8])
            _ = close.withUnsafeBytes { Glibc.send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            Glibc.close(c.fd)
        }
        connections.removeAll()
    }

    private func pause() {
        let (seconds, attoseconds) = readPause.components
        var left = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var asked = left
        while nanosleep(&asked, &left) != 0 && errno == EINTR { asked = left }
    }

    private func run(_ command: EpollFollowerClient.Command) {
        switch command {
        case .connect(let id): open(id)
        case .send(let id, let text):
            guard let index = slot(id) else { return }
            if case .open? = connections[index]?.phase {
                write(ClientFrame.encode(opcode: 0x1, payload: text), to: id)
            } else {
                connections[index]?.waiting.append(text)
            }
        case .stop: running = false
        }
    }

    private func slot(_ id: ConnectionID) -> Int? {
        let index = Int(id.rawValue) - 1
        return index >= 0 && index < connections.count && connections[index] != nil ? index : nil
    }

    // MARK: Connecting

    private func open(_ id: ConnectionID) {
        let index = Int(id.rawValue) - 1
        if connections.count <= index { connections += Array(repeating: nil, count: index + 1 - connections.count) }
        let fd = socket(target.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return failed(id, fd: nil, "socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let started = target.address.withUnsafeBytes {
            Glibc.connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        guard started == 0 || errno == EINPROGRESS else { return failed(id, fd: fd, "connect: \(String(cString: strerror(errno)))") }
        connections[index] = Connection(fd: fd, phase: .connecting)
        watch(fd, key: id.rawValue, events: Self.writable)
    }

    private func connected(_ id: ConnectionID, index: Int) {
        guard let fd = connections[index]?.fd else { return }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        guard error == 0 else { return failed(id, fd: fd, "connect: \(String(cString: strerror(error)))") }
        let handshake = UpgradeHandshake()
        connections[index]?.phase = .upgrading(handshake, [])
        rewatch(fd, key: id.rawValue, events: Self.readable)
        write(handshake.request(head: target.requestHead), to: id)
    }

    /// Response bytes while upgrading: on the blank line, open (or refuse).
    private func upgrading(_ id: ConnectionID, index: Int, _ handshake: UpgradeHandshake, _ head: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) {
        var head = head
        head.append(contentsOf: bytes)
        guard let end = Self.endOfHead(head) else {
            guard head.count < 16 << 10 else { return failed(id, fd: connections[index]?.fd, "an upgrade response head over 16 KiB") }
            connections[index]?.phase = .upgrading(handshake, head)
            return
        }
        let text = String(decoding: head[..<end], as: UTF8.self)
        if let refusal = handshake.check(responseHead: text) {
            let body = String(decoding: head[(end + 4)...], as: UTF8.self)
            return failed(id, fd: connections[index]?.fd, refusal.error + (body.isEmpty ? "" : ": " + body), status: refusal.status)
        }
        connections[index]?.phase = .open
        handlers.onOpen(id)
        for text in connections[index]?.waiting ?? [] { write(ClientFrame.encode(opcode: 0x1, payload: text), to: id) }
        connections[index]?.waiting = []
        let rest = Array(head[(end + 4)...])
        if !rest.isEmpty { rest.withUnsafeBufferPointer { received(id, index: index, $0) } }
    }

    private static func endOfHead(_ b: [UInt8]) -> Int? {
        guard b.count >= 4 else { return nil }
        for i in 0...(b.count - 4) where b[i] == 13 && b[i + 1] == 10 && b[i + 2] == 13 && b[i + 3] == 10 { return i }
        return nil
    }

    // MARK: Reading and writing

    private func handle(_ id: ConnectionID, events: UInt32) {
        guard let index = slot(id) else { return }
        if case .connecting? = connections[index]?.phase {
            return connected(id, index: index)
        }
        if events & Self.writable != 0 { flush(id, index: index) }
        guard slot(id) != nil, let fd = connections[index]?.fd, events & (Self.readable | Self.hungUp) != 0 else { return }
        let n = recv(fd, scratch.baseAddress, scratch.count, 0)
        if n > 0 {
            let bytes = UnsafeBufferPointer(rebasing: scratch[..<n])
            if case .upgrading(let handshake, let head)? = connections[index]?.phase {
                upgrading(id, index: index, handshake, head, bytes)
            } else {
                received(id, index: index, bytes)
            }
        } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            let reason = n == 0 ? "the server closed the connection without a close frame" : String(cString: strerror(errno))
            ended(id, index: index, code: nil, error: reason)
        }
    }

    private func received(_ id: ConnectionID, index: Int, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard var reader = connections[index]?.reader else { return }
        var closing: (code: UInt16?, reason: String)?
        do {
            try reader.consume(bytes) { frame in
                guard closing == nil else { return }
                switch frame {
                case .text(let payload), .binary(let payload): handlers.onMessage(id, payload)
                case .ping(let payload): write(ClientFrame.encode(opcode: 0xA, payload: payload), to: id)
                case .close(let code, let reason): closing = (code, String(decoding: reason, as: UTF8.self))
                case .pong: break
                }
            }
        } catch {
            write(ClientFrame.encode(opcode: 0x8, payload: [0x03, 0xEA]), to: id)
            return ended(id, index: index, code: 1002, error: "\(error)")
        }
        guard slot(id) != nil else { return }
        connections[index]?.reader = reader
        if let closing {
            // Echo the code (RFC 6455 §5.5.1), then let the socket go.
            let echo: [UInt8] = closing.code.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? []
            write(ClientFrame.encode(opcode: 0x8, payload: echo), to: id)
            ended(id, index: index, code: closing.code, error: closing.reason.isEmpty ? nil : closing.reason)
        }
    }

    /// Writes what the socket takes now; the rest waits for EPOLLOUT.
    private func write(_ bytes: [UInt8], to id: ConnectionID) {
        guard let index = slot(id), let c = connections[index] else { return }
        if c.outbox.isEmpty {
            let fd = c.fd
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n == bytes.count { return }
            guard n >= 0 || errno == EAGAIN || errno == EWOULDBLOCK else { return }  // the read side reports the failure
            connections[index]?.outbox = Array(bytes[max(0, n)...])
            rewatch(fd, key: id.rawValue, events: Self.readable | Self.writable)
        } else {
            connections[index]?.outbox += bytes
        }
    }

    private func flush(_ id: ConnectionID, index: Int) {
        guard let c = connections[index], !c.outbox.isEmpty else { return }
        let n = c.outbox.withUnsafeBytes { Glibc.send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n > 0 else { return }
        connections[index]?.outbox.removeFirst(n)
        if connections[index]?.outbox.isEmpty == true { rewatch(c.fd, key: id.rawValue, events: Self.readable) }
    }

    // MARK: Ending

    private func failed(_ id: ConnectionID, fd: Int32?, _ error: String, status: Int? = nil) {
        if let fd { Glibc.close(fd) }
        let index = Int(id.rawValue) - 1
        if index < connections.count { connections[index] = nil }
        handlers.onClose(id, ClientCloseEvent(code: nil, wasOpen: false, error: error, httpStatus: status))
    }

    private func ended(_ id: ConnectionID, index: Int, code: UInt16?, error: String?) {
        guard let c = connections[index] else { return }
        Glibc.close(c.fd)  // also leaves epoll
        connections[index] = nil
        if case .open = c.phase {
            handlers.onClose(id, ClientCloseEvent(code: code.map(CloseCode.init(rawValue:)), wasOpen: true, error: error))
        } else {
            handlers.onClose(id, ClientCloseEvent(code: nil, wasOpen: false, error: error ?? "closed while upgrading"))
        }
    }

    // MARK: epoll

    private static let readable = UInt32(camhub_epoll_in)
    private static let writable = UInt32(camhub_epoll_out)
    private static let hungUp = UInt32(camhub_epoll_hup) | UInt32(camhub_epoll_err)

    private func watch(_ fd: Int32, key: UInt64, events: UInt32) { _ = camhub_epoll_watch(epollFD, fd, 1, events, key) }
    private func rewatch(_ fd: Int32, key: UInt64, events: UInt32) { _ = camhub_epoll_watch(epollFD, fd, 0, events, key) }
}
