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
        let longPresses = { f.messages("event").map(\.json).filter { $0["event"]?.string == "longPress" } }
        #expect(waitUntil { longPresses().count >= 3 })
        let presses = longPresses()
        #expect(presses.map { $0["phase"]?.string } == ["begin", "change", "end"])
        let begin = try #require(presses.first)
        #expect(
            abs((begin["lat"]?.number ?? 0) - 52.52) < 1e-9 && abs((begin["lon"]?.number ?? 0) - 13.405) < 1e-9,
            "the view centre is the target")
        // 100 px east at zoom 14 (512 · 2^14 px per 360°), due east at bearing 0.
        let change = try #require(presses.dropFirst().first)
        let expectedLon = 13.405 + 100 / (512 * 16384) * 360
        #expect(abs((change["lon"]?.number ?? 0) - expectedLon) < 1e-9 && abs((change["lat"]?.number ?? 0) - 52.52) < 1e-9)
        #expect(change["x"]?.number == 740 && change["by"]?.string == d.client)
        let end = try #require(presses.last)
        #expect((end["lat"]?.number ?? 99) < 52.52, "the finger moved down before lifting: south")
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
        #expect(d.next("gestures")?["disabled"]?.array == [.string("doubleTap")])
        let before = try #require(try hub.camera(of: "demo"))
        d.send(#"{"type":"gesture","kind":"doubleTap","x":100,"y":100}"#)
        let heard = try #require(listener.next("event"))
        #expect(heard["event"]?.string == "gesture" && heard["kind"]?.string == "doubleTap" && heard["disabled"]?.bool == true)
        #expect(heard["x"]?.number == 100 && heard["lat"]?.number != nil)
        #expect(try hub.camera(of: "demo") == before, "the disabled double tap did not zoom")
        d.send(#"{"type":"gestures","enable":["doubleTap"]}"#)
        #expect(d.next("gestures")?["disabled"]?.array == [])
        d.send(#"{"type":"gesture","kind":"doubleTap","x":100,"y":100}"#)
        #expect(listener.next("event")?["disabled"]?.bool == false)
        // One zoom level in all, from the enabled tap alone (a disabled tap that zoomed too would end elsewhere)…
        #expect(waitUntil { (try? hub.camera(of: "demo"))?["zoom"]?.number == (before["zoom"]?.number ?? 0) + 1 })
        // …and no frame came between the two taps' events: the disabled one moved nothing.
        let heardOrder = listener.messages.filter { $0.type == "frame" || $0.json["event"]?.string == "gesture" }
        let disabledAt = heardOrder.firstIndex { $0.json["disabled"]?.bool == true } ?? 0
        let enabledAt = heardOrder.firstIndex { $0.json["disabled"]?.bool == false } ?? heardOrder.count
        #expect(disabledAt < enabledAt && heardOrder[(disabledAt + 1)..<enabledAt].isEmpty, "\(heardOrder.map(\.text))")
    }
}
