import CameraCore

/// How an animation's progress follows time: maps elapsed fraction u ∈ [0, 1]
/// to progress p (p(0) = 0, p(1) = 1; a Bézier may overshoot in between).
public enum TimingCurve: Hashable, Sendable {
    case linear
    case easeIn
    case easeOut
    case easeInOut
    /// A CSS-style cubic Bézier from (0,0) to (1,1) with control points
    /// (x1, y1) and (x2, y2); x1 and x2 must lie in [0, 1].
    case cubicBezier(Double, Double, Double, Double)

    /// MapLibre's `defaultEasing`, used by flights.
    public static let mapDefault = TimingCurve.cubicBezier(0.25, 0.1, 0.25, 1)

    /// Curve names accepted on the wire.
    public static let names = ["linear", "easeIn", "easeOut", "easeInOut"]

    /// Parses a wire name; nil for an unknown one.
    public init?(name: String) {
        switch name {
        case "linear": self = .linear
        case "easeIn": self = .easeIn
        case "easeOut": self = .easeOut
        case "easeInOut": self = .easeInOut
        default: return nil
        }
    }

    /// A validated Bézier curve: finite numbers, x1 and x2 in [0, 1].
    public static func bezier(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
        field: String = "curve"
    ) throws(CameraInputError) -> TimingCurve {
        for (i, v) in [x1, y1, x2, y2].enumerated() where !v.isFinite {
            throw CameraInputError(field: "\(field)[\(i)]", message: "must be a finite number (got \(v))")
        }
        guard (0...1).contains(x1) else { throw CameraInputError(field: "\(field)[0]", message: "x1 must be within 0…1 (got \(x1))") }
        guard (0...1).contains(x2) else { throw CameraInputError(field: "\(field)[2]", message: "x2 must be within 0…1 (got \(x2))") }
        return .cubicBezier(x1, y1, x2, y2)
    }

    /// Progress at elapsed fraction `u` (clamped to [0, 1]).
    public func progress(_ u: Double) -> Double {
        let t = min(max(u, 0), 1)
        switch self {
        case .linear: return t
        case .easeIn: return Self.solve(0.42, 0, 1, 1, t)
        case .easeOut: return Self.solve(0, 0, 0.58, 1, t)
        case .easeInOut: return Self.solve(0.42, 0, 0.58, 1, t)
        case .cubicBezier(let x1, let y1, let x2, let y2): return Self.solve(x1, y1, x2, y2, t)
        }
    }

    /// y on the Bézier where x = `x`: Newton's method on x(s), then bisection if it stalls.
    private static func solve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let cx = 3 * x1
        let bx = 3 * (x2 - x1) - cx
        let ax = 1 - cx - bx
        let cy = 3 * y1
        let by = 3 * (y2 - y1) - cy
        let ay = 1 - cy - by
        func curveX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
        func curveY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
        func slopeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
        var s = x
        for _ in 0..<8 {
            let error = curveX(s) - x
            if abs(error) < 1e-12 { return curveY(s) }
            let d = slopeX(s)
            if abs(d) < 1e-9 { break }
            s -= error / d
        }
        var lo = 0.0
        var hi = 1.0
        s = x
        for _ in 0..<60 {
            let value = curveX(s)
            if abs(value - x) < 1e-13 { break }
            if value < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return curveY(s)
    }
}
