import CamHubKit
import CamHubProtocol
import CameraCore
import Testing

/// Binary frames carry the camera's doubles bit for bit: a binary follower
/// and a JSON follower of the same room decode the same camera for the same seq.
@Suite("CamHubKit binary frames", .serialized)
struct BinaryFrameTests {
    /// Every double of a camera, as bits (so −0 and 0, or NaNs, are told apart).
    static func bits(_ c: Camera) -> [UInt64] {
        [
            c.latitude, c.continuousLongitude, c.zoom, c.tilt, c.bearing, c.anchor.x, c.anchor.y, c.padding.top, c.padding.left,
            c.padding.bottom, c.padding.right, c.roll, c.elevation, c.fov,
        ].map(\.bitPattern)
    }

    static func collect(_ room: Room) -> Task<[UInt64: Camera], Never> {
        Task {
            var cameras: [UInt64: Camera] = [:]
            var moved = false
            for await frame in room.frames {
                cameras[frame.seq] = frame.camera
                moved = moved || frame.moving
                if moved && !frame.moving { break }
            }
            return cameras
        }
    }

    @Test func aBinaryFollowersCamerasEqualAJSONFollowersBitForBitSeqBySeq() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let presenter = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        // at the hub's tick rate, both get every frame (at a lower rate each follower's throttle picks its own)
        let binary = try await CamHub.connect(url: hub.url, room: "kit", rate: 60, encoding: .binary)
        let json = try await CamHub.connect(url: hub.url, room: "kit", rate: 60, encoding: .json)
        let (fromBinary, fromJSON) = (Self.collect(binary), Self.collect(json))
        _ = try await presenter.fly(
            to: CameraUpdate(latitude: -33.8688, longitude: 151.2093, zoom: 10.3, tilt: 40, bearing: 123.456), duration: 0.6)
        let (b, j) = (await fromBinary.value, await fromJSON.value)
        let common = Set(b.keys).intersection(j.keys)
        #expect(common.count > 20, "both saw the flight: \(common.count) frames in common")
        for seq in common.sorted() {
            #expect(Self.bits(b[seq]!) == Self.bits(j[seq]!), "seq \(seq)")
        }
        for room in [binary, json, presenter] { await room.close() }
    }
}
