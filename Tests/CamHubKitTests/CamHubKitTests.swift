import CamHubKit
import CamHubProtocol
import CameraCore
import Foundation
import Testing

@Suite("CamHubKit against a real hub", .serialized)
struct CamHubKitTests {
    static let paris = CameraUpdate(latitude: 48.8566, longitude: 2.3522, zoom: 11)

    @Test func aPresenterJoinsAndAFlyReturnsItsFinishedReport() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let room = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter, name: "ana")
        let (role, client) = (await room.role, await room.client)
        #expect(role == .presenter && !client.isEmpty)
        let report = try await room.fly(to: Self.paris, duration: 0.3)
        #expect(report.status == .finished && report.by == client)
        #expect(report.camera?.latitude == 48.8566 && report.camera?.zoom == 11)
        await room.close()
    }

    @Test func aBinaryFollowerSeesTheRoomMoveAndEndExactlyOnTheFinalCamera() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let presenter = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        let follower = try await CamHub.connect(url: hub.url, room: "kit", rate: 30, encoding: .binary)
        let collected = Task {
            var frames: [HubFrame] = []
            for await frame in follower.frames {
                frames.append(frame)
                if frames.contains(where: { $0.moving }) && !frame.moving { break }
            }
            return frames
        }
        let report = try await presenter.fly(to: Self.paris, duration: 0.5)
        let frames = await collected.value
        #expect(frames.contains { $0.moving }, "moving frames came")
        #expect(frames.last?.camera == report.camera, "the last frame is the flight's end, to the bit")
        let shown = await follower.camera
        #expect(shown == report.camera)
        await follower.close()
        await presenter.close()
    }

    @Test func aRefusedHelloThrowsTheHubsTypedError() async throws {
        let hub = try LocalHub(["--presenter-token", "s3cret"])
        defer { hub.stop() }
        do {
            _ = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
            Issue.record("joined without the presenter token")
        } catch {
            #expect(error.code == .forbidden, "\(error)")
            #expect(error.ref == "hello")
        }
        let room = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter, token: "s3cret")
        let role = await room.role
        #expect(role == .presenter, "the right token joins")
        await room.close()
    }

    @Test func aCommandTheRoleMayNotSendThrowsAndTheRoomGoesOn() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let follower = try await CamHub.connect(url: hub.url, room: "kit")
        do {
            _ = try await follower.fly(to: Self.paris)
            Issue.record("a follower flew the room")
        } catch {
            #expect(error.code == .forbidden)
        }
        let connected = await follower.isConnected
        #expect(connected, "the connection stays open")
        await follower.close()
    }

    @Test func aBadRoomNameIsRefusedBeforeAnythingIsSent() async {
        do {
            _ = try await CamHub.connect(url: "ws://127.0.0.1:1/hub", room: "no spaces")
            Issue.record("connected")
        } catch {
            #expect(error.kind == .badArgument && error.message.hasPrefix("room:"))
        }
    }
}
