import CamHubProtocol
import CameraCore
import CameraMotion
import Foundation
import GRDB
import HubCore
import HubServer
import SocketTestSupport
import Testing

/// `RoomStore` on its own: what is saved reads back equal to the bit.
@Suite struct RoomStoreTests {
    @Test func savedRoomsReadBackExactlyAndRemovedOnesAreGone() throws {
        let dir = try TempDir()
        let camera = Camera(
            latitude: 0.1 + 0.2, longitude: -541.000000000001, zoom: 21.999999999999996,
            tilt: 5e-324, bearing: -0.0, anchor: Anchor(x: 0.3333333333333333, y: 1))
        let limits = try CameraLimits(
            minZoom: 0.5, maxZoom: 20.25, minTilt: 1, maxTilt: 59.9,
            maxTiltByZoom: [.init(zoom: 3, tilt: 10), .init(zoom: 14.75, tilt: 59.9)],
            bounds: GeoBounds(south: -10.5, west: 170, north: 10.5, east: -170))
        let a = RoomState(name: "a", camera: camera, limits: limits, trackingMode: .followDirection, seq: 1 << 40)
        let b = RoomState(name: "b", camera: .world, limits: CameraLimits(), trackingMode: .none, seq: 0)
        do {
            let store = try RoomStore(directory: dir.path + "/data")
            try store.save([a, b])
            try store.save([], removing: ["b"])
        }
        let reopened = try RoomStore(directory: dir.path + "/data")
        let loaded = try reopened.load()
        #expect(loaded == [a])
        #expect(loaded.first?.camera.bearing.sign == .minus)
        #expect(loaded.first?.camera.tilt == 5e-324)
    }

    @Test func aRoomInThreeDimensionsOnTheGlobeReadsBackExactly() throws {
        let dir = try TempDir()
        let camera = Camera(
            latitude: 46.55, longitude: 7.98, zoom: 13.5, tilt: 85, bearing: 200, roll: -179.99999999999997, elevation: 3454.123456789,
            fov: 1.0000000000000002)
        let state = RoomState(
            name: "alps", camera: camera, limits: try CameraLimits(maxTilt: 85, maxRoll: 179.5), trackingMode: .none, seq: 7,
            projection: .globe)
        try RoomStore(directory: dir.path + "/data").save([state])
        #expect(try RoomStore(directory: dir.path + "/data").load() == [state])
    }

    /// A store written before the camera had roll, elevation and fov (only the
    /// first migration, `rooms-v1`, as that version made it): its rooms read back
    /// flat, on Web Mercator, with roll unlimited, and can be saved again.
    @Test func aStoreFromBeforeTheThreeDimensionalCameraReadsBackFlat() throws {
        let dir = try TempDir()
        let folder = dir.path + "/data"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: folder + "/" + RoomStore.fileName)
        try old.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('rooms-v1');
                    CREATE TABLE room (name TEXT PRIMARY KEY, latitude TEXT NOT NULL, longitude TEXT NOT NULL, zoom TEXT NOT NULL,
                        bearing TEXT NOT NULL, tilt TEXT NOT NULL, anchor_x TEXT NOT NULL, anchor_y TEXT NOT NULL, min_zoom TEXT NOT NULL,
                        max_zoom TEXT NOT NULL, min_tilt TEXT NOT NULL, max_tilt TEXT NOT NULL, max_tilt_by_zoom TEXT NOT NULL, bounds TEXT,
                        tracking_mode TEXT NOT NULL, seq INTEGER NOT NULL, saved_at DOUBLE NOT NULL);
                    INSERT INTO room VALUES ('old', '48.85', '2.35', '12.0', '30.0', '45.0', '0.5', '0.5', '0.0', '22.0', '0.0', '60.0',
                        '', NULL, 'none', 42, 0);
                    """)
        }
        try old.close()
        let store = try RoomStore(directory: folder)
        let loaded = try #require(try store.load().first)
        #expect(loaded.camera == Camera(latitude: 48.85, longitude: 2.35, zoom: 12, tilt: 45, bearing: 30))
        #expect(loaded.camera.hasOnlyFlatFields && loaded.limits.maxRoll == 180 && loaded.projection == .mercator && loaded.seq == 42)
        #expect(loaded.story == nil, "no storyboard")
        var rolled = loaded
        rolled.camera.roll = 15
        try store.save([rolled])
        #expect(try store.load() == [rolled])
    }

    @Test func aRoomsStoryboardReadsBackWithItsStep() throws {
        let dir = try TempDir()
        var lisbon = StoryStep(
            camera: Camera(latitude: 38.72, longitude: -9.14, zoom: 11, roll: 5, elevation: 40, fov: 30), via: .ease, duration: 2, hold: 3,
            title: "Lisbon", notes: "The Tagus.\nWest.")
        lisbon.essential = true
        var state = RoomState(name: "tour", camera: .world, limits: CameraLimits(), trackingMode: .none, seq: 3)
        state.story = StoryState(steps: [lisbon, StoryStep(camera: Camera(latitude: 41.15, longitude: -8.61, zoom: 12), via: .jump)], index: 1, drivers: true)
        try RoomStore(directory: dir.path + "/data").save([state])
        #expect(try RoomStore(directory: dir.path + "/data").load() == [state])
    }

    @Test func aStoryboardThatDoesNotReadBackIsAnErrorNamingTheRoom() throws {
        let dir = try TempDir()
        let state = RoomState(name: "tour", camera: .world, limits: CameraLimits(), trackingMode: .none, seq: 3)
        try RoomStore(directory: dir.path + "/data").save([state])
        let db = try DatabaseQueue(path: dir.path + "/data/" + RoomStore.fileName)
        try db.write { try $0.execute(sql: #"UPDATE room SET story = '{"steps":[{"camera":{"lat":1}}]}'"#) }
        try db.close()
        #expect {
            try RoomStore(directory: dir.path + "/data").load()
        } throws: { error in
            "\(error)".contains("room tour: story: steps[0].camera.lon: missing")
        }
    }
}
