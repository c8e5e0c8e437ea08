import CamHubKit
import CamHubProtocol
import CameraCore
import Foundation
import Testing

/// A room outlives its hub: a restart (close 1012) is followed by a rejoin
/// with the same hello, on a new hub on the same port.
@Suite("CamHubKit reconnects", .serialized)
struct ReconnectTests {
    static let fastRestart = ["--drain-spread", "0"]

    @Test func aRoomJoinsTheRestartedHubAgainAndGetsFramesFromIt() async throws {
        let hub = try LocalHub(Self.fastRestart)
        let room = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter, name: "ana")
        hub.stop()
        let lost = await first(room.changes, within: 10) { $0.isReconnecting }
        guard case .connection(.reconnecting(let attempt, let close))? = lost else {
            Issue.record("no reconnecting state after the hub stopped: \(String(describing: lost))")
            return
        }
        #expect(attempt == 1 && close.code == 1012, "lost to the restart: \(close)")
        let restarted = try LocalHub(Self.fastRestart, port: hub.port)
        defer { restarted.stop() }
        let back = await first(room.changes, within: 10) { $0.isOpen }
        #expect(back != nil, "joined the new hub")
        // (a new hub numbers its clients afresh: the id may be the same)
        let (reconnects, role) = (await room.reconnects, await room.role)
        #expect(reconnects == 1 && role == .presenter, "a new session with the same hello")
        try await room.set(CameraUpdate(zoom: 7))
        let frame = await first(room.frames, within: 10) { $0.camera.zoom == 7 }
        #expect(frame != nil, "frames come from the new hub")
        await room.close()
    }

    @Test func aFlightUnderWayWhenTheHubRestartsFailsWithTheCloseCode() async throws {
        let hub = try LocalHub(Self.fastRestart)
        let room = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter, reconnect: nil)
        let flight = Task { try await room.fly(to: CameraUpdate(latitude: 48.85, longitude: 2.35, zoom: 12), duration: 30) }
        let moving = await first(room.frames, within: 10) { $0.moving }
        #expect(moving != nil, "the flight started")
        hub.stop()
        do {
            _ = try await flight.value
            Issue.record("the flight finished on a stopped hub")
        } catch let error as CamHubError {
            #expect(error.closeCode == 1012, "\(error)")
        }
        let state = await room.connection
        guard case .closed(let why?) = state else {
            Issue.record("a room without reconnect ends with its connection: \(state)")
            return
        }
        #expect(why.closeCode == 1012)
    }

    @Test func backoffWaitsItsDelayWithinTheJitterAndSpreadsADrainOverTheAudience() {
        let backoff = Backoff()
        #expect(backoff.delay(attempt: 0, random: 0) == 0.375 && backoff.delay(attempt: 0, random: 0.5) == 0.5)
        #expect(backoff.delay(attempt: 2, random: 1) == 2.5, "2 s + 25 %")
        #expect(backoff.delay(attempt: 40, random: 0.5) == 8, "the last delay repeats")
        #expect(backoff.drainWindow(audience: 3) == 0.5, "at least the first delay")
        #expect(backoff.drainWindow(audience: 4000) == 4, "1 ms per client")
        #expect(backoff.drainWindow(audience: 1_000_000) == 10, "at most 10 s")
        #expect(backoff.drainWait(audience: 4000, random: 0.25) == 1)
    }
}

/// A hub that takes the connection and never answers: the welcome's deadline ends the attempt.
@Suite("CamHubKit join deadline")
struct JoinTimeoutTests {
    @Test func aHubThatNeverWelcomesIsGivenUpAtTheJoinTimeout() async throws {
        let silent = try SilentListener()
        defer { silent.stop() }
        let started = ContinuousClock.now
        do {
            _ = try await CamHub.connect(url: "ws://127.0.0.1:\(silent.port)/hub", room: "kit", joinTimeout: 0.3)
            Issue.record("joined a hub that never answered")
        } catch {
            #expect(error.kind == .connection && error.message.contains("no welcome within 0.3 s"), "\(error)")
        }
        // (without the deadline it would wait for good: the port never answers)
        #expect(ContinuousClock.now - started < .seconds(10), "given up at the deadline")
    }
}
