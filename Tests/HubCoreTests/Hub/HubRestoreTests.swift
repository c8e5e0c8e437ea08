import CameraCore
import CameraMotion
import Testing

@testable import HubCore

/// Rooms kept across a restart (`Hub.restore`, `Hub.roomStates`).
@Suite struct HubRestoreTests {
    static let camera = Camera(
        latitude: 48.518813798570104, longitude: 362.3185159187478, zoom: 4.526642311129816,
        tilt: 15.354692, bearing: -0.0, anchor: Anchor(x: 0.5, y: 0.6), roll: -33.25, elevation: 1234.5, fov: 24.000000000000004)

    static func state(_ name: String = "kept") throws -> RoomState {
        RoomState(
            name: name, camera: camera,
            limits: try CameraLimits(minZoom: 1.25, maxTilt: 55, bounds: GeoBounds(south: -60, west: -170, north: 70, east: 170)),
            trackingMode: .followNorthUp, seq: 181, projection: .globe)
    }

    @Test func aRestoredRoomIsRecreatedAsItWasOnItsFirstJoin() throws {
        let bench = HubBench()
        bench.hub.restore([try Self.state()])
        #expect(bench.hub.counts.rooms == 0, "nothing is built before someone joins")
        #expect(bench.hub.roomStates == [try Self.state()], "a room waiting for its first join is still saved")
        let follower = bench.join("kept", role: "follower").key
        let welcome = try #require(bench.welcome(follower))
        #expect(welcome["seq"]?.numberValue == 181)
        #expect(welcome["projection"]?.stringValue == "globe", "the room's projection is kept")
        let room = try #require(bench.room("kept"))
        #expect(room.camera == Self.camera, "the same camera, continuous longitude, -0.0 bearing, roll, elevation and fov included")
        #expect(room.camera.bearing.sign == .minus)
        #expect(bench.hub.roomStates.first?.limits == (try Self.state()).limits)
        #expect(bench.hub.roomStates.first?.trackingMode == TrackingMode.none, "nobody tracks after a restart")
    }

    @Test func otherRoomsStartFromTheDefaultsAndInvalidNamesAreIgnored() throws {
        let bench = HubBench()
        bench.hub.restore([try Self.state(), try Self.state("not a room!")])
        #expect(bench.hub.roomStates.map(\.name) == ["kept"])
        _ = bench.join("fresh", role: "follower")
        #expect(bench.room("fresh")?.camera == bench.hub.configuration.defaultCamera)
        #expect(bench.room("fresh")?.seq == 0)
    }

    @Test func aRestoredRoomThatExpiresIsNotRestoredAgain() throws {
        let bench = HubBench { $0.roomTTL = 1 }
        bench.hub.restore([try Self.state()])
        let follower = bench.join("kept", role: "driver").key
        bench.send(#"{"type":"set","camera":{"zoom":7}}"#, from: follower)
        bench.run(seconds: 0.2)
        bench.disconnect(follower)
        bench.run(seconds: 1.5)
        #expect(bench.hub.roomStates.isEmpty, "the room expired, and with it what was restored")
        _ = bench.join("kept", role: "follower")
        #expect(bench.room("kept")?.camera == bench.hub.configuration.defaultCamera)
    }
}
