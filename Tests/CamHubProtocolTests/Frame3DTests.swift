import CameraCore
import CameraMotion
import Testing

@testable import CamHubProtocol

/// Frames of a camera with roll, elevation or field of view (docs/PROTOCOL.md,
/// "Binary frames"): the JSON fields, the kind 2 binary layout, and a flat
/// camera's frames left exactly as they were.
@Suite struct Frame3DTests {
    static let camera = Camera(latitude: 38.7, longitude: -9.14, zoom: 14, tilt: 80, bearing: 300, roll: -12.5, elevation: 350, fov: 50)
    static let velocity = CameraVelocity(latitude: 0, longitude: 0.5, zoom: 0, bearing: 3, tilt: 0, roll: -4, elevation: 20, fov: 0)

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    @Test func aJSONFrameCarriesRollElevationAndFovAfterTilt() {
        let json = String(decoding: HubMessage.frame(seq: 3, time: 10, camera: Self.camera, moving: true, by: "c1", velocity: Self.velocity), as: UTF8.self)
        #expect(json.contains(#""camera":{"lat":38.7,"lon":-9.14,"zoom":14.0,"bearing":300.0,"tilt":80.0,"roll":-12.5,"elevation":350.0,"fov":50.0}"#))
        #expect(json.contains(#""velocity":{"lat":0.0,"lon":0.5,"zoom":0.0,"bearing":3.0,"tilt":0.0,"roll":-4.0,"elevation":20.0}"#))
    }

    @Test func aFlatCamerasFrameHasNoneOfTheNewFieldsAndIsKindOne() {
        let flat = Camera(latitude: 38.7, longitude: -9.14, zoom: 14, tilt: 45, bearing: 300)
        let velocity = CameraVelocity(latitude: 0, longitude: 0.5, zoom: 0, bearing: 3, tilt: 0)
        let json = String(decoding: HubMessage.frame(seq: 3, time: 10, camera: flat, moving: true, by: "c1", velocity: velocity), as: UTF8.self)
        for key in ["roll", "elevation", "fov"] { #expect(!json.contains(key)) }
        let binary = BinaryFrame.encode(seq: 3, time: 10, camera: flat, moving: true, by: "c1", velocity: velocity)
        #expect(binary.first == 1 && binary.count == 82)
    }

    @Test func theKindTwoLayoutIsTheDocumentedOne() {
        let bytes = BinaryFrame.encode(seq: 42, time: 5, camera: Self.camera, moving: true, by: "c3", velocity: Self.velocity)
        var expected: [UInt8] = [2, 0x01 | 0x04, 0x01 | 0x02 | 0x04]
        expected += Self.le(UInt64(42)) + Self.le((5.0).bitPattern)
        for x in [38.7, -9.14, 14, 300, 80, -12.5, 350, 50] { expected += Self.le(x.bitPattern) }
        for v in [0, 0.5, 0, 3, 0, -4, 20, 0] as [Float] { expected += Self.le(v.bitPattern) }
        expected += Self.le(UInt16(2)) + Array("c3".utf8)
        #expect(bytes == expected)
        #expect(bytes.count == 3 + 16 + 64 + 32 + 4)
    }

    @Test func onlyTheFieldsOffTheirDefaultsAreInAKindTwoFrame() throws {
        let rolled = Camera(latitude: 1, longitude: 2, zoom: 3, roll: 90)
        let bytes = BinaryFrame.encode(seq: 1, time: 1, camera: rolled, moving: false, by: nil)
        #expect(Array(bytes.prefix(3)) == [2, 0, 0x01])
        #expect(bytes.count == 3 + 16 + 40 + 8 + 2)
        let decoded = try BinaryFrame.decode(bytes)
        #expect(decoded.roll == 90 && decoded.elevation == 0 && decoded.fov == Camera.defaultFov)
    }

    @Test func aKindTwoFrameDecodesToTheHubsCameraBitForBitAndWritesTheJSONFramesBytes() throws {
        let camera = Camera(
            latitude: 0.1 + 0.2, longitude: 179.99999999999997, zoom: 4.526642311129816, tilt: 84.99999, bearing: 12,
            anchor: Anchor(x: 0.5, y: 0.7), padding: EdgeInsets(top: 0, left: 300, bottom: 0, right: 0), roll: 179.99999999999997,
            elevation: 3999.123456789, fov: 1.0000000000000002)
        let frame = HubFrame(seq: 7, time: 1_763_900_000_000.25, camera: camera, moving: true, by: "c2", velocity: Self.velocity, epoch: 9)
        let decoded = HubFrame(try BinaryFrame.decode(frame.binary))
        #expect(decoded.camera == camera)
        #expect(decoded.velocity == Self.velocity)
        #expect(try BinaryFrame.decode(frame.binary).json == frame.json)
        #expect(try HubToClient.decode(String(decoding: frame.json, as: UTF8.self)) == .frame(frame))
    }

    @Test func aKindTwoFrameCutShortIsRefusedNamingTheField() {
        let bytes = BinaryFrame.encode(seq: 1, time: 1, camera: Self.camera, moving: false, by: nil)
        #expect(throws: BinaryFrame.DecodingError(description: "binary frame: camera.elevation needs 8 bytes at offset 67, 3 left")) {
            _ = try BinaryFrame.decode(bytes.prefix(70))
        }
    }

    @Test func aCommandsRollOutOfRangeIsRefusedNamingCameraRoll() {
        #expect(decodeError(#"{"type":"set","camera":{"roll":400}}"#)?.message == "camera.roll: must be within -180…180 (got 400)")
        #expect(decodeError(#"{"type":"fly","camera":{"fov":0.5}}"#)?.message == "camera.fov: must be within 1…60 (got 0.5)")
    }

    @Test func aCommandCarriesRollElevationAndFov() {
        let message = decoded(#"{"type":"ease","camera":{"roll":-30,"elevation":1200,"fov":45},"duration":2}"#)
        guard case .ease(let ease)? = message else {
            Issue.record("not an ease: \(String(describing: message))")
            return
        }
        #expect(ease.camera == CameraUpdate(roll: -30, elevation: 1200, fov: 45))
    }
}
