import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

/// Gesture listeners through the real server with WebSocket clients: a long
/// press reporting begin/change/end with geo points, and a `gesture`
/// listener hearing a disabled double tap that moved nothing.
extension HubServerTests {
    @Test func aLongPressReportsBeginChangeEndWithGeoPointsOnTheWire() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let d = clients.join(role: "driver")
        let f = clients.open()
        f.send(#"{"type":"hello","room":"demo","role":"follower","events":["longPress","gesture"]}"#)
        #expect(f.next("welcome") != nil)
        d.send(#"{"type":"set","camera":{"lat":52.52,"lon":13.405,"zoom":14}}"#)
        d.send(#"{"type":"gesture","kind":"longPress","phase":"begin","x":640,"y":360}"#)
        d.send(#"{"type":"gesture","kind":"longPress","phase":"change","x":740,"y":360}"#)
        d.send(#"{"type":"gesture","kind":"longPress","phase":"end","x":740,"y":460}"#)
        let longPresses = { f.messages("event").map(\.json).filter { $0["event"]?.stringValue == "longPress" } }
        #expect(waitUntil { longPresses().count >= 3 })
        let presses = longPresses()
        #expect(presses.map { $0["phase"]?.stringValue } == ["begin", "change", "end"])
        let begin = try #require(presses.first)
        #expect(
            abs((begin["lat"]?.numberValue ?? 0) - 52.52) < 1e-9 && abs((begin["lon"]?.numberValue ?? 0) - 13.405) < 1e-9,
            "the view centre is the target")
        // 100 px east at zoom 14 (512 · 2^14 px per 360°), due east at bearing 0.
        let change = try #require(presses.dropFirst().first)
        let expectedLon = 13.405 + 100 / (512 * 16384) * 360
        #expect(abs((change["lon"]?.numberValue ?? 0) - expectedLon) < 1e-9 && abs((change["lat"]?.numberValue ?? 0) - 52.52) < 1e-9)
        #expect(change["x"]?.numberValue == 740 && change["by"]?.stringValue == d.client)
        let end = try #require(presses.last)
        #expect((end["lat"]?.numberValue ?? 99) < 52.52, "the finger moved down before lifting: south")
        #expect(d.messages("error").isEmpty)
    }

    @Test func aGestureListenerHearsADisabledDoubleTapThatMovedNothingOnTheWire() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let d = clients.join(role: "driver")
        let listener = clients.open()
        listener.send(#"{"type":"hello","room":"demo","role":"follower","events":["gesture"]}"#)
        #expect(listener.next("welcome") != nil)
        d.send(#"{"type":"gestures","disable":["doubleTap"]}"#)
        #expect(d.next("gestures")?["disabled"]?.arrayValue == [.string("doubleTap")])
        let before = try #require(try hub.camera(of: "demo"))
        d.send(#"{"type":"gesture","kind":"doubleTap","x":100,"y":100}"#)
        let heard = try #require(listener.next("event"))
        #expect(heard["event"]?.stringValue == "gesture" && heard["kind"]?.stringValue == "doubleTap" && heard["disabled"]?.boolValue == true)
        #expect(heard["x"]?.numberValue == 100 && heard["lat"]?.numberValue != nil)
        #expect(try hub.camera(of: "demo") == before, "the disabled double tap did not zoom")
        d.send(#"{"type":"gestures","enable":["doubleTap"]}"#)
        #expect(d.next("gestures")?["disabled"]?.arrayValue == [])
        d.send(#"{"type":"gesture","kind":"doubleTap","x":100,"y":100}"#)
        #expect(listener.next("event")?["disabled"]?.boolValue == false)
        // One zoom level in all, from the enabled tap alone (a disabled tap that zoomed too would end elsewhere)…
        #expect(waitUntil { (try? hub.camera(of: "demo"))?["zoom"]?.numberValue == (before["zoom"]?.numberValue ?? 0) + 1 })
        // …and no frame came between the two taps' events: the disabled one moved nothing.
        let heardOrder = listener.messages.filter { $0.type == "frame" || $0.json["event"]?.stringValue == "gesture" }
        let disabledAt = heardOrder.firstIndex { $0.json["disabled"]?.boolValue == true } ?? 0
        let enabledAt = heardOrder.firstIndex { $0.json["disabled"]?.boolValue == false } ?? heardOrder.count
        #expect(disabledAt < enabledAt && heardOrder[(disabledAt + 1)..<enabledAt].isEmpty, "\(heardOrder.map(\.text))")
    }
}
