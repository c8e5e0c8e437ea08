import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

@Suite("Hub: roles")
struct HubRoleTests {
    static let drivingMessages = [
        #"{"type":"set","camera":{"zoom":5}}"#,
        #"{"type":"ease","id":"e1","camera":{"zoom":5}}"#,
        #"{"type":"fly","camera":{"lat":40,"lon":-74,"zoom":5}}"#,
        #"{"type":"animate","to":{"bearing":90},"duration":1}"#,
        #"{"type":"cancel"}"#,
        #"{"type":"cancel","all":true}"#,
        #"{"type":"limits","minZoom":3}"#,
        #"{"type":"track","mode":"followNorthUp"}"#,
    ]

    @Test(arguments: drivingMessages)
    func followerCommandsAreForbidden(_ message: String) throws {
        let bench = HubBench()
        let f = bench.join(role: "follower")
        let before = try #require(bench.room())
        bench.send(message, from: f.key)
        let error = bench.lastError(f.key)
        #expect(error?["code"]?.stringValue == "forbidden")
        let ref = try ClientMessage.decode(message).ref
        #expect(error?["ref"]?.stringValue == ref)
        bench.runTicks(3)
        #expect(bench.room()?.camera == before.camera && bench.room()?.seq == before.seq)
        #expect(bench.answersPing(f.key), "the connection stays usable")
    }

    @Test func followerMaySetViewportQueryPingAndToggleGestures() {
        let bench = HubBench()
        let f = bench.join(role: "follower")
        bench.send(#"{"type":"viewport","width":800,"height":600}"#, from: f.key)
        bench.send(#"{"type":"query","id":"q","what":"bounds"}"#, from: f.key)
        bench.send(#"{"type":"gestures","disable":["tilt"]}"#, from: f.key)
        bench.send(#"{"type":"ping"}"#, from: f.key)
        #expect(bench.errors(f.key).isEmpty)
        #expect(bench.messages(f.key, type: "result").count == 1)
        #expect(bench.messages(f.key, type: "pong").count == 1)
    }

    @Test func driverMovesTheCamera() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        let f = bench.join(role: "follower")
        bench.send(#"{"type":"set","camera":{"lat":10,"lon":20,"zoom":5}}"#, from: d.key)
        bench.runTicks(2)
        #expect(bench.errors(d.key).isEmpty)
        let frame = bench.frames(f.key).last
        #expect(frame?.camera["zoom"]?.numberValue == 5)
        #expect(frame?.camera["lat"]?.numberValue == 10 && frame?.camera["lon"]?.numberValue == 20)
        #expect(frame?.json["by"]?.stringValue == d.client)
        #expect(frame?.moving == false)
    }

    @Test func clampedSetIsReportedToTheSenderOnly() {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"limits","maxZoom":10}"#, from: p.key)
        bench.send(#"{"type":"set","camera":{"zoom":15,"bearing":10}}"#, from: d.key)
        let clamped = bench.events(d.key, "clamped")
        #expect(clamped.count == 1)
        #expect(clamped.first?["clamped"]?.arrayValue == [.string("zoom")])
        #expect(clamped.first?["camera"]?["zoom"]?.numberValue == 10)
        #expect(bench.events(p.key, "clamped").isEmpty)
        #expect(bench.room()?.camera.zoom == 10 && bench.room()?.camera.bearing == 10)
    }

    @Test func driverMayNotChangeLimits() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"limits","maxZoom":10}"#, from: d.key)
        #expect(bench.lastError(d.key)?["code"]?.stringValue == "forbidden")
        #expect(bench.lastError(d.key)?["message"]?.stringValue?.hasPrefix("limits:") == true)
        bench.send(#"{"type":"set","camera":{"zoom":15}}"#, from: d.key)
        #expect(bench.room()?.camera.zoom == 15, "limits unchanged")
    }

    @Test func driverMayNotCancelEveryonesAnimations() {
        let bench = HubBench()
        let a = bench.join(role: "driver")
        let b = bench.join(role: "driver")
        bench.send(#"{"type":"ease","id":"a1","camera":{"zoom":8},"duration":2}"#, from: a.key)
        bench.send(#"{"type":"cancel","all":true}"#, from: b.key)
        #expect(bench.lastError(b.key)?["code"]?.stringValue == "forbidden")
        #expect(!bench.animations(a.key).contains { $0["status"]?.stringValue == "cancelled" })
    }

    @Test func presenterChangesLimitsForEveryone() {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let f = bench.join(role: "follower")
        bench.send(#"{"type":"set","camera":{"zoom":15}}"#, from: p.key)
        bench.send(#"{"type":"limits","maxZoom":10}"#, from: p.key)
        #expect(bench.errors(p.key).isEmpty)
        for key in [p.key, f.key] {
            let event = bench.events(key, "limitsChanged").first
            #expect(event?["limits"]?["maxZoom"]?.numberValue == 10)
            #expect(event?["by"]?.stringValue == p.client)
        }
        #expect(bench.room()?.camera.zoom == 10, "the camera is clamped to the new limits")
    }

    @Test func presenterCancelsEveryonesAnimations() {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let a = bench.join(role: "driver")
        let b = bench.join(role: "driver")
        bench.send(#"{"type":"animate","id":"za","to":{"zoom":8},"duration":2}"#, from: a.key)
        bench.send(#"{"type":"animate","id":"bb","to":{"bearing":90},"duration":2}"#, from: b.key)
        bench.runTicks(5)
        bench.send(#"{"type":"cancel","all":true}"#, from: p.key)
        #expect(bench.errors(p.key).isEmpty)
        for (key, id) in [(a.key, "za"), (b.key, "bb")] {
            let cancelled = bench.animations(key).filter { $0["status"]?.stringValue == "cancelled" }
            #expect(cancelled.count == 1)
            #expect(cancelled.first?["id"]?.stringValue == id)
            #expect(cancelled.first?["by"]?.stringValue == p.client)
        }
        let atCancel = bench.room()!.camera
        bench.run(seconds: 1)
        #expect(bench.room()?.camera == atCancel, "nothing moves any more")
    }

    @Test func newPresenterTakesOverAndTheOldOneBecomesADriver() {
        let bench = HubBench()
        let old = bench.join(role: "presenter", name: "ana")
        let f = bench.join(role: "follower")
        let new = bench.join(role: "presenter", name: "bob")
        for key in [old.key, f.key, new.key] {
            let changes = bench.events(key, "presenterChanged")
            #expect(changes.count == (key == old.key ? 2 : 1), "ana also heard her own arrival")
            let change = changes.last
            #expect(change?["client"]?.stringValue == new.client)
            #expect(change?["previous"]?.stringValue == old.client)
            #expect(change?["demoted"]?.stringValue == old.client)
            #expect(change?["by"]?.stringValue == new.client)
        }
        #expect(bench.welcome(new.key)?["presenter"]?.stringValue == new.client)
        let late = bench.join(role: "follower")
        let roster = bench.welcome(late.key)?["roster"]?.arrayValue ?? []
        #expect(roster.first { $0["client"]?.stringValue == old.client }?["role"]?.stringValue == "driver")
        #expect(bench.welcome(late.key)?["presenter"]?.stringValue == new.client)
        // The old presenter now has a driver's rights.
        bench.send(#"{"type":"limits","maxZoom":10}"#, from: old.key)
        #expect(bench.lastError(old.key)?["code"]?.stringValue == "forbidden")
        bench.send(#"{"type":"set","camera":{"zoom":4}}"#, from: old.key)
        #expect(bench.room()?.camera.zoom == 4)
        #expect(bench.errors(old.key).count == 1)
    }

    @Test func demotedPresentersRunningAnimationNoLongerOutranksDrivers() {
        let bench = HubBench()
        let old = bench.join(role: "presenter")
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"ease","id":"slow","camera":{"zoom":9},"duration":30}"#, from: old.key)
        bench.send(#"{"type":"set","camera":{"zoom":2}}"#, from: d.key)
        #expect(bench.lastError(d.key)?["code"]?.stringValue == "conflict")
        _ = bench.join(role: "presenter")
        bench.send(#"{"type":"set","camera":{"zoom":2}}"#, from: d.key)
        #expect(bench.errors(d.key).count == 1, "the second set is not refused")
        #expect(bench.room()?.camera.zoom == 2)
    }

    @Test func presenterLeavingLeavesTheRoomWithoutOne() {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let d = bench.join(role: "driver")
        bench.disconnect(p.key)
        let change = bench.events(d.key, "presenterChanged").last
        #expect(change?["client"]?.isNull == true)
        #expect(change?["previous"]?.stringValue == p.client)
        #expect(change?["demoted"]?.isNull == true)
        let late = bench.join(role: "follower")
        #expect(bench.welcome(late.key)?["presenter"]?.isNull == true)
    }
}
