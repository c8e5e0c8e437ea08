import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// `hello.encoding: "binary"`: that follower's frames come as `BinaryFrame`s,
/// everyone else's as the JSON they always were, each encoded once per room and tick.
@Suite struct HubBinaryFrameTests {
    static let ease = #"{"type":"ease","id":"e","camera":{"lat":48.8566,"lon":2.3522,"zoom":12,"bearing":30,"tilt":45},"duration":1}"#

    /// Joins a follower with `encoding` (nil: the field left out).
    static func follower(_ bench: HubBench, encoding: String?) -> ConnectionKey {
        let key = bench.connect()
        let field = encoding.map { #","encoding":"\#($0)""# } ?? ""
        bench.send(#"{"type":"hello","room":"demo","role":"follower","rate":60\#(field)}"#, from: key)
        return key
    }

    static func sentFrames(_ bench: HubBench, to connection: ConnectionKey) -> [EncodedFrame] {
        bench.sink.outputs.compactMap { if case .frame(connection, let frame) = $0 { frame } else { nil } }
    }

    @Test func aFollowerThatAsksForBinaryGetsBinaryFramesSayingWhatTheJSONOnesSay() throws {
        let bench = HubBench()
        let driver = bench.join(role: "driver")
        let binary = Self.follower(bench, encoding: "binary")
        let json = Self.follower(bench, encoding: nil)
        bench.send(Self.ease, from: driver.key)
        bench.run(seconds: 2)
        let binaryFrames = Self.sentFrames(bench, to: binary)
        let jsonFrames = Self.sentFrames(bench, to: json)
        #expect(binaryFrames.count == jsonFrames.count && binaryFrames.count > 30)
        #expect(binaryFrames.allSatisfy { $0.encoding == .binary } && jsonFrames.allSatisfy { $0.encoding == .json })
        for (b, j) in zip(binaryFrames, jsonFrames) {
            let decoded = try BinaryFrame.decode(b.bytes)
            let parsed = try JSONParser.parse(j.bytes)
            let camera = try #require(parsed["camera"])
            #expect(decoded.seq == b.seq && b.seq == j.seq)
            #expect(decoded.latitude == camera["lat"]?.numberValue && decoded.zoom == camera["zoom"]?.numberValue)
            #expect(decoded.bearing == camera["bearing"]?.numberValue && decoded.tilt == camera["tilt"]?.numberValue)
            #expect(decoded.moving == parsed["moving"]?.boolValue && decoded.time == parsed["time"]?.numberValue)
            #expect(decoded.by == parsed["by"]?.stringValue && (decoded.velocity != nil) == (parsed["velocity"] != nil))
        }
        let last = try BinaryFrame.decode(try #require(binaryFrames.last).bytes)
        #expect(!last.moving && last.latitude == 48.8566 && last.longitude == 2.3522 && last.zoom == 12, "the resting frame is the target to the bit")
    }

    @Test func binaryFramesAreEncodedOncePerRoomAndTickAndShared() {
        let bench = HubBench()
        let driver = bench.join(role: "driver")
        let a = Self.follower(bench, encoding: "binary")
        let b = Self.follower(bench, encoding: "binary")
        let c = Self.follower(bench, encoding: "json")
        bench.send(Self.ease, from: driver.key)
        bench.run(seconds: 0.5)
        let (fa, fb, fc) = (Self.sentFrames(bench, to: a), Self.sentFrames(bench, to: b), Self.sentFrames(bench, to: c))
        #expect(!fa.isEmpty && fa.count == fb.count && fb.count == fc.count)
        #expect(zip(fa, fb).allSatisfy { $0 === $1 }, "one binary encoding per tick, shared")
        #expect(zip(fa, fc).allSatisfy { $0 !== $1 && $0.seq == $1.seq })
    }

    @Test func anUnknownEncodingIsRefusedNamingTheField() throws {
        let bench = HubBench()
        let key = Self.follower(bench, encoding: "xml")
        let error = try #require(bench.lastError(key))
        #expect(error["code"]?.stringValue == "bad_message")
        #expect(error["message"]?.stringValue == "encoding: unknown encoding 'xml' (known: json, binary)")
        #expect(bench.welcome(key) == nil)
    }
}
