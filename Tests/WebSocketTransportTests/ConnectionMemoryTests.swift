import Testing

@testable import WebSocketTransport

/// glibc's size of the chunk behind a malloc'd pointer, less its 8-byte header
/// (declared here: Swift's Glibc module does not include malloc.h).
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int

extension TransportTests {
    /// A server keeps one `ServerConnection` per WebSocket for its whole life:
    /// after the handshake it holds only what the send lanes, keepalive and
    /// close need (not the path, subprotocol or origin, nor the server's bounds
    /// on messages and lanes), in one 144-byte malloc chunk (it was 272).
    @Test func anIdleConnectionsStateFitsIn144BytesOfHeap() throws {
        let wsi = try #require(OpaquePointer(bitPattern: 0x1000))  // never dereferenced here
        // glibc may hand a request a free chunk one size class larger (when the
        // rest would be too small to keep), depending on what the process freed
        // before: the smallest chunk of 64 fresh connections is the size class itself.
        let conns = (0..<64).map { n in
            ServerConnection(id: ConnectionID(rawValue: UInt64(n + 1)), wsi: wsi, remoteAddress: "127.0.0.1", isEcho: false)
        }
        let usable = withExtendedLifetime(conns) {
            conns.map { mallocUsableSize(Unmanaged.passUnretained($0).toOpaque()) }.min() ?? .max
        }
        #expect(usable <= 136, "\(usable) usable bytes: a \(usable + 8)-byte chunk")
        #expect(conns.allSatisfy { $0.slots.isEmpty && $0.pendingClose == nil })
    }
}

extension TransportTests {
    /// The control lane (a ring buffer let go whenever it drains) keeps its
    /// order and bounds, ahead of the latest-frame slot.
    @Test func controlLaneStaysFIFOAndBoundedAcrossDrains() {
        var slots = OutboundSlots()
        let limits = SendQueueLimits(maxMessages: 3, maxBytes: 10)
        func enqueue(_ text: String) -> Bool { slots.enqueueControl(SharedFrame(text: text), limits: limits) }
        func next() -> String? { slots.next().map { String(decoding: $0.payload.array, as: UTF8.self) } }
        for round in 0..<3 {  // refill after each drain
            var accepted = [enqueue("a\(round)")]
            slots.setLatest(SharedFrame(text: "f\(round)"))
            accepted += [enqueue("b\(round)"), enqueue("c\(round)"), enqueue("d")]
            #expect(accepted == [true, true, true, false], "a fourth message is over maxMessages")
            #expect(slots.controlCount == 3 && slots.controlBytes == 6)
            let written = [next(), next(), next(), next(), next()]
            #expect(written == ["a\(round)", "b\(round)", "c\(round)", "f\(round)", nil], "control in order, then the latest frame")
            #expect(slots.isEmpty && slots.controlBytes == 0)
        }
        let tooBig = enqueue("12345678901")
        let fits = enqueue("1234567890")
        #expect(!tooBig && fits, "11 bytes are over maxBytes, 10 are not")
        slots.removeAll()
        let popped = slots.popControl()
        #expect(slots.isEmpty && slots.controlBytes == 0 && popped == nil)
    }
}
