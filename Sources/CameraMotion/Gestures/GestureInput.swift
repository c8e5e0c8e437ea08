import CameraCore

/// What a client's finger, mouse or wheel did. The kinds and field names are
/// the wire's (`web/js/motion/gestures.js` produces them).
public enum GestureKind: String, Hashable, Sendable, CaseIterable {
    case pan, pinch, tilt, rotate, doubleTap, twoFingerTap, scroll, tap, longPress

    /// Kinds that run from `begin` through `change`s to `end` or `cancel`.
    /// The others are instantaneous.
    public var isContinuous: Bool {
        switch self {
        case .pan, .pinch, .tilt, .rotate: true
        case .doubleTap, .twoFingerTap, .scroll, .tap, .longPress: false
        }
    }

    /// The camera properties the default action claims: pan → center;
    /// pinch → center, zoom, bearing; tilt → tilt; rotate → bearing (and
    /// center when it turns around a point); double tap, two-finger tap and
    /// scroll → center and zoom; tap and long press → nothing.
    public func claims(aroundPoint: Bool = false) -> CameraProperties {
        switch self {
        case .pan: .center
        case .pinch: [.center, .zoom, .bearing]
        case .tilt: .tilt
        case .rotate: aroundPoint ? [.center, .bearing] : .bearing
        case .doubleTap, .twoFingerTap, .scroll: [.center, .zoom]
        case .tap, .longPress: []
        }
    }
}

public enum GesturePhase: String, Hashable, Sendable, CaseIterable {
    case begin, change, end, cancel
}

/// One gesture report from a client, in that client's viewport.
///
/// Conventions:
/// - `x`, `y`: view pixels from the top-left of the sender's viewport (y down).
///   pan: the finger; pinch: the focal point (midpoint of the fingers);
///   rotate: the pivot (its `begin` point; none = turn around the camera
///   target, which is the view centre unless the anchor moved it); double
///   tap, tap, long press: the touch; two-finger tap and scroll: the point to
///   zoom around (none = the view centre).
/// - `t`: the client's clock in milliseconds (any origin, never decreasing
///   within a gesture). Used only to measure the pan release velocity; when
///   missing, the hub's time since the gesture began stands in for it.
/// - `scale` (pinch): finger distance ÷ distance at `begin` (cumulative, > 0).
/// - `rotation` (cumulative degrees since `begin`):
///   - pinch: how far the line between the two fingers turned, **positive
///     clockwise on screen**. The map turns with the fingers, so the bearing
///     *decreases* by it (after the wobble threshold, see `GestureSettings`).
///   - rotate (right-drag, ctrl-drag, shift+arrows): the bearing change,
///     **positive = bearing increases** (the map turns counter-clockwise on
///     screen), as MapLibre's mouse and keyboard rotation and
///     `web/js/motion/gestures.js` (right-drag to the right is positive) do.
/// - `dy` (tilt): cumulative vertical movement in px since `begin`, positive
///   down. Tilt = start tilt − 0.5°·dy: fingers (or the mouse) moving up tilt more.
/// - `delta` (scroll): the wheel's `WheelEvent.deltaY` in px (convert line and
///   page modes first): positive = scrolled down / toward the user = zoom out,
///   as in MapLibre.
///
/// `phase` is required for continuous kinds. Instantaneous kinds take none,
/// or `end` / `change` (the web recognizer sends taps as `end` and scrolls as
/// `change`); `begin` and `cancel` make no sense for them and are refused.
/// A long press moves nothing but has phases as in HERE (`begin` when it is
/// recognized, `change` as the finger moves, `end` when it lifts, `cancel`),
/// or none (one press, reported as `begin`); `begin` and `change` need x, y.
public struct GestureInput: Hashable, Sendable {
    public var kind: GestureKind
    public var phase: GesturePhase?
    public var x: Double?
    public var y: Double?
    public var t: Double?
    public var scale: Double?
    public var rotation: Double?
    public var dy: Double?
    public var delta: Double?
    /// The client's sequence number for this message (0…2^53−1), when it
    /// sent one: the hub answers such a gesture with `gestureAck` so the
    /// client can reconcile its prediction. The engine itself ignores it.
    public var seq: Int?

    public init(
        _ kind: GestureKind, _ phase: GesturePhase? = nil, x: Double? = nil, y: Double? = nil, t: Double? = nil,
        scale: Double? = nil, rotation: Double? = nil, dy: Double? = nil, delta: Double? = nil
    ) {
        self.kind = kind
        self.phase = phase
        self.x = x
        self.y = y
        self.t = t
        self.scale = scale
        self.rotation = rotation
        self.dy = dy
        self.delta = delta
    }

    /// The view point, when both coordinates are given.
    public var point: ViewPoint? {
        guard let x, let y else { return nil }
        return ViewPoint(x: x, y: y)
    }

    /// `pan change`, `tap`: how errors name the input.
    var label: String { phase.map { "\(kind.rawValue) \($0.rawValue)" } ?? kind.rawValue }

    /// True when this input carries what a `change` of its kind needs (an
    /// `end` that does is applied as a last change before ending).
    var hasChangeFields: Bool {
        switch kind {
        case .pan: point != nil
        case .pinch: point != nil && scale != nil
        case .tilt: dy != nil
        case .rotate: rotation != nil
        default: false
        }
    }

    /// Checks the shape: phase allowed for the kind, every number finite,
    /// x and y together, the fields the kind and phase need.
    func validate() throws(CommandError) {
        func bad(_ message: String) -> CommandError { CommandError(code: .badInput, message: message) }
        if kind.isContinuous {
            guard phase != nil else { throw bad("\(kind.rawValue): phase is required (begin, change, end or cancel)") }
        } else if kind == .longPress {
            // HERE: a long press has begin / update / end states; without a phase it is one press.
        } else if let phase, phase == .begin || phase == .cancel {
            throw bad("\(kind.rawValue) is instantaneous and has no \(phase.rawValue) (send it without a phase or as end)")
        }
        let numbers: [(String, Double?)] = [("x", x), ("y", y), ("t", t), ("scale", scale), ("rotation", rotation), ("dy", dy), ("delta", delta)]
        for case (let field, let value?) in numbers where !value.isFinite {
            throw bad("\(label): \(field) must be a finite number (got \(value))")
        }
        if (x == nil) != (y == nil) { throw bad("\(label): x and y must be given together") }
        if let scale, scale <= 0 { throw bad("\(label): scale must be above 0 (got \(scale))") }

        var needsPoint = false
        var needs: [(String, Double?)] = []
        switch (kind, phase) {
        case (.pan, .begin), (.pan, .change), (.pinch, .begin): needsPoint = true
        case (.pinch, .change):
            needsPoint = true
            needs = [("scale", scale)]
        case (.tilt, .change): needs = [("dy", dy)]
        case (.rotate, .change): needs = [("rotation", rotation)]
        case (.doubleTap, _), (.tap, _), (.longPress, nil), (.longPress, .begin), (.longPress, .change): needsPoint = true
        case (.scroll, _): needs = [("delta", delta)]
        default: break
        }
        if needsPoint && point == nil { throw bad("\(label): x and y are required") }
        for (field, value) in needs where value == nil { throw bad("\(label): \(field) is required") }
    }
}
