import CamHubKit
import CamHubProtocol
import CameraCore
import CameraMotion
import Testing

/// The commands beyond motion, each against a real hub, each returning the
/// hub's answer; and the state kept from events (roster, animations, limits).
@Suite("CamHubKit commands", .serialized)
struct CommandTests {
    @Test func aQueryReturnsTheHubsResult() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let room = try await CamHub.connect(url: hub.url, room: "kit")
        let answer = try await room.query(.unproject([ViewPoint(x: 640, y: 360)]))
        guard case .unproject(let points) = answer, let centre = points.first ?? nil else {
            Issue.record("not an unproject result: \(answer)")
            return
        }
        let camera = await room.camera
        #expect(abs(centre.latitude - camera.latitude) < 1e-6 && abs(centre.longitude - camera.longitude) < 1e-6, "the view's centre")
        await room.close()
    }

    @Test func aSummonReturnsHowManyItReachedAndTheRosterShowsTheirFollowStates() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let presenter = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        let follower = try await CamHub.connect(url: hub.url, room: "kit", name: "bo")
        let followerID = await follower.client
        try await follower.follow(.exploring)
        let changed = await first(presenter.events, within: 10) {
            if case .followChanged(let entry) = $0 { entry.client == followerID && entry.follow == .exploring } else { false }
        }
        #expect(changed != nil, "the presenter heard it")
        let entry = await presenter.roster.first { $0.client == followerID }
        #expect(entry?.follow == .exploring && entry?.name == "bo", "the roster keeps the follow state")
        let reached = try await presenter.summon()
        #expect(reached == 1)
        await follower.close()
        await presenter.close()
    }

    @Test func setLimitsReturnsOnceTheRoomHasThem() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let room = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        var change = CameraLimits.Change()
        change.maxZoom = .set(9)
        try await room.setLimits(change)
        let limits = await room.limits
        #expect(limits.maxZoom == 9)
        await room.close()
    }

    @Test func aFollowerMayNotSetLimitsAndGetsTheHubsError() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let room = try await CamHub.connect(url: hub.url, room: "kit")
        var change = CameraLimits.Change()
        change.maxZoom = .set(9)
        do {
            try await room.setLimits(change)
            Issue.record("a follower set the room's limits")
        } catch {
            #expect(error.code == .forbidden && error.ref == "limits", "\(error)")
        }
        await room.close()
    }

    @Test func theRoomsAnimationsListARunningFlightUntilItEnds() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let presenter = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        let watcher = try await CamHub.connect(url: hub.url, room: "kit", role: .driver)
        let flight = Task { try await presenter.fly(to: CameraUpdate(latitude: 40, longitude: -3.7, zoom: 9), duration: 0.8) }
        _ = await first(watcher.frames, within: 10) { $0.moving }
        let running = await watcher.animations
        let presenterID = await presenter.client
        #expect(running.count == 1 && running.first?.owner == presenterID && running.first?.status == "running", "\(running)")
        #expect(running.first?.isMine == false)
        _ = try await flight.value
        _ = await first(watcher.frames, within: 10) { !$0.moving }
        let after = await watcher.animations
        #expect(after.isEmpty, "\(after)")
        await watcher.close()
        await presenter.close()
    }

    @Test func cancelEndsThisClientsFlightAsCancelled() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let room = try await CamHub.connect(url: hub.url, room: "kit", role: .driver)
        let flight = Task { try await room.fly(to: CameraUpdate(latitude: 40, longitude: -3.7, zoom: 9), duration: 20) }
        _ = await first(room.frames, within: 10) { $0.moving }
        try await room.cancel()
        let report = try await flight.value
        #expect(report.status == .cancelled)
        await room.close()
    }

    @Test func trackRoutePointerAndGesturesAreTakenByTheHub() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let room = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        try await room.route([GeoCoordinate(latitude: 38.7, longitude: -9.1), GeoCoordinate(latitude: 38.8, longitude: -9.2)])
        try await room.track(mode: TrackingMode.none)
        try await room.pointer(GeoCoordinate(latitude: 38.7, longitude: -9.1))
        try await room.pointer(nil)
        let off = try await room.gestures(disable: [.pan])
        #expect(off == [.pan])
        try await room.fit(.cover)
        let connected = await room.isConnected
        #expect(connected)
        await room.close()
    }
}
