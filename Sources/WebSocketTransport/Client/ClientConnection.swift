import CLWS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One piece of outgoing data: a whole message or one fragment of it.
struct OutgoingPiece {
    let bytes: [UInt8]
    let writeProtocol: lws_write_protocol

    /// Splits a message into pieces of at most `fragmentSize` bytes
    /// (first: TEXT/BINARY, then CONTINUATION; all but the last NO_FIN).
    static func pieces(_ bytes: [UInt8], kind: MessageKind, fragmentSize: Int?) -> [OutgoingPiece] {
        let first = LWS.writeProtocol(kind).rawValue
        guard let size = fragmentSize, size > 0, bytes.count > size else {
            return [OutgoingPiece(bytes: bytes, writeProtocol: lws_write_protocol(rawValue: first))]
        }
        var result: [OutgoingPiece] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + size, bytes.count)
            var op = offset == 0 ? first : LWS_WRITE_CONTINUATION.rawValue
            if end < bytes.count { op |= LWS_WRITE_NO_FIN.rawValue }
            result.append(
                OutgoingPiece(
                    bytes: Array(bytes[offset..<end]),
                    writeProtocol: lws_write_protocol(rawValue: op)))
            offset = end
        }
        return result
    }
}

/// State of one client WebSocket. Owned by `ClientCore.connections`, loop
/// thread only. Holds the C strings lws was given until the connection ends.
final class ClientConnection {
    let id: ConnectionID
    let request: ConnectRequest
    var wsi: OpaquePointer?
    /// Counted in `ClientCore.connecting` (handed to lws, not yet open or gone).
    var isConnecting = false
    var isOpen = false
    var assembler: MessageAssembler
    private var queue: [OutgoingPiece] = []
    private var head = 0
    private(set) var queuedBytes = 0
    let limits: SendQueueLimits
    var writeRequested = false
    var pendingClose: (code: CloseCode, reason: String)?
    var closing = false
    var closeCode: CloseCode?
    var readingPaused = false
    /// `close` was called before the handshake finished.
    var cancelled = false
    /// The server answered the upgrade with another status than 101: the
    /// status and the reason it gave (see `ClientCore.httpResponse`).
    var refusal: (status: Int, reason: String?)?
    private var cStrings: [UnsafeMutablePointer<CChar>] = []

    init(id: ConnectionID, request: ConnectRequest, configuration: ClientConfiguration) {
        self.id = id
        self.request = request
        limits = configuration.sendQueueLimits
        assembler = MessageAssembler()
    }

    deinit { for p in cStrings { free(p) } }

    /// A C copy of `s` that lives as long as this connection.
    func keep(_ s: String?) -> UnsafePointer<CChar>? {
        guard let s, let p = strdup(s) else { return nil }
        cStrings.append(p)
        return UnsafePointer(p)
    }

    var hasQueued: Bool { head < queue.count }

    /// False when a bound would be exceeded.
    func enqueue(_ pieces: [OutgoingPiece]) -> Bool {
        let bytes = pieces.reduce(0) { $0 + $1.bytes.count }
        guard queue.count - head + pieces.count <= limits.maxMessages,
            queuedBytes + bytes <= limits.maxBytes
        else { return false }
        queue.append(contentsOf: pieces)
        queuedBytes += bytes
        return true
    }

    func dequeue() -> OutgoingPiece? {
        guard head < queue.count else { return nil }
        let piece = queue[head]
        head += 1
        queuedBytes -= piece.bytes.count
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return piece
    }

    func dropQueue() {
        queue.removeAll()
        head = 0
        queuedBytes = 0
    }

    func requestWrite() {
        guard let wsi, isOpen, !writeRequested else { return }
        writeRequested = true
        lws_callback_on_writable(wsi)
    }
}
