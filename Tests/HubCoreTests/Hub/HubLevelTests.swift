import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// Animation levels through `Hub.receive`: one high-level animation
/// at a time, partial losses reported when they happen, `animate` `from`.
@Suite("Hub: high-level and low-level animations")
struct HubLevelTests {
    func reports(_ bench: HubBench, _ key: ConnectionKey, id: String) -> [JSONValue] {
        bench.animations(key).filter { $0["id"]?.stringValue == id }
    }

    func statuses(_ bench: HubBench, _ key: ConnectionKey, id: String) -> [String] {
        reports(bench, key, id: id).compactMap { $0["status"]?.stringValue }
    }

    @Test func flyThenEaseOnAnotherPropertySupersedesTheFlyAsAWhole() {
        let bench = HubBench()
        let a = bench.join(role: "driver")
        let b = bench.join(role: "driver")
        bench.send(#"{"type":"fly","id":"f1","camera":{"lat":40.7128,"lon":-74.006,"zoom":11},"duration":4}"#, from: a.key)
        bench.run(seconds: 1)
        let atTakeOver = bench.room()!.camera
        bench.send(#"{"type":"ease","id":"e1","camera":{"bearing":90},"duration":1}"#, from: b.key)
        #expect(bench.errors(b.key).isEmpty)
        #expect(statuses(bench, a.key, id: "f1") == ["started", "superseded"], "at once, not at the next tick")
        let superseded = reports(bench, a.key, id: "f1").last
        #expect(superseded?["by"]?.stringValue == b.client)
        #expect(superseded?["lost"]?.arrayValue == [.string("center"), .string("zoom")])
        #expect(superseded?["reason"]?.stringValue == "highLevel")
        #expect(superseded?["camera"] == wireCamera(atTakeOver))
        bench.run(seconds: 1.5)
        let camera = bench.room()!.camera
        #expect(camera.target == atTakeOver.target && camera.zoom == atTakeOver.zoom, "the fly stopped where it was")
        #expect(camera.bearing == 90)
        #expect(statuses(bench, b.key, id: "e1") == ["started", "finished"])
    }

    @Test func setOnAnotherPropertyEndsTheOwnersEase() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"ease","id":"e1","camera":{"zoom":10},"duration":2}"#, from: d.key)
        bench.run(seconds: 0.5)
        bench.send(#"{"type":"set","camera":{"tilt":30}}"#, from: d.key)
        #expect(statuses(bench, d.key, id: "e1") == ["started", "superseded"])
        #expect(reports(bench, d.key, id: "e1").last?["lost"]?.arrayValue == [.string("zoom")])
        let zoom = bench.room()!.camera.zoom
        bench.run(seconds: 2)
        #expect(bench.room()?.camera.zoom == zoom && bench.room()?.camera.tilt == 30)
    }

    @Test func animateOnBearingThenAnimateOnZoomBothRun() {
        let bench = HubBench()
        let a = bench.join(role: "driver")
        let b = bench.join(role: "driver")
        bench.send(#"{"type":"animate","id":"b1","to":{"bearing":90},"duration":1}"#, from: a.key)
        bench.runTicks(3)
        bench.send(#"{"type":"animate","id":"z1","to":{"zoom":6},"duration":1}"#, from: b.key)
        bench.run(seconds: 1.5)
        #expect(statuses(bench, a.key, id: "b1") == ["started", "finished"])
        #expect(statuses(bench, b.key, id: "z1") == ["started", "finished"])
        #expect(bench.room()?.camera.bearing == 90 && bench.room()?.camera.zoom == 6)
    }

    @Test func aDriverCannotEndThePresentersFlyButMayAnimateAFreeProperty() {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"fly","id":"tour","camera":{"lat":48.85,"lon":2.35,"zoom":12},"duration":4}"#, from: p.key)
        bench.run(seconds: 0.5)
        for message in [
            #"{"type":"ease","camera":{"bearing":45}}"#, #"{"type":"set","camera":{"tilt":10}}"#,
            #"{"type":"fly","camera":{"bearing":45}}"#,
        ] {
            bench.send(message, from: d.key)
            let error = bench.lastError(d.key)
            #expect(error?["code"]?.stringValue == "conflict")
            let text = error?["message"]?.stringValue ?? ""
            #expect(text.contains("'tour'") && text.contains(p.client!), "names the animation and its owner: \(text)")
        }
        #expect(bench.errors(d.key).count == 3)
        bench.send(#"{"type":"animate","id":"turn","to":{"bearing":45},"duration":0.5}"#, from: d.key)
        #expect(bench.errors(d.key).count == 3)
        bench.run(seconds: 4)
        #expect(statuses(bench, p.key, id: "tour") == ["started", "finished"])
        #expect(statuses(bench, d.key, id: "turn") == ["started", "finished"])
        #expect(bench.room()?.camera.bearing == 45 && bench.room()?.camera.zoom == 12)
    }

    @Test func theHighLevelRuleSurvivesADemotion() {
        let bench = HubBench()
        let old = bench.join(role: "presenter")
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"fly","id":"f","camera":{"lat":10,"lon":10,"zoom":8},"duration":10}"#, from: old.key)
        _ = bench.join(role: "presenter")
        bench.send(#"{"type":"ease","id":"e","camera":{"tilt":20}}"#, from: d.key)
        #expect(bench.errors(d.key).isEmpty, "the demoted presenter's fly now ranks as a driver's")
        #expect(statuses(bench, old.key, id: "f") == ["started", "superseded"])
    }

    // MARK: Item 2

    @Test func anAnimationLosingZoomToAGestureIsInterruptedAtThatMoment() {
        let bench = HubBench()
        let a = bench.join(role: "driver")
        let g = bench.join(role: "driver")
        bench.send(#"{"type":"animate","id":"a1","to":{"zoom":8,"bearing":90},"duration":2}"#, from: a.key)
        bench.run(seconds: 0.5)
        let atGesture = bench.room()!.camera
        bench.send(#"{"type":"gesture","kind":"scroll","x":640,"y":360,"delta":-120}"#, from: g.key)
        #expect(bench.errors(g.key).isEmpty)
        #expect(statuses(bench, a.key, id: "a1") == ["started", "interrupted"], "told in the same receive, before any tick")
        let interrupted = reports(bench, a.key, id: "a1").last
        #expect(interrupted?["lost"]?.arrayValue == [.string("zoom")])
        #expect(interrupted?["by"]?.stringValue == g.client)
        #expect(interrupted?["reason"]?.stringValue == "gesture")
        #expect(interrupted?["camera"] == wireCamera(atGesture))
        bench.run(seconds: 2)
        #expect(statuses(bench, a.key, id: "a1") == ["started", "interrupted", "finished"])
        #expect(bench.room()?.camera.bearing == 90, "it ran on with bearing")
    }

    @Test func anAnimatorLosingOneOfItsPropertiesToAnotherCommandIsInterrupted() {
        let bench = HubBench()
        let a = bench.join(role: "driver")
        let b = bench.join(role: "driver")
        bench.send(#"{"type":"animate","id":"a1","to":{"zoom":8,"tilt":40},"duration":2}"#, from: a.key)
        bench.run(seconds: 0.5)
        let atSet = bench.room()!.camera
        bench.send(#"{"type":"set","camera":{"tilt":10}}"#, from: b.key)
        let interrupted = reports(bench, a.key, id: "a1").last
        #expect(interrupted?["status"]?.stringValue == "interrupted")
        #expect(interrupted?["lost"]?.arrayValue == [.string("tilt")] && interrupted?["by"]?.stringValue == b.client)
        #expect(interrupted?["camera"] == wireCamera(atSet), "where the camera stood before the set")
        bench.run(seconds: 2)
        let finished = reports(bench, a.key, id: "a1").last
        #expect(finished?["status"]?.stringValue == "finished" && finished?["lost"]?.arrayValue == [.string("tilt")])
        #expect(bench.room()?.camera.zoom == 8 && bench.room()?.camera.tilt == 10)
    }

    @Test func cancelledAndSupersededCarryTheCamera() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"ease","id":"e1","camera":{"zoom":10},"duration":2}"#, from: d.key)
        bench.run(seconds: 0.5)
        bench.send(#"{"type":"cancel","id":"e1"}"#, from: d.key)
        let cancelled = reports(bench, d.key, id: "e1").last
        #expect(cancelled?["status"]?.stringValue == "cancelled")
        #expect(cancelled?["camera"] == wireCamera(bench.room()!.camera))
        bench.send(#"{"type":"ease","id":"e2","camera":{"zoom":2},"duration":2}"#, from: d.key)
        bench.run(seconds: 0.5)
        let before = bench.room()!.camera
        bench.send(#"{"type":"ease","id":"e3","camera":{"zoom":3},"duration":2}"#, from: d.key)
        let superseded = reports(bench, d.key, id: "e2").last
        #expect(superseded?["status"]?.stringValue == "superseded")
        #expect(superseded?["camera"] == wireCamera(before))
    }

    // MARK: Item 7

    @Test func animateFromJumpsTheNamedPropertiesAtItsStart() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        let f = bench.join(role: "follower")
        bench.send(#"{"type":"set","camera":{"bearing":90,"zoom":5}}"#, from: d.key)
        bench.runTicks(2)
        bench.clear()
        bench.send(#"{"type":"animate","id":"a","from":{"bearing":10},"to":{"bearing":20},"duration":1,"curve":"linear"}"#, from: d.key)
        #expect(bench.errors(d.key).isEmpty)
        #expect(bench.room()?.camera.bearing == 10 && bench.room()?.camera.zoom == 5)
        #expect(reports(bench, d.key, id: "a").first?["camera"]?["bearing"]?.numberValue == 10, "started: where it starts from")
        bench.runTicks(2)
        let first = bench.frames(f.key).first?.camera["bearing"]?.numberValue ?? 0
        #expect(first >= 10 && first < 11, "the next frame shows the jump, not a turn from 90: \(first)")
        bench.run(seconds: 1.1)
        #expect(bench.room()?.camera.bearing == 20)
    }

    @Test func animateFromWithADelayJumpsWhenItStarts() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"set","camera":{"zoom":5}}"#, from: d.key)
        bench.send(#"{"type":"animate","id":"a","from":{"zoom":2},"to":{"zoom":3},"duration":1,"delay":1}"#, from: d.key)
        bench.run(seconds: 0.5)
        #expect(bench.room()?.camera.zoom == 5)
        bench.run(seconds: 0.55)
        let zoom = bench.room()!.camera.zoom
        #expect(zoom >= 2 && zoom < 2.1, "\(zoom)")
    }

    @Test(arguments: [
        (#"{"type":"animate","from":{"bearing":"x"},"to":{"bearing":2},"duration":1}"#, "from.bearing: must be a finite number (got a string)"),
        (#"{"type":"animate","from":{"lng":1},"to":{"lon":2},"duration":1}"#, "from.lng: unknown field"),
        (#"{"type":"animate","from":{"tilt":5},"to":{"zoom":2},"duration":1}"#, "from.tilt: is not animated (to has no tilt)"),
        (#"{"type":"animate","from":{"lat":95},"to":{"lat":2},"duration":1}"#, "from.lat: must be within -90…90"),
        (#"{"type":"animate","from":{},"to":{"zoom":2},"duration":1}"#, "from: must name at least one of"),
        (#"{"type":"animate","from":3,"to":{"zoom":2},"duration":1}"#, "from: must be an object"),
    ])
    func badFromValuesAreRefusedNamingTheField(_ message: String, _ prefix: String) {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        let before = bench.room()!.camera
        bench.send(message, from: d.key)
        let error = bench.lastError(d.key)
        #expect(error?["code"]?.stringValue == "bad_message")
        #expect(error?["message"]?.stringValue?.hasPrefix(prefix) == true, "\(error?["message"]?.stringValue ?? "no error")")
        #expect(bench.room()?.camera == before && bench.animations(d.key).isEmpty)
    }
}
