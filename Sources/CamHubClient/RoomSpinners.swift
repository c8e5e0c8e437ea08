import Foundation
import WebSocketTransport

/// The presenters of the extra rooms of `camhub bench --rooms N` (rooms 1…N−1;
/// room 0 has the bench's own presenter). All on one client loop thread: each
/// connection joins its room as presenter and, once welcomed, queues a chain of
/// `Spin` segments long enough for the whole run, so nobody has to answer
/// completions. Their own frames come at 1 Hz (they are not measured).
final class RoomSpinners: @unchecked Sendable {
    private let client: WebSocketClient
    private let hellos: [String]
    private let chain: [String]
    private let lock = NSLock()
    private var welcomed = 0          // guarded by lock
    private var errors: [String] = [] // guarded by lock
    private var stopping = false      // guarded by lock

    /// Joins one presenter per room in `rooms`; the camera keeps moving for `seconds`.
    init(request: ConnectRequest, rooms: [String], token: String?, seconds: Double) throws(ClientError) {
        client = WebSocketClient(configuration: ClientConfiguration())
        hellos = rooms.map { HelloOptions(room: $0, role: "presenter", name: "bench-presenter", token: token, rate: 1).json }
        let count = Int((seconds / Spin.segmentSeconds).rounded(.up)) + 2
        chain = (1...count).map { Spin.segment($0) }
        do {
            try client.start(ClientHandlers(
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

    private func received(_ id: ConnectionID, _ message: WebSocketMessage) {
        guard case .text(let text) = message else { return }
        if text.hasPrefix(#"{"type":"welcome""#) {
            for segment in chain { client.send(.text(segment), to: id) }
            lock.lock(); welcomed += 1; lock.unlock()
        } else if text.hasPrefix(#"{"type":"error""#) {
            record(text)
        }
    }

    private func record(_ error: String) {
        lock.lock(); defer { lock.unlock() }
        if !stopping && errors.count < 5 { errors.append(error) }
    }

    /// Presenters welcomed so far (any thread).
    var welcomedCount: Int { lock.lock(); defer { lock.unlock() }; return welcomed }
    /// The first few errors the hub sent them (any thread).
    var errorMessages: [String] { lock.lock(); defer { lock.unlock() }; return errors }

    func shutdown() {
        lock.lock(); stopping = true; lock.unlock()
        client.shutdown()
    }
}
