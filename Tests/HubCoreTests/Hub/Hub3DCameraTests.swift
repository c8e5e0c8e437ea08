import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// A room's camera in 3D through the hub: commands carry roll, elevation and
/// fov, every follower's frames carry them, and bad values change nothing.
@Suite struct Hub3DCameraTests {
    static let fly = #"{"type":"fly","id":"f","camera":{"lat":35.68,"lon":139.77,"zoom":12,"tilt":60,"roll":20,"elevation":1500,"fov":30},"duration":2}"#

    @Test func aFlyWithRollElevationAndFovEndsExactlyOnThemInJSONAndBinaryFrames() throws {
        let bench = HubBench()
        let driver = bench.join(role: "driver")
        let json = bench.join(role: "follower", name: "json")
        let binary = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"follower","encoding":"binary"}"#, from: binary)
        bench.send(Self.fly, from: driver.key)
        bench.run(seconds: 3)
        let last = try #require(bench.frames(json.key).last)
        let camera = last.json["camera"]
        #expect(camera?["roll"]?.numberValue == 20 && camera?["elevation"]?.numberValue == 1500 && camera?["fov"]?.numberValue == 30)
        let frames = bench.sink.outputs.compactMap { if case .frame(binary, let frame) = $0 { frame } else { nil } }
        let decoded = try BinaryFrame.decode(try #require(frames.last).bytes)
        #expect(decoded.roll == 20 && decoded.elevation == 1500 && decoded.fov == 30 && decoded.tilt == 60)
        #expect(bench.room()?.camera.roll == 20)
    }

    @Test func aRollOutOfRangeIsAnErrorNamingItAndTheRoomIsUnchanged() throws {
        let bench = HubBench()
        let driver = bench.join(role: "driver")
        let before = try #require(bench.room()?.camera)
        bench.send(#"{"type":"set","camera":{"zoom":9,"roll":400}}"#, from: driver.key)
        bench.run(seconds: 0.2)
        #expect(bench.lastError(driver.key)?["message"]?.stringValue == "camera.roll: must be within -180…180 (got 400)")
        #expect(bench.room()?.camera == before)
        bench.send(#"{"type":"set","camera":{"roll":-45}}"#, from: driver.key)
        bench.run(seconds: 0.2)
        #expect(bench.room()?.camera.roll == -45, "the connection stays usable")
    }

    @Test func aRoomsMaxRollClampsTheRollAndTheReportSaysSo() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        bench.send(#"{"type":"limits","maxRoll":10}"#, from: presenter.key)
        bench.send(#"{"type":"ease","id":"e","camera":{"roll":35},"duration":0.5}"#, from: presenter.key)
        bench.run(seconds: 1)
        #expect(bench.room()?.camera.roll == 10)
        let started = bench.animations(presenter.key).first { $0["status"]?.stringValue == "started" }
        #expect(started?["clamped"] == .array([.string("roll")]))
    }
}
