import CamHubProtocol
import Foundation
import HubCore
import Testing
import WebSocketTransport

/// Padding through the real server: a padded camera's `project`
/// answers match MapLibre's (the shared vectors, made from MapLibre's matrix
/// pipeline) within 0.5 px.
extension HubServerTests {
    @Test func aPaddedCamerasProjectMatchesMapLibreOnTheWire() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Vectors/projection.json")
        let vectors = try JSONParser.parse(Array(try Data(contentsOf: url)))
        let cases = (vectors["cases"]?.arrayValue ?? []).filter {
            $0["name"]?.stringValue?.hasPrefix("pad_t45_z14_b30_p") == true || $0["name"]?.stringValue?.hasPrefix("pad_t60_z16_b200_phone_p") == true
        }
        #expect(cases.count == 10)
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let d = clients.join(role: "driver")
        var compared = 0
        for (i, c) in cases.enumerated() {
            let cam = try #require(c["camera"])
            let vp = try #require(c["viewport"])
            let geo = try #require(c["geo"])
            let view = try #require(c["view"])
            let p = try #require(cam["padding"])
            d.send(#"{"type":"viewport","width":\#(vp["width"]!.numberValue!),"height":\#(vp["height"]!.numberValue!)}"#)
            d.send(
                #"{"type":"set","camera":{"lat":\#(cam["lat"]!.numberValue!),"lon":\#(cam["lon"]!.numberValue!),"zoom":\#(cam["zoom"]!.numberValue!),"bearing":\#(cam["bearing"]!.numberValue!),"tilt":\#(cam["tilt"]!.numberValue!),"padding":{"top":\#(p["top"]!.numberValue!),"left":\#(p["left"]!.numberValue!),"bottom":\#(p["bottom"]!.numberValue!),"right":\#(p["right"]!.numberValue!)}}}"#
            )
            d.send(#"{"type":"query","id":"q\#(i)","what":"project","points":[{"lat":\#(geo["lat"]!.numberValue!),"lon":\#(geo["lon"]!.numberValue!)}]}"#)
            let result = try #require(d.next("result"))
            #expect(result["id"]?.stringValue == "q\(i)")
            let got = try #require(result["points"]?.arrayValue?.first)
            let dx = (got["x"]?.numberValue ?? .infinity) - view["x"]!.numberValue!
            let dy = (got["y"]?.numberValue ?? .infinity) - view["y"]!.numberValue!
            #expect((dx * dx + dy * dy).squareRoot() <= 0.5, "\(c["name"]!): hub \(got) vs MapLibre \(view)")
            compared += 1
        }
        #expect(compared == 10 && d.messages("error").isEmpty)
    }
}
