import CamHubClient
import CamHubProtocol
import Foundation
import Synchronization
import WebSocketTransport

/// The presenters of the extra rooms of `camhub bench --rooms N` (rooms 1…N−1;
/// room 0 has the bench's own presenter). All on one client loop thread: each
/// connection joins its room as presenter and waits. After `startSpinning`,
/// the first `spinning` of them queue three chained `Spin` segments, and one
/// more each time a segment finishes, as `Spin.run` does; the others stay
/// still (`--moving`). Their own frames come at 1 Hz (they are not measured).
///
/// What the client's loop thread keeps (its callbacks and `execute`) is in
/// `onLoop`, checked to be touched there only; what other threads read is in
/// `shared`, a `Mutex`; the rest is immutable.
final class RoomSpinners: Sendable {
    /// The presenters' progress, on the client's loop thread.
    private struct Progress {
        /// Segments queued so far, per presenter.
        var queued: [Int]
        /// Connection ids of the welcomed presenters, by room index.
        var welcomedIDs: [Int: ConnectionID] = [:]
        /// `startSpinning` was called.
        var started = false
    }

    private let client: WebSocketClient
    private let hellos: [String]
    private let onLoop: LoopBound<Progress>
    private let spinning: Int
    /// What other threads read: presenters welcomed, the first errors, whether stopping.
    private let shared = Mutex((welcomed: 0, errors: [String](), stopping: false))

    /// Joins one presenter per room in `rooms`; their cameras move until `shutdown`.
    init(request: ConnectRequest, rooms: [String], token: String?, spinning: Int, tls: ClientTLS? = nil) throws(ClientError) {
        self.spinning = min(spinning, rooms.count)
        var configuration = ClientConfiguration()
        configuration.tls = tls
        client = WebSocketClient(configuration: configuration)
        do {
            hellos = try rooms.map { room throws(ProtocolError) in
                try HelloOptions(room: room, role: "presenter", name: "bench-presenter", token: token, rate: 1).text()
            }
        } catch { throw ClientError("hello: \(error.message)") }
        onLoop = LoopBound(Progress(queued: Array(repeating: 0, count: rooms.count)), on: client.loop)
        do {
            try client.start(
                ClientHandlers(
                    onOpen: { [unowned self] id in
                        // Ids count from 1 in connect order, so id k is rooms[k − 1].
                        self.client.send(.text(self.hellos[Int(id.rawValue) - 1]), to: id)
                    },
                    onMessage: { [unowned self] id, message in self.received(id, message) },
                    onClose: { [unowned self] _, event in
                        self.record("a room presenter's connection ended: \(describe(event))")
                    }))
        } catch {
            throw ClientError("could not start the room presenters' client loop: \(error)")
        }
        for _ in rooms { _ = client.connect(request) }
    }

    /// Any thread: the first `spinning` rooms start moving (their presenters
    /// welcomed by now; one welcomed later starts as soon as it is).
    func startSpinning() {
        client.loop.execute { [self] in
            onLoop.value.started = true
            for (i, id) in onLoop.value.welcomedIDs where i < spinning { for _ in 0..<3 { queueNext(i, id) } }
        }
    }

    /// Loop thread.
    private func received(_ id: ConnectionID, _ message: WebSocketMessage) {
        guard case .text(let text) = message else { return }
        let i = Int(id.rawValue) - 1
        if text.hasPrefix(WirePrefix.message("welcome")) {
            onLoop.value.welcomedIDs[i] = id
            if onLoop.value.started && i < spinning { for _ in 0..<3 { queueNext(i, id) } }
            shared.withLock { $0.welcomed += 1 }
        } else if text.hasPrefix(WirePrefix.message("animation")) && text.contains(#""status":"finished""#) {
            queueNext(i, id)
        } else if text.hasPrefix(WirePrefix.message("error")) {
            record(text)
        }
    }

    /// Loop thread.
    private func queueNext(_ i: Int, _ id: ConnectionID) {
        onLoop.value.queued[i] += 1
        client.send(.text(Spin.segment(onLoop.value.queued[i])), to: id)
    }

    private func record(_ error: String) {
        shared.withLock { if !$0.stopping && $0.errors.count < 5 { $0.errors.append(error) } }
    }

    /// Presenters welcomed so far (any thread).
    var welcomedCount: Int { shared.withLock { $0.welcomed } }
    /// The first few errors the hub sent them (any thread).
    var errorMessages: [String] { shared.withLock { $0.errors } }

    func shutdown() {
        shared.withLock { $0.stopping = true }
        client.shutdown()
    }
}
