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
/// loop thread as they arrive (for latency).
///
/// `@unchecked Sendable`: `items`, `head`, `isOpen` and `closeEvent` are guarded
/// by `condition` (the loop thread appends, the caller's thread takes);
/// `connection` and the welcome fields are written in `join` before the
/// connection is handed to anyone; the rest is immutable.
public final class HubConnection: @unchecked Sendable {
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
    private let condition = NSCondition()
    private var items: [Item] = []
    private var head = 0
    private var isOpen = false
    private var closeEvent: ClientCloseEvent?
    private var connection: ConnectionID?
    public private(set) var welcome: Welcome?
    /// The `welcome`'s `time` (the hub's wall clock, ms since the epoch).
    public private(set) var welcomeTime: Double?
    /// The `welcome` exactly as the hub sent it.
    public private(set) var welcomeText: String?

    private init(url: HubURL) {
        self.url = url
        var configuration = ClientConfiguration()
        configuration.connectTimeoutSeconds = 10
        configuration.tls = url.clientTLS
        client = WebSocketClient(configuration: configuration)
    }

    /// Connects, sends `hello` and waits for `welcome` (or throws the hub's error).
    public static func join(_ url: HubURL, hello: HelloOptions, timeout: Double = 10) throws(ClientError) -> HubConnection {
        let c = HubConnection(url: url)
        do { try c.start() } catch { throw ClientError("could not start the WebSocket client: \(error)") }
        let deadline = monotonicSeconds() + timeout
        c.connection = c.client.connect(url.connectRequest())
        guard c.waitOpen(until: deadline) else {
            let why = c.closeReason ?? "timed out after \(fixed(timeout, 0)) s"
            c.shutdown()
            throw ClientError("could not connect to \(url): \(why)")
        }
        let text: String
        do { text = try hello.text() } catch {
            c.shutdown()
            throw ClientError("hello: \(error.message)")
        }
        c.send(text)
        while true {
            guard let item = c.next(timeout: deadline - monotonicSeconds()) else {
                c.shutdown()
                throw ClientError("no welcome from \(url) within \(fixed(timeout, 0)) s")
            }
            switch item {
            case .message(let r):
                switch r.message {
                case .welcome(let w, let time):
                    c.welcome = w
                    c.welcomeTime = time
                    c.welcomeText = r.text
                    return c
                case .error(let e):
                    c.shutdown()
                    throw ClientError("hello refused: \(e.code): \(e.message)", hubError: e)
                default:
                    continue
                }
            case .closed(let event):
                c.shutdown()
                throw ClientError("the hub closed the connection during hello (\(describe(event)))")
            }
        }
    }

    private func start() throws {
        try client.start(
            ClientHandlers(
                onOpen: { [weak self] _ in
                    guard let self else { return }
                    self.condition.lock()
                    self.isOpen = true
                    self.condition.broadcast()
                    self.condition.unlock()
                },
                onMessage: { [weak self] _, message in
                    guard let self else { return }
                    let now = wallClockMilliseconds()
                    let received: Received
                    switch message {
                    case .text(let text):
                        received = Received(text: text, message: HubToClient.reading(text: text), localTime: now)
                    case .binary(let bytes):
                        let (message, text) = HubToClient.reading(binary: bytes)
                        received = Received(text: text, message: message, localTime: now)
                    }
                    self.condition.lock()
                    self.items.append(.message(received))
                    self.condition.broadcast()
                    self.condition.unlock()
                },
                onClose: { [weak self] _, event in
                    guard let self else { return }
                    self.condition.lock()
                    self.closeEvent = event
                    self.items.append(.closed(event))
                    self.condition.broadcast()
                    self.condition.unlock()
                }))
    }

    private var closeReason: String? {
        condition.lock()
        defer { condition.unlock() }
        return closeEvent.map(describe)
    }

    private func waitOpen(until deadline: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !isOpen && closeEvent == nil {
            let left = deadline - monotonicSeconds()
            if left <= 0 { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
        return isOpen
    }

    /// Sends one text message (any thread).
    public func send(_ text: String) {
        guard let connection else { return }
        client.send(.text(text), to: connection)
    }

    /// The next message or the close, waiting at most `timeout` seconds (nil: none in time).
    public func next(timeout: Double) -> Item? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = monotonicSeconds() + max(0, timeout)
        while head >= items.count {
            let left = deadline - monotonicSeconds()
            if left <= 0 { return nil }
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
        let item = items[head]
        head += 1
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    /// True once the connection has ended.
    public var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closeEvent != nil
    }

    /// Closes with 1000 and stops the loop thread (blocks up to ~1 s). Idempotent.
    public func shutdown() {
        if let connection, !isClosed {
            client.close(connection, code: .normal, reason: "bye")
            let deadline = monotonicSeconds() + 1
            condition.lock()
            while closeEvent == nil, monotonicSeconds() < deadline {
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
            }
            condition.unlock()
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
