import CameraCore
import Testing

@testable import CameraMotion

/// Gesture listeners as in HERE. A long press has begin,
/// change (the finger moving), end and cancel; every accepted gesture is
/// reported with its view point and the geo point under it, whether or not
/// its default action ran.
@Suite("Gestures: listeners and long-press phases")
struct GestureListenerTests {
    @Test("a long press reports begin, change with the moving point, and end, each with the geo point under it")
    func longPressPhases() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 30, bearing: 20))
        let camera = rig.manager.camera
        let points = [ViewPoint(x: 200, y: 300), ViewPoint(x: 240, y: 310), ViewPoint(x: 300, y: 350)]
        let phases: [GesturePhase] = [.begin, .change, .change]
        for (phase, point) in zip(phases, points) {
            let outcome = try rig.send(GestureInput(.longPress, phase, x: point.x, y: point.y), at: 1).get()
            #expect(outcome.effect == .reported)
            #expect(outcome.event?.point == point && outcome.event?.input.phase == phase)
            #expect(outcome.event?.geo == rig.geo(at: point))
        }
        // The end without a point is reported at the last point.
        let end = try rig.send(GestureInput(.longPress, .end), at: 2).get()
        #expect(end.event?.point == points[2] && end.event?.geo == rig.geo(at: points[2]))
        #expect(rig.manager.camera == camera && !rig.manager.isMoving, "a long press moves nothing")
    }

    @Test("long-press sequences: change or end without begin, and a second begin, are refused; cancel ends it")
    func longPressSequence() {
        var rig = GestureRig()
        #expect(rig.send(GestureInput(.longPress, .change, x: 1, y: 1), at: 0).failureValue?.message == "longPress change without begin")
        #expect(rig.send(GestureInput(.longPress, .end), at: 0).failureValue?.code == .badInput)
        #expect(rig.send(GestureInput(.longPress, .begin), at: 0).failureValue?.message == "longPress begin: x and y are required")
        #expect(rig.send(GestureInput(.longPress, .begin, x: 1, y: 1), at: 0).isSuccess)
        #expect(
            rig.send(GestureInput(.longPress, .begin, x: 1, y: 1), at: 0).failureValue?.message == "longPress begin while this client's longPress is active")
        #expect(rig.send(GestureInput(.longPress, .begin, x: 1, y: 1), from: driver2, at: 0).isSuccess, "per client")
        #expect(rig.send(GestureInput(.longPress, .cancel), at: 0).isSuccess)
        #expect(rig.send(GestureInput(.longPress, .change, x: 1, y: 1), at: 0).failureValue != nil, "cancel ended it")
        #expect(rig.send(GestureInput(.longPress, x: 5, y: 5), at: 0).isSuccess, "a press without phase needs no begin")
        // A client that leaves forgets its long press.
        rig.engine.clientLeft("d2", manager: &rig.manager, at: 1)
        #expect(rig.send(GestureInput(.longPress, .end), from: driver2, at: 1).failureValue != nil)
    }

    @Test("a disabled long press is still reported through every phase, flagged disabled")
    func disabledLongPress() throws {
        var rig = GestureRig()
        let begin = try rig.send(GestureInput(.longPress, .begin, x: 10, y: 20), disabled: [.longPress], at: 0).get()
        #expect(begin.effect == .disabled && begin.event?.disabled == true && begin.event?.point == ViewPoint(x: 10, y: 20))
        #expect(try rig.send(GestureInput(.longPress, .end), disabled: [.longPress], at: 0).get().event?.disabled == true)
    }

    @Test("every accepted gesture is heard, in the camera it left: a pan's finger stays on its geo point")
    func everyGestureIsHeard() throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12))
        let grab = ViewPoint(x: 300, y: 300)
        let grabbed = try #require(rig.geo(at: grab))
        let begin = try rig.send(pan(.begin, grab.x, grab.y), at: 0).get()
        #expect(begin.effect == .following && begin.event?.point == grab && begin.event?.disabled == false)
        let change = try rig.send(pan(.change, 420, 330), at: 0.05).get()
        let heard = try #require(change.event?.geo)
        #expect(
            abs(heard.latitude - grabbed.latitude) < 1e-9 && abs(heard.longitude - grabbed.longitude) < 1e-9,
            "the geo point under the finger after the map followed it is the grabbed one")
        let end = try rig.send(pan(.end), at: 0.5).get()
        #expect(end.event != nil && end.event?.point == nil && end.event?.geo == nil)
        // A two-finger tap without a point is heard at the view centre it zoomed around.
        let zoomOut = try rig.send(GestureInput(.twoFingerTap), at: 1).get()
        #expect(zoomOut.event?.point == ViewPoint(x: gestureViewport.width / 2, y: gestureViewport.height / 2))
        // A refused gesture is not heard (its sender gets the error).
        #expect(rig.send(pan(.change, 1, 1), at: 2).failureValue != nil)
    }
}
