import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

/// Animation levels through the real server with real WebSocket clients: one
/// high-level animation at a time, animators side by side, `interrupted` when
/// it happens, `animate` `from`.
extension HubServerTests {
    @Test func flyThenEaseOnAnotherPropertySupersedesTheFlyAsAWholeOnTheWire() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let a = clients.join(role: "driver")
        let b = clients.join(role: "driver")
        // Still flying when b's ease comes, however slow the machine (it is superseded long before it would end).
        a.send(#"{"type":"fly","id":"f1","camera":{"lat":40.7128,"lon":-74.006,"zoom":11},"duration":60}"#)
        #expect(a.next("animation")?["status"]?.stringValue == "started")
        #expect(waitUntil { a.frames.contains { $0.json["moving"]?.boolValue == true } }, "the flight is under way")
        b.send(#"{"type":"ease","id":"e1","camera":{"bearing":90},"duration":0.3}"#)
        let superseded = a.next("animation")
        #expect(superseded?["id"]?.stringValue == "f1" && superseded?["status"]?.stringValue == "superseded")
        #expect(superseded?["by"]?.stringValue == b.client && superseded?["reason"]?.stringValue == "highLevel")
        #expect(superseded?["lost"]?.arrayValue == [.string("center"), .string("zoom")])
        let stood = try #require(superseded?["camera"])
        #expect(b.next("animation")?["status"]?.stringValue == "started")
        #expect(b.next("animation")?["status"]?.stringValue == "finished")
        let camera = try #require(try hub.camera(of: "demo"))
        #expect(
            camera["lat"] == stood["lat"] && camera["lon"] == stood["lon"] && camera["zoom"] == stood["zoom"],
            "the flight stopped where it stood: \(camera) vs \(stood)")
        #expect(camera["bearing"]?.numberValue == 90)
    }

    @Test func animatorsRunSideBySideAndAGestureInterruptsOneAtThatMomentOnTheWire() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let a = clients.join(role: "driver")
        let b = clients.join(role: "driver")
        a.send(#"{"type":"animate","id":"turn","to":{"bearing":90,"zoom":6},"duration":3}"#)
        b.send(#"{"type":"animate","id":"tilt","to":{"tilt":30},"duration":0.5}"#)
        #expect(a.next("animation")?["status"]?.stringValue == "started")
        #expect(b.next("animation")?["status"]?.stringValue == "started")
        #expect(
            waitUntil { a.frames.contains { ($0.json["camera"]?["bearing"]?.numberValue ?? 0) > 0 } }, "the turn is under way before the gesture")
        b.send(#"{"type":"gesture","kind":"scroll","x":640,"y":360,"delta":-120}"#)
        let interrupted = a.next("animation")
        #expect(interrupted?["id"]?.stringValue == "turn" && interrupted?["status"]?.stringValue == "interrupted")
        #expect(interrupted?["lost"]?.arrayValue == [.string("zoom")] && interrupted?["by"]?.stringValue == b.client)
        #expect(interrupted?["camera"]?["bearing"]?.numberValue.map { $0 > 0 && $0 < 90 } == true, "the camera at that moment")
        let finished = a.next("animation")
        #expect(finished?["status"]?.stringValue == "finished" && finished?["lost"]?.arrayValue == [.string("zoom")])
        #expect(
            waitUntil { b.messages("animation").contains { $0.json["id"]?.stringValue == "tilt" && $0.json["status"]?.stringValue == "finished" } },
            "the other animator ran beside it")
        #expect(waitUntil { (try? hub.camera(of: "demo"))?["tilt"]?.numberValue == 30 })
        let camera = try #require(try hub.camera(of: "demo"))
        #expect(camera["bearing"]?.numberValue == 90, "the interrupted animator ran on with bearing")
        #expect(b.messages("error").isEmpty)
    }

    @Test func animateFromJumpsAtItsStartOnTheWire() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let d = clients.join(role: "driver")
        d.send(#"{"type":"set","camera":{"bearing":90}}"#)
        #expect(waitUntil { (try? hub.camera(of: "demo"))?["bearing"]?.numberValue == 90 })
        d.send(#"{"type":"animate","id":"a","from":{"bearing":10},"to":{"bearing":20},"duration":0.5,"curve":"linear"}"#)
        let started = d.next("animation")
        #expect(started?["status"]?.stringValue == "started" && started?["camera"]?["bearing"]?.numberValue == 10)
        #expect(d.next("animation")?["status"]?.stringValue == "finished")
        // The resting frame follows the report within one frame interval.
        #expect(waitUntil { d.frames.last.map { $0.json["moving"]?.boolValue == false && $0.json["camera"]?["bearing"]?.numberValue == 20 } == true })
        let bearings = d.frames.compactMap { $0.json["camera"]?["bearing"]?.numberValue }
        let last90 = bearings.lastIndex(of: 90) ?? -1
        #expect(bearings[(last90 + 1)...].allSatisfy { $0 >= 10 && $0 <= 20 }, "no frame turns from 90 towards 20: \(bearings)")
        #expect(bearings.last == 20)
        d.send(#"{"type":"animate","from":{"tilt":5},"to":{"zoom":3},"duration":1}"#)
        #expect(d.nextError("bad_message")?["message"]?.stringValue?.hasPrefix("from.tilt:") == true)
    }
}
