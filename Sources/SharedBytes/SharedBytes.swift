/// An immutable byte payload with writable headroom in front of it, shared by
/// reference between the code that encodes a message and the transport that
/// writes it: the hub encodes a room's frame once per tick into one of these,
/// and every follower's connection writes the same bytes.
///
/// The headroom is for a transport that writes its own header in place just
/// before the payload (libwebsockets needs `LWS_PRE` bytes there), so the
/// payload is never copied per connection. The payload never changes after
/// `init`; only the headroom is written, and only by the one thread that owns
/// the connections writing this buffer (for the hub: its server's loop
/// thread). That rule is why this is `@unchecked Sendable`: the bytes a second
/// thread could read never change, and the headroom is not read by anyone.
public final class SharedBytes: @unchecked Sendable {
    /// Payload length in bytes.
    public let count: Int
    /// Writable bytes reserved in front of the payload.
    public let headroom: Int
    private let storage: UnsafeMutableRawPointer

    /// Builds a payload by letting `initialize` write exactly `count` bytes.
    public init(count: Int, headroom: Int, initializingWith initialize: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        precondition(count >= 0 && headroom >= 0)
        self.count = count
        self.headroom = headroom
        storage = .allocate(byteCount: headroom + max(count, 1), alignment: 16)
        do {
            try initialize(UnsafeMutableRawBufferPointer(start: storage + headroom, count: count))
        } catch {
            storage.deallocate()
            throw error
        }
    }

    /// Copies `bytes` in. Contiguous bytes (an array, a buffer) are copied with
    /// one `memcpy`: this init is generic across modules, so the element-wise
    /// path runs unspecialized, a few witness calls per byte (it was ~12 % of a
    /// hub's CPU with many small moving rooms, one frame encoded per room and tick).
    public convenience init(_ bytes: some Collection<UInt8>, headroom: Int) {
        self.init(count: bytes.count, headroom: headroom) { buffer in
            let copied = bytes.withContiguousStorageIfAvailable { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(source))
            }
            if copied == nil { _ = buffer.initializeMemory(as: UInt8.self, from: bytes) }
        }
    }

    deinit { storage.deallocate() }

    /// Read-only view of the payload.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage + headroom, count: count))
    }

    /// The payload as an array (a copy: for tests and tools, not the send path).
    public var array: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The payload's first byte, with `headroom` writable bytes before it. For
    /// the transport's writer only, on the thread that owns the connections
    /// writing this buffer.
    public var payloadWithHeadroom: UnsafeMutablePointer<UInt8> {
        (storage + headroom).assumingMemoryBound(to: UInt8.self)
    }
}
