import CameraCore
import Testing

@testable import HubCore

/// A gesture with `seq` is acknowledged to its sender alone, with
/// the camera it made (and the animation it started), so the page can
/// reconcile its local prediction; gestures without `seq` get no answer.
@Suite("Hub: gesture acknowledgements for client-side prediction")
struct HubGestureAckTests {
    @Test func aGestureWithSeqIsAcknowledgedToItsSenderWithTheCameraItMade() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        let f = bench.join(role: "follower")
        let other = bench.join(role: "driver")
        bench.send(#"{"type":"gesture","kind":"pan","phase":"begin","x":640,"y":360,"t":1000,"seq":7}"#, from: d.key)
        let start = bench.room()!.camera
        bench.send(#"{"type":"gesture","kind":"pan","phase":"change","x":700,"y":380,"t":1016,"seq":8}"#, from: d.key)
        let acks = bench.messages(d.key, type: "gestureAck")
        #expect(acks.map { $0["seq"]?.numberValue } == [7, 8])
        #expect(acks.map { $0["phase"]?.stringValue } == ["begin", "change"])
        #expect(acks.allSatisfy { $0["kind"]?.stringValue == "pan" && $0["time"]?.numberValue != nil })
        #expect(acks[0]["camera"] == wireCamera(start), "begin: the camera the gesture starts from")
        #expect(acks[1]["camera"] == wireCamera(bench.room()!.camera), "change: the camera it made")
        #expect(bench.messages(f.key, type: "gestureAck").isEmpty, "followers never get acknowledgements")
        #expect(bench.messages(other.key, type: "gestureAck").isEmpty, "nor do other drivers")
    }

    @Test func aGestureWithoutSeqGetsNoAcknowledgement() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"gesture","kind":"pan","phase":"begin","x":640,"y":360}"#, from: d.key)
        bench.send(#"{"type":"gesture","kind":"pan","phase":"change","x":700,"y":380}"#, from: d.key)
        bench.send(#"{"type":"gesture","kind":"scroll","x":640,"y":360,"delta":-100}"#, from: d.key)
        #expect(bench.messages(d.key, type: "gestureAck").isEmpty)
        #expect(bench.errors(d.key).isEmpty)
    }

    @Test func panMomentumIsAcknowledgedWithWhereItGoesAndForHowLong() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"gesture","kind":"pan","phase":"begin","x":640,"y":360,"t":1000,"seq":1}"#, from: d.key)
        for i in 1...6 {
            bench.send(#"{"type":"gesture","kind":"pan","phase":"change","x":\#(640 + 20 * i),"y":360,"t":\#(1000 + 16 * i),"seq":\#(1 + i)}"#, from: d.key)
        }
        bench.send(#"{"type":"gesture","kind":"pan","phase":"end","x":760,"y":360,"t":1100,"seq":8}"#, from: d.key)
        let end = try #require(bench.messages(d.key, type: "gestureAck").last)
        #expect(end["seq"]?.numberValue == 8 && end["phase"]?.stringValue == "end")
        let animation = try #require(end["animation"])
        #expect(animation["id"]?.stringValue == "momentum")
        let duration = try #require(animation["duration"]?.numberValue)
        #expect(duration > 0)
        bench.run(seconds: duration + 0.1)
        #expect(animation["to"] == wireCamera(bench.room()!.camera), "the momentum ends where the acknowledgement said")
    }

    @Test func aScrollIsAcknowledgedWithItsZoomAnimation() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"gesture","kind":"scroll","x":300,"y":200,"delta":-90,"seq":3}"#, from: d.key)
        let ack = try #require(bench.messages(d.key, type: "gestureAck").last)
        #expect(ack["seq"]?.numberValue == 3 && ack["phase"] == .null)
        #expect(ack["animation"]?["id"]?.stringValue == "scroll" && ack["animation"]?["duration"]?.numberValue == 0.2)
        #expect(ack["animation"]?["to"]?["zoom"]?.numberValue == 1.5 + 90.0 / 450)
    }

    @Test func aGestureTakenOverIsAnsweredWithConflictAndNoAcknowledgement() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        let p = bench.join(role: "presenter")
        bench.send(#"{"type":"gesture","kind":"pan","phase":"begin","x":640,"y":360,"seq":1}"#, from: d.key)
        bench.send(#"{"type":"set","camera":{"lat":10,"lon":10}}"#, from: p.key)
        bench.send(#"{"type":"gesture","kind":"pan","phase":"change","x":700,"y":380,"seq":2}"#, from: d.key)
        #expect(bench.messages(d.key, type: "gestureAck").map { $0["seq"]?.numberValue } == [1])
        #expect(bench.lastError(d.key)?["code"]?.stringValue == "conflict")
    }

    @Test func aSeqThatIsNotAWholeNumberIsRefused() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"gesture","kind":"scroll","x":1,"y":1,"delta":-90,"seq":1.5}"#, from: d.key)
        #expect(bench.lastError(d.key)?["message"]?.stringValue == "seq: must be a whole number within 0…9007199254740991 (got 1.5)")
        bench.send(#"{"type":"gesture","kind":"scroll","x":1,"y":1,"delta":-90,"seq":-1}"#, from: d.key)
        #expect(bench.errors(d.key).count == 2)
        #expect(bench.messages(d.key, type: "gestureAck").isEmpty)
    }
}
