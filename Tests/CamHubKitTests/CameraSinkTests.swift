import CamHubKit
import CamHubProtocol
import CameraCore
import CameraMotion
import Testing

/// The seam for native maps: a driver feeds a sink from a room at a display
/// rate, through the playout, and the sink ends on the hub's final camera.
@Suite("CamHubKit camera sinks", .serialized)
struct CameraSinkTests {
    @Test func aSinkFollowingAMovingRoomEndsExactlyOnTheHubsFinalCamera() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let presenter = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        let follower = try await CamHub.connect(url: hub.url, room: "kit", rate: 30)
        let sink = RecordingCameraSink()
        let driver = Task { await CameraSinkDriver(room: follower, sink: sink, rate: 60).run() }
        let report = try await presenter.fly(to: CameraUpdate(latitude: 48.8566, longitude: 2.3522, zoom: 11, bearing: 20), duration: 0.6)
        let final = try #require(report.camera)
        let landed = await first(sink.applied, within: 10) { $0 == final }
        #expect(landed != nil, "the sink drew the final camera, to the bit")
        driver.cancel()
        await driver.value
        let drawn = await sink.drawn
        #expect(drawn.count > 5, "it drew the flight, not only its end: \(drawn.count) cameras")
        #expect(drawn.last?.camera == final, "and stayed there")
        await follower.close()
        await presenter.close()
    }

    @Test func aSinksGesturesMoveTheRoom() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let driverRoom = try await CamHub.connect(url: hub.url, room: "kit", role: .driver)
        let sink = RecordingCameraSink()
        let driver = Task { await CameraSinkDriver(room: driverRoom, sink: sink).run() }
        let before = await driverRoom.camera
        await sink.perform(GestureInput(kind: .doubleTap, x: 640, y: 360))
        let moved = await first(driverRoom.frames, within: 10) { $0.camera.zoom > before.zoom && !$0.moving }
        #expect(moved != nil, "a double tap on the map zoomed the room in")
        driver.cancel()
        await driver.value
        await driverRoom.close()
    }
}
