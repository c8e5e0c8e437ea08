import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// Gesture listeners through `Hub.receive`: long-press phases, taps with view
/// and geo points, `gesture` listeners that hear every gesture of the room
/// (disabled or not), and the `gestures` answer.
@Suite("Hub: gesture listeners as in HERE")
struct HubGestureListenerTests {
    /// The geo point under (x, y) in `key`'s viewport, asked of the hub itself.
    func unproject(_ bench: HubBench, _ key: ConnectionKey, _ x: Double, _ y: Double) -> JSONValue? {
        bench.send(#"{"type":"query","id":"u","what":"unproject","points":[{"x":\#(x),"y":\#(y)}]}"#, from: key)
        return bench.messages(key, type: "result").last?["points"]?[0]
    }

    @Test func aLongPressIsAnnouncedThroughItsPhasesWithViewAndGeoPoints() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver", viewport: (800, 600))
        bench.send(#"{"type":"set","camera":{"lat":48.85,"lon":2.35,"zoom":12,"tilt":30,"bearing":20}}"#, from: d.key)
        let f = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"follower","events":["longPress"]}"#, from: f)
        bench.send(#"{"type":"gesture","kind":"longPress","phase":"begin","x":200,"y":300}"#, from: d.key)
        bench.send(#"{"type":"gesture","kind":"longPress","phase":"change","x":260,"y":320}"#, from: d.key)
        bench.send(#"{"type":"gesture","kind":"longPress","phase":"end"}"#, from: d.key)
        let events = bench.events(f, "longPress")
        #expect(events.map { $0["phase"]?.stringValue } == ["begin", "change", "end"])
        #expect(events.allSatisfy { $0["by"]?.stringValue == d.client })
        #expect(events.map { $0["x"]?.numberValue } == [200, 260, 260], "end is reported at the last point")
        #expect(events.map { $0["y"]?.numberValue } == [300, 320, 320])
        let geo = try #require(unproject(bench, d.key, 260, 320))
        #expect(events[1]["lat"] == geo["lat"] && events[1]["lon"] == geo["lon"], "the geo point under the sender's point")
        #expect(bench.errors(d.key).isEmpty)
        // Nonsense sequences are refused and announce nothing.
        bench.send(#"{"type":"gesture","kind":"longPress","phase":"change","x":1,"y":1}"#, from: d.key)
        #expect(bench.lastError(d.key)?["message"]?.stringValue == "longPress change without begin")
        #expect(bench.events(f, "longPress").count == 3)
    }

    @Test func aTapCarriesTheSendersViewPointAndTheGeoPoint() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver", viewport: (1000, 500))
        let watcher = bench.join(role: "driver")
        bench.send(#"{"type":"gesture","kind":"tap","x":100,"y":50}"#, from: d.key)
        let tap = try #require(bench.events(watcher.key, "tap").first)
        #expect(tap["x"]?.numberValue == 100 && tap["y"]?.numberValue == 50 && tap["by"]?.stringValue == d.client)
        let geo = try #require(unproject(bench, d.key, 100, 50))
        #expect(tap["lat"] == geo["lat"] && tap["lon"] == geo["lon"])
    }

    @Test func aGestureListenerHearsEveryGestureOfTheRoomDisabledOrNot() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        let listener = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"follower","events":["gesture"]}"#, from: listener)
        let plain = bench.join(role: "driver")
        #expect(bench.welcome(plain.key)?["events"]?.arrayValue?.contains(.string("gesture")) == false, "listening is opt-in")

        bench.send(#"{"type":"gesture","kind":"pan","phase":"begin","x":640,"y":360}"#, from: d.key)
        bench.send(#"{"type":"gesture","kind":"pan","phase":"change","x":700,"y":380}"#, from: d.key)
        bench.send(#"{"type":"gesture","kind":"pan","phase":"end"}"#, from: d.key)
        bench.send(#"{"type":"gesture","kind":"doubleTap","x":300,"y":200}"#, from: d.key)
        bench.run(seconds: 0.5)
        let moved = bench.room()!.camera
        #expect(moved.zoom > 1.5 + 0.99, "the double tap zoomed in: the listener does not change the default action")
        var heard = bench.events(listener, "gesture")
        #expect(
            heard.map { "\($0["kind"]?.stringValue ?? "")/\($0["phase"]?.stringValue ?? "null")" }
                == ["pan/begin", "pan/change", "pan/end", "doubleTap/null"])
        #expect(heard.allSatisfy { $0["by"]?.stringValue == d.client && $0["disabled"]?.boolValue == false })
        #expect(heard[3]["x"]?.numberValue == 300 && heard[3]["lat"]?.numberValue != nil, "a double tap carries view and geo point")
        #expect(bench.events(plain.key, "gesture").isEmpty)

        // Disabled: answered with the kinds now disabled; still heard, flagged, nothing moves.
        bench.send(#"{"type":"gestures","disable":["doubleTap","pan"]}"#, from: d.key)
        #expect(bench.messages(d.key, type: "gestures").last?["disabled"]?.arrayValue == [.string("pan"), .string("doubleTap")])
        bench.clear()
        bench.send(#"{"type":"gesture","kind":"doubleTap","x":300,"y":200}"#, from: d.key)
        bench.run(seconds: 0.5)
        #expect(bench.room()!.camera == moved)
        heard = bench.events(listener, "gesture")
        #expect(heard.count == 1 && heard[0]["kind"]?.stringValue == "doubleTap" && heard[0]["disabled"]?.boolValue == true)
        bench.send(#"{"type":"gestures","enable":["pan"]}"#, from: d.key)
        #expect(bench.messages(d.key, type: "gestures").last?["disabled"]?.arrayValue == [.string("doubleTap")])
        let late = bench.join(role: "driver")
        #expect(bench.welcome(late.key)?["gestures"]?.arrayValue == [], "welcome lists the joiner's own disabled kinds")
    }
}
