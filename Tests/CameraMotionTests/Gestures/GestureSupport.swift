import CameraCore
import Foundation
import Testing

@testable import CameraMotion

let gestureViewport = Viewport(width: 800, height: 600)

/// One room: a manager and its gesture engine, driven by a manual clock.
struct GestureRig {
    var manager: AnimatorManager
    var engine = GestureEngine()

    init(camera: Camera = Camera(latitude: 48.85, longitude: 2.35, zoom: 12), limits: CameraLimits = CameraLimits()) {
        manager = AnimatorManager(camera: camera, limits: limits)
    }

    @discardableResult
    mutating func send(
        _ input: GestureInput, from owner: Owner = driver, disabled: Set<GestureKind> = [],
        at now: Double
    ) -> Result<GestureOutcome, CommandError> {
        engine.handle(input, client: GestureClient(owner: owner, viewport: gestureViewport, disabled: disabled), manager: &manager, at: now)
    }

    var transform: ViewTransform { ViewTransform(camera: manager.camera, viewport: gestureViewport) }
    func geo(at point: ViewPoint) -> GeoCoordinate? { transform.viewToGeo(point) }
    func view(of geo: GeoCoordinate) -> ViewPoint? { transform.geoToView(geo) }
}

func pan(_ phase: GesturePhase, _ x: Double? = nil, _ y: Double? = nil, t: Double? = nil) -> GestureInput {
    GestureInput(.pan, phase, x: x, y: y, t: t)
}

func pixelDistance(_ a: ViewPoint?, _ b: ViewPoint) -> Double {
    guard let a else { return .infinity }
    return hypot(a.x - b.x, a.y - b.y)
}

/// Distance between two cameras' targets in world px at `a`'s zoom.
func worldDistance(_ a: Camera, _ b: Camera) -> Double { GestureEngine.worldDistance(from: a, to: b) }

extension GestureOutcome {
    var momentum: String? { if case .ended(let id) = effect { id } else { nil } }
}

/// A finger moving from `from` at `velocity` (px/s at the start), slowing by
/// `deceleration` px/s² along its path, lifted `duration` seconds later.
struct Flick {
    var from = ViewPoint(x: 300, y: 400)
    var velocity: (x: Double, y: Double) = (1200, -500)
    var deceleration = 0.0
    var duration = 0.3
    /// Client clock (ms) and hub clock (s) at touch-down: two unrelated clocks.
    var clientStart = 5000.0
    var hubStart = 10.0

    func position(_ tau: Double) -> ViewPoint {
        let speed = hypot(velocity.x, velocity.y)
        let travelled = speed * tau - deceleration * tau * tau / 2
        return ViewPoint(x: from.x + velocity.x / speed * travelled, y: from.y + velocity.y / speed * travelled)
    }

    /// Begin at 0, a change at each of `times` (0 < τ < duration), end with the
    /// release position at `duration`; each input with its hub time.
    func script(sampledAt times: [Double]) -> [(Double, GestureInput)] {
        var out: [(Double, GestureInput)] = [(hubStart, pan(.begin, from.x, from.y, t: clientStart))]
        for tau in times where tau > 0 && tau < duration {
            let p = position(tau)
            out.append((hubStart + tau, pan(.change, p.x, p.y, t: clientStart + tau * 1000)))
        }
        let p = position(duration)
        out.append((hubStart + duration, pan(.end, p.x, p.y, t: clientStart + duration * 1000)))
        return out
    }

    static func regular(_ hz: Double, until end: Double) -> [Double] {
        stride(from: 1 / hz, to: end, by: 1 / hz).map { $0 }
    }
}

extension GestureRig {
    /// Sends `script` at its hub times, ticking the manager at `tickRate` Hz
    /// in between (inputs arrive between ticks) until `until`. Calls `observe`
    /// after every tick and input; returns every animation report.
    @discardableResult
    mutating func run(
        _ script: [(Double, GestureInput)], from owner: Owner = driver, tickRate: Double, until: Double,
        observe: (AnimatorManager) -> Void = { _ in }
    ) -> [AnimationReport] {
        var reports: [AnimationReport] = []
        var pending = script[...]
        var tick = (manager.time * tickRate).rounded(.down) + 1
        while true {
            let t = tick / tickRate
            while let (when, input) = pending.first, when <= min(t, until) {
                let result = send(input, from: owner, at: when)
                #expect(result.isSuccess, "\(input.label) at \(when): \(String(describing: result.failureValue))")
                observe(manager)
                reports += manager.takeReports()
                pending = pending.dropFirst()
            }
            if t > until { break }
            manager.advance(to: t)
            observe(manager)
            reports += manager.takeReports()
            tick += 1
        }
        manager.advance(to: until)
        reports += manager.takeReports()
        return reports
    }
}

/// Records an issue unless `camera` satisfies `limits` (zoom, tilt for its zoom, target bounds).
func expectWithin(_ limits: CameraLimits, _ camera: Camera, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(camera.zoom >= limits.minZoom && camera.zoom <= limits.maxZoom, "zoom \(camera.zoom)", sourceLocation: sourceLocation)
    #expect(
        camera.tilt >= limits.minTilt && camera.tilt <= limits.maxTilt(atZoom: camera.zoom) + 1e-12,
        "tilt \(camera.tilt) at zoom \(camera.zoom)", sourceLocation: sourceLocation)
    if let bounds = limits.bounds {
        #expect(bounds.contains(camera.target), "target \(camera.target) outside \(bounds)", sourceLocation: sourceLocation)
    }
}
