import CLWS
import SharedBytes

/// One WebSocket message to send: its kind and a shared, immutable payload
/// with `LWS_PRE` bytes of headroom, so lws writes the frame header in place
/// without copying. A small value: copying it copies a reference.
///
/// Encode once per tick, then hand the same frame to every follower with
/// `WebSocketServer.sendLatest` or `send`: each connection only holds a
/// reference to the payload.
///
/// Threading: create on any thread; it is `Sendable`. On a server send, lws
/// writes the (identical) frame header into the headroom on the loop
/// thread, so give one payload to one server (one loop thread) only. Clients
/// copy into a scratch buffer before writing (client frames are masked in
/// place), so they never touch the payload's memory.
public struct SharedFrame: Sendable {
    public let kind: MessageKind
    public let payload: SharedBytes

    /// Headroom lws needs in front of every payload it writes (`LWS_PRE`):
    /// encode with at least this much to share a payload without a copy.
    public static var headroom: Int { clws_pre() }

    /// Wraps `payload`; copies it once into a buffer with enough headroom if it has less.
    public init(kind: MessageKind, payload: SharedBytes) {
        self.kind = kind
        self.payload = payload.headroom >= clws_pre() ? payload : SharedBytes(payload.array, headroom: clws_pre())
    }

    /// Builds a frame by letting `initialize` write exactly `count` bytes.
    public init(
        kind: MessageKind, count: Int,
        initializingWith initialize: (UnsafeMutableRawBufferPointer) throws -> Void
    ) rethrows {
        self.kind = kind
        payload = try SharedBytes(count: count, headroom: clws_pre(), initializingWith: initialize)
    }

    public init(kind: MessageKind, bytes: some Collection<UInt8>) {
        self.kind = kind
        payload = SharedBytes(bytes, headroom: clws_pre())
    }

    public init(text: String) {
        self.init(kind: .text, bytes: Array(text.utf8))
    }

    public init(binary bytes: [UInt8]) {
        self.init(kind: .binary, bytes: bytes)
    }

    public init(_ message: WebSocketMessage) {
        switch message {
        case .text(let s): self.init(text: s)
        case .binary(let b): self.init(binary: b)
        }
    }

    /// Payload length in bytes.
    public var count: Int { payload.count }

    /// Read-only view of the payload.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try payload.withUnsafeBytes(body)
    }

    /// Loop thread, server side: payload pointer with `LWS_PRE` writable
    /// bytes before it, for `lws_write`.
    var payloadForWrite: UnsafeMutablePointer<UInt8> { payload.payloadWithHeadroom }
}
