import CameraCore

/// The local clock a room stamps frames with as they arrive, and the one to
/// pass as display time (`Room.camera(atDisplayTime:)`): milliseconds on the
/// monotonic `ContinuousClock` since an arbitrary start (the first use).
public enum DisplayClock {
    private static let origin = ContinuousClock.now

    /// Milliseconds since `origin`.
    public static func now() -> Double {
        let (seconds, attoseconds) = (ContinuousClock.now - origin).components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

extension Room {
    /// The room's camera to show in the display frame that begins at
    /// `displayAt` (ms on `DisplayClock`) and is on screen `lead` ms later: the
    /// frames played out behind an adaptive delay (`Playout`), the final
    /// resting camera exactly. Before any frame: the welcome's camera.
    public func camera(atDisplayTime displayAt: Double, lead: Double = 0) -> Camera {
        playout.sample(displayAt: displayAt, lead: lead)?.camera ?? camera
    }

    /// As `camera(atDisplayTime:lead:)`, with whether it moves, the hub time shown and whether the buffer ran dry.
    public func sample(atDisplayTime displayAt: Double, lead: Double = 0) -> PlayoutSample? {
        playout.sample(displayAt: displayAt, lead: lead)
    }

    /// The playout's figures (delay, interval, re-syncs, underruns), for a HUD.
    public var playoutClock: PlayoutClock { playout.clock }
}
