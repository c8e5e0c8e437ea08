import CameraCore
import Foundation

/// The van Wijk & Nuij (2003) optimal zoom-and-pan path as MapLibre's `flyTo`
/// uses it: the eye zooms out and back in so that the apparent speed stays
/// smooth. Lengths are in pixels at the start zoom; `w` is the visible span.
public struct FlightPath: Hashable, Sendable {
    /// Visible span at the start, in pixels (the larger viewport side).
    let w0: Double
    /// Visible span at the end, in start-zoom pixels.
    let w1: Double
    /// Ground distance between the centres, in start-zoom pixels.
    let u1: Double
    let rho: Double
    let r0: Double
    /// Path length in units of ρ-scaled screenfuls (MapLibre's S).
    let length: Double
    /// True when the centres coincide: a pure exponential zoom.
    let zoomOnly: Bool
    /// For `zoomOnly`: +1 zooming out, -1 zooming in.
    let zoomDirection: Double

    /// nil when neither centre nor zoom changes (then the flight is an ease).
    public init?(startZoom: Double, endZoom: Double, distance u1: Double, viewport: Viewport, rho requestedRho: Double, minZoom: Double?) {
        let w0 = max(viewport.width, viewport.height)
        let w1 = w0 / exp2(endZoom - startZoom)
        var rho = requestedRho
        if let minZoom, u1 > 0 {
            let lowest = min(minZoom, startZoom, endZoom)
            let wMax = w0 / exp2(lowest - startZoom)
            rho = (wMax / u1 * 2).squareRoot()
        }
        let rho2 = rho * rho
        func r(_ i: Int) -> Double {
            let wi = i == 0 ? w0 : w1
            let b = (w1 * w1 - w0 * w0 + (i == 0 ? 1 : -1) * rho2 * rho2 * u1 * u1) / (2 * wi * rho2 * u1)
            return log((b * b + 1).squareRoot() - b)
        }
        self.w0 = w0
        self.w1 = w1
        self.u1 = u1
        self.rho = rho
        let r0 = r(0)
        let length = (r(1) - r0) / rho
        if abs(u1) < 2e-6 || !length.isFinite {  // MapLibre 5.3.0's thresholds
            if abs(w0 - w1) < 1e-6 { return nil }
            self.r0 = 0
            self.zoomOnly = true
            self.zoomDirection = w1 < w0 ? -1 : 1
            self.length = abs(log(w1 / w0)) / rho
        } else {
            self.r0 = r0
            self.zoomOnly = false
            self.zoomDirection = 0
            self.length = length
        }
    }

    /// Visible span relative to the start at path position `s` (0…length).
    func width(_ s: Double) -> Double {
        zoomOnly ? exp(zoomDirection * rho * s) : cosh(r0) / cosh(r0 + rho * s)
    }

    /// Fraction of the ground distance covered at `s` (0…1).
    func travelled(_ s: Double) -> Double {
        zoomOnly ? 0 : w0 * ((cosh(r0) * tanh(r0 + rho * s) - sinh(r0)) / (rho * rho)) / u1
    }

    /// Duration in seconds at `speed` screenfuls per second (MapLibre: S / V).
    public func duration(speed: Double) -> Double { length / speed }
}
