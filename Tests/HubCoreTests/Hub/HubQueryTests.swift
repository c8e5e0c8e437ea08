import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

@Suite("Hub: queries")
struct HubQueryTests {
    static let queries = [
        #"{"type":"query","id":"q1","what":"project","points":[{"lat":48.85,"lon":2.35},{"lat":48.9,"lon":2.2}]}"#,
        #"{"type":"query","id":"q2","what":"unproject","points":[{"x":100,"y":200},{"x":0,"y":0}]}"#,
        #"{"type":"query","id":"q3","what":"bounds"}"#,
        #"{"type":"query","id":"q4","what":"fit","bounds":{"south":48.8,"west":2.2,"north":48.9,"east":2.4},"padding":20}"#,
    ]

    /// The answer the hub must give: computed for the room camera in `viewport`.
    func expected(_ text: String, bench: HubBench, viewport: Viewport) throws -> [UInt8] {
        guard case .query(let query) = try ClientMessage.decode(text, tick: bench.tick) else { throw CancellationError() }
        let camera = bench.room()!.camera
        return HubMessage.result(id: query.id, try query.answer(camera: camera, viewport: viewport, limits: CameraLimits()))
    }

    @Test(arguments: queries)
    func queryIsAnsweredForTheSendersViewport(_ text: String) throws {
        let bench = HubBench()
        let d = bench.join(role: "driver", viewport: (1280, 720))
        bench.send(#"{"type":"set","camera":{"lat":48.86,"lon":2.33,"zoom":11,"bearing":20,"tilt":30}}"#, from: d.key)
        let small = bench.join(role: "follower", viewport: (400, 300))
        let large = bench.join(role: "follower", viewport: (1920, 1080))
        bench.send(text, from: small.key)
        bench.send(text, from: large.key)
        let results = [small.key, large.key].map { key in
            bench.sink.outputs.compactMap { output -> [UInt8]? in
                guard case .message(key, let bytes) = output, parsed(bytes)["type"]?.stringValue == "result" else { return nil }
                return bytes
            }
        }
        #expect(results[0] == [try expected(text, bench: bench, viewport: Viewport(width: 400, height: 300))])
        #expect(results[1] == [try expected(text, bench: bench, viewport: Viewport(width: 1920, height: 1080))])
        #expect(results[0] != results[1], "the two viewports see different answers")
    }

    @Test func viewportMessageChangesWhatQueriesSee() throws {
        let bench = HubBench()
        let f = bench.join(role: "follower", viewport: (1280, 720))
        let center = #"{"type":"query","id":"c","what":"project","points":[{"lat":20,"lon":0}]}"#
        bench.send(center, from: f.key)
        bench.send(#"{"type":"viewport","width":640,"height":480}"#, from: f.key)
        bench.send(center, from: f.key)
        let points = bench.messages(f.key, type: "result").map { $0["points"]?[0] }
        #expect(points.count == 2)
        func near(_ value: Double?, _ expected: Double) -> Bool { abs((value ?? .nan) - expected) < 1e-6 }
        #expect(near(points.first??["x"]?.numberValue, 640) && near(points.first??["y"]?.numberValue, 360))
        #expect(near(points.last??["x"]?.numberValue, 320) && near(points.last??["y"]?.numberValue, 240))
    }

    @Test func onTheGlobeQueriesSeeTheGlobeThatMapLibreDraws() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver", viewport: (800, 600))
        bench.send(#"{"type":"set","camera":{"lat":30,"lon":10,"zoom":1}}"#, from: d.key)
        // Far side of the world and a corner of the view: the flat map has both, the globe neither.
        let farSide = #"{"type":"query","id":"p","what":"project","points":[{"lat":-30,"lon":-170},{"lat":30,"lon":10}]}"#
        let corner = #"{"type":"query","id":"u","what":"unproject","points":[{"x":0,"y":0}]}"#
        bench.send(farSide, from: d.key)
        bench.send(corner, from: d.key)
        bench.send(#"{"type":"projection","projection":"globe"}"#, from: d.key)
        bench.send(farSide, from: d.key)
        bench.send(corner, from: d.key)
        let results = bench.messages(d.key, type: "result")
        try #require(results.count == 4)
        #expect(results[0]["points"]?[0]?["x"]?.numberValue != nil && results[1]["points"]?[0]?["lat"]?.numberValue != nil)
        #expect(results[2]["points"]?[0]?.isNull == true, "the globe hides the far side")
        #expect(abs((results[2]["points"]?[1]?["x"]?.numberValue ?? .nan) - 400) < 1e-6, "the centre is still drawn at the centre")
        #expect(results[3]["points"]?[0]?.isNull == true, "the corner shows space beside the globe")
    }

    @Test func fitThatCannotFitIsAnErrorNamingTheQuery() {
        let bench = HubBench()
        let f = bench.join(role: "follower", viewport: (100, 100))
        bench.send(#"{"type":"query","id":"q","what":"fit","bounds":{"south":0,"west":0,"north":1,"east":1},"padding":60}"#, from: f.key)
        #expect(bench.lastError(f.key)?["code"]?.stringValue == "bad_message")
        #expect(bench.lastError(f.key)?["ref"]?.stringValue == "q")
        #expect(!bench.isClosed(f.key))
    }
}
