import CLWS

/// State of one accepted WebSocket. Owned by `ServerCore.connections` and
/// touched only on the server's loop thread.
///
/// One of these lives as long as its connection, so it keeps only what is
/// needed after the handshake (the rest of `ConnectionInfo` went to `onOpen`;
/// the server's bounds are passed where they apply), with the one-byte fields
/// last, packed together: at 10,000 idle connections every 16 bytes of it (a
/// malloc size class) are 160 KB.
final class ServerConnection {
    /// A close waiting for the next writable callback. On the heap: a
    /// connection holds one only while it closes.
    final class PendingClose {
        let code: CloseCode
        let reason: String
        /// Write queued control messages first (user close) or not (overflow, shutdown).
        let flushFirst: Bool

        init(code: CloseCode, reason: String, flushFirst: Bool) {
            self.code = code
            self.reason = reason
            self.flushFirst = flushFirst
        }
    }

    let id: ConnectionID
    let wsi: OpaquePointer
    /// The peer's address (`ConnectionInfo.remoteAddress`), for the caps' bookkeeping at close.
    let remoteAddress: String
    var slots = OutboundSlots()
    var assembler = MessageAssembler()
    /// When the pending writable request was made (lws µs): how long the socket has not drained.
    var writeWaitSinceUS: Int64 = 0
    /// When the peer last sent anything (a message or a pong), lws_now_usecs.
    var lastHeardUS: Int64
    var pendingClose: PendingClose?
    /// Messages handed to lws so far (both lanes; wraps after 2³² of them).
    /// 32 bits, beside the 32-bit fields below, so that the object fits its
    /// malloc size class (`written()` counts one).
    private(set) var messagesWritten: UInt32 = 0
    /// The code to report on close: the peer's, or ours if we closed first.
    var closeCode: CloseCode?
    /// What the sweep last saw of the peer's acknowledgements (`ServerCore.sweepIdle`).
    var ackWatch = AckWatch()
    /// An `/echo` connection (handled inside the server, never reported to the handlers).
    let isEcho: Bool
    /// The per-connection flags below, in one byte.
    private var flags = Flags()

    /// lws_callback_on_writable was asked for and SERVER_WRITEABLE not yet seen.
    var writeRequested: Bool {
        get { flags.contains(.writeRequested) }
        set { flags.set(.writeRequested, newValue) }
    }
    /// A close frame was handed to lws (the callback returned -1); lws owns the rest.
    var closing: Bool {
        get { flags.contains(.closing) }
        set { flags.set(.closing, newValue) }
    }
    /// A keepalive PING is waiting for the next writable callback.
    var pingDue: Bool {
        get { flags.contains(.pingDue) }
        set { flags.set(.pingDue, newValue) }
    }
    /// A PING went out and nothing was heard since.
    var pingSent: Bool {
        get { flags.contains(.pingSent) }
        set { flags.set(.pingSent, newValue) }
    }
    /// A frame for it waits in the loop's `BatchedSends` (until the pass ends):
    /// nothing else may be written to its socket before that one.
    var inBatch: Bool {
        get { flags.contains(.inBatch) }
        set { flags.set(.inBatch, newValue) }
    }
    /// It is in the server's `owing` queue: frames wait in its frame lane for
    /// the next `drainOwedFrames`.
    var isOwed: Bool {
        get { flags.contains(.isOwed) }
        set { flags.set(.isOwed, newValue) }
    }
    /// A message was written to it since the last sweep looked at its acknowledgements.
    var wroteSinceSweep: Bool {
        get { flags.contains(.wroteSinceSweep) }
        set { flags.set(.wroteSinceSweep, newValue) }
    }

    private struct Flags: OptionSet {
        let rawValue: UInt8
        static let writeRequested = Flags(rawValue: 1 << 0)
        static let closing = Flags(rawValue: 1 << 1)
        static let pingDue = Flags(rawValue: 1 << 2)
        static let pingSent = Flags(rawValue: 1 << 3)
        static let inBatch = Flags(rawValue: 1 << 4)
        static let wroteSinceSweep = Flags(rawValue: 1 << 5)
        static let isOwed = Flags(rawValue: 1 << 6)

        mutating func set(_ flag: Flags, _ on: Bool) {
            if on { insert(flag) } else { remove(flag) }
        }
    }

    init(id: ConnectionID, wsi: OpaquePointer, remoteAddress: String, isEcho: Bool) {
        self.id = id
        self.wsi = wsi
        self.remoteAddress = remoteAddress
        self.isEcho = isEcho
        lastHeardUS = lws_now_usecs()
        assembler = MessageAssembler()
    }

    /// Accepts no more outbound work once a close is pending or under way.
    var acceptsSends: Bool { !closing && pendingClose == nil }

    /// Loop thread: `count` messages were handed to lws (or the kernel) for this connection.
    func written(_ count: Int = 1) {
        messagesWritten &+= UInt32(truncatingIfNeeded: count)
        wroteSinceSweep = true
    }

    /// The peer showed it is alive (loop thread).
    func heard() {
        lastHeardUS = lws_now_usecs()
        pingSent = false
    }

    /// Loop thread: drops the connection without a close frame (its socket is
    /// dead or its peer answers nothing). lws closes it soon; CLOSED reports it.
    func drop() {
        closing = true
        slots.removeAll()
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    func requestWrite() {
        guard !writeRequested else { return }
        writeRequested = true
        writeWaitSinceUS = lws_now_usecs()
        lws_callback_on_writable(wsi)
    }

    /// Loop thread: closes a peer that stopped reading (its socket has not
    /// drained, or it acknowledged nothing, for too long). It reads nothing, so
    /// no close handshake can complete: the close frame (1008 "too slow") is
    /// attempted and the socket closed at once; the handler's close reports 1008.
    func closeSlow() {
        closing = true
        closeCode = .policyViolation
        slots.removeAll()
        LWS.setCloseReason(wsi, .policyViolation, "too slow")
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }
}

/// The sweep's view of a peer's TCP acknowledgements: whether they advanced
/// between two sweeps while bytes waited for the peer. Five bytes, because
/// one lives in every connection.
struct AckWatch {
    /// The peer's acknowledged byte count at the last look (low 32 bits: only
    /// compared for change, and 4 GiB between two sweeps a second apart is
    /// beyond any follower).
    var acknowledged: UInt32 = 0
    /// Consecutive sweeps that found bytes waiting and none acknowledged since the one before.
    var stalledSweeps: UInt8 = 0
}

/// A snapshot of one connection's send lanes (loop thread).
public struct ConnectionStats: Sendable, Hashable {
    /// Messages waiting in the ordered control lane.
    public let queuedControlMessages: Int
    public let queuedControlBytes: Int
    /// Whether the frame lane holds an unwritten frame.
    public let hasPendingFrame: Bool
    /// Frames dropped because a newer one replaced them before being written.
    public let framesReplaced: Int
    /// Messages handed to lws_write so far (both lanes).
    public let messagesWritten: Int
}
