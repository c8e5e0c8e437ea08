import Foundation
import SocketTestSupport
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
        server.server.shutdown()  // idempotent
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

    @Test func serverAndClientLoopsRunOnEpollThroughLibev() throws {
        // lws's own loop polls every socket on each wakeup; at thousands of
        // followers that costs more than the traffic, so both sides use libev.
        let server = try ServerHarness()
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let expected = WebSocketTransportSettings.useLibev ? "libev/epoll" : "poll"
        #expect(server.server.loop.backend == expected)
        #expect(client.client.loop.backend == expected)
    }

    @Test func unansweredIdlePingClosesTheConnection() throws {
        let server = try ServerHarness {
            $0.endpoints = [WebSocketEndpoint(path: "/feed")]
            $0.idle = IdlePolicy(pingAfterSeconds: 1, hangupAfterSeconds: 2)
        }
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let silent = client.client.connect(ConnectRequest(port: server.port, path: "/feed"))
        client.client.setReadingPaused(true, for: silent)  // never reads the ping, never pongs
        #expect(waitUntil { server.opened.count == 1 })  // so the silent one has the lower id
        let lively = client.connectAndWait(ConnectRequest(port: server.port, path: "/feed"))
        #expect(waitUntil { client.isOpen(silent) && server.opened.count == 2 })
        let opened = server.opened.sorted { $0.id < $1.id }
        #expect(waitUntil(.seconds(12)) { server.closeCode(of: opened[0].id) != nil })
        #expect(server.closeCode(of: opened[1].id) == nil, "the answering client was dropped")
        #expect(client.closeEvent(lively) == nil)
    }

    @Test func oneClientThreadHoldsManyConnections() throws {
        // WST_SOCKETS=5000 swift test --filter oneClientThread… for a bigger run.
        let count = Int(ProcessInfo.processInfo.environment["WST_SOCKETS"] ?? "") ?? 500
        let serverOpens = Box<[ConnectionID]>([])
        let clientOpens = Box(0)
        let clientMessages = Box(0)
        var config = ServerConfiguration()
        config.endpoints = [WebSocketEndpoint(path: "/feed")]
        let server = try WebSocketServer(configuration: config)
        try server.start(ServerHandlers(onOpen: { info in serverOpens.mutate { $0.append(info.id) } }))
        let client = WebSocketClient(configuration: ClientConfiguration())
        try client.start(
            ClientHandlers(
                onOpen: { _ in clientOpens.mutate { $0 += 1 } },
                onMessage: { _, _ in clientMessages.mutate { $0 += 1 } }))
        defer {
            client.shutdown()
            server.shutdown()
        }
        let started = ContinuousClock.now
        for _ in 0..<count { client.connect(ConnectRequest(port: server.port, path: "/feed")) }
        #expect(waitUntil(.seconds(30)) { serverOpens.value.count == count && clientOpens.value == count })
        let connected = ContinuousClock.now
        let frame = SharedFrame(text: "{\"camera\":1}")
        for id in serverOpens.value { server.sendLatest(frame, to: id) }
        #expect(waitUntil(.seconds(10)) { clientMessages.value == count })
        print("\(count) sockets: connected in \(connected - started), broadcast in \(ContinuousClock.now - connected)")
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
        #expect(throws: ListenError(host: "127.0.0.1", port: port, code: EADDRINUSE)) {
            _ = try ServerHarness { $0.port = port }
        }
        let error = ListenError(host: "127.0.0.1", port: port, code: EADDRINUSE)
        #expect(error.description == "cannot listen on 127.0.0.1:\(port): address already in use")
        #expect(error.isAddressInUse)
        #expect(ListenError(host: "::1", port: 80, code: EACCES).description == "cannot listen on [::1]:80: permission denied")
        // A free port binds, so the probe has nothing to report.
        #expect(ListenError.probe(host: "127.0.0.1", port: 0) == nil)
    }

    @Test func libraryLogChoiceComesFromTheEnvironmentValue() {
        #expect(LibraryLog.choice(fromEnvironment: nil) == nil)
        #expect(LibraryLog.choice(fromEnvironment: " ") == nil)
        #expect(LibraryLog.choice(fromEnvironment: "debug")?.choice == .init(mask: 31, show: true))
        #expect(LibraryLog.choice(fromEnvironment: "WARN")?.choice == .init(mask: 3, show: true))
        #expect(LibraryLog.choice(fromEnvironment: "7")?.choice == .init(mask: 7, show: true))
        let odd = LibraryLog.choice(fromEnvironment: "loud")
        #expect(odd?.choice == .init(mask: 1, show: true))
        #expect(odd?.warning?.hasPrefix("CAMHUB_LWS_LOG=loud: expected error, warn") == true)
        #expect(WebSocketTransportSettings.libraryVersion.hasPrefix("4."))
        #expect(!WebSocketTransportSettings.libraryVersion.hasSuffix("-"))
    }
}

extension TransportTests {
    @Test func clientPacesHandshakesAndCancelsPendingConnects() throws {
        let server = try ServerHarness { $0.endpoints = [WebSocketEndpoint(path: "/feed")] }
        let client = try ClientHarness { $0.maxConcurrentConnects = 2 }
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let ids = (0..<20).map { _ in client.client.connect(ConnectRequest(port: server.port, path: "/feed")) }
        #expect(waitUntil(.seconds(10)) { ids.allSatisfy { client.isOpen($0) } })
        #expect(server.opened.count == 20)
        // Two handshakes that are never answered hold both slots; a third waits.
        let silent = try SilentListener()
        let stuck = (0..<2).map { _ in client.client.connect(ConnectRequest(port: silent.port, path: "/feed")) }
        let queued = client.client.connect(ConnectRequest(port: server.port, path: "/feed"))
        usleep(100_000)
        #expect(!client.isOpen(queued), "a third handshake started despite the limit")
        client.client.close(queued)
        #expect(waitUntil { client.closeEvent(queued) != nil })
        #expect(client.closeEvent(queued) == ClientCloseEvent(code: nil, wasOpen: false, error: "cancelled"))
        for id in stuck { client.client.close(id) }  // in flight: killed through lws
        #expect(waitUntil { stuck.allSatisfy { client.closeEvent($0) != nil } })
        #expect(stuck.allSatisfy { client.closeEvent($0)?.error == "cancelled" })
        #expect(server.opened.count == 20)
    }
}
