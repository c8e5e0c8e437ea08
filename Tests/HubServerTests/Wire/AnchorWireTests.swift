import Foundation
import HubCore
import Testing
import WebSocketTransport

/// The anchor through the real server: changing only the anchor moves
/// nothing on the sender's screen; rotating then turns around the anchor.
extension HubServerTests {
    @Test func settingOnlyTheAnchorMovesNothingOnScreenOnTheWire() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let d = clients.join(role: "driver")
        d.send(#"{"type":"set","camera":{"lat":52.52,"lon":13.405,"zoom":15,"tilt":50,"bearing":300}}"#)
        let ask = #"{"type":"query","id":"q","what":"project","points":[{"lat":52.523,"lon":13.40},{"lat":52.518,"lon":13.41}]}"#
        d.send(ask)
        let before = try #require(d.next("result")?["points"]?.arrayValue)
        d.send(#"{"type":"set","camera":{"anchor":{"x":0.3,"y":0.7}}}"#)
        d.send(ask)
        let after = try #require(d.next("result")?["points"]?.arrayValue)
        for (p, q) in zip(before, after) {
            #expect(
                abs((p["x"]?.numberValue ?? 0) - (q["x"]?.numberValue ?? 1)) < 1e-6 && abs((p["y"]?.numberValue ?? 0) - (q["y"]?.numberValue ?? 1)) < 1e-6,
                "\(p) → \(q)")
        }
        let camera = try #require(try hub.camera(of: "demo"))
        #expect(camera["anchor"]?["x"]?.numberValue == 0.3 && camera["lat"]?.numberValue != 52.52)
        d.send(#"{"type":"set","camera":{"bearing":10,"tilt":20}}"#)
        d.send(#"{"type":"query","id":"t","what":"project","points":[{"lat":\#(camera["lat"]!.numberValue!),"lon":\#(camera["lon"]!.numberValue!)}]}"#)
        let target = try #require(d.next("result")?["points"]?.arrayValue?.first)
        #expect(
            abs((target["x"]?.numberValue ?? 0) - 0.3 * 1280) < 1e-6 && abs((target["y"]?.numberValue ?? 0) - 0.7 * 720) < 1e-6,
            "the turn and tilt went around the anchor: \(target)")
        #expect(d.messages("error").isEmpty)
    }
}
