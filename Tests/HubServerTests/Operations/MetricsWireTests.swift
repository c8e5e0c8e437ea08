import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

/// One scrape of `/metrics`: each sample line `name{labels} value` by its series.
struct Scrape {
    let samples: [String: Double]
    let text: String

    init(_ text: String) {
        self.text = text
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        self.samples = samples
    }

    subscript(series: String) -> Double { samples[series] ?? 0 }
}

extension RunningHub {
    func scrape(token: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> Scrape {
        let response = try RawHTTP.request(
            port: port, path: "/metrics",
            extraHeaders: token.map { ["Authorization: Bearer \($0)"] } ?? [])
        #expect(response.status == 200, sourceLocation: sourceLocation)
        #expect(response.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true, sourceLocation: sourceLocation)
        return Scrape(response.text)
    }
}

extension HubServerTests {
    @Test func metricsCountWhatTheHubDoesWhileClientsRun() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let before = try hub.scrape()
        #expect(before["camhub_frames_sent_total"] == 0)
        #expect(before.text.contains("camhub_tick_duration_seconds_bucket"))
        for queue in ["loop_batches", "hub_mailbox", "room_store", "recorder"] {
            #expect(before.text.contains("camhub_queue_depth{queue=\"\(queue)\"} 0"), "the \(queue) queue's depth is reported")
        }
        #expect(before.text.contains("camhub_recording_dropped_total 0"))

        let presenter = clients.join("metrics", role: "presenter")
        let fast = clients.join("metrics", role: "follower")
        let slow = clients.join("metrics", role: "follower", rate: 5)
        let leaving = clients.join("metrics", role: "follower")
        _ = clients.open()  // connected, not joined
        presenter.send(#"{"type":"ease","id":"e1","camera":{"zoom":5,"bearing":30},"duration":2}"#)
        presenter.send(#"{"type":"ease","camera":{"zoom":"high"}}"#)  // bad_message
        #expect(presenter.next("animation") != nil)
        #expect(presenter.nextError("bad_message") != nil)
        // The per-room rate counts the last whole second of the hub's clock (how high it gets
        // on this machine is a benchmark figure, not asserted here).
        #expect(
            waitUntil(.seconds(20)) { ((try? hub.scrape())?["camhub_room_ticks_per_second{room=\"metrics\"}"] ?? 0) > 0 },
            "the moving room is among the top rooms")
        let during = try hub.scrape()
        #expect(during["camhub_connections{role=\"presenter\"}"] == 1)
        #expect(during["camhub_connections{role=\"follower\"}"] == 3)
        #expect(during["camhub_connections{role=\"none\"}"] == 1)
        #expect(during["camhub_rooms"] == 1)
        #expect(during["camhub_members"] == 4)

        #expect(waitUntil(.seconds(20)) { presenter.messages("animation").contains { $0.json["status"]?.stringValue == "finished" } })
        let framesReceived = [presenter, fast, slow, leaving].reduce(0) { $0 + $1.frames.count }
        leaving.clients.client.close(leaving.id, code: .normal)
        #expect(leaving.waitForClose() != nil)
        #expect(waitUntil { (try? hub.health()["clients"]?.numberValue) == 3 })
        let after = try hub.scrape()

        let frames = after["camhub_frames_sent_total"]
        // A scrape takes in everything counted so far: never fewer sent than were received.
        #expect(frames >= Double(framesReceived) && framesReceived > 0, "frames sent \(frames), received \(framesReceived)")
        #expect(after["camhub_messages_sent_total{type=\"frame\"}"] == frames)
        #expect(after["camhub_messages_sent_total{type=\"welcome\"}"] == 4)
        #expect(after["camhub_commands_received_total{type=\"hello\"}"] == 4)
        #expect(after["camhub_commands_received_total{type=\"ease\"}"] == 1, "the bad ease is not a command")
        #expect(after["camhub_errors_sent_total{code=\"bad_message\"}"] == 1)
        #expect(after["camhub_frames_skipped_total{reason=\"throttle\"}"] > 0, "the 5 Hz follower skips frames of the 60 Hz room")
        #expect(after["camhub_closes_total{code=\"1000\"}"] == 1)
        #expect(after["camhub_bytes_sent_total"] > frames * 50, "every frame is more than 50 bytes")
        #expect(after[#"camhub_tick_duration_seconds_count{loop="0"}"#] > 0 && after[#"camhub_send_pass_duration_seconds_count{loop="0"}"#] > 0)
        #expect(
            waitUntil { ((try? hub.scrape())?[#"camhub_tick_duration_seconds_count{loop="0"}"#] ?? 0) > 30 },
            "every tick is timed, also while nothing moves")
        #expect(after["camhub_members"] == 3)
        #expect(
            waitUntil(.seconds(20)) { !((try? hub.scrape())?.text.contains("room=\"metrics\"") ?? true) },
            "a room at rest leaves the per-room series")
        #expect(slow.frames.count < fast.frames.count)
    }

    @Test func metricsTokenProtectsTheEndpoint() throws {
        let hub = try RunningHub { $0.metricsToken = "m3trics" }
        #expect(try RawHTTP.request(port: hub.port, path: "/metrics").status == 401)
        #expect(try RawHTTP.request(port: hub.port, path: "/metrics", extraHeaders: ["Authorization: Bearer m3tric"]).status == 401)
        #expect(try RawHTTP.request(port: hub.port, path: "/metrics", extraHeaders: ["Authorization: Bearer m3trics!"]).status == 401)
        let unauthorized = try RawHTTP.request(port: hub.port, path: "/metrics")
        #expect(!unauthorized.text.contains("m3trics"), "the answer never shows the token")
        let scrape = try hub.scrape(token: "m3trics")
        #expect(scrape.text.contains("camhub_frames_sent_total"))
    }
}
