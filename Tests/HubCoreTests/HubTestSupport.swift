import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

// Support for the `Hub` tests: a sink that records everything the hub sends,
// a manual clock, and JSON accessors for assertions (parsed with HubCore's
// exact parser, so camera doubles compare bit for bit).

/// Records the hub's output in order.
final class RecordingSink: HubSink {
    enum Output {
        case message(ConnectionKey, [UInt8])
        case frame(ConnectionKey, EncodedFrame)
        case close(ConnectionKey, code: UInt16, reason: String)

        var connection: ConnectionKey {
            switch self {
            case .message(let c, _), .frame(let c, _), .close(let c, _, _): c
            }
        }
    }

    var outputs: [Output] = []

    func send(_ bytes: [UInt8], to connection: ConnectionKey) { outputs.append(.message(connection, bytes)) }
    func sendFrame(_ frame: EncodedFrame, to connection: ConnectionKey) { outputs.append(.frame(connection, frame)) }
    func close(_ connection: ConnectionKey, code: UInt16, reason: String) {
        outputs.append(.close(connection, code: code, reason: reason))
    }
}

/// A frame as one connection received it, with the hub clock of the tick that sent it.
struct ReceivedFrame {
    let encoded: EncodedFrame
    let json: JSONValue
    let at: Double
    var seq: UInt64 { encoded.seq }
    var moving: Bool { json["moving"]?.boolValue ?? false }
    var camera: JSONValue { json["camera"]! }
    /// The first frame after a change of course (`corner: true`).
    var corner: Bool { json["corner"]?.boolValue ?? false }
}

/// A `Hub` driven by hand: connections are numbers, time is `now` (seconds),
/// and every output lands in `sink`.
final class HubBench {
    var hub: Hub
    let sink = RecordingSink()
    /// Monotonic hub seconds. Starts on the tick grid.
    var now: Double
    private var nextKey: ConnectionKey = 1
    /// Hub seconds of each recorded output (parallel to `sink.outputs`).
    private var stamps: [Double] = []

    static let epochOffset = 1_700_000_000_000.0

    init(_ configure: (inout HubConfiguration) -> Void = { _ in }) {
        var configuration = HubConfiguration()
        configure(&configuration)
        hub = Hub(configuration: configuration)
        now = 100
    }

    var tick: Double { hub.configuration.tick }
    var time: HubTime { HubTime(seconds: now, epochMilliseconds: Self.epochOffset + now * 1000) }

    private func stamp() { while stamps.count < sink.outputs.count { stamps.append(now) } }

    // MARK: Driving

    func connect() -> ConnectionKey {
        let key = nextKey
        nextKey += 1
        hub.open(key, at: time)
        return key
    }

    func send(_ text: String, from connection: ConnectionKey) {
        sendBytes(Array(text.utf8), from: connection)
    }

    func sendBytes(_ bytes: [UInt8], from connection: ConnectionKey) {
        hub.receive(bytes, from: connection, at: time, sink: sink)
        stamp()
    }

    func disconnect(_ connection: ConnectionKey) {
        hub.closed(connection, at: time, sink: sink)
        stamp()
    }

    /// Opens a connection and sends `hello`; returns the connection and its client id (nil if refused).
    @discardableResult
    func join(
        _ room: String = "demo", role: String, name: String? = nil, token: String? = nil,
        rate: Double? = nil, viewport: (Double, Double)? = nil
    ) -> (key: ConnectionKey, client: String?) {
        let key = connect()
        var fields = ["\"type\":\"hello\"", "\"room\":\"\(room)\"", "\"role\":\"\(role)\""]
        if let name { fields.append("\"name\":\"\(name)\"") }
        if let token { fields.append("\"token\":\"\(token)\"") }
        if let rate { fields.append("\"rate\":\(rate)") }
        if let viewport { fields.append("\"viewport\":{\"width\":\(viewport.0),\"height\":\(viewport.1)}") }
        send("{" + fields.joined(separator: ",") + "}", from: key)
        return (key, welcome(key)?["client"]?.stringValue)
    }

    /// One room tick at `now`.
    func tickOnce() {
        hub.tick(at: time, sink: sink)
        stamp()
    }

    /// Moves to the next tick on the grid and ticks there, `count` times.
    func runTicks(_ count: Int) {
        for _ in 0..<count {
            now = ((now * tick + 1e-6).rounded(.down) + 1) / tick
            tickOnce()
        }
    }

    /// Ticks for `seconds` of hub time (rounded to whole ticks).
    func run(seconds: Double) { runTicks(Int((seconds * tick).rounded())) }

    /// Moves the clock without ticking.
    func wait(_ seconds: Double) { now += seconds }

    /// Forgets everything recorded so far.
    func clear() {
        sink.outputs.removeAll()
        stamps.removeAll()
    }

    // MARK: Reading the output

    /// Control messages (not frames) sent to `connection`, parsed.
    func messages(_ connection: ConnectionKey) -> [JSONValue] {
        sink.outputs.compactMap { output -> JSONValue? in
            guard case .message(connection, let bytes) = output else { return nil }
            return parsed(bytes)
        }
    }

    func messages(_ connection: ConnectionKey, type: String) -> [JSONValue] {
        messages(connection).filter { $0["type"]?.stringValue == type }
    }

    func welcome(_ connection: ConnectionKey) -> JSONValue? { messages(connection, type: "welcome").first }
    func errors(_ connection: ConnectionKey) -> [JSONValue] { messages(connection, type: "error") }
    func lastError(_ connection: ConnectionKey) -> JSONValue? { errors(connection).last }
    func events(_ connection: ConnectionKey, _ name: String) -> [JSONValue] {
        messages(connection, type: "event").filter { $0["event"]?.stringValue == name }
    }
    func animations(_ connection: ConnectionKey) -> [JSONValue] { messages(connection, type: "animation") }

    func frames(_ connection: ConnectionKey) -> [ReceivedFrame] {
        stamp()
        return zip(sink.outputs, stamps).compactMap { output, at -> ReceivedFrame? in
            guard case .frame(connection, let frame) = output else { return nil }
            return ReceivedFrame(encoded: frame, json: parsed(frame.bytes), at: at)
        }
    }

    func closes(_ connection: ConnectionKey) -> [(code: UInt16, reason: String)] {
        sink.outputs.compactMap { output in
            guard case .close(connection, let code, let reason) = output else { return nil }
            return (code, reason)
        }
    }

    func isClosed(_ connection: ConnectionKey) -> Bool { !closes(connection).isEmpty }

    /// The single room's current camera and seq as the hub holds them.
    func room(_ name: String = "demo") -> (clients: Int, camera: Camera, seq: UInt64)? {
        hub.roomSummaries.first { $0.name == name }.map { ($0.clients, $0.camera, $0.seq) }
    }

    /// `ping` and expect a `pong` back: the connection is open and joined-state intact.
    func answersPing(_ connection: ConnectionKey) -> Bool {
        let before = messages(connection, type: "pong").count
        send("{\"type\":\"ping\",\"t\":7}", from: connection)
        return messages(connection, type: "pong").count == before + 1 && !isClosed(connection)
    }
}

func parsed(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
    do {
        return try JSONParser.parse(bytes)
    } catch {
        Issue.record("hub sent invalid JSON: \(error): \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        return .null
    }
}

/// The wire form of `camera` (as the hub encodes it), parsed: for exact comparisons with received cameras.
func wireCamera(_ camera: Camera) -> JSONValue {
    var w = JSONWriter(capacity: 128)
    w.camera(camera)
    return parsed(w.bytes)
}
