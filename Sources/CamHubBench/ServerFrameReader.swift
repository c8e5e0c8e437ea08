/// A message or control frame from a WebSocket server, as `ServerFrameReader`
/// hands it over. The bytes are valid only inside the callback that gets them.
enum ServerFrame {
    case text(UnsafeBufferPointer<UInt8>)
    case binary(UnsafeBufferPointer<UInt8>)
    case ping(UnsafeBufferPointer<UInt8>)
    case pong
    /// The server's close frame: its code (nil when the frame had none) and reason bytes.
    case close(code: UInt16?, reason: UnsafeBufferPointer<UInt8>)
}

/// Why a server's bytes could not be read as RFC 6455 frames.
struct ServerFrameError: Error, CustomStringConvertible {
    let description: String
}

/// Reads what a WebSocket server sends (RFC 6455 §5.2: frames without a mask)
/// from whatever pieces the socket hands over, and assembles fragmented
/// messages. A message that arrives whole in one read is handed over in place,
/// without a copy; only a frame cut by a read boundary or a fragmented message
/// is kept between reads. Text is not checked for UTF-8: the load generator
/// only looks for ASCII keys.
struct ServerFrameReader {
    /// Largest message accepted (bytes); a longer one is an error.
    let maxMessageSize: Int
    /// Bytes of a frame cut by the previous read.
    private var partial: [UInt8] = []
    /// Payload of a fragmented message so far, and its opcode (1 text, 2 binary).
    private var fragments: [UInt8] = []
    private var fragmentedOpcode: UInt8?

    init(maxMessageSize: Int = 4 << 20) {
        self.maxMessageSize = maxMessageSize
    }

    /// Reads `bytes` (one `recv`), calling `handle` for each whole message and
    /// control frame in order. Throws on bytes that break the framing rules; the
    /// connection should then be closed (1002).
    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, _ handle: (ServerFrame) -> Void) throws {
        if partial.isEmpty {
            let used = try readFrames(bytes, handle)
            if used < bytes.count { partial.append(contentsOf: bytes[used...]) }
            return
        }
        partial.append(contentsOf: bytes)
        var kept = partial
        partial = []
        let used = try kept.withUnsafeMutableBufferPointer { try readFrames(UnsafeBufferPointer($0), handle) }
        if used < kept.count {
            kept.removeFirst(used)
            partial = kept
        }
    }

    /// Reads the whole frames at the start of `b`; returns how many bytes they took.
    private mutating func readFrames(_ b: UnsafeBufferPointer<UInt8>, _ handle: (ServerFrame) -> Void) throws -> Int {
        var at = 0
        while let header = try Self.header(b, at: at) {
            let start = at + header.length
            guard b.count - start >= header.payload else { break }
            let payload = UnsafeBufferPointer(rebasing: b[start..<start + header.payload])
            try deliver(header, payload, handle)
            at = start + header.payload
        }
        return at
    }

    private struct Header {
        var fin: Bool
        var opcode: UInt8
        /// Bytes of the header itself.
        var length: Int
        /// Bytes of payload that follow it.
        var payload: Int
    }

    /// The header of the frame at `at`, or nil when not all of it has arrived.
    private static func header(_ b: UnsafeBufferPointer<UInt8>, at: Int) throws -> Header? {
        guard b.count - at >= 2 else { return nil }
        let b0 = b[at]
        let b1 = b[at + 1]
        guard b0 & 0x70 == 0 else { throw ServerFrameError(description: "a frame with RSV bits set (no extension was negotiated)") }
        guard b1 & 0x80 == 0 else { throw ServerFrameError(description: "a masked frame from the server (RFC 6455 §5.1)") }
        var header = Header(fin: b0 & 0x80 != 0, opcode: b0 & 0x0F, length: 2, payload: Int(b1 & 0x7F))
        if header.payload == 126 {
            guard b.count - at >= 4 else { return nil }
            header.payload = Int(b[at + 2]) << 8 | Int(b[at + 3])
            header.length = 4
        } else if header.payload == 127 {
            guard b.count - at >= 10 else { return nil }
            var n: UInt64 = 0
            for i in 2..<10 { n = n << 8 | UInt64(b[at + i]) }
            guard n <= UInt64(Int32.max) else { throw ServerFrameError(description: "a frame of \(n) bytes") }
            header.payload = Int(n)
            header.length = 10
        }
        return header
    }

    private mutating func deliver(_ h: Header, _ payload: UnsafeBufferPointer<UInt8>, _ handle: (ServerFrame) -> Void) throws {
        switch h.opcode {
        case 0x8, 0x9, 0xA:
            guard h.fin, payload.count <= 125 else {
                throw ServerFrameError(description: "a control frame that is fragmented or longer than 125 bytes")
            }
            if h.opcode == 0x9 {
                handle(.ping(payload))
            } else if h.opcode == 0xA {
                handle(.pong)
            } else {
                guard payload.count != 1 else { throw ServerFrameError(description: "a close frame with a one-byte payload") }
                let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
                handle(.close(code: code, reason: UnsafeBufferPointer(rebasing: payload.dropFirst(min(2, payload.count)))))
            }
        case 0x1, 0x2:
            guard fragmentedOpcode == nil else { throw ServerFrameError(description: "a new message inside a fragmented one") }
            guard payload.count <= maxMessageSize else { throw ServerFrameError(description: "a message over \(maxMessageSize) bytes") }
            if h.fin {
                handle(h.opcode == 0x1 ? .text(payload) : .binary(payload))
            } else {
                fragmentedOpcode = h.opcode
                fragments = Array(payload)
            }
        case 0x0:
            guard let opcode = fragmentedOpcode else { throw ServerFrameError(description: "a continuation frame outside a message") }
            guard fragments.count + payload.count <= maxMessageSize else {
                throw ServerFrameError(description: "a message over \(maxMessageSize) bytes")
            }
            fragments.append(contentsOf: payload)
            guard h.fin else { return }
            let message = fragments
            fragments = []
            fragmentedOpcode = nil
            message.withUnsafeBufferPointer { handle(opcode == 0x1 ? .text($0) : .binary($0)) }
        default:
            throw ServerFrameError(description: "a frame with the reserved opcode \(h.opcode)")
        }
    }
}
