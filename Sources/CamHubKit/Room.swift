import CamHubProtocol
import CameraCore
import CameraMotion
import Logging
import WSClient

/// How one of this client's animations ended (`finished`, `cancelled` or
/// `superseded`), where the camera was then, and who ended it.
public typealias AnimationReport = AnimationMessage

/// A fresh signed token for the session (`CamHub.connect(getToken:)`).
public typealias TokenSource = @Sendable () async throws -> String

/// A joined room: the room's state as the hub last said it, its frames and
/// events as asynchronous sequences, and the commands that return the hub's
/// answer. An actor: every method may be called from any task.
///
/// One WebSocket at a time, run by swift-websocket's `WebSocketClient` on
/// swift-nio's event loops; what arrives is decoded with the protocol's own
/// decoder (`HubToClient`) and applied here, in order. A lost connection is
/// made again with backoff and jitter and the same hello (`Room+Connection`).
public actor Room {
    /// This client's id in the room (the hub's; a new one after each reconnect), its role and the frame rate it gets.
    public internal(set) var client = ""
    public internal(set) var role = Role.follower
    public internal(set) var rate = 0.0
    /// The hub's tick rate (Hz) as the newest welcome said it.
    public internal(set) var tick = 0.0
    /// The room's camera and limits as of the newest frame, welcome or `limitsChanged`.
    public internal(set) var camera = Camera()
    public internal(set) var limits = CameraLimits()
    /// The newest frame's `seq`.
    public internal(set) var seq: UInt64 = 0
    /// The newest welcome, as the hub sent it (its roster and animations are kept up to date below, not there).
    public internal(set) var welcome: Welcome?
    /// Where the connection is; every change also comes in `changes`.
    public internal(set) var connection = ConnectionState.connecting
    /// The session token's expiry (seconds since 1970) as the hub last said it (`tokenExpiring`, `tokenRefreshed`).
    public internal(set) var tokenExpiry: Double?
    /// How many times the room was joined again after a lost connection.
    public internal(set) var reconnects = 0
    /// The room's storyboard as everyone hears it (its length, the step it is on with its
    /// title and notes, autoplay, whether drivers may step it); nil while it has none.
    public internal(set) var story: StorySummary?
    /// Where the room's explorers look, as the newest `viewports` event said (presenters
    /// and drivers; a follower never gets them): at most 50 regions, and how many more.
    public internal(set) var viewports = RoomViewports(clients: [], others: 0)
    var people = RoomPeople()
    var live = LiveAnimations()
    /// The frames as they came (`DisplayClock` times), for `camera(atDisplayTime:)`.
    var playout = Playout()

    /// Whether the room is joined on an open WebSocket now.
    public var isConnected: Bool { connection.isOpen }
    /// The listed members (presenters, drivers, the first followers) with their
    /// follow states: the welcome's roster, then `joined`, `left`,
    /// `followChanged` and `presenterChanged`.
    public var roster: [RosterEntry] { people.entries }
    /// The room's running and queued animations as the hub reports them
    /// (welcome, then each `animation` report), oldest first.
    public var animations: [RoomAnimation] { live.entries(me: client) }

    /// The room's frames, in order, as they come, across reconnects (one consumer).
    public nonisolated let frames: AsyncStream<HubFrame>
    /// The room's events this client is subscribed to, as they come (one consumer).
    public nonisolated let events: AsyncStream<HubEvent>
    /// Connection states, welcomes and token refreshes (one consumer).
    public nonisolated let changes: AsyncStream<RoomChange>
    /// Every message the hub sent, welcomes included, as it came, with the time it
    /// arrived and its text (one consumer), after the room's state took it in.
    public nonisolated let messages: AsyncStream<ReceivedMessage>

    let frameSink: AsyncStream<HubFrame>.Continuation
    let eventSink: AsyncStream<HubEvent>.Continuation
    let changeSink: AsyncStream<RoomChange>.Continuation
    let messageSink: AsyncStream<ReceivedMessage>.Continuation
    let url: String
    let logger = Logger(label: "camhub.kit")
    /// The hello of every connection (its token replaced by refreshes).
    var hello: Hello
    let getToken: TokenSource?
    /// nil: a lost connection is not made again.
    let backoff: Backoff?
    /// Seconds from the start of a connection to the hub's welcome; the socket is given up after.
    let joinTimeout: Double
    /// Set when the current socket was given up for want of a welcome.
    var overdue: ConnectionClose?
    /// The number of the current socket (messages of an older one are ignored), and the attempt waiting for its end.
    var generation = 0
    var attemptEnd: CheckedContinuation<ConnectionClose, Never>?
    var outbound: WebSocketOutboundWriter?
    /// Whether the current socket was welcomed, and the hub's refusal of its hello.
    var welcomed = false
    var refusal: CamHubError?
    /// What lost the connection, kept while reconnect attempts fail; nil once welcomed.
    var lostBecause: ConnectionClose?
    var attempt = 0
    /// New tokens fetched for token refusals since the last welcome (at most `maxTokenRetries`).
    var tokenRetries = 0
    static let maxTokenRetries = 3
    var firstJoin: CheckedContinuation<Void, any Error>?
    var supervisor: Task<Void, Never>?
    var stopped = false
    var answers = Answers()
    var nextID = 0
    /// The largest message taken from the hub (a welcome lists the roster and the route).
    static let largestMessage = 1 << 20

    /// How a `wss://` hub's certificate is checked.
    let tls: HubTLS

    init(url: String, hello: Hello, getToken: TokenSource?, backoff: Backoff?, joinTimeout: Double, tls: HubTLS) {
        self.url = url
        self.tls = tls
        self.joinTimeout = joinTimeout
        self.hello = hello
        self.getToken = getToken
        self.backoff = backoff
        (frames, frameSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        (changes, changeSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        (messages, messageSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// Closes the connection for good (the room goes on for everyone else);
    /// commands still waiting fail. Returns once the connection has ended.
    public func close() async {
        stopped = true
        try? await outbound?.close(.normalClosure, reason: nil)
        supervisor?.cancel()
        // (a socket still in its handshake is not waited for)
        attemptEnd?.resume(returning: ConnectionClose(code: 1000, reason: "closed"))
        attemptEnd = nil
        await supervisor?.value
        finish(nil)
    }
}
