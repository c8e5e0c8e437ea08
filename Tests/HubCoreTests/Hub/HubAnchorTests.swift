import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// The anchor through `Hub.receive`: a `set` of the anchor alone
/// re-targets in the sender's viewport so its `project` answers do not move.
@Suite("Hub: target anchor as in HERE CameraLite")
struct HubAnchorTests {
    func project(_ bench: HubBench, _ key: ConnectionKey) -> [JSONValue] {
        bench.send(#"{"type":"query","id":"p","what":"project","points":[{"lat":48.86,"lon":2.34},{"lat":48.85,"lon":2.36}]}"#, from: key)
        return bench.messages(key, type: "result").last?["points"]?.arrayValue ?? []
    }

    @Test func settingOnlyTheAnchorMovesNothingOnTheSendersScreen() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver", viewport: (800, 600))
        let f = bench.join(role: "follower")
        bench.send(#"{"type":"set","camera":{"lat":48.8566,"lon":2.3522,"zoom":14,"tilt":40,"bearing":20}}"#, from: d.key)
        let before = project(bench, d.key)
        bench.send(#"{"type":"set","camera":{"anchor":{"x":0.5,"y":0.8}}}"#, from: d.key)
        bench.runTicks(3)
        let after = project(bench, d.key)
        #expect(before.count == 2 && after.count == 2)
        for (p, q) in zip(before, after) {
            #expect(abs((p["x"]?.numberValue ?? 0) - (q["x"]?.numberValue ?? 1)) < 1e-6 && abs((p["y"]?.numberValue ?? 0) - (q["y"]?.numberValue ?? 1)) < 1e-6)
        }
        let camera = try #require(bench.frames(f.key).last?.camera)
        #expect(camera["anchor"]?["y"]?.numberValue == 0.8 && (camera["lat"]?.numberValue ?? 99) < 48.8566, "the target moved south, under the anchor")
        #expect(bench.errors(d.key).isEmpty)
        // Turning keeps the target at the anchor.
        bench.send(#"{"type":"set","camera":{"bearing":200}}"#, from: d.key)
        bench.send(
            #"{"type":"query","id":"t","what":"project","points":[{"lat":\#(camera["lat"]!.numberValue!),"lon":\#(camera["lon"]!.numberValue!)}]}"#, from: d.key
        )
        let at = try #require(bench.messages(d.key, type: "result").last?["points"]?[0])
        #expect(abs((at["x"]?.numberValue ?? 0) - 400) < 1e-6 && abs((at["y"]?.numberValue ?? 0) - 480) < 1e-6)
    }
}
