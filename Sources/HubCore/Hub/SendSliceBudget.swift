/// How many frames the owner of a `Hub` lets the next tick or send slice write,
/// so that one slice takes about `targetSeconds` of wall time whatever a frame
/// costs on this machine (loopback or TLS, a quiet core or one shared with
/// other work).
///
/// Why: a tick waits for whatever the loop is doing when it falls due. A fixed
/// 1,000 frames take 5–10 ms on loopback at 5–10 µs a frame, and more on a core
/// shared with other work or over TLS, so a tick and one slice could outlast
/// the 16.7 ms interval. Sized from the measured cost, a slice stays a quarter
/// of the interval whatever a frame costs, and the clock keeps its rate;
/// members a pass did not reach get the newest frame from the next slice.
///
/// Pure: the owner measures each slice and reports it (`record`).
public struct SendSliceBudget: Sendable, Equatable {
    /// Wall time one slice should take (s).
    public let targetSeconds: Double
    /// Most frames a slice may write (`HubConfiguration.sendBudget`).
    public let ceiling: Int
    /// Fewest frames a slice may write, so a pass always moves on.
    public let floor: Int
    /// Smoothed wall time per frame written (s); nil until a slice was measured.
    public private(set) var secondsPerFrame: Double?

    /// Slices below this many frames are not measured: their fixed costs
    /// (a room's advance, encoding the frame) would read as a dear frame.
    static let smallestMeasured = 16
    /// Weight of the newest slice in `secondsPerFrame`.
    static let weight = 0.25

    /// A budget for a hub ticking `tick` times a second: a slice takes a quarter
    /// of the interval, so a tick and one slice fit in it with room to spare.
    public init(tick: Double, ceiling: Int, floor: Int = 50) {
        self.init(targetSeconds: 0.25 / tick, ceiling: ceiling, floor: floor)
    }

    public init(targetSeconds: Double, ceiling: Int, floor: Int = 50) {
        self.targetSeconds = targetSeconds
        self.ceiling = max(1, ceiling)
        self.floor = min(max(1, floor), self.ceiling)
    }

    /// Frames the next slice may write.
    public var frames: Int {
        guard let perFrame = secondsPerFrame, perFrame > 0 else { return ceiling }
        let fit = (targetSeconds / perFrame).rounded(.down)
        return fit >= Double(ceiling) ? ceiling : max(floor, Int(fit))
    }

    /// A slice wrote `frames` frames in `seconds` of wall time.
    public mutating func record(frames: Int, seconds: Double) {
        guard frames >= Self.smallestMeasured, seconds >= 0 else { return }
        let sample = seconds / Double(frames)
        secondsPerFrame = secondsPerFrame.map { $0 + Self.weight * (sample - $0) } ?? sample
    }
}
