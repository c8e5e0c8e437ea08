import CamHubProtocol
import CameraCore
import Testing

@Suite("Fast-path prefixes")
struct WirePrefixTests {
    static let camera = Camera(latitude: 48.8566, longitude: 2.3522, zoom: 12, tilt: 45, bearing: 30)

    @Test func aJSONFrameStartsWithThePrefixThenItsSeqThenItsTime() {
        let text = String(decoding: HubMessage.frame(seq: 7, time: 1_700_000_000_000.5, camera: Self.camera, moving: true, by: nil), as: UTF8.self)
        let head =
            String(decoding: WirePrefix.bytes(WirePrefix.frame), as: UTF8.self) + "7"
            + String(decoding: WirePrefix.bytes(WirePrefix.frameTime), as: UTF8.self) + "1700000000000.5"
        #expect(text.hasPrefix(head))
    }

    @Test func aBinaryFramesSeqAndTimeSitAtTheirOffsets() {
        let bytes = BinaryFrame.encode(seq: 42, time: 1_718_000_000_123.456, camera: Self.camera, moving: false, by: "c1")
        bytes.withUnsafeBytes { raw in
            #expect(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: WirePrefix.binarySeqOffset, as: UInt64.self)) == 42)
            let time = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: WirePrefix.binaryTimeOffset, as: UInt64.self))
            #expect(Double(bitPattern: time) == 1_718_000_000_123.456)
        }
        #expect(bytes.count >= WirePrefix.binaryHead)
    }

    @Test func aMessagePrefixIsHowTheHubStartsThatMessage() {
        let error = String(decoding: HubMessage.error(ProtocolError(.badMessage, "x: wrong")), as: UTF8.self)
        #expect(error.hasPrefix(WirePrefix.message("error")))
        #expect(!error.hasPrefix(WirePrefix.message("frame")))
    }
}
