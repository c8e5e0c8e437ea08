import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

@testable import CamHubBench
@testable import CamHubClient

extension HubServerTests {
    /// A clean drain: on SIGTERM every client on every loop gets 1012 (its
    /// close frame written before the process exits), spread over
    /// `--drain-spread`, and `/healthz` says "draining" meanwhile.
    ///
    /// The followers are the bench's own sockets (`EpollFollowerClient`):
    /// libwebsockets' client reports a 1012 close as 1002.
    @Suite struct DrainWire {
        /// Followers of `rooms` rooms, with the close each one got.
        final class Followers: Sendable {
            let welcomed = Locked(0)
            let closes = Locked<[ConnectionID: (code: UInt16?, at: ContinuousClock.Instant)]>([:])
            let client: EpollFollowerClient

            init(port: Int, count: Int, rooms: Int) throws {
                client = try EpollFollowerClient(request: HubURL(host: "127.0.0.1", port: port, path: "/hub").connectRequest())
                client.start(
                    EpollFollowerClient.Handlers(
                        onOpen: { _ in },
                        onMessage: { [welcomed] _, bytes in
                            if bytes.starts(with: Array(#"{"type":"welcome""#.utf8)) { welcomed.withLock { $0 += 1 } }
                        },
                        onClose: { [closes] id, event in closes.withLock { $0[id] = (event.code?.rawValue, .now) } }))
                for i in 0..<count {
                    client.send(text: #"{"type":"hello","room":"drain-\#(i % rooms)","role":"follower"}"#, to: client.connect())
                }
            }

            var codes: [UInt16: Int] { Dictionary(grouping: closes.withLock { $0.values.map { $0.code ?? 0 } }, by: { $0 }).mapValues(\.count) }
        }

        @Test func everyOneOfAThousandClientsOnTwoLoopsGets1012SpreadOverTheDrain() throws {
            let hub = try ServeProcess(camhubPath, ["--loops", "2", "--drain-spread", "1"])
            var stopped = false
            defer { if !stopped { _ = hub.stop(SIGKILL) } }
            let followers = try Followers(port: hub.port, count: 1000, rooms: 10)
            defer { followers.client.shutdown() }
            try #require(waitUntil(.seconds(60)) { followers.welcomed.withLock { $0 } == 1000 }, "all joined")
            let health = try JSONParser.parse(try RawHTTP.request(port: hub.port, path: "/healthz").body)
            let perLoop = (health["connectionsPerLoop"]?.arrayValue ?? []).compactMap { $0.numberValue }
            #expect(perLoop.count == 2 && perLoop.allSatisfy { $0 >= 100 }, "clients on both loops: \(perLoop)")

            kill(hub.process.processIdentifier, SIGTERM)
            #expect(waitUntil(.seconds(60)) { followers.closes.withLock { $0.count } == 1000 })
            #expect(followers.codes == [1012: 1000], "close codes received: \(followers.codes)")
            let times = followers.closes.withLock { $0.values.map(\.at) }
            if let first = times.min(), let last = times.max() {
                #expect(last - first >= .milliseconds(500), "closes spread over the drain, not all at once: \(last - first)")
            }
            #expect(hub.stop() == 0, "the hub exits once every client is closed")
            stopped = true
        }

        @Test func healthzAnswers503DrainingWhileTheHubDrains() throws {
            let hub = try ServeProcess(camhubPath, ["--loops", "1", "--drain-spread", "5"])
            var stopped = false
            defer { if !stopped { _ = hub.stop(SIGKILL) } }
            let followers = try Followers(port: hub.port, count: 200, rooms: 2)  // four slices of 50, 1.25 s apart
            defer { followers.client.shutdown() }
            try #require(waitUntil(.seconds(30)) { followers.welcomed.withLock { $0 } == 200 })
            #expect(try RawHTTP.request(port: hub.port, path: "/healthz").status == 200)
            kill(hub.process.processIdentifier, SIGTERM)
            var answer: RawHTTP.Response?
            #expect(
                waitUntil(.seconds(20)) {
                    answer = try? RawHTTP.request(port: hub.port, path: "/healthz")
                    return answer?.status != 200 || followers.closes.withLock { $0.count } == 200
                })
            #expect(answer?.status == 503)
            let body = answer.flatMap { try? JSONParser.parse($0.body) }
            #expect(body?["status"]?.stringValue == "draining")
            #expect(waitUntil(.seconds(30)) { followers.closes.withLock { $0.count } == 200 })
            #expect(followers.codes == [1012: 200])
            #expect(hub.stop() == 0)
            stopped = true
        }
    }
}
