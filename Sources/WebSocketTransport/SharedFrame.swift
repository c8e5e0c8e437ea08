import CLWS

/// An immutable, shareable WebSocket message payload with `LWS_PRE` bytes
/// of headroom, so lws can write the frame header in place without copying.
///
/// Encode once per tick, then hand the same frame to every follower with
/// `WebSocketServer.sendLatest` or `send`: each connection only holds a
/// reference. The payload never changes after `init`.
///
/// Threading: create on any thread; it is `Sendable`. On a server send, lws
/// writes the (identical) frame header into the headroom on the loop
/// thread, so give one frame to one server (one loop thread) only. Clients
/// copy into a scratch buffer before writing (client frames are masked in
/// place), so they never touch the frame's memory.
public final class SharedFrame: @unchecked Sendable {
    public let kind: MessageKind
    /// Payload length in bytes.
    public let count: Int
    private let storage: UnsafeMutableRawPointer

    /// Builds a frame by letting `initialize` write exactly `count` bytes.
    public init(kind: MessageKind, count: Int,
                initializingWith initialize: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        precondition(count >= 0)
        self.kind = kind
        self.count = count
        storage = .allocate(byteCount: clws_pre() + max(count, 1), alignment: 16)
        do {
            try initialize(UnsafeMutableRawBufferPointer(start: storage + clws_pre(), count: count))
        } catch {
            storage.deallocate()
            throw error
        }
    }

    public convenience init(kind: MessageKind, bytes: some Collection<UInt8>) {
        self.init(kind: kind, count: bytes.count) { buffer in
            _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
        }
    }

    public convenience init(text: String) {
        var text = text
        let count = text.utf8.count
        self.init(kind: .text, count: count) { buffer in
            text.withUTF8 { utf8 in
                if let base = utf8.baseAddress, count > 0 {
                    buffer.baseAddress!.copyMemory(from: base, byteCount: count)
                }
            }
        }
    }

    public convenience init(binary bytes: [UInt8]) {
        self.init(kind: .binary, bytes: bytes)
    }

    public convenience init(_ message: WebSocketMessage) {
        switch message {
        case .text(let s): self.init(text: s)
        case .binary(let b): self.init(binary: b)
        }
    }

    deinit { storage.deallocate() }

    /// Read-only view of the payload.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage + clws_pre(), count: count))
    }

    /// Loop thread, server side: payload pointer with `LWS_PRE` writable
    /// bytes before it, for `lws_write`.
    var payloadForWrite: UnsafeMutablePointer<UInt8> {
        (storage + clws_pre()).assumingMemoryBound(to: UInt8.self)
    }
}
