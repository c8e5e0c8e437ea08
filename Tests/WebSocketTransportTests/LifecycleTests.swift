import Foundation
import SocketTestSupport
import Testing

@testable import WebSocketTransport

extension TransportTests {
    /// A server with a 30 s drain timeout (a test that returns sooner shows it did not wait for it)
    /// and three clients connected to it.
    static func threeClients() throws -> (ServerHarness, ClientHarness, [ConnectionID]) {
        let server = try ServerHarness {
            $0.endpoints = [WebSocketEndpoint(path: "/hub", subprotocol: "camhub.v1")]
            $0.drainTimeout = .seconds(30)
        }
        let client = try ClientHarness()
        let ids = (0..<3).map { _ in
            client.connectAndWait(ConnectRequest(port: server.port, path: "/hub", subprotocol: "camhub.v1"))
        }
        #expect(waitUntil { server.opened.count == 3 })
        return (server, client, ids)
    }

    @Test func shutdownClosesClientsWith1001() throws {
        let (server, client, ids) = try Self.threeClients()
        defer { client.client.shutdown() }
        let started = ContinuousClock.now
        server.server.shutdown()
        #expect(ContinuousClock.now - started < .seconds(10), "returns once the clients have gone, not after its 30 s drain timeout")
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

    /// `drain` is shutdown's first half: every client is closed with the code
    /// given and the call returns once they are gone, while the loop still runs
    /// work posted to it (what other loops' clients' closes cause there); `shutdown` then stops it.
    @Test func aDrainedServerClosesItsClientsAndKeepsItsLoopRunningUntilShutdown() throws {
        let (server, client, ids) = try Self.threeClients()
        defer { client.client.shutdown() }
        let started = ContinuousClock.now
        server.server.drain(closeCode: .serviceRestart, reason: "service restart")
        #expect(ContinuousClock.now - started < .seconds(10), "returns once the clients have gone, not after its 30 s drain timeout")
        for info in server.opened { #expect(server.closeCode(of: info.id) == .some(.serviceRestart), "closed before drain returned") }
        #expect(waitUntil { ids.allSatisfy { client.closeEvent($0)?.wasOpen == true } }, "each client saw its close")
        let ran = Box(false)
        #expect(server.server.execute { ran.value = true }, "the loop still takes work")
        #expect(waitUntil { ran.value })
        #expect(!server.server.loop.hasEnded)
        server.server.shutdown()
        #expect(server.server.loop.hasEnded, "shutdown stops it")
    }

    /// Schedules a one-shot timer `delay` from now on `loop` and waits until it has fired: by
    /// then the work posted to the loop before it has run, and every timer due before it has fired
    /// (a loop runs expired timers in the order they were due). Returns what `read` saw when it
    /// fired, on the loop (nil if it never did).
    static func loopReached<T: Sendable>(
        _ loop: WebSocketLoop, after delay: Duration, _ read: @escaping @Sendable () -> T = {}
    ) -> T? {
        let seen = Box<T?>(nil)
        loop.schedule(after: delay) { seen.value = read() }
        waitUntil { seen.value != nil }
        return seen.value
    }

    @Test func repeatingTimerFiresOnTheLoopNoFasterThanRequestedUntilCancelled() throws {
        let server = try ServerHarness()
        defer { server.server.shutdown() }
        let ticks = Box(0)
        let offLoop = Box(0)
        let loop = server.server.loop
        let timer = loop.scheduleRepeating(every: .milliseconds(20)) {
            ticks.mutate { $0 += 1 }
            if !loop.isCurrentThread { offLoop.mutate { $0 += 1 } }
        }
        #expect(waitUntil { ticks.value >= 3 }, "it fires again and again")
        // Never faster than every 20 ms (one tick more when it catches up with a late one, one at
        // each edge). How close to 50 a second a loaded machine gets is not asserted.
        let (from, before) = try #require(Self.loopReached(loop, after: .zero) { (ContinuousClock.now, ticks.value) })
        let (to, after) = try #require(Self.loopReached(loop, after: .milliseconds(200)) { (ContinuousClock.now, ticks.value) })
        let ticked = after - before
        let intervals = Int((to - from) / .milliseconds(20))
        #expect(ticked >= 1 && ticked <= intervals + 3, "\(ticked) ticks in \(to - from)")
        timer.cancel()
        #expect(Self.loopReached(loop, after: .zero) != nil)  // the cancel has run
        let afterCancel = ticks.value
        #expect(Self.loopReached(loop, after: .milliseconds(100)) != nil)  // five intervals on
        #expect(ticks.value == afterCancel, "timer still firing after cancel")
        #expect(offLoop.value == 0)
    }

    @Test func oneShotTimerFiresOnceOnTheLoop() throws {
        let server = try ServerHarness()
        defer { server.server.shutdown() }
        let fired = Box(0)
        server.server.loop.schedule(after: .milliseconds(30)) { fired.mutate { $0 += 1 } }
        #expect(waitUntil { fired.value == 1 })
        #expect(Self.loopReached(server.server.loop, after: .milliseconds(100)) != nil)  // a repeat would be due before this
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
        // Three seconds between the ping and the hang-up: time enough for a loaded machine to answer.
        let server = try ServerHarness(
            {
                $0.endpoints = [WebSocketEndpoint(path: "/feed")]
                $0.idle = IdlePolicy(pingAfterSeconds: 1, hangupAfterSeconds: 4)
            }, onMessage: { server, id, message in server.send(message, to: id) })
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        let lively = client.connectAndWait(ConnectRequest(port: server.port, path: "/feed"))
        #expect(waitUntil { server.opened.count == 1 })  // so the lively one has the lower id
        let silent = client.client.connect(ConnectRequest(port: server.port, path: "/feed"))
        client.client.setReadingPaused(true, for: silent)  // never reads the ping, never pongs
        #expect(waitUntil { client.isOpen(silent) && server.opened.count == 2 })
        let opened = server.opened.sorted { $0.id < $1.id }
        #expect(waitUntil(.seconds(20)) { server.closeCode(of: opened[1].id) != nil }, "the silent one is dropped")
        // The lively one, quiet since before the silent one opened, answered the pings: still open, still served.
        client.client.send(.text("still here"), to: lively)
        #expect(waitUntil { client.messages(lively).contains(.text("still here")) }, "a round trip after the hang-up time")
        #expect(server.closeCode(of: opened[0].id) == nil, "the answering client was dropped")
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
        // A handshake started at the same moment by a client without the limit: once it is open,
        // the queued one would be open too, had it started.
        let control = try ClientHarness()
        defer { control.client.shutdown() }
        _ = control.connectAndWait(ConnectRequest(port: server.port, path: "/feed"))
        #expect(!client.isOpen(queued), "a third handshake started despite the limit")
        client.client.close(queued)
        #expect(waitUntil { client.closeEvent(queued) != nil })
        #expect(client.closeEvent(queued) == ClientCloseEvent(code: nil, wasOpen: false, error: "cancelled"))
        for id in stuck { client.client.close(id) }  // in flight: killed through lws
        #expect(waitUntil { stuck.allSatisfy { client.closeEvent($0) != nil } })
        #expect(stuck.allSatisfy { client.closeEvent($0)?.error == "cancelled" })
        #expect(server.opened.count == 21, "the 20 and the control, not the cancelled one")
    }
}
