import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing
import WebSocketTransport

/// A follower that joins and then never reads a byte: a raw TCP socket with a
/// small receive buffer, speaking just enough RFC 6455 to say hello.
final class NonReadingFollower {
    let fd: Int32

    init(port: Int, room: String = "demo") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var small: Int32 = 2048
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw SubprocessFailure("connect failed: errno \(errno)")
        }
        let request =
            "GET /hub HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: camhub.v1\r\n\r\n"
        write(Array(request.utf8))
        // The 101 has arrived once the socket is readable; it is never read.
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 20_000) == 1 else {
            close(fd)
            throw SubprocessFailure("no answer to the upgrade within 20 s")
        }
        write(Self.maskedText(#"{"type":"hello","room":"\#(room)","role":"follower","rate":60}"#))
    }

    private func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// One client frame: FIN + text, masked (RFC 6455 §5.3), payload < 126 bytes.
    static func maskedText(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        precondition(payload.count < 126)
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return [0x81, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    deinit { close(fd) }
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
            let stuck = try NonReadingFollower(port: hub.port)
            #expect(waitUntil { (try? hub.health()["clients"]?.number) == 3 }, "the non-reading follower joined")
            // Keep the camera moving: every frame goes to the stuck follower too, until its socket is full.
            presenter.send(#"{"type":"fly","id":"f1","camera":{"lat":48,"lon":11,"zoom":12},"duration":60}"#)
            let start = ContinuousClock.now
            #expect(
                waitUntil(.seconds(20)) { (try? hub.health()["connections"]?.number) == 2 },
                "the hub closes the follower that stopped reading")
            let closed = ContinuousClock.now
            #expect(closed - start >= .seconds(1), "not before --slow-client-timeout")
            // The reading follower kept getting frames, in order, all along (how many a second
            // this machine manages is a benchmark figure, not asserted here)…
            let frames = watcher.messages("frame").filter { $0.at >= start && $0.at <= closed }
            let seqs = frames.compactMap { $0.json["seq"]?.number }
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
            let stuck = try NonReadingFollower(port: hub.port)
            #expect(waitUntil { (try? hub.health()["clients"]?.number) == 3 }, "the non-reading follower joined")
            let coalesced = #"camhub_frames_skipped_total{reason="coalesced"}"#
            let before = try hub.scrape()[coalesced]
            presenter.send(#"{"type":"fly","id":"f1","camera":{"lat":48,"lon":11,"zoom":12},"duration":60}"#)
            // A frame each tick goes to the stuck follower: after its socket fills,
            // many of them must have replaced one another.
            #expect(
                waitUntil(.seconds(20)) { ((try? hub.scrape()[coalesced]) ?? 0) - before >= 120 },
                "frames for the stuck follower are replaced, not queued")
            #expect(try hub.health()["connections"]?.number == 3, "not closed before its --slow-client-timeout")
            #expect(waitUntil { watcher.frames.count > 30 }, "the reading follower is served meanwhile")
            #expect(watcher.closeEvent == nil && presenter.roundTrip())
            withExtendedLifetime(stuck) {}
        }
    }
}
