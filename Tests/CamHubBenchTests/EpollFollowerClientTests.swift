import CamHubClient
import Foundation
import HubServer
import SocketTestSupport
import Testing
import WebSocketTransport

@testable import CamHubBench

/// The bench's own follower sockets against a real hub on 127.0.0.1.
@Suite(.serialized, .timeLimit(.minutes(1)), SocketSuiteLock())
struct EpollFollowerClientTests {
    /// What one client's handlers saw, in order.
    final class Seen: Sendable {
        let opened = Locked<[ConnectionID]>([])
        let texts = Locked<[(ConnectionID, String)]>([])
        let closes = Locked<[(ConnectionID, ClientCloseEvent)]>([])

        var handlers: EpollFollowerClient.Handlers {
            EpollFollowerClient.Handlers(
                onOpen: { id in self.opened.withLock { $0.append(id) } },
                onMessage: { id, bytes in self.texts.withLock { $0.append((id, String(decoding: bytes, as: UTF8.self))) } },
                onClose: { id, event in self.closes.withLock { $0.append((id, event)) } })
        }

        func texts(startingWith prefix: String) -> [String] {
            texts.withLock { $0.map(\.1).filter { $0.hasPrefix(prefix) } }
        }
    }

    static func startHub(_ configure: (inout HubServerConfiguration) -> Void = { _ in }) throws -> (HubServer, Int) {
        var configuration = HubServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.webRoot = nil
        configure(&configuration)
        let server = try HubServer(configuration: configuration)
        return (server, try server.start())
    }

    static func client(port: Int, path: String = "/hub", readPause: Duration = .zero, _ seen: Seen) throws -> EpollFollowerClient {
        let client = try EpollFollowerClient(
            request: HubURL(host: "127.0.0.1", port: port, path: path).connectRequest(), readPause: readPause)
        client.start(seen.handlers)
        return client
    }

    static let hello = #"{"type":"hello","room":"r","role":"follower","rate":30}"#

    @Test func aFollowerSaysHelloAndReadsTheWelcomeAndTheRoomsFrames() throws {
        let (server, port) = try Self.startHub()
        defer { server.shutdown() }
        let seen = Seen()
        let client = try Self.client(port: port, seen)
        defer { client.shutdown() }
        let id = client.connect()
        client.send(text: Self.hello, to: id)  // before the upgrade: sent once it opens
        #expect(waitUntil { seen.texts(startingWith: #"{"type":"welcome""#).count == 1 })
        let presenter = client.connect()
        client.send(text: #"{"type":"hello","room":"r","role":"presenter"}"#, to: presenter)
        client.send(text: #"{"type":"ease","camera":{"zoom":5},"duration":1}"#, to: presenter)
        #expect(waitUntil { !seen.texts(startingWith: #"{"type":"frame""#).isEmpty })
        #expect(seen.opened.withLock { $0 } == [id, presenter])
        #expect(seen.texts(startingWith: #"{"type":"welcome""#).count == 2)
        let frame = try #require(seen.texts(startingWith: #"{"type":"frame""#).first)
        let scanned = frame.utf8CString.dropLast().map { UInt8(bitPattern: $0) }.withUnsafeBufferPointer { FrameScan.scan($0) }
        #expect(scanned?.seq ?? 0 > 0, "the frame's seq and time are where the bench reads them: \(frame)")
        #expect(seen.closes.withLock { $0.isEmpty })
    }

    @Test func aFollowerReadingInBatchesStillGetsEveryFrameInOrderAndTheLastCamera() throws {
        let (server, port) = try Self.startHub()
        defer { server.shutdown() }
        let seen = Seen()
        // A pause far longer than the bench's 1 ms, so that reads do come in batches.
        let client = try Self.client(port: port, readPause: .milliseconds(20), seen)
        defer { client.shutdown() }
        client.send(text: Self.hello, to: client.connect())
        #expect(waitUntil { seen.texts(startingWith: #"{"type":"welcome""#).count == 1 })
        let presenter = client.connect()
        client.send(text: #"{"type":"hello","room":"r","role":"presenter","rate":30}"#, to: presenter)
        client.send(text: #"{"type":"ease","camera":{"zoom":5},"duration":0.5}"#, to: presenter)
        #expect(waitUntil { seen.texts.withLock { $0.contains { $0.1.contains(#""event":"steady""#) } } })
        let follower = ConnectionID(rawValue: 1)
        func frames(of id: ConnectionID) -> [String] {
            seen.texts.withLock { $0.filter { $0.0 == id && $0.1.hasPrefix(#"{"type":"frame""#) }.map(\.1) }
        }
        #expect(
            waitUntil(.seconds(20)) {
                [follower, presenter].allSatisfy { id in frames(of: id).last.map { $0.contains(#""moving":false"#) } ?? false }
            }, "both come to rest")
        for id in [follower, presenter] {
            let texts = frames(of: id)
            let seqs = texts.compactMap { frame in Array(frame.utf8).withUnsafeBufferPointer { FrameScan.scan($0)?.seq } }
            #expect(seqs.count == texts.count, "every frame of a batch is read whole: \(texts)")
            #expect(texts.contains { $0.contains(#""moving":true"#) }, "frames while the camera moves, then its rest: \(texts)")
            #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "in the order sent: \(seqs)")
            let last = try #require(texts.last)
            #expect(last.contains(#""zoom":5"#), "the last frame is the ease's end: \(last)")
        }
    }

    @Test(arguments: [Duration.zero, .milliseconds(20)])
    func theHubsPingsAreAnsweredSoAQuietFollowerStaysConnected(readPause: Duration) throws {
        let (server, port) = try Self.startHub {
            $0.pingAfter = 1
            $0.hangupAfter = 3
        }
        defer { server.shutdown() }
        let seen = Seen()
        let client = try Self.client(port: port, readPause: readPause, seen)
        defer { client.shutdown() }
        let follower = client.connect()
        client.send(text: Self.hello, to: follower)
        #expect(waitUntil { seen.texts(startingWith: #"{"type":"welcome""#).count == 1 })
        // A witness that joins later and never answers a ping: once the hub has hung up
        // on it (1 s of silence, a ping, 3 s in all), the follower has been quiet longer still.
        let witness = WebSocketClient(configuration: ClientConfiguration())
        let witnessOpen = Locked(false)
        try witness.start(ClientHandlers(onOpen: { _ in witnessOpen.withLock { $0 = true } }))
        defer { witness.shutdown() }
        let silent = witness.connect(ConnectRequest(host: "127.0.0.1", port: port, path: "/hub", subprotocol: "camhub.v1"))
        witness.setReadingPaused(true, for: silent)  // never reads the ping, never pongs
        #expect(waitUntil { witnessOpen.withLock { $0 } })
        witness.send(.text(Self.hello), to: silent)
        func healthz() -> String { (try? RawHTTP.request(port: port, path: "/healthz"))?.text ?? "" }
        #expect(waitUntil { healthz().contains(#""clients":2,"#) }, "the witness joined: \(healthz())")
        #expect(waitUntil(.seconds(20)) { !healthz().contains(#""clients":2,"#) }, "the hub hung up on the witness: \(healthz())")
        // The follower answered the hub's pings all along: it is still connected, and served.
        client.send(text: #"{"type":"ping","t":42}"#, to: follower)
        #expect(waitUntil { seen.texts(startingWith: #"{"type":"pong","t":42"#).count == 1 }, "a round trip after the hang-up time")
        #expect(seen.closes.withLock { $0.isEmpty }, "\(seen.closes.withLock { $0.map(\.1) })")
    }

    @Test func aRefusedUpgradeIsAFailedConnectWithItsHTTPStatus() throws {
        let (server, port) = try Self.startHub()
        defer { server.shutdown() }
        let seen = Seen()
        let client = try Self.client(port: port, path: "/nowhere", seen)
        defer { client.shutdown() }
        let id = client.connect()
        #expect(waitUntil { !seen.closes.withLock { $0.isEmpty } })
        let (closed, event) = try #require(seen.closes.withLock { $0.first })
        #expect(closed == id && !event.wasOpen && event.httpStatus == 404, "\(event)")
        #expect(seen.opened.withLock { $0.isEmpty })
    }

    @Test func theHubsCloseIsReportedWithItsCode() throws {
        let (server, port) = try Self.startHub()
        let seen = Seen()
        let client = try Self.client(port: port, seen)
        defer { client.shutdown() }
        client.send(text: Self.hello, to: client.connect())
        #expect(waitUntil { seen.texts(startingWith: #"{"type":"welcome""#).count == 1 })
        server.shutdown()
        #expect(waitUntil { !seen.closes.withLock { $0.isEmpty } })
        let event = try #require(seen.closes.withLock { $0.first?.1 })
        #expect(event.wasOpen && event.code == .goingAway, "\(event)")
    }

    @Test func nothingListeningIsAFailedConnectNamingTheReason() throws {
        let (server, port) = try Self.startHub()
        server.shutdown()  // the port is free again
        let seen = Seen()
        let client = try Self.client(port: port, seen)
        defer { client.shutdown() }
        _ = client.connect()
        #expect(waitUntil { !seen.closes.withLock { $0.isEmpty } })
        let event = try #require(seen.closes.withLock { $0.first?.1 })
        #expect(!event.wasOpen && (event.error ?? "").contains("refused"), "\(event)")
    }
}
