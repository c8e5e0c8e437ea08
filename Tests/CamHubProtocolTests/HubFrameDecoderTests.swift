import CameraCore
import CameraMotion
import Testing

@testable import CamHubProtocol

/// A binary frame decodes to the same `HubFrame` as the JSON frame that says
/// the same, so a client does not care which encoding it asked for.
@Suite("Binary and JSON frames decode alike")
struct HubFrameDecoderTests {
    static let pointers: [FramePointer] = [.none, .hidden, .shown(RoomPointer(latitude: -33.9, longitude: 151.2, by: "c7\u{e9}"))]

    /// Rates whose 1e-7 rounding is a float32 already, so both encodings carry them whole.
    static let exactVelocity = CameraVelocity(latitude: 0.5, longitude: -2, zoom: 0.25, bearing: 0, tilt: 1)

    @Test(arguments: Awkward.cameras)
    func aBinaryFrameAndItsJSONTwinDecodeToTheSameFrame(camera: Camera) throws {
        let velocity = CameraVelocity(latitude: 0.000012345678, longitude: -123.45678912, zoom: 0.5, bearing: 1e-9, tilt: -2)
        for pointer in Self.pointers {
            let bytes = BinaryFrame.encode(
                seq: 1 << 40, time: 1_763_900_000_000.25, camera: camera, moving: true, by: "c2", corner: true, velocity: velocity,
                pointer: pointer, epoch: 77)
            let binary = try HubToClient.decode(binary: bytes)
            let twin = try HubToClient.decode(BinaryFrame.decode(bytes).json)
            #expect(binary == twin)
            guard case .frame(let frame) = binary else { continue }
            #expect(bits(frame.camera) == bits(camera))
        }
    }

    @Test(arguments: Awkward.cameras)
    func aJSONAndABinaryFrameOfTheSameArgumentsDecodeAlike(camera: Camera) throws {
        for pointer in Self.pointers {
            for (velocity, by) in [(CameraVelocity?.none, String?.none), (Self.exactVelocity, "c1")] {
                let frame = HubFrame(
                    seq: 9, time: 0.1 + 0.2, camera: camera, moving: velocity != nil, by: by, corner: by != nil, velocity: velocity,
                    pointer: pointer, epoch: by == nil ? 0 : 1_763_900_000_123)
                #expect(try HubToClient.decode(binary: frame.binary) == .frame(frame))
                #expect(try HubToClient.decode(frame.json) == .frame(frame))
            }
        }
    }

    /// The binary velocity is the JSON's rounded rates as float32s: the two
    /// differ there when a rounded rate is no float32.
    @Test func aBinaryVelocityIsTheJSONsAsFloat32() throws {
        let velocity = CameraVelocity(latitude: 0.0000123, longitude: 0.0125, zoom: 0.5, bearing: 0, tilt: -2)
        let frame = HubFrame(seq: 1, time: 2, camera: Camera(), moving: true, by: "c1", velocity: velocity)
        guard case .frame(let binary) = try HubToClient.decode(binary: frame.binary) else { return }
        #expect(
            binary.velocity
                == CameraVelocity(latitude: Double(Float(0.0000123)), longitude: Double(Float(0.0125)), zoom: 0.5, bearing: 0, tilt: -2))
        #expect(try HubToClient.decode(frame.json) == .frame(frame))
    }

    /// 64-bit sequence numbers and epochs come through binary frames whole
    /// (JSON numbers are parsed as doubles: exact up to 2^53).
    @Test func aBinaryFrameCarriesAll64BitsOfSeqAndEpoch() throws {
        let frame = HubFrame(seq: UInt64.max, time: 1, camera: Camera(), moving: false, by: nil, epoch: UInt64.max - 1)
        #expect(try HubToClient.decode(binary: frame.binary) == .frame(frame))
    }

    @Test func aTruncatedBinaryFrameIsRefusedNamingTheField() {
        let bytes = HubFrame(seq: 1, time: 0, camera: Camera(), moving: true, by: "c1").binary
        #expect(throws: HubToClient.DecodingError(field: "", message: "binary frame: camera.zoom needs 8 bytes at offset 34, 4 left")) {
            try HubToClient.decode(binary: bytes.prefix(38))
        }
        #expect(throws: HubToClient.DecodingError(field: "", message: "binary message of kind 7: only 1 (frame) and 2 (frame with 3D fields) exist")) {
            try HubToClient.decode(binary: [7] + bytes.dropFirst())
        }
    }
}
