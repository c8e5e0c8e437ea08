import CameraCore
import Testing

@testable import CameraMotion

/// Padding in the animator manager: padding is settable and
/// animatable (Mapbox animates padding like any camera property).
@Suite("Animator manager: padding")
struct PaddingMotionTests {
    @Test("ease animates the padding along its curve; animate takes only the padding from a running ease")
    func animatesPadding() throws {
        var m = AnimatorManager(camera: Camera(latitude: 10, longitude: 10, zoom: 5))
        _ = try m.ease(
            EaseRequest(update: CameraUpdate(zoom: 7, padding: PaddingUpdate(left: 400, bottom: 100)), duration: 2, curve: .linear),
            id: "e", owner: driver, at: 0
        ).get()
        m.advance(to: 1)
        #expect(m.camera.padding == EdgeInsets(top: 0, left: 200, bottom: 50, right: 0) && m.camera.zoom == 6)
        _ = m.takeEvents()
        _ = try m.animate(
            EaseRequest(update: CameraUpdate(padding: PaddingUpdate(top: 80)), duration: 1, curve: .linear),
            id: "p", owner: driver2, at: 1
        ).get()
        let cut = m.takeReports().first { $0.id == "e" }
        #expect(cut?.status == .interrupted && cut?.lost == .padding)
        m.advance(to: 2)
        #expect(m.camera.zoom == 7, "the ease ran on with the zoom")
        #expect(m.camera.padding == EdgeInsets(top: 80, left: 200, bottom: 50, right: 0), "the animator moved from where the padding stood")
    }

    @Test("set writes the padding sides it names and counts as a high-level command")
    func setPadding() throws {
        var m = AnimatorManager()
        _ = try m.set(CameraUpdate(padding: PaddingUpdate(right: 250)), owner: driver, at: 0).get()
        _ = try m.set(CameraUpdate(padding: PaddingUpdate(top: 5)), owner: driver, at: 1).get()
        #expect(m.camera.padding == EdgeInsets(top: 5, left: 0, bottom: 0, right: 250))
        #expect(m.set(CameraUpdate(padding: PaddingUpdate(top: .nan)), owner: driver, at: 2).failureValue?.code == .badInput)
    }
}
