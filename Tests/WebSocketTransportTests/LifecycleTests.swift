import Foundation
import Testing
@testable import WebSocketTransport

extension TransportTests {
    @Test func shutdownClosesClientsWith1001() throws {
        let server = try Self.hubServer()
        let client = try ClientHarness()
        defer { client.client.shutdown() }
        let ids = (0..<3).map { _ in
            client.connectAndWait(ConnectRequest(port: server.port, path: "/hub", subprotocol: "camhub.v1"))
        }
        #expect(waitUntil { server.opened.count == 3 })
        let started = ContinuousClock.now
        server.server.shutdown()
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(waitUntil { ids.allSatisfy { client.closeEvent($0) != nil } })
        for id in ids {
            #expect(client.closeEvent(id)?.code == .goingAway)
            #expect(client.closeEvent(id)?.wasOpen == true)
        }
        for info in server.opened {
            #expect(server.closeCode(of: info.id) == .some(.goingAway))
        }
        // The port is closed: a new connection fails.
        let late = client.client.connect(ConnectRequest(port: server.port, path: "/hub", subprotocol: "camhub.v1"))
        #expect(waitUntil { client.closeEvent(late) != nil })
        #expect(client.closeEvent(late)?.wasOpen == false)
        server.server.shutdown() // idempotent
    }

    @Test func repeatingTimerFiresAtRoughlyTheRequestedRate() throws {
        let server = try ServerHarness()
        defer { server.server.shutdown() }
        let ticks = Box(0)
        let offLoop = Box(0)
        let loop = server.server.loop
        let timer = loop.scheduleRepeating(every: .milliseconds(20)) {
            ticks.mutate { $0 += 1 }
            if !loop.isCurrentThread { offLoop.mutate { $0 += 1 } }
        }
        usleep(500_000)
        timer.cancel()
        let counted = ticks.value
        #expect((12...38).contains(counted), "expected ~25 ticks in 0.5 s, got \(counted)")
        #expect(offLoop.value == 0)
        usleep(100_000)
        let afterCancel = ticks.value
        usleep(100_000)
        #expect(ticks.value == afterCancel, "timer still firing after cancel")
    }

    @Test func oneShotTimerFiresOnceOnTheLoop() throws {
        let server = try ServerHarness()
        defer { server.server.shutdown() }
        let fired = Box(0)
        server.server.loop.schedule(after: .milliseconds(30)) { fired.mutate { $0 += 1 } }
        #expect(waitUntil { fired.value == 1 })
        usleep(100_000)
        #expect(fired.value == 1)
    }

    @Test func unansweredIdlePingClosesTheConnection() throws {
        let server = try ServerHarness {
            $0.endpoints = [WebSocketEndpoint(path: "/feed")]
            $0.idle = IdlePolicy(pingAfterSeconds: 1, hangupAfterSeconds: 2)
        }
        let client = try ClientHarness()
        defer { client.client.shutdown(); server.server.shutdown() }
        let silent = client.client.connect(ConnectRequest(port: server.port, path: "/feed"))
        client.client.setReadingPaused(true, for: silent) // never reads the ping, never pongs
        let lively = client.connectAndWait(ConnectRequest(port: server.port, path: "/feed"))
        #expect(waitUntil { client.isOpen(silent) && server.opened.count == 2 })
        let opened = server.opened.sorted { $0.id < $1.id }
        #expect(waitUntil(.seconds(12)) { server.closeCode(of: opened[0].id) != nil })
        #expect(server.closeCode(of: opened[1].id) == nil, "the answering client was dropped")
        #expect(client.closeEvent(lively) == nil)
    }

    @Test func oneClientThreadHoldsManyConnections() throws {
        let server = try ServerHarness { $0.endpoints = [WebSocketEndpoint(path: "/feed")] }
        let client = try ClientHarness()
        defer { client.client.shutdown(); server.server.shutdown() }
        let count = 500
        let ids = (0..<count).map { _ in client.client.connect(ConnectRequest(port: server.port, path: "/feed")) }
        #expect(waitUntil(.seconds(20)) { server.opened.count == count })
        #expect(waitUntil { ids.allSatisfy { client.isOpen($0) } })
        let frame = SharedFrame(text: "{\"camera\":1}")
        let srv = server.server
        let targets = server.opened.map(\.id)
        srv.execute { for id in targets { srv.sendLatest(frame, to: id) } }
        #expect(waitUntil(.seconds(10)) { ids.allSatisfy { client.messages($0).count == 1 } })
    }
}

extension TransportTests {
    static func openFileCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    @Test func startAndShutdownRepeatedlyLeaksNoThreadsOrSockets() throws {
        let filesBefore = Self.openFileCount()
        let threadsBefore = Self.threadCount()
        for round in 0..<10 {
            let server = try ServerHarness()
            let client = try ClientHarness()
            let id = client.connectAndWait(ConnectRequest(port: server.port, path: "/echo"))
            client.client.send(.text("round \(round)"), to: id)
            #expect(waitUntil { client.messages(id).count == 1 })
            if round % 2 == 0 {
                server.server.shutdown()
                client.client.shutdown()
            } else {
                client.client.shutdown()
                server.server.shutdown()
            }
        }
        #expect(Self.openFileCount() <= filesBefore + 2, "fds: \(filesBefore) → \(Self.openFileCount())")
        #expect(Self.threadCount() <= threadsBefore + 1, "threads: \(threadsBefore) → \(Self.threadCount())")
    }

    @Test func serverFailsToStartOnAPortInUse() throws {
        let first = try ServerHarness()
        defer { first.server.shutdown() }
        let port = first.port
        #expect(throws: TransportError.self) {
            _ = try ServerHarness { $0.port = port }
        }
    }
}
