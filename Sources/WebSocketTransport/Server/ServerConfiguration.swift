/// Identifies one WebSocket connection of a server or client. Small, Sendable,
/// never reused within a process run (a 64-bit counter).
///
/// Per-connection user data: keep a `[ConnectionID: YourSession]` dictionary
/// on the loop thread (fill it in `onOpen`, drop it in `onClose`).
public struct ConnectionID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: ConnectionID, b: ConnectionID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
    /// The index of the loop that owns this connection, among `count` loops
    /// sharing a port (`ServerConfiguration.loopIndex`).
    public func loop(among count: Int) -> Int { Int(rawValue % UInt64(count)) }
}

/// What the server knows about a freshly opened WebSocket connection.
public struct ConnectionInfo: Sendable, Hashable {
    public let id: ConnectionID
    /// The request path, e.g. "/hub".
    public let path: String
    /// The negotiated subprotocol, nil when none.
    public let subprotocol: String?
    /// The Origin header, nil when the client sent none (non-browser).
    public let origin: String?
    /// The peer's IP address as text.
    public let remoteAddress: String
}

/// A WebSocket path the server accepts, with the subprotocol it requires.
///
/// `subprotocol == nil`: the client must not ask for one (plain WebSocket).
/// Otherwise the client must offer exactly this name among its
/// `Sec-WebSocket-Protocol` values; it is selected and echoed back.
public struct WebSocketEndpoint: Sendable, Hashable {
    public var path: String
    public var subprotocol: String?
    public init(path: String, subprotocol: String? = nil) {
        self.path = path
        self.subprotocol = subprotocol
    }
}

/// Which browser origins may open WebSockets. Requests without an Origin
/// header (non-browser clients) are always allowed.
public enum OriginPolicy: Sendable {
    case allowAll
    /// Exact, case-sensitive match on the Origin header, e.g. "http://127.0.0.1:8080".
    case allowList([String])
    case custom(@Sendable (String) -> Bool)

    func allows(_ origin: String?) -> Bool {
        guard let origin else { return true }
        switch self {
        case .allowAll: return true
        case .allowList(let list): return list.contains(origin)
        case .custom(let check): return check(origin)
        }
    }
}

/// Bounds of a connection's ordered control lane.
public struct SendQueueLimits: Sendable, Hashable {
    public var maxMessages: Int
    public var maxBytes: Int
    public init(maxMessages: Int = 256, maxBytes: Int = 1 << 20) {
        self.maxMessages = maxMessages
        self.maxBytes = maxBytes
    }
}

/// Keepalive (whole seconds, checked once a second): the server sends a PING
/// to a connection it has heard nothing from (no message, no PONG) for
/// `pingAfterSeconds`, and drops one it has heard nothing from for
/// `hangupAfterSeconds`. A dropped connection reports close code nil (no
/// close frame is sent to a peer that reads nothing).
public struct IdlePolicy: Sendable, Hashable {
    public var pingAfterSeconds: UInt16
    public var hangupAfterSeconds: UInt16
    /// Defaults: ping after 20 s, drop 30 s after that ping went unanswered.
    public init(pingAfterSeconds: UInt16 = 20, hangupAfterSeconds: UInt16 = 50) {
        precondition(hangupAfterSeconds > pingAfterSeconds, "hangup must come after the ping")
        self.pingAfterSeconds = pingAfterSeconds
        self.hangupAfterSeconds = hangupAfterSeconds
    }
}

/// An HTTP request as seen by a dynamic handler.
public struct HTTPRequest: Sendable, Hashable {
    /// GET and HEAD reach every handler; POST, PUT and DELETE only `httpAPIHandlers`.
    public enum Method: String, Sendable {
        case get = "GET"
        case head = "HEAD"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
    }
    public let method: Method
    /// Decoded, normalized path without the query string.
    public let path: String
    /// The `Authorization` header, nil when absent.
    public let authorization: String?
    /// The `Host` header (e.g. "127.0.0.1:8080"), nil when absent.
    public var host: String?
    /// The query's arguments, decoded (`httpAPIHandlers` only; a repeated name keeps its first value).
    public var query: [String: String] = [:]
    /// The request body (`httpAPIHandlers` only; at most `ServerConfiguration.maxRequestBody` bytes).
    public var body: [UInt8] = []
    /// The `Content-Type` header (`httpAPIHandlers` only), nil when absent.
    public var contentType: String?
    public init(method: Method, path: String, authorization: String? = nil, host: String? = nil) {
        self.method = method
        self.path = path
        self.authorization = authorization
        self.host = host
    }
}

/// What a dynamic handler returns.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    /// More headers by lower-case name (e.g. "content-encoding"); a
    /// "cache-control" here replaces the default "no-store".
    public var headers: [String: String] = [:]
    public init(status: Int = 200, contentType: String, body: [UInt8], headers: [String: String] = [:]) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }
    public static func text(_ s: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(s.utf8))
    }
    public static func json(_ s: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Array(s.utf8))
    }
}

/// A dynamic GET/HEAD handler, called on the loop thread.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// A request/response API handler (`httpAPIHandlers`), called on the loop
/// thread with the whole request; it answers through the responder, at once
/// or later, from any thread.
public typealias HTTPAPIHandler = @Sendable (HTTPRequest, HTTPResponder) -> Void

/// Answers one API request, once (later calls are ignored), from any thread:
/// the response is written on the loop thread. A request whose connection
/// closed meanwhile is dropped.
public struct HTTPResponder: Sendable {
    let deliver: @Sendable (HTTPResponse) -> Void
    public init(_ deliver: @escaping @Sendable (HTTPResponse) -> Void) { self.deliver = deliver }
    public func respond(_ response: HTTPResponse) { deliver(response) }
}

/// A server certificate and its private key (PEM files): the server then
/// speaks only TLS (https:// and wss://) on its port.
public struct ServerTLS: Sendable, Hashable {
    public var certificateFile: String
    public var privateKeyFile: String
    public init(certificateFile: String, privateKeyFile: String) {
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
    }
}

/// Caps on WebSocket connections. An upgrade over a cap is answered with
/// HTTP 503 naming the cap (body and `x-websocket-refusal` header); the
/// connections already open are not affected. HTTP file requests are not counted.
public struct ConnectionLimits: Sendable, Hashable {
    /// Open WebSockets on the whole server.
    public var maxConnections: Int
    /// Open WebSockets from one peer address.
    public var maxConnectionsPerAddress: Int
    /// New WebSockets one peer address may open per second (and in a burst).
    public var newConnectionsPerSecondPerAddress: Double
    /// The per-address caps do not apply to loopback peers (127.0.0.0/8, ::1):
    /// a local load test, or a reverse proxy on the same machine through which
    /// every client would otherwise count as one address.
    public var exemptLoopback: Bool

    public init(
        maxConnections: Int = 20_000, maxConnectionsPerAddress: Int = 100,
        newConnectionsPerSecondPerAddress: Double = 20, exemptLoopback: Bool = true
    ) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.newConnectionsPerSecondPerAddress = newConnectionsPerSecondPerAddress
        self.exemptLoopback = exemptLoopback
    }
}

/// Everything a `WebSocketServer` needs; fixed once the server starts.
public struct ServerConfiguration: Sendable {
    /// Listen address. An IPv4 literal disables IPv6 on the socket.
    public var host = "127.0.0.1"
    /// 0 picks a free port; read `WebSocketServer.port` after `start`.
    public var port = 0
    /// Directory of static files served over HTTP at `/`; nil serves none.
    public var webRoot: String?
    /// More directories served under their URL prefixes (`/clients/js/` →
    /// `clients/js`); a request goes to the longest prefix it starts with,
    /// else to `webRoot`.
    public var staticMounts: [StaticMount] = []
    /// WebSocket paths with their subprotocols.
    public var endpoints: [WebSocketEndpoint] = []
    /// Largest accepted message (after reassembly); bigger closes with 1009.
    public var maxMessageSize = 8 * 1024
    /// Reject text messages that are not UTF-8 with close 1007.
    public var validateUTF8 = true
    public var originPolicy = OriginPolicy.allowAll
    public var idle = IdlePolicy()
    /// Bounds of each connection's control lane; overflow closes with 1008.
    public var sendQueueLimits = SendQueueLimits()
    /// Batches from another thread (`WebSocketServer.apply`) that may wait for
    /// this loop before they are merged into one (newest frame per connection,
    /// ordered messages kept): 16 is about a quarter second of 60 Hz ticks.
    public var maxQueuedBatches = 16
    /// TCP_NOTSENT_LOWAT set on each accepted WebSocket (Linux); 0 leaves it unset.
    public var notSentLowWatermark = 16 * 1024
    /// When true, `/echo` (no subprotocol) echoes every message back whole,
    /// under the same size and UTF-8 rules. Echo connections are handled
    /// inside the server and never reach the handlers.
    public var echo = false
    /// Dynamic GET/HEAD handlers by exact path (e.g. "/healthz"); they win
    /// over static files.
    public var httpHandlers: [String: HTTPHandler] = [:]
    /// Several servers may serve one port, each on its own loop thread: the
    /// one that listens hands accepted connections to the others (`handOff`,
    /// `WebSocketServer.adopt`). This server is number `loopIndex` of
    /// `loopCount`; its connection ids are `loopIndex + loopCount × n`
    /// (`ConnectionID.loop(among:)`).
    public var loopIndex: UInt64 = 0
    public var loopCount: UInt64 = 1
    /// The caps' bookkeeping shared by the loops of one port (nil: this
    /// server keeps its own, from `limits`).
    public var sharedAdmission: ConnectionAdmission?
    /// False: no listening socket; the server only serves the connections
    /// handed to it with `WebSocketServer.adopt(socket:)`.
    public var listens = true
    /// Loop thread, for each TCP connection the server accepts, before lws
    /// reads from it: offered the connection's descriptor and the target of
    /// its HTTP request ("/hub?room=demo"), peeked once its first bytes have
    /// arrived (`PendingAccepts`; nil when none came within a second, when
    /// they hold no plain HTTP request line, e.g. TLS, or when the loop runs
    /// on lws's own poll loop and places at once). Return true when it took
    /// the descriptor (e.g. passed it to another server's `adopt`); false
    /// leaves the connection on this server. nil keeps every connection.
    public var handOff: (@Sendable (_ socket: Int32, _ requestTarget: String?) -> Bool)?
    /// Dynamic GET/HEAD handlers by path prefix ending in "/" (e.g. "/tiles/"),
    /// tried after the exact paths; the longest matching prefix wins.
    public var httpPrefixHandlers: [String: HTTPHandler] = [:]
    /// Request/response APIs by path prefix ending in "/" (e.g. "/api/v1/"):
    /// every method and the request body, answered asynchronously. Tried first.
    public var httpAPIHandlers: [String: HTTPAPIHandler] = [:]
    /// The largest request body an API handler gets; a longer one is answered 413.
    public var maxRequestBody = 64 * 1024
    /// Bytes lws reads per RECEIVE callback. lws allocates this buffer for
    /// every connection for its whole life (plus 20 bytes: a 160-byte malloc
    /// chunk at 128), so it is part of every idle connection's memory: 128 B
    /// with the rest kept small makes an idle follower ~1.95 KiB of hub RSS
    /// (4 KiB made it ~6 KiB). Not below 125: lws gathers a PING or CLOSE
    /// payload (up to 125 bytes) in this buffer, and cuts one that does not
    /// fit (the PONG would not echo the PING whole). Client messages are
    /// small (a command is ~100–250 B); bigger ones arrive in several
    /// callbacks and are reassembled, up to `maxMessageSize`.
    public var receiveBufferSize = 128
    /// Seconds a client may stop reading before it is closed with 1008 "too
    /// slow"; checked once a second; 0 never closes. Stopped reading means
    /// either: bytes wait in the kernel for it and it acknowledged none of them
    /// since the last check (TCP_INFO; the kernel's buffers may still be taking
    /// our writes), or its socket has not drained (a write waits for it to
    /// become writable). Meanwhile it holds at most its newest frame and
    /// `sendQueueLimits` of control messages.
    public var slowClientTimeout: Double = 10
    /// SO_SNDBUF set on each accepted WebSocket, in bytes (the kernel doubles
    /// it); 0 leaves the kernel's autotuning, which lets one socket grow to
    /// `tcp_wmem`'s maximum (4 MiB by default). The bound is what a client that
    /// stopped reading can pin of kernel memory until `slowClientTimeout`
    /// closes it: 10,000 of them ~1.3 GB at 64 KiB, ~40 GB unbounded. A frame
    /// is a few hundred bytes, so followers lose nothing by it; plain HTTP
    /// (tiles) keeps the autotuning.
    public var socketSendBuffer = 64 * 1024
    /// Sent as `Content-Security-Policy` with every static file (nil: none).
    public var contentSecurityPolicy: String?
    /// Largest message `/echo` accepts (nil: `maxMessageSize`).
    public var echoMaxMessageSize: Int?
    /// Caps on open and new WebSocket connections.
    public var limits = ConnectionLimits()
    /// TLS certificate and key; nil serves plain http:// and ws://.
    public var tls: ServerTLS?
    /// Frames (`sendLatest`) wait in their connection's lane until the loop's
    /// pass ends and then go out in io_uring submissions, each connection's
    /// owed frames in one send, instead of one send(2) each (`BatchedSends`,
    /// `ServerCore.drainOwedFrames`). Only without TLS (TLS records are
    /// written by OpenSSL), and only where the kernel allows io_uring;
    /// elsewhere, and with `CAMHUB_IO_URING=off` in the environment, each
    /// frame is written with lws_write as before.
    public var batchedSends = true
    /// How long `shutdown()` waits, at most, for every client to be closed
    /// (its close frame written and acknowledged); the loop stops as soon as
    /// they are all gone.
    public var drainTimeout: Duration = .seconds(10)
    /// `shutdown()` closes the clients evenly over this long, so that an
    /// audience does not reconnect elsewhere all at once (50 or fewer are
    /// closed at once); zero closes them all at once.
    public var drainSpread: Duration = .zero

    public init() {}
}

/// A directory served over HTTP under a URL prefix.
public struct StaticMount: Sendable, Equatable {
    /// Starts and ends with `/` (`/clients/js/`).
    public var prefix: String
    public var directory: String

    public init(prefix: String, directory: String) {
        precondition(prefix.hasPrefix("/") && prefix.hasSuffix("/"), "a mount's prefix starts and ends with /")
        self.prefix = prefix
        self.directory = directory
    }
}
