import CameraCore
import Foundation
import Testing

@testable import CameraMotion

let presenter2 = Owner(client: "p2", rank: .presenter)

@Suite("Gestures: rules with animations")
struct GestureRuleTests {
    @Test("beginning a gesture cancels the animations it overlaps (status cancelled, reason gesture)")
    func beginCancelsOverlapping() throws {
        var rig = GestureRig()
        _ = try rig.manager.fly(FlyRequest(update: CameraUpdate(latitude: 40, longitude: 3, zoom: 8)), id: "tour", owner: driver2, at: 0).get()
        rig.manager.advance(to: 0.5)
        _ = rig.manager.takeEvents()
        let camera = rig.manager.camera
        _ = try rig.send(pinch(.begin, 400, 300), at: 0.5).get()
        let report = rig.manager.takeReports().first { $0.id == "tour" }
        #expect(report?.status == .cancelled && report?.reason == "gesture" && report?.by == "d1")
        #expect(rig.manager.camera == camera && rig.manager.animationIDs(of: "d2").isEmpty)
    }

    @Test("beginning a gesture leaves animations of other properties running")
    func beginKeepsOthers() throws {
        var rig = GestureRig()
        _ = try rig.manager.ease(EaseRequest(update: CameraUpdate(tilt: 40), duration: 1), id: "tilt", owner: driver2, at: 0).get()
        _ = try rig.send(pan(.begin, 400, 300), at: 0.2).get()
        rig.manager.advance(to: 1)
        #expect(rig.manager.camera.tilt == 40)
        #expect(rig.manager.takeReports().contains { $0.id == "tilt" && $0.status == .finished })
    }

    @Test("a gesture begin is refused with conflict while a higher rank's animation holds a claimed property; nothing changes")
    func beginRefusedByHigherRank() throws {
        var rig = GestureRig()
        _ = try rig.manager.ease(EaseRequest(update: CameraUpdate(latitude: 40, longitude: 3), duration: 2), id: "p", owner: presenter, at: 0).get()
        rig.manager.advance(to: 0.5)
        _ = rig.manager.takeEvents()
        let camera = rig.manager.camera
        let error = rig.send(pan(.begin, 400, 300), at: 0.5).failureValue
        #expect(error?.code == .conflict && error?.holder == "p1" && error?.property == .center)
        #expect(rig.manager.camera == camera && rig.manager.animationIDs(of: "p1") == ["p"])
        #expect(rig.manager.takeReports().isEmpty && rig.engine.activeGestures(of: "d1").isEmpty)
    }

    @Test("a double tap is refused with conflict while a higher rank holds zoom; nothing changes")
    func doubleTapRefusedByHigherRank() throws {
        var rig = GestureRig()
        _ = try rig.manager.ease(EaseRequest(update: CameraUpdate(zoom: 14), duration: 2), owner: presenter, at: 0).get()
        rig.manager.advance(to: 0.5)
        let camera = rig.manager.camera
        let error = rig.send(GestureInput(.doubleTap, .end, x: 400, y: 300), at: 0.5).failureValue
        #expect(error?.code == .conflict && error?.property == .zoom)
        #expect(rig.manager.camera == camera && rig.manager.animationIDs(of: "d1").isEmpty)
    }

    @Test("a double tap cancels a same-rank animation on zoom with reason gesture")
    func doubleTapCancels() throws {
        var rig = GestureRig()
        _ = try rig.manager.ease(EaseRequest(update: CameraUpdate(zoom: 14), duration: 2), id: "z", owner: driver2, at: 0).get()
        _ = try rig.send(GestureInput(.doubleTap, .end, x: 400, y: 300), at: 0.5).get()
        let report = rig.manager.takeReports().first { $0.id == "z" && $0.status != .started }
        #expect(report?.status == .cancelled && report?.reason == "gesture")
    }

    @Test("while a gesture is active, a same-rank command from another client on its properties is refused")
    func sameRankCommandRefused() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 400, 300), at: 0).get()
        let camera = rig.manager.camera
        let error = rig.manager.set(CameraUpdate(latitude: 1, longitude: 1), owner: driver2, at: 0.1).failureValue
        #expect(error?.code == .conflict && error?.holder == "d1" && error?.property == .center)
        #expect(rig.manager.ease(EaseRequest(update: CameraUpdate(latitude: 1, longitude: 1)), owner: driver2, at: 0.1).failureValue?.code == .conflict)
        #expect(rig.manager.camera == camera)
        #expect(rig.manager.set(CameraUpdate(zoom: 9), owner: driver2, at: 0.2).isSuccess)  // zoom is free
        #expect(try rig.send(pan(.change, 420, 310), at: 0.3).get().effect == .following)
    }

    @Test("while a gesture is active, a same-rank gesture from another client on its properties is refused")
    func sameRankGestureRefused() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 400, 300), at: 0).get()
        let error = rig.send(pinch(.begin, 100, 100), from: driver2, at: 0.1).failureValue
        #expect(error?.code == .conflict && error?.holder == "d1")
        #expect(rig.send(scroll(100, 100, delta: 50), from: driver2, at: 0.1).failureValue?.code == .conflict)
        #expect(rig.send(GestureInput(.tilt, .begin), from: driver2, at: 0.1).isSuccess)  // tilt is free
    }

    @Test("a higher rank's command takes over an active gesture: its later changes and end get conflict and move nothing")
    func higherRankTakesOver() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 400, 300), at: 0).get()
        _ = try rig.send(pan(.change, 420, 300), at: 0.1).get()
        _ = try rig.manager.set(CameraUpdate(latitude: 30, longitude: 5), owner: presenter, at: 0.2).get()
        let camera = rig.manager.camera
        let error = rig.send(pan(.change, 480, 300), at: 0.3).failureValue
        #expect(error?.code == .conflict && error?.holder == "p1" && error?.message.contains("begin again") == true)
        #expect(rig.manager.camera == camera)
        #expect(rig.send(pan(.end, 500, 300), at: 0.4).failureValue?.code == .conflict)
        #expect(rig.manager.camera == camera && !rig.manager.isMoving)  // no momentum either
        #expect(rig.send(pan(.change, 510, 300), at: 0.5).failureValue?.message == "pan change without begin")
    }

    @Test("after a takeover the client can begin again without ending first")
    func beginAgainAfterTakeover() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 400, 300), at: 0).get()
        _ = try rig.manager.set(CameraUpdate(latitude: 30, longitude: 5), owner: presenter, at: 0.2).get()
        #expect(rig.send(pan(.begin, 400, 300), at: 0.3).isSuccess)
        let geo = try #require(rig.geo(at: ViewPoint(x: 400, y: 300)))
        _ = try rig.send(pan(.change, 350, 250), at: 0.4).get()
        #expect(pixelDistance(rig.view(of: geo), ViewPoint(x: 350, y: 250)) <= 0.5)
    }

    @Test("a higher rank's gesture takes over a lower rank's active gesture")
    func higherRankGestureTakesOver() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 400, 300), at: 0).get()
        _ = try rig.send(pan(.begin, 100, 100), from: presenter, at: 0.1).get()
        #expect(rig.send(pan(.change, 420, 300), at: 0.2).failureValue?.code == .conflict)
        #expect(try rig.send(pan(.change, 120, 100), from: presenter, at: 0.2).get().effect == .following)
    }

    @Test("a lost gesture's cancel is accepted quietly")
    func lostGestureCancel() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 400, 300), at: 0).get()
        _ = try rig.manager.set(CameraUpdate(latitude: 30, longitude: 5), owner: presenter, at: 0.2).get()
        #expect(try rig.send(pan(.cancel), at: 0.3).get().effect == .ended(momentum: nil))
        #expect(rig.engine.activeGestures(of: "d1").isEmpty)
    }

    @Test("a disabled gesture is reported with its geo point and moves nothing", arguments: [GestureKind.pan, .pinch, .doubleTap, .scroll])
    func disabledOnlyReported(kind: GestureKind) throws {
        var rig = GestureRig(camera: Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 30, bearing: 10))
        _ = try rig.manager.ease(EaseRequest(update: CameraUpdate(bearing: 40), duration: 1), id: "turn", owner: driver2, at: 0).get()
        let inputs: [GestureInput] =
            kind.isContinuous
            ? [
                GestureInput(kind, .begin, x: 400, y: 300), GestureInput(kind, .change, x: 500, y: 250, scale: 2, rotation: 30),
                GestureInput(kind, .end, x: 600, y: 200),
            ]
            : [GestureInput(kind, .end, x: 400, y: 300, delta: -200)]
        var expected = rig.manager
        for (i, input) in inputs.enumerated() {
            let now = 0.1 * Double(i + 1)
            let outcome = try rig.send(input, disabled: [kind], at: now).get()
            expected.advance(to: now)
            #expect(outcome.effect == .disabled)
            #expect(outcome.event?.input == input && outcome.event?.geo == rig.geo(at: input.point!))
            #expect(rig.manager.camera == expected.camera)  // only the unrelated animation moved it
        }
        #expect(rig.manager.animationIDs(of: "d1").isEmpty && rig.manager.animationIDs(of: "d2") == ["turn"])
    }

    @Test("re-enabling a gesture kind makes it move the camera again")
    func reEnabled() throws {
        var rig = GestureRig()
        _ = try rig.send(GestureInput(.doubleTap, .end, x: 400, y: 300), disabled: [.doubleTap], at: 0).get()
        rig.manager.advance(to: 1)
        #expect(rig.manager.camera.zoom == 12)
        _ = try rig.send(GestureInput(.doubleTap, .end, x: 400, y: 300), disabled: [], at: 1).get()
        rig.manager.advance(to: 2)
        #expect(rig.manager.camera.zoom == 13)
    }

    @Test("disabling a kind mid-gesture releases what it holds and reports it from then on")
    func disabledMidGesture() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 400, 300), at: 0).get()
        _ = try rig.send(pan(.change, 420, 300), at: 0.1).get()
        let camera = rig.manager.camera
        #expect(try rig.send(pan(.change, 480, 300), disabled: [.pan], at: 0.2).get().effect == .disabled)
        #expect(rig.manager.camera == camera)
        #expect(rig.manager.set(CameraUpdate(latitude: 1, longitude: 1), owner: driver2, at: 0.3).isSuccess)
        #expect(try rig.send(pan(.end, 500, 300), at: 0.4).get().effect == .disabled)  // reported to the end
        #expect(rig.engine.activeGestures(of: "d1").isEmpty)
    }

    @Test("clientLeft ends the client's gestures and frees their properties")
    func clientLeftEndsGestures() throws {
        var rig = GestureRig()
        _ = try rig.send(pan(.begin, 400, 300), at: 0).get()
        _ = try rig.send(GestureInput(.tilt, .begin), at: 0).get()
        _ = try rig.send(GestureInput(.rotate, .begin), from: driver2, at: 0).get()  // another client: unaffected
        rig.engine.clientLeft("d1", manager: &rig.manager, at: 0.1)
        #expect(rig.engine.activeGestures(of: "d1").isEmpty && rig.engine.activeGestures(of: "d2") == [.rotate])
        #expect(rig.manager.set(CameraUpdate(latitude: 1, longitude: 1, tilt: 20), owner: driver2, at: 0.2).isSuccess)
        #expect(rig.send(pan(.change, 410, 300), at: 0.3).failureValue?.message == "pan change without begin")
        #expect(try rig.send(GestureInput(.rotate, .change, rotation: 10), from: driver2, at: 0.3).get().effect == .following)
    }
}
