import Testing

@testable import CameraMotion

@Suite("Timing curves")
struct TimingCurveTests {
    @Test(
        "every curve starts at 0 and ends at 1",
        arguments: [
            TimingCurve.linear, .easeIn, .easeOut, .easeInOut, .mapDefault, .cubicBezier(0.1, -0.5, 0.9, 1.5),
        ])
    func endpoints(curve: TimingCurve) {
        #expect(curve.progress(0) == 0)
        #expect(curve.progress(1) == 1)
        #expect(curve.progress(-1) == 0 && curve.progress(2) == 1)
    }

    @Test("easeInOut is symmetric and CSS-like")
    func easeInOutSymmetric() {
        for u in stride(from: 0.0, through: 1, by: 0.05) {
            #expect(abs(TimingCurve.easeInOut.progress(u) + TimingCurve.easeInOut.progress(1 - u) - 1) < 1e-9)
        }
        #expect(abs(TimingCurve.easeInOut.progress(0.5) - 0.5) < 1e-12)
        #expect(TimingCurve.easeIn.progress(0.25) < 0.25 && TimingCurve.easeOut.progress(0.25) > 0.25)
    }

    @Test("a Bézier equal to the diagonal is linear")
    func diagonalBezierIsLinear() {
        let curve = TimingCurve.cubicBezier(1.0 / 3, 1.0 / 3, 2.0 / 3, 2.0 / 3)
        for u in stride(from: 0.0, through: 1, by: 0.1) { #expect(abs(curve.progress(u) - u) < 1e-9) }
    }

    @Test("a Bézier with control x outside 0…1 is rejected naming the index")
    func bezierValidation() {
        do {
            _ = try TimingCurve.bezier(1.2, 0, 0.5, 1)
            Issue.record("expected error")
        } catch { #expect(error.field == "curve[0]") }
        do {
            _ = try TimingCurve.bezier(0.2, .nan, 0.5, 1)
            Issue.record("expected error")
        } catch { #expect(error.field == "curve[1]") }
    }
}
