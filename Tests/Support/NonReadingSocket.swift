import Foundation

/// A WebSocket client that opens, says what it has to say, and then never
/// reads a byte: a raw TCP socket with a small receive buffer (so its
/// receive window shuts after a few KiB), speaking just enough RFC 6455.
public final class NonReadingSocket {
    public let fd: Int32

    /// Connects to `path` on loopback `port`, upgrades (with `subprotocol`, if
    /// any) and sends `messages` as masked text frames.
    public init(port: Int, path: String, subprotocol: String? = nil, messages: [String] = []) throws {
        fd = try loopbackSocket(port: port, receiveBuffer: 2048)
        let protocolHeader = subprotocol.map { "Sec-WebSocket-Protocol: \($0)\r\n" } ?? ""
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(protocolHeader)\r\n"
        write(Array(request.utf8))
        // The 101 has arrived once the socket is readable; it is never read.
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 20_000) == 1 else {
            close(fd)
            throw SubprocessFailure("no answer to the upgrade within 20 s")
        }
        for message in messages { write(Self.maskedText(message)) }
    }

    private func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// One client frame: FIN + text, masked (RFC 6455 §5.3), payload < 126 bytes.
    static func maskedText(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        precondition(payload.count < 126)
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return [0x81, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    deinit { close(fd) }
}

/// A TCP socket connected to loopback `port` (its receive buffer set first
/// when given, so the window the server sees is small from the start).
public func loopbackSocket(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(fd)
        throw SubprocessFailure("connect failed: errno \(errno)")
    }
    return fd
}
