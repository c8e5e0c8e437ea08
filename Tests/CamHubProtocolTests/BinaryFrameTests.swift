import CameraCore
import CameraMotion
import Testing

@testable import CamHubProtocol

/// The binary `frame` (docs/PROTOCOL.md, "Binary frames"): its layout, and
/// that it says exactly what the JSON frame says.
@Suite struct BinaryFrameTests {
    static let camera = Camera(latitude: 48.8566, longitude: 2.3522, zoom: 12, tilt: 45, bearing: 30)
    static let velocity = CameraVelocity(latitude: 0, longitude: 0.0125, zoom: 0.5, bearing: 0, tilt: 0)

    /// Little-endian bytes of `value`, written independently of the encoder.
    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    @Test func theLayoutIsTheDocumentedOne() {
        let bytes = BinaryFrame.encode(
            seq: 42, time: 1_718_000_000_123.456, camera: Self.camera, moving: true, by: "c3", velocity: Self.velocity)
        var expected: [UInt8] = [1, 0x01 | 0x04]
        expected += Self.le(UInt64(42)) + Self.le((1_718_000_000_123.456).bitPattern)
        for x in [48.8566, 2.3522, 12, 30, 45] { expected += Self.le(x.bitPattern) }
        for v in [0, 0.0125, 0.5, 0, 0] as [Float] { expected += Self.le(v.bitPattern) }
        expected += Self.le(UInt16(2)) + Array("c3".utf8)
        #expect(bytes == expected)
        #expect(bytes.count == 82)
    }

    /// The camera, anchor, padding, pointer and epoch come back as the
    /// hub's doubles, bit for bit: the numbers the JSON frame carries.
    @Test(arguments: [
        Camera(latitude: 0.1 + 0.2, longitude: 179.99999999999997, zoom: 4.526642311129816, tilt: 15.354692, bearing: 359.9999999),
        Camera(
            latitude: -85.05112877980659, longitude: -180, zoom: 0, tilt: 0, bearing: 0, anchor: Anchor(x: 0.5, y: 0.6),
            padding: EdgeInsets(top: 10, left: 400, bottom: 0.5, right: 1e-9)),
        Camera(latitude: 5e-324, longitude: 540.25, zoom: 22, tilt: 60, bearing: -90),
    ])
    func aDecodedFrameIsTheJSONFrameToTheBit(camera: Camera) throws {
        let pointer = FramePointer.shown(RoomPointer(latitude: 48.8584, longitude: 2.2945, by: "c1"))
        let arguments = (seq: UInt64(1) << 40, time: 1_763_900_000_000.25, moving: false, by: String?.none, epoch: UInt64(1_763_900_000_123))
        let binary = try BinaryFrame.decode(
            BinaryFrame.encode(
                seq: arguments.seq, time: arguments.time, camera: camera, moving: arguments.moving, by: arguments.by, corner: true,
                pointer: pointer, epoch: arguments.epoch))
        let json = try JSONParser.parse(
            HubMessage.frame(
                seq: arguments.seq, time: arguments.time, camera: camera, moving: arguments.moving, by: arguments.by, corner: true,
                pointer: pointer, epoch: arguments.epoch))
        let c = try #require(json["camera"])
        let wire = [c["lat"], c["lon"], c["zoom"], c["bearing"], c["tilt"]].map { $0?.numberValue?.bitPattern }
        #expect([binary.latitude, binary.longitude, binary.zoom, binary.bearing, binary.tilt].map(\.bitPattern) == wire)
        #expect(binary.anchor.map { [$0.x, $0.y] } == c["anchor"].map { [$0["x"]?.numberValue ?? .nan, $0["y"]?.numberValue ?? .nan] })
        #expect(binary.padding == (camera.padding == .zero ? nil : camera.padding))
        #expect(binary.seq == arguments.seq && binary.time == json["time"]?.numberValue && binary.epoch == arguments.epoch)
        #expect(binary.corner && !binary.moving && binary.by == nil)
        #expect(binary.pointer == .shown(latitude: 48.8584, longitude: 2.2945, by: "c1"))
    }

    /// What `camhub follow --json` prints for a binary frame: the JSON frame's bytes.
    @Test func aDecodedFrameWritesTheJSONFramesBytes() throws {
        let camera = Camera(
            latitude: 0.1 + 0.2, longitude: -179.5, zoom: 3.25, tilt: 10, bearing: 400, anchor: Anchor(x: 0.25, y: 0.75),
            padding: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        for pointer in [FramePointer.none, .hidden, .shown(RoomPointer(latitude: -33.9, longitude: 151.2, by: "c7"))] {
            let arguments = (seq: UInt64(9), time: 1_763_900_000_000.5, by: "c2\u{e9}\"")
            let binary = try BinaryFrame.decode(
                BinaryFrame.encode(
                    seq: arguments.seq, time: arguments.time, camera: camera, moving: true, by: arguments.by, corner: true, pointer: pointer,
                    epoch: 77))
            let json = HubMessage.frame(
                seq: arguments.seq, time: arguments.time, camera: camera, moving: true, by: arguments.by, corner: true, pointer: pointer,
                epoch: 77)
            #expect(String(decoding: binary.json, as: UTF8.self) == String(decoding: json, as: UTF8.self))
        }
    }

    @Test func theVelocityIsTheJSONsRoundedRatesAsFloat32() throws {
        let velocity = CameraVelocity(latitude: 0.000012345678, longitude: -123.45678912, zoom: 0.5, bearing: 1e-9, tilt: -2)
        let frame = try BinaryFrame.decode(
            BinaryFrame.encode(seq: 1, time: 0, camera: Self.camera, moving: true, by: "c1", velocity: velocity))
        let json = try JSONParser.parse(HubMessage.frame(seq: 1, time: 0, camera: Self.camera, moving: true, by: "c1", velocity: velocity))
        let v = try #require(json["velocity"])
        let rounded = ["lat", "lon", "zoom", "bearing", "tilt"].map { Double(Float(v[$0]?.numberValue ?? .nan)) }
        #expect(frame.velocity == rounded)
    }

    @Test func aHiddenPointerAndNoPointerAreTold() throws {
        let hidden = try BinaryFrame.decode(BinaryFrame.encode(seq: 1, time: 0, camera: Self.camera, moving: false, by: nil, pointer: .hidden))
        let none = try BinaryFrame.decode(BinaryFrame.encode(seq: 1, time: 0, camera: Self.camera, moving: false, by: nil))
        #expect(hidden.pointer == .hidden && none.pointer == .none)
    }

    @Test func aTruncatedFrameIsRefusedNamingTheFieldItEndsIn() {
        let bytes = BinaryFrame.encode(seq: 1, time: 0, camera: Self.camera, moving: true, by: "c1", velocity: Self.velocity)
        #expect(throws: BinaryFrame.DecodingError(description: "binary frame: camera.zoom needs 8 bytes at offset 34, 4 left")) {
            try BinaryFrame.decode(bytes.prefix(38))
        }
        #expect(throws: BinaryFrame.DecodingError(description: "binary frame: 1 bytes after its last field")) {
            try BinaryFrame.decode(bytes + [0])
        }
        #expect(throws: BinaryFrame.DecodingError(description: "binary message of kind 7: only 1 (frame) and 2 (frame with 3D fields) exist")) {
            try BinaryFrame.decode([7] + bytes.dropFirst())
        }
    }

    /// What a follower pays per moving frame, WebSocket header included (2
    /// bytes up to 125 bytes of payload, 4 above): a third of the JSON or less.
    @Test func aMovingFrameIsAThirdOfItsJSONOrLess() {
        let camera = Camera(latitude: 48.85661234567, longitude: 2.35221234567, zoom: 12.123456789, tilt: 30.123456, bearing: 12.3456789)
        let velocity = CameraVelocity(latitude: 0.0012345, longitude: 0.0023456, zoom: 0.1234567, bearing: 1.2345678, tilt: 0.5)
        let arguments = (seq: UInt64(123_456), time: 1_764_240_000_000.123)
        let binary = BinaryFrame.encode(seq: arguments.seq, time: arguments.time, camera: camera, moving: true, by: "c12", velocity: velocity)
        let json = HubMessage.frame(seq: arguments.seq, time: arguments.time, camera: camera, moving: true, by: "c12", velocity: velocity)
        func onTheWire(_ payload: Int) -> Int { payload + (payload < 126 ? 2 : 4) }
        #expect(onTheWire(binary.count) * 3 <= onTheWire(json.count), "\(binary.count) bytes against \(json.count)")
    }
}
