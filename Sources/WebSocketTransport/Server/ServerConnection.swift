import CLWS

/// State of one accepted WebSocket. Owned by `ServerCore.connections` and
/// touched only on the server's loop thread.
final class ServerConnection {
    struct PendingClose {
        var code: CloseCode
        var reason: String
        /// Write queued control messages first (user close) or not (overflow, shutdown).
        var flushFirst: Bool
    }

    let info: ConnectionInfo
    let wsi: OpaquePointer
    let isEcho: Bool
    var slots: OutboundSlots
    var assembler: MessageAssembler
    /// lws_callback_on_writable was asked for and SERVER_WRITEABLE not yet seen.
    var writeRequested = false
    /// When the pending writable request was made (lws µs): how long the socket has not drained.
    var writeWaitSinceUS: Int64 = 0
    var pendingClose: PendingClose?
    /// A close frame was handed to lws (the callback returned -1); lws owns the rest.
    var closing = false
    /// The code to report on close: the peer's, or ours if we closed first.
    var closeCode: CloseCode?
    var messagesWritten = 0
    /// When the peer last sent anything (a message or a pong), lws_now_usecs.
    var lastHeardUS: Int64
    /// A keepalive PING is waiting for the next writable callback.
    var pingDue = false
    /// A PING went out and nothing was heard since.
    var pingSent = false

    var id: ConnectionID { info.id }

    init(
        info: ConnectionInfo, wsi: OpaquePointer, isEcho: Bool,
        limits: SendQueueLimits, maxMessageSize: Int
    ) {
        self.info = info
        self.wsi = wsi
        self.isEcho = isEcho
        slots = OutboundSlots(limits: limits)
        lastHeardUS = lws_now_usecs()
        assembler = MessageAssembler(maxSize: maxMessageSize)
    }

    /// Accepts no more outbound work once a close is pending or under way.
    var acceptsSends: Bool { !closing && pendingClose == nil }

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

    /// Loop thread: closes a peer whose socket has not drained for too long.
    /// It reads nothing, so no close handshake can complete: the close frame
    /// (1008 "too slow") is attempted and the socket closed at once; the
    /// handler's close reports 1008.
    func closeSlow() {
        closing = true
        closeCode = .policyViolation
        slots.removeAll()
        LWS.setCloseReason(wsi, .policyViolation, "too slow")
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }
}

/// A snapshot of one connection's send lanes (loop thread).
public struct ConnectionStats: Sendable, Hashable {
    /// Messages waiting in the ordered control lane.
    public let queuedControlMessages: Int
    public let queuedControlBytes: Int
    /// Whether the latest-frame slot holds an unwritten frame (0 or 1 frame).
    public let hasPendingFrame: Bool
    /// Frames dropped because a newer one replaced them before being written.
    public let framesReplaced: Int
    /// Messages handed to lws_write so far (both lanes).
    public let messagesWritten: Int
}
