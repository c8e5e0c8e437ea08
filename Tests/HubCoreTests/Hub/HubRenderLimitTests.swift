import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// `hello.render`: a client whose map cannot draw all of the room's camera
/// gets the closest camera it can show, and is told so once in `welcome`;
/// everyone else gets the room's camera.
@Suite struct HubRenderLimitTests {
    static let steep = #"{"type":"set","camera":{"lat":46.55,"lon":7.98,"zoom":13,"tilt":80,"roll":25}}"#

    /// A follower joined with `render` (a JSON object's text) and, optionally, binary frames.
    static func follower(_ bench: HubBench, render: String, binary: Bool = false) -> ConnectionKey {
        let key = bench.connect()
        let encoding = binary ? #","encoding":"binary""# : ""
        bench.send(#"{"type":"hello","room":"demo","role":"follower","render":\#(render)\#(encoding)}"#, from: key)
        return key
    }

    static func steepRoom() throws -> (HubBench, ConnectionKey) {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        bench.send(#"{"type":"limits","maxTilt":85}"#, from: presenter.key)
        bench.send(steep, from: presenter.key)
        bench.run(seconds: 0.2)
        return (bench, presenter.key)
    }

    @Test func aFollowerWithoutRollGetsRollZeroWhileOthersGetTheRoll() throws {
        let (bench, _) = try Self.steepRoom()
        let level = Self.follower(bench, render: #"{"roll":false}"#)
        let everything = bench.join(role: "follower", name: "all")
        bench.run(seconds: 0.2)
        let welcome = try #require(bench.welcome(level))
        #expect(welcome["renderLimited"] == .array([.string("roll")]))
        #expect(welcome["camera"]?["roll"] == nil && welcome["camera"]?["tilt"]?.numberValue == 80)
        #expect(bench.welcome(everything.key)?["renderLimited"] == nil)
        #expect(bench.welcome(everything.key)?["camera"]?["roll"]?.numberValue == 25)
        #expect(bench.room()?.camera.roll == 25, "the room's camera is unchanged")
    }

    @Test func aFollowerThatDrawsUpTo60DegreesGetsTheTiltHeldAt60AndNoTiltRateThere() throws {
        let (bench, presenter) = try Self.steepRoom()
        let sixty = Self.follower(bench, render: #"{"maxTilt":60}"#)
        bench.send(#"{"type":"ease","camera":{"tilt":70,"bearing":90},"duration":1}"#, from: presenter)
        bench.run(seconds: 1.5)
        let frames = bench.frames(sixty)
        #expect(frames.count > 10)
        for frame in frames {
            #expect(frame.json["camera"]?["tilt"]?.numberValue == 60)
            #expect(frame.json["camera"]?["roll"]?.numberValue == 25)
            if let velocity = frame.json["velocity"] { #expect(velocity["tilt"]?.numberValue == 0) }
        }
        #expect(bench.welcome(sixty)?["renderLimited"] == .array([.string("tilt")]))
    }

    @Test func limitedFramesAreEncodedOncePerRenderClassAndShared() throws {
        let (bench, presenter) = try Self.steepRoom()
        let a = Self.follower(bench, render: #"{"roll":false}"#, binary: true)
        let b = Self.follower(bench, render: #"{"roll":false,"maxTilt":85}"#, binary: true)
        let c = Self.follower(bench, render: #"{"maxTilt":60}"#, binary: true)
        // Animators, not an ease: an ease of the roll would turn the tilt with it (MapLibre's slerp).
        bench.send(#"{"type":"animate","to":{"bearing":120,"roll":-20},"duration":0.5}"#, from: presenter)
        bench.run(seconds: 0.4)
        let sent = { (key: ConnectionKey) in bench.sink.outputs.compactMap { if case .frame(key, let f) = $0 { f } else { nil } } }
        let (fa, fb, fc) = (sent(a), sent(b), sent(c))
        #expect(!fa.isEmpty && fa.count == fb.count && fb.count == fc.count)
        #expect(zip(fa, fb).allSatisfy { $0 === $1 }, "one encoding per class and tick, shared")
        #expect(zip(fa, fc).allSatisfy { $0 !== $1 && $0.seq == $1.seq })
        let decoded = try BinaryFrame.decode(try #require(fa.last).bytes)
        #expect(decoded.roll == 0 && decoded.tilt == 80 && decoded.bearing > 0)
        #expect(try BinaryFrame.decode(try #require(fc.last).bytes).roll != 0)
    }

    @Test(arguments: [
        (#"{"maxTilt":90}"#, "render.maxTilt: must be within 0…85 (got 90)"),
        (#"{"maxTilt":60.5}"#, "render.maxTilt: must be a whole number of degrees (got 60.5)"),
        (#"{"pitch":60}"#, "render.pitch: unknown field in render (known: roll, maxTilt, globe)"),
    ])
    func aRenderTheHubCannotUseIsRefusedNamingTheField(render: String, message: String) throws {
        let bench = HubBench()
        let key = Self.follower(bench, render: render)
        #expect(bench.lastError(key)?["message"]?.stringValue == message)
        #expect(bench.welcome(key) == nil)
    }
}
