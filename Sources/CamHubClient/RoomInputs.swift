import CamHubKit
import Foundation

/// What a runner on a CamHubKit `Room` waits for, in one sequence: the room's
/// messages as they come, its connection changes, a wake-up `tick` at least
/// every `tickPeriod` (for progress, stop requests and due retries), one at
/// each deadline asked for (`wake(at:)`), and `ended` once the room's messages
/// end (the room closed for good). Read by one task; the feeding tasks end
/// with `stop()`.
final class RoomInputs: Sendable {
    enum Input: Sendable {
        case message(ReceivedMessage)
        case change(RoomChange)
        case tick
        case ended
    }

    /// Seconds between ticks.
    static let tickPeriod = 0.05

    let stream: AsyncStream<Input>
    private let sink: AsyncStream<Input>.Continuation
    private let feeders: [Task<Void, Never>]

    /// Takes `room.messages` and `room.changes` (each has one consumer: this one).
    init(_ room: Room) {
        let (stream, sink) = AsyncStream.makeStream(of: Input.self)
        self.stream = stream
        self.sink = sink
        feeders = [
            Task {
                for await message in room.messages { sink.yield(.message(message)) }
                sink.yield(.ended)
            },
            Task {
                for await change in room.changes { sink.yield(.change(change)) }
            },
            Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(Self.tickPeriod))
                    sink.yield(.tick)
                }
            },
        ]
    }

    /// A tick at `deadline` (monotonic seconds), so a wait ends on time rather than at the next tick.
    func wake(at deadline: Double) -> Task<Void, Never> {
        Task { [sink] in
            let left = deadline - monotonicSeconds()
            if left > 0 { try? await Task.sleep(for: .seconds(left)) }
            if !Task.isCancelled { sink.yield(.tick) }
        }
    }

    /// Ends the feeding tasks (the room's streams end with them) and the sequence.
    func stop() {
        for feeder in feeders { feeder.cancel() }
        sink.finish()
    }
}
