import CamHubProtocol
import CameraCore
import Foundation
import HubCore
import WebSocketTransport

/// Wall clock in milliseconds since the Unix epoch (the hub's `time` unit).
public func wallClockMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

/// Monotonic seconds (for deadlines and durations).
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// What a client says in `hello`.
public struct HelloOptions: Sendable, Hashable {
    public var room: String
    public var role: String
    public var name: String?
    public var token: String?
    public var rate: Double?
    public var viewport: Viewport?
    /// Event subscriptions (`hello.events`); nil: the role's default.
    public var events: [String]?
    /// How the client fits the room's camera to its screen (`hello.fit`); nil: the hub's default, same.
    public var fit: String?
    /// How frames come (`hello.encoding`): binary by default, a third of the bytes of JSON.
    public var encoding = FrameEncoding.binary

    public init(
        room: String, role: String, name: String? = nil, token: String? = nil,
        rate: Double? = nil, viewport: Viewport? = nil, events: [String]? = nil
    ) {
        self.room = room
        self.role = role
        self.name = name
        self.token = token
        self.rate = rate
        self.viewport = viewport
        self.events = events
    }

    /// The typed `hello` these options say. Throws what the hub would answer
    /// to a wrong room name, role, event or fit, in its words ("room: may only contain …").
    public func message() throws(ProtocolError) -> Hello {
        func wrong(_ error: CameraInputError) -> ProtocolError { ProtocolError(.badMessage, error.description, ref: "hello") }
        let roomName: RoomName
        do { roomName = try RoomName(validating: room) } catch { throw wrong(error) }
        guard let role = Role(rawValue: role) else {
            throw ProtocolError(.badMessage, "role: unknown role '\(self.role)' (known: \(Role.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var hello = Hello(room: roomName, role: role, name: name, token: token, rate: rate, viewport: viewport ?? Hello.defaultViewport)
        hello.events = try events.map { names throws(ProtocolError) in try EventSubscriptions(names: names) }
        if let fit {
            guard let mode = FitMode(rawValue: fit) else {
                throw ProtocolError(.badMessage, "fit: unknown fit '\(fit)' (known: \(FitMode.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            hello.fit = mode
        }
        hello.encoding = encoding
        return hello
    }

    /// Checks the `hello` as a hub ticking at `tick` Hz would (its rate must lie
    /// within 1…tick): the error is the one that hub would send, in its words
    /// ("rate: must be within …"), from the hub's own decoder.
    public func validate(tick: Double) throws(ProtocolError) {
        _ = try ClientMessage.decode(try text(), tick: tick)
    }

    /// The `hello` message text (the protocol's encoder writes it).
    public func text() throws(ProtocolError) -> String { ClientMessage.hello(try message()).json }
}

/// One WebSocket to the hub on its own client loop thread, used from an
/// ordinary thread: `join` blocks until `welcome`, `next` waits for the
/// following message. Messages are stamped with the local wall clock on the
/// loop thread as they arrive (for latency). What the loop thread hands over
/// goes through a `HubInbox`; everything else is set before `join` returns.
/// For `camhub replay`, `story import`, the bench's presenters and tests;
/// `present` and `follow` join with CamHubKit (`HelloOptions.join`).
public final class HubConnection: Sendable {
    public struct Received: Sendable {
        /// The message's JSON text (a binary frame as the JSON frame that says the same).
        public let text: String
        public let message: HubToClient
        /// Local wall clock (ms since the epoch) when the message arrived.
        public let localTime: Double
    }

    public enum Item: Sendable {
        case message(Received)
        /// The connection ended (the last item).
        case closed(ClientCloseEvent)
    }

    public let url: HubURL
    private let client: WebSocketClient
    private let inbox: HubInbox
    private let connection: ConnectionID
    public let welcome: Welcome?

    private init(url: HubURL, client: WebSocketClient, inbox: HubInbox, connection: ConnectionID, welcome: Welcome) {
        self.url = url
        self.client = client
        self.inbox = inbox
        self.connection = connection
        self.welcome = welcome
    }

    /// Connects, sends `hello` and waits for `welcome` (or throws the hub's error).
    public static func join(_ url: HubURL, hello: HelloOptions, timeout: Double = 10) throws(ClientError) -> HubConnection {
        let text: String
        do { text = try hello.text() } catch { throw ClientError("hello: \(error.message)") }
        var configuration = ClientConfiguration()
        configuration.connectTimeoutSeconds = 10
        configuration.tls = url.clientTLS
        let client = WebSocketClient(configuration: configuration)
        let inbox = HubInbox()
        do { try client.start(handlers(inbox)) } catch { throw ClientError("could not start the WebSocket client: \(error)") }
        let deadline = monotonicSeconds() + timeout
        let connection = client.connect(url.naming(room: hello.room).connectRequest())
        func fail(_ message: String) -> ClientError {
            close(connection, of: client, inbox: inbox)
            return ClientError(message)
        }
        guard inbox.waitOpen(until: deadline) else {
            let why = inbox.closeEvent.map(describe) ?? "timed out after \(fixed(timeout, 0)) s"
            throw fail("could not connect to \(url): \(why)")
        }
        client.send(.text(text), to: connection)
        while true {
            switch inbox.next(until: deadline) {
            case nil:
                throw fail("no welcome from \(url) within \(fixed(timeout, 0)) s")
            case .message(let r)?:
                switch r.message {
                case .welcome(let w, _):
                    return HubConnection(url: url, client: client, inbox: inbox, connection: connection, welcome: w)
                case .error(let e):
                    throw fail("hello refused: \(e.code): \(e.message)")
                default:
                    continue
                }
            case .closed(let event)?:
                throw fail("the hub closed the connection during hello (\(describe(event)))")
            }
        }
    }

    /// The client loop's callbacks: each hands what happened to `inbox`.
    private static func handlers(_ inbox: HubInbox) -> ClientHandlers {
        ClientHandlers(
            onOpen: { _ in inbox.opened() },
            onMessage: { _, message in
                let now = wallClockMilliseconds()
                switch message {
                case .text(let text):
                    inbox.received(Received(text: text, message: HubToClient.reading(text: text), localTime: now))
                case .binary(let bytes):
                    let (message, text) = HubToClient.reading(binary: bytes)
                    inbox.received(Received(text: text, message: message, localTime: now))
                }
            },
            onClose: { _, event in inbox.closed(event) })
    }

    /// Sends one text message (any thread).
    public func send(_ text: String) {
        client.send(.text(text), to: connection)
    }

    /// The next message or the close, waiting at most `timeout` seconds (nil: none in time).
    public func next(timeout: Double) -> Item? {
        inbox.next(until: monotonicSeconds() + max(0, timeout))
    }

    /// Closes with 1000 and stops the loop thread (blocks up to ~1 s). Idempotent.
    public func shutdown() { Self.close(connection, of: client, inbox: inbox) }

    /// Closes `connection` with 1000 unless it has ended, waits up to 1 s for
    /// the close, and stops `client`'s loop thread.
    private static func close(_ connection: ConnectionID, of client: WebSocketClient, inbox: HubInbox) {
        if inbox.closeEvent == nil {
            client.close(connection, code: .normal, reason: "bye")
            _ = inbox.waitClosed(until: monotonicSeconds() + 1)
        }
        client.shutdown()
    }

    deinit { client.shutdown() }
}

/// "closed 1001", "refused: connection refused", … for people.
package func describe(_ event: ClientCloseEvent) -> String {
    if !event.wasOpen { return event.error ?? "connection failed" }
    if let code = event.code { return "closed \(code.rawValue)" }
    return "connection dropped"
}
