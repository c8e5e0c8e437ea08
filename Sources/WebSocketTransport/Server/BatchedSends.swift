import CURing
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Frames a server loop writes straight to its followers' sockets, gathered
/// during one pass of the loop and sent with one `io_uring_enter` per
/// ring-full instead of one `send(2)` each (`curing_send_all`).
///
/// On loopback the kernel work of a send is the same either way; what a batch
/// saves is the system call entry and exit (and its mitigations) per
/// follower: 6–10 % of the CPU per send at 5,000 sockets (docs/BENCHMARKS.md).
///
/// Threading: owned by one `ServerCore` and used on its loop thread only,
/// like the `wsi`s it writes to. Not `Sendable`.
///
/// Lifetime of the bytes: `curing_send_all` returns when every send of the
/// batch has completed (MSG_DONTWAIT: a full socket answers -EAGAIN at once;
/// a send a kernel queued all the same is cancelled after 2 ms), so a frame
/// is referenced here until `flush` returns, no longer. The one exception: a
/// send that could not be cancelled either (`CURING_STUCK`); its batch's
/// bytes are then kept as long as this lives (`parked`), its connection is
/// reported failed, and no batch is made again.
final class BatchedSends {
    /// What became of one gathered frame.
    enum Outcome {
        /// The kernel took the whole frame.
        case sent
        /// The kernel took `sentBytes` of the frame's `wire` bytes (more than 0, fewer than all):
        /// the rest must go out before anything else on this socket.
        case partial(sentBytes: Int, wire: UnsafeRawBufferPointer)
        /// Nothing was written (socket full, or the batch could not be submitted).
        case notSent
        /// The socket is dead (reset, closed by the peer).
        case failed
    }

    /// Ring entries: sends per `io_uring_enter`, and how many frames are
    /// gathered before they are sent without waiting for the pass to end. A
    /// system call per 512 sends costs next to nothing, and the first
    /// follower of a large pass does not wait for the last one's turn.
    static let ringEntries: UInt32 = 512

    private let ring: OpaquePointer
    private var connections: [ServerConnection] = []
    /// Each send's newest frame, and the older ones written before it in the
    /// same send (empty unless the connection was owed several).
    private var frames: [(newest: SharedFrame, earlier: [SharedFrame])] = []
    private var sends: [curing_send] = []
    /// The joined bytes of the sends that carry several frames, freed by `flush`.
    private var joined: [UnsafeMutableRawBufferPointer] = []
    private var results: [Int32] = []
    /// The ring refused a submission once, or left sends in flight: no batch again (see `curing_send_all`).
    private(set) var isBroken = false
    /// The bytes of a batch whose sends the kernel may still read (`CURING_STUCK`): never freed.
    private var parked: (frames: [(newest: SharedFrame, earlier: [SharedFrame])], joined: [UnsafeMutableRawBufferPointer]) = ([], [])

    /// Whether this kernel lets this process use io_uring (a ring is made and freed).
    static var kernelAllows: Bool {
        guard let ring = curing_ring_new(8) else { return false }
        curing_ring_free(ring)
        return true
    }

    /// Loop thread. Nil when the kernel refuses io_uring (old, disabled, seccomp).
    init?() {
        guard let ring = curing_ring_new(Self.ringEntries) else { return nil }
        self.ring = ring
    }

    deinit {
        curing_ring_free(ring)
        freeJoined()
        // `parked.joined` is left allocated: the kernel may still read it as the ring goes.
    }

    var isEmpty: Bool { connections.isEmpty }

    /// Gathers `frame` for `connection`, whose socket is `fd`. The caller
    /// knows nothing is queued ahead of it (lws's and ours) and marks the
    /// connection until the flush.
    ///
    /// `earlier`: frames the connection is owed from before `frame`, oldest
    /// first. They and `frame` go in one send, their WebSocket frames joined
    /// in a buffer of the batch's own (one system call and one trip through
    /// the kernel's TCP stack for all of them: the kernel's work per send, not
    /// per byte, is most of what a frame costs).
    func append(_ frame: SharedFrame, earlier: [SharedFrame] = [], to connection: ServerConnection, fd: Int32) {
        let wire: UnsafeRawBufferPointer
        if !earlier.isEmpty {
            wire = join(earlier + [frame])
        } else if let last = frames.last, last.earlier.isEmpty, last.newest.payload === frame.payload, let previous = sends.last {
            wire = UnsafeRawBufferPointer(start: previous.bytes, count: Int(previous.length))
        } else {
            wire = Self.writeHeader(of: frame)
        }
        connections.append(connection)
        frames.append((frame, earlier))
        sends.append(curing_send(bytes: wire.baseAddress, length: UInt32(wire.count), fd: fd))
    }

    /// `frames` as WebSocket frames one after the other, in a buffer kept until the flush.
    private func join(_ frames: [SharedFrame]) -> UnsafeRawBufferPointer {
        let wires = frames.map(Self.writeHeader(of:))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: wires.reduce(0) { $0 + $1.count }, alignment: 1)
        var offset = 0
        for wire in wires {
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]).copyMemory(from: wire)
            offset += wire.count
        }
        joined.append(buffer)
        return UnsafeRawBufferPointer(buffer)
    }

    private func freeJoined() {
        for buffer in joined { buffer.deallocate() }
        joined.removeAll(keepingCapacity: true)
    }

    /// Sends what was gathered and reports each frame's outcome in the order
    /// they were appended, then forgets them. `stillWanted` is asked first for
    /// each connection (it may have closed since, or lws may have queued bytes
    /// of its own); a connection it refuses is reported `.notSent` and its
    /// socket is not touched.
    /// The outcome's frames are the newest and the earlier ones of the send.
    /// The bytes of a partly taken send are valid until `outcome` returns.
    func flush(
        stillWanted: (ServerConnection) -> Bool,
        outcome: (ServerConnection, (newest: SharedFrame, earlier: [SharedFrame]), Outcome) -> Void
    ) {
        guard !connections.isEmpty else { return }
        for index in connections.indices where !stillWanted(connections[index]) {
            sends[index].fd = -1  // skipped by curing_send_all: reported not sent
        }
        if results.count < sends.count { results = [Int32](repeating: 0, count: sends.count) }
        // Never broken here: nothing is gathered once it is (ServerCore checks before appending).
        let status = sends.withUnsafeBufferPointer { sendsIn in
            results.withUnsafeMutableBufferPointer { out in
                curing_send_all(ring, sendsIn.baseAddress, out.baseAddress, UInt32(sendsIn.count))
            }
        }
        if status != 0 { isBroken = true }
        if status == curing_stuck() {
            parked.frames += frames
            parked.joined += joined
            joined.removeAll()
        }
        for index in connections.indices {
            let send = sends[index]
            outcome(connections[index], frames[index], Self.outcome(of: Int(results[index]), wireLength: Int(send.length), wire: send.bytes))
        }
        connections.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
        sends.removeAll(keepingCapacity: true)
        freeJoined()
    }

    var isFull: Bool { connections.count >= Int(Self.ringEntries) }

    private static func outcome(of result: Int, wireLength: Int, wire: UnsafeRawPointer?) -> Outcome {
        if result == Int(curing_pending()) { return .failed }  // the kernel may still send it: the stream is lost
        if result == Int(curing_not_sent()) || result == -Int(EAGAIN) || result == -Int(EINTR) || result == 0 {
            return .notSent
        }
        if result < 0 { return .failed }
        if result >= wireLength { return .sent }
        return .partial(sentBytes: result, wire: UnsafeRawBufferPointer(start: wire, count: wireLength))
    }

    /// Writes the WebSocket header of an unmasked, final server frame into the
    /// headroom just before `frame`'s payload (as lws does on this thread),
    /// and returns header and payload: the bytes every follower receives.
    static func writeHeader(of frame: SharedFrame) -> UnsafeRawBufferPointer {
        let count = frame.count
        let lengthBytes = count < 126 ? 0 : count <= 0xFFFF ? 2 : 8
        let start = UnsafeMutableRawPointer(frame.payloadForWrite) - (2 + lengthBytes)
        start.storeBytes(of: frame.kind == .binary ? 0x82 : 0x81, as: UInt8.self)  // FIN + opcode
        start.storeBytes(of: UInt8(lengthBytes == 0 ? count : lengthBytes == 2 ? 126 : 127), toByteOffset: 1, as: UInt8.self)
        for index in 0..<lengthBytes {  // the extended length, big-endian
            start.storeBytes(of: UInt8(truncatingIfNeeded: count >> (8 * (lengthBytes - 1 - index))), toByteOffset: 2 + index, as: UInt8.self)
        }
        return UnsafeRawBufferPointer(start: start, count: 2 + lengthBytes + count)
    }
}

/// A snapshot of `BatchedSendCounts`: frames gathered for io_uring batches,
/// by what became of them.
public struct BatchedSendStats: Sendable, Hashable {
    /// Taken whole by the kernel.
    public var sent = 0
    /// Taken in part; lws sent the rest before anything else on that socket.
    public var partlySent = 0
    /// Not written (socket full, or lws had bytes of its own queued): kept in
    /// the frame lane for the socket's next writable callback.
    public var deferred = 0
    /// Sends that carried more than one frame (the connection was owed several).
    public var joinedSends = 0
    /// The frames those sends carried.
    public var joinedFrames = 0
}

/// Counters of a server's batched frames: written on its loop thread, read from any.
final class BatchedSendCounts: Sendable {
    private let sent = Atomic<Int>(0)
    private let partlySent = Atomic<Int>(0)
    private let deferred = Atomic<Int>(0)
    private let joinedSends = Atomic<Int>(0)
    private let joinedFrames = Atomic<Int>(0)

    /// One send of `frames` frames ended with `outcome`.
    func count(_ outcome: BatchedSends.Outcome, frames: Int) {
        if frames > 1, case .sent = outcome {
            joinedSends.add(1, ordering: .relaxed)
            joinedFrames.add(frames, ordering: .relaxed)
        }
        count(outcome)
    }

    private func count(_ outcome: BatchedSends.Outcome) {
        switch outcome {
        case .sent: sent.add(1, ordering: .relaxed)
        case .partial: partlySent.add(1, ordering: .relaxed)
        case .notSent: deferred.add(1, ordering: .relaxed)
        case .failed: break
        }
    }

    var snapshot: BatchedSendStats {
        BatchedSendStats(
            sent: sent.load(ordering: .relaxed), partlySent: partlySent.load(ordering: .relaxed),
            deferred: deferred.load(ordering: .relaxed), joinedSends: joinedSends.load(ordering: .relaxed),
            joinedFrames: joinedFrames.load(ordering: .relaxed))
    }
}
