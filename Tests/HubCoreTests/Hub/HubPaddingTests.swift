import CameraCore
import Testing

@testable import HubCore

/// Padding through `Hub.receive`: the room camera's padding is set,
/// eased, sent in frames when not zero, and used by queries and fit.
@Suite("Hub: camera padding")
struct HubPaddingTests {
    @Test func paddingIsPartOfTheCameraInFramesAndQueries() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver", viewport: (1000, 600))
        let f = bench.join(role: "follower")
        bench.send(#"{"type":"set","camera":{"lat":48.8566,"lon":2.3522,"zoom":12,"tilt":30,"padding":{"left":400,"top":100}}}"#, from: d.key)
        bench.runTicks(2)
        let padding = try #require(bench.frames(f.key).last?.camera["padding"])
        #expect(
            padding["top"]?.numberValue == 100 && padding["left"]?.numberValue == 400 && padding["bottom"]?.numberValue == 0
                && padding["right"]?.numberValue == 0)
        bench.send(#"{"type":"query","id":"q","what":"project","points":[{"lat":48.8566,"lon":2.3522}]}"#, from: d.key)
        let at = try #require(bench.messages(d.key, type: "result").last?["points"]?[0])
        #expect(abs((at["x"]?.numberValue ?? 0) - 700) < 1e-6 && abs((at["y"]?.numberValue ?? 0) - 350) < 1e-6, "the padded centre of the sender's view")

        bench.send(#"{"type":"query","id":"fit","what":"fit","bounds":{"south":48.8,"west":2.2,"north":48.9,"east":2.4}}"#, from: d.key)
        let fitted = try #require(bench.messages(d.key, type: "result").last?["camera"])
        #expect(fitted["padding"]?["left"]?.numberValue == 400, "fit keeps the camera's padding")

        // Eased back to zero: frames stop carrying it.
        bench.send(#"{"type":"ease","id":"e","camera":{"padding":{"left":0,"top":0}},"duration":0.5,"curve":"linear"}"#, from: d.key)
        bench.run(seconds: 0.25)
        let midway = bench.frames(f.key).last?.camera["padding"]?["left"]?.numberValue ?? 0
        #expect(midway > 100 && midway < 300, "animated: \(midway)")
        bench.run(seconds: 0.5)
        #expect(bench.frames(f.key).last?.camera["padding"] == nil)
        #expect(bench.animations(d.key).contains { $0["id"]?.stringValue == "e" && $0["status"]?.stringValue == "finished" })
        #expect(bench.errors(d.key).isEmpty)
    }
}
