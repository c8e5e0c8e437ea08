import CamHubKit
import CamHubProtocol
import CameraCore
import Foundation
import Testing

/// A real `camhub serve` on an ephemeral loopback port (this target stays
/// free of the hub's own modules: it starts the hub binary the package builds).
final class LocalHub: Sendable {
    let process: Process
    let port: Int

    init(_ arguments: [String] = []) throws {
        // The hub this package builds (beside the test bundle), or $CAMHUB.
        let binary =
            ProcessInfo.processInfo.environment["CAMHUB"].map(URL.init(fileURLWithPath:))
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("camhub")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line names the port: "camhub: listening on http://127.0.0.1:PORT/ …".
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains("listening on"), Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
            let port = Int(text[range].dropFirst("127.0.0.1:".count).dropLast())
        else {
            process.terminate()
            throw CamHubError(.connection, "the hub did not start: \(text)")
        }
        self.process = process
        self.port = port
    }

    var url: String { "ws://127.0.0.1:\(port)/hub" }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

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
