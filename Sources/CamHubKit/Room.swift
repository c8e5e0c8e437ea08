import CamHubProtocol
import CameraCore
import CameraMotion
import Logging
import NIOCore
import WSClient

/// How one of this client's animations ended (`finished`, `cancelled` or
/// `superseded`), where the camera was then, and who ended it.
public typealias AnimationReport = AnimationMessage

/// A joined room: the room's state as the hub last said it, its frames and
/// events as asynchronous sequences, and the commands that return the hub's
/// answer. An actor: every method may be called from any task.
///
/// One WebSocket per room, run by swift-websocket's `WebSocketClient` on
/// swift-nio's event loops; what arrives is decoded with the protocol's own
/// decoder (`HubToClient`) and applied here, in order.
public actor Room {
    /// This client's id in the room (the hub's), its role and the frame rate it gets.
    public private(set) var client = ""
    public private(set) var role = Role.follower
    public private(set) var rate = 0.0
    /// The room's camera and limits as of the newest frame or welcome.
    public private(set) var camera = Camera()
    public private(set) var limits = CameraLimits()
    /// The newest frame's `seq`.
    public private(set) var seq: UInt64 = 0
    /// The listed members (presenters, drivers, the first followers), with their follow states.
    public private(set) var roster: [RosterEntry] = []
    /// Whether the WebSocket is open.
    public private(set) var isConnected = false

    /// The room's frames, in order, as they come (one consumer).
    public nonisolated let frames: AsyncStream<HubFrame>
    /// The room's events this client is subscribed to, as they come (one consumer).
    public nonisolated let events: AsyncStream<HubEvent>

    private let frameSink: AsyncStream<HubFrame>.Continuation
    private let eventSink: AsyncStream<HubEvent>.Continuation
    private let url: String
    private let logger = Logger(label: "camhub.kit")
    private var outbound: WebSocketOutboundWriter?
    private var opened: CheckedContinuation<Void, any Error>?
    private var connection: Task<Void, Never>?
    private var answers = Answers()
    private var nextID = 0
    /// The largest message taken from the hub (a welcome lists the roster and the route).
    static let largestMessage = 1 << 20

    init(url: String) {
        self.url = url
        (frames, frameSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    // MARK: Commands

    /// Jumps the camera (`set`); returns once the hub has it (a refusal throws).
    public func set(_ camera: CameraUpdate) async throws(CamHubError) {
        try await roundTrip(.set(camera))
    }

    /// Flies to `camera` (MapLibre's `flyTo`); returns how the flight ended.
    public func fly(
        to camera: CameraUpdate, duration: Double? = nil, speed: Double = FlyCommand.defaultSpeed,
        curve: Double = FlyCommand.defaultCurve, minZoom: Double? = nil, essential: Bool = false
    ) async throws(CamHubError) -> AnimationReport {
        var command = FlyCommand(id: newID(), camera: camera, duration: duration, speed: speed, curve: curve, minZoom: minZoom)
        command.essential = essential
        return try await animation(.fly(command), id: command.id!)
    }

    /// Eases to `camera` (MapLibre's `easeTo`); returns how the animation ended.
    public func ease(
        to camera: CameraUpdate, duration: Double = EaseCommand.defaultDuration, curve: TimingCurve = .easeInOut,
        essential: Bool = false
    ) async throws(CamHubError) -> AnimationReport {
        var command = EaseCommand(id: newID(), camera: camera, duration: duration, curve: curve)
        command.essential = essential
        return try await animation(.ease(command), id: command.id!)
    }

    /// Animates the properties `to` names (per-property animators); returns how the animation ended.
    public func animate(
        to: CameraUpdate, duration: Double, curve: TimingCurve = .easeInOut, delay: Double = 0, after: String? = nil
    ) async throws(CamHubError) -> AnimationReport {
        let command = AnimateCommand(id: newID(), to: to, duration: duration, curve: curve, delay: delay, after: after)
        return try await animation(.animate(command), id: command.id!)
    }

    /// Closes the connection (the room goes on for everyone else).
    public func close() async {
        try? await outbound?.close(.normalClosure, reason: nil)
        connection?.cancel()
    }

    // MARK: Asking the hub

    private func newID() -> String {
        nextID += 1
        return "swift\(nextID)"
    }

    /// Sends an animation command and waits for its end (or its refusal).
    private func animation(_ message: ClientMessage, id: String) async throws(CamHubError) -> AnimationReport {
        let me = client
        let answer = try await ask(message) { reply in
            switch reply {
            case .animation(let report, _): report.id == id && report.status.isEnd && (report.owner ?? me) == me
            case .error(let error): error.ref == id
            default: false
            }
        }
        guard case .animation(let report, _) = answer else { throw Self.failure(answer) }
        return report
    }

    /// Sends `message` and then a `ping`: the hub answers a connection in
    /// order, so the pong says the message was handled (its error, if any, came first).
    private func roundTrip(_ message: ClientMessage) async throws(CamHubError) {
        let ref = message.ref
        let t = Double(nextID + 1)
        nextID += 1
        let refused = answers.expect { reply in if case .error(let error) = reply { error.ref == ref } else { false } }
        let answer = try await ask(message, then: .ping(t: t)) { reply in
            if case .pong(let echoed, _) = reply { echoed == t } else { false }
        }
        if let error = answers.take(refused) { throw Self.failure(error) }
        _ = answer
    }

    /// Sends `message` (and `then`, if given) and returns the first reply `matches` accepts.
    private func ask(
        _ message: ClientMessage, then next: ClientMessage? = nil, until matches: @escaping @Sendable (HubToClient) -> Bool
    ) async throws(CamHubError) -> HubToClient {
        let key = answers.expect(matches)
        do {
            try await send(message)
            if let next { try await send(next) }
            return try await withCheckedThrowingContinuation { answers.wait(key, $0) }
        } catch let error as CamHubError {
            answers.forget(key)
            throw error
        } catch {
            answers.forget(key)
            throw CamHubError(.connection, "\(error)")
        }
    }

    private func send(_ message: ClientMessage) async throws(CamHubError) {
        guard let outbound, isConnected else { throw CamHubError(.connection, "the connection is closed") }
        do {
            try await outbound.writeTextMessage(String(decoding: message.encoded, as: UTF8.self))
        } catch {
            throw CamHubError(.connection, "\(error)")
        }
    }

    private static func failure(_ reply: HubToClient) -> CamHubError {
        if case .error(let error) = reply { return CamHubError(error) }
        return CamHubError(.protocolViolation, "unexpected \(reply.type)")
    }

    // MARK: The connection

    /// Connects, says `hello` and applies the welcome; throws the hub's refusal.
    func open(_ hello: Hello) async throws(CamHubError) {
        do {
            try await withCheckedThrowingContinuation { continuation in
                opened = continuation
                start()
            }
        } catch {
            throw error as? CamHubError ?? CamHubError(.connection, "\(error)")
        }
        let answer = try await ask(.hello(hello)) { reply in
            switch reply {
            case .welcome: true
            case .error(let error): error.ref == "hello"
            default: false
            }
        }
        guard case .welcome(let welcome, _) = answer else {
            await close()
            throw Self.failure(answer)
        }
        client = welcome.client
        role = welcome.role
        rate = welcome.rate
        camera = welcome.camera
        limits = welcome.limits
        seq = welcome.seq
        roster = welcome.roster
    }

    private func start() {
        let url = self.url
        let logger = self.logger
        var configuration = WebSocketClientConfiguration()
        configuration.additionalHeaders[.secWebSocketProtocol] = HubProtocol.subprotocol
        connection = Task {
            do {
                try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                    await self.attached(outbound)
                    for try await message in inbound.messages(maxSize: Self.largestMessage) {
                        await self.received(message)
                    }
                }
                self.ended(CamHubError(.connection, "the hub closed the connection"))
            } catch {
                self.ended(CamHubError(.connection, "\(error)"))
            }
        }
    }

    private func attached(_ writer: WebSocketOutboundWriter) {
        outbound = writer
        isConnected = true
        opened?.resume()
        opened = nil
    }

    private func ended(_ error: CamHubError) {
        isConnected = false
        outbound = nil
        opened?.resume(throwing: error)
        opened = nil
        answers.failAll(error)
        frameSink.finish()
        eventSink.finish()
    }

    private func received(_ message: WebSocketMessage) {
        let reply: HubToClient
        do {
            switch message {
            case .text(let text): reply = try HubToClient.decode(text)
            case .binary(let buffer): reply = try HubToClient.decode(binary: buffer.readableBytesView)
            }
        } catch {
            logger.warning("camhub: a message protocol v1 does not say: \(error)")
            return
        }
        switch reply {
        case .frame(let frame):
            camera = frame.camera
            seq = frame.seq
            frameSink.yield(frame)
        case .event(let event, _):
            eventSink.yield(event)
        default:
            break
        }
        answers.deliver(reply)
    }
}
