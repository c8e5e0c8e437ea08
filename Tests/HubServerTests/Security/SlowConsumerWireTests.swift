import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing
import WebSocketTransport

/// A follower that joins and then never reads a byte.
func nonReadingFollower(port: Int, room: String = "demo") throws -> NonReadingSocket {
    try NonReadingSocket(
        port: port, path: "/hub", subprotocol: "camhub.v1",
        messages: [#"{"type":"hello","room":"\#(room)","role":"follower","rate":60}"#])
}

extension HubServerTests {
    @Suite struct SlowConsumers {
        @Test func aFollowerThatNeverReadsIsClosedWhileTheOthersGetEveryFrame() throws {
            let hub = try RunningHub {
                $0.slowClientTimeout = 1
                $0.hub.tick = 60
            }
            let clients = try HubClients(port: hub.port)
            let presenter = clients.join(role: "presenter")
            let watcher = clients.join(role: "follower", rate: 30)
            let stuck = try nonReadingFollower(port: hub.port)
            #expect(waitUntil { (try? hub.health()["clients"]?.numberValue) == 3 }, "the non-reading follower joined")
            // Keep the camera moving: every frame goes to the stuck follower too, until its socket is full.
            presenter.send(#"{"type":"fly","id":"f1","camera":{"lat":48,"lon":11,"zoom":12},"duration":60}"#)
            let start = ContinuousClock.now
            #expect(
                waitUntil(.seconds(20)) { (try? hub.health()["connections"]?.numberValue) == 2 },
                "the hub closes the follower that stopped reading")
            let closed = ContinuousClock.now
            #expect(closed - start >= .seconds(1), "not before --slow-client-timeout")
            let scrape = try hub.scrape()
            let slowCloses = ["unacknowledged", "undrained"].map { scrape[#"camhub_slow_client_closes_total{reason="\#($0)"}"#] }
            #expect(slowCloses.reduce(0, +) == 1, "counted once, by what showed it: \(slowCloses)")
            // The reading follower kept getting frames, in order, all along (how many a second
            // this machine manages is a benchmark figure, not asserted here)…
            let frames = watcher.messages("frame").filter { $0.at >= start && $0.at <= closed }
            let seqs = frames.compactMap { $0.json["seq"]?.numberValue }
            #expect(!frames.isEmpty && zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "\(seqs)")
            // …and goes on getting them after the hub let the stuck one go.
            #expect(waitUntil { watcher.frames.contains { $0.at > closed } }, "frames after the close")
            #expect(watcher.closeEvent == nil && presenter.roundTrip())
            withExtendedLifetime(stuck) {}
        }

        /// Before its timeout, a follower that stopped reading costs the hub one
        /// frame: once its socket is full each new frame replaces the unwritten
        /// one (counted as coalesced in /metrics) instead of queueing behind it.
        @Test func aFollowerThatNeverReadsHoldsOnlyItsNewestFrameUntilItsTimeout() throws {
            let hub = try RunningHub {
                $0.slowClientTimeout = 60
                $0.hub.tick = 60
            }
            let clients = try HubClients(port: hub.port)
            let presenter = clients.join(role: "presenter")
            let watcher = clients.join(role: "follower", rate: 30)
            let stuck = try nonReadingFollower(port: hub.port)
            #expect(waitUntil { (try? hub.health()["clients"]?.numberValue) == 3 }, "the non-reading follower joined")
            let coalesced = #"camhub_frames_skipped_total{reason="coalesced"}"#
            let before = try hub.scrape()[coalesced]
            presenter.send(#"{"type":"fly","id":"f1","camera":{"lat":48,"lon":11,"zoom":12},"duration":60}"#)
            // A frame each tick goes to the stuck follower: after its socket fills,
            // many of them must have replaced one another.
            #expect(
                waitUntil(.seconds(20)) { ((try? hub.scrape()[coalesced]) ?? 0) - before >= 120 },
                "frames for the stuck follower are replaced, not queued")
            #expect(try hub.health()["connections"]?.numberValue == 3, "not closed before its --slow-client-timeout")
            #expect(waitUntil { watcher.frames.count > 30 }, "the reading follower is served meanwhile")
            #expect(watcher.closeEvent == nil && presenter.roundTrip())
            withExtendedLifetime(stuck) {}
        }
    }
}
