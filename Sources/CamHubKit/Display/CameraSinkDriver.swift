import CamHubProtocol
import CameraCore

/// Feeds a `CameraSink` from a `Room`: at `rate` display frames a second it
/// asks the room for the camera of the display time (`Room.camera(atDisplayTime:)`,
/// played out behind the adaptive delay) and hands it to the sink when it
/// changed; the sink's gestures go to the room (drivers and presenters; a
/// refused gesture is dropped: the hub says why in an `error`).
///
/// An app on Apple platforms drives its sink from `CADisplayLink` instead
/// (`step(displayTime:lead:)` per display frame); `run()` paces itself with
/// the task's clock, for Linux and headless use.
public struct CameraSinkDriver: Sendable {
    public let room: Room
    public let sink: any CameraSink
    /// Display frames per second.
    public let rate: Double

    public init(room: Room, sink: any CameraSink, rate: Double = 60) {
        self.room = room
        self.sink = sink
        self.rate = rate
    }

    /// Runs until the task is cancelled or the room ends.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await forwardGestures() }
            group.addTask { await paint() }
            await group.next()
            group.cancelAll()
        }
    }

    /// One display frame: the room's camera for `displayTime` to the sink if it
    /// differs from `previous`; returns the camera shown.
    @discardableResult
    public func step(displayTime: Double, lead: Double = 0, previous: Camera?) async -> Camera {
        let camera = await room.camera(atDisplayTime: displayTime, lead: lead)
        if camera != previous { await sink.apply(camera, displayTime: displayTime) }
        return camera
    }

    private func paint() async {
        let period = Duration.seconds(1 / max(1, rate))
        var shown: Camera?
        var next = ContinuousClock.now
        while !Task.isCancelled, await !room.isOver {
            shown = await step(displayTime: DisplayClock.now(), lead: 1000 / max(1, rate), previous: shown)
            next += period
            try? await Task.sleep(until: next, clock: .continuous)
        }
    }

    private func forwardGestures() async {
        for await gesture in sink.gestures {
            try? await room.gesture(gesture)
        }
    }
}

extension Room {
    /// Whether the room ended for good (closed, or refused).
    public var isOver: Bool { if case .closed = connection { true } else { false } }
}
