import CameraCore
import Testing

@testable import HubCore

/// `hello.events` and `subscribe`: a client gets frames plus only the events it asked for.
@Suite("Hub: event subscriptions")
struct HubSubscriptionTests {
    static let followerDefault = [
        "steady", "trackingModeChanged", "limitsChanged", "presenterChanged", "audience", "routeChanged", "summoned",
        "followPolicyChanged", "viewChanged", "projectionChanged", "storyStep", "storyChanged",
    ]

    func eventNames(_ bench: HubBench, _ key: ConnectionKey) -> Set<String> {
        Set(bench.messages(key, type: "event").compactMap { $0["event"]?.stringValue })
    }

    /// A presenter turns the camera far (significantChange), taps, a driver joins and leaves.
    func busyRoom(_ bench: HubBench, presenter: ConnectionKey) {
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"animate","id":"turn","to":{"bearing":120,"zoom":6},"duration":0.5}"#, from: presenter)
        bench.send(#"{"type":"gesture","kind":"tap","x":100,"y":100}"#, from: presenter)
        bench.run(seconds: 1)
        bench.disconnect(d.key)
        bench.send(#"{"type":"limits","maxTilt":50}"#, from: presenter)
        bench.run(seconds: 1.5)
    }

    @Test func followersGetOnlyWhatTheyNeedToRenderByDefault() {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let f = bench.join(role: "follower")
        busyRoom(bench, presenter: p.key)
        #expect(eventNames(bench, f.key).isSubset(of: Set(Self.followerDefault)), "\(eventNames(bench, f.key))")
        #expect(eventNames(bench, f.key).isSuperset(of: ["steady", "limitsChanged", "audience"]))
        #expect(bench.frames(f.key).count > 10)
        #expect(
            bench.welcome(f.key)?["events"]?.arrayValue?.compactMap(\.stringValue) == Self.followerDefault)
    }

    @Test func driversAndPresentersGetEverythingByDefault() {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let watcher = bench.join(role: "driver")
        busyRoom(bench, presenter: p.key)
        #expect(eventNames(bench, watcher.key).isSuperset(of: ["steady", "significantChange", "joined", "left", "tap", "limitsChanged"]))
        #expect(bench.animations(p.key).contains { $0["status"]?.stringValue == "finished" })
    }

    @Test func helloEventsChooseExactlyWhatArrives() {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let f = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"follower","events":["joined","left","tap"]}"#, from: f)
        busyRoom(bench, presenter: p.key)
        #expect(eventNames(bench, f) == ["joined", "left", "tap"])
        #expect(bench.welcome(f)?["events"]?.arrayValue?.compactMap(\.stringValue) == ["joined", "left", "tap"])
    }

    @Test func subscribeReplacesTheListMidSession() {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let f = bench.join(role: "follower")
        bench.send(#"{"type":"subscribe","events":["significantChange"]}"#, from: f.key)
        busyRoom(bench, presenter: p.key)
        #expect(eventNames(bench, f.key) == ["significantChange"])
        #expect(bench.errors(f.key).isEmpty)
        bench.clear()
        bench.send(#"{"type":"subscribe","events":[]}"#, from: f.key)
        busyRoom(bench, presenter: p.key)
        #expect(bench.messages(f.key, type: "event").isEmpty, "frames only")
        #expect(!bench.frames(f.key).isEmpty)
    }

    @Test func aDriverWithoutAnimationSubscriptionGetsNoAnimationReports() {
        let bench = HubBench()
        let d = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"driver","events":["steady"]}"#, from: d)
        bench.send(#"{"type":"animate","id":"a","to":{"zoom":4},"duration":0.2}"#, from: d)
        bench.run(seconds: 1)
        #expect(bench.animations(d).isEmpty)
        #expect(eventNames(bench, d) == ["steady"])
    }

    @Test func unknownEventNamesAreRefusedNamingThemAndChangeNothing() {
        let bench = HubBench()
        let refused = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"follower","events":["steady","moved"]}"#, from: refused)
        #expect(bench.lastError(refused)?["message"]?.stringValue?.hasPrefix("events: unknown event 'moved' (known: steady,") == true)
        #expect(bench.welcome(refused) == nil)
        let f = bench.join(role: "follower")
        bench.send(#"{"type":"subscribe","events":[3]}"#, from: f.key)
        #expect(bench.lastError(f.key)?["message"]?.stringValue == "events[0]: must be a string (got a number)")
        bench.send(#"{"type":"subscribe"}"#, from: f.key)
        #expect(bench.lastError(f.key)?["code"]?.stringValue == "bad_message")
        let p = bench.join(role: "presenter")
        busyRoom(bench, presenter: p.key)
        #expect(eventNames(bench, f.key).isSuperset(of: ["steady", "audience"]), "the default still holds")
    }

    @Test func anEventNobodyWantsIsNotEncoded() {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        for _ in 0..<5 { bench.join(role: "follower") }
        bench.clear()
        bench.send(#"{"type":"gesture","kind":"tap","x":10,"y":10}"#, from: p.key)
        let tapMessages = bench.sink.outputs.filter { if case .message = $0 { true } else { false } }
        #expect(tapMessages.count == 1, "only the presenter itself gets its tap")
    }
}
