import CamHubProtocol
import Dispatch
import Foundation
import HubCore
import SocketTestSupport
import Synchronization
import Testing
import WebSocketTransport

@testable import HubServer

/// Rooms on every loop (`--loops`): each room runs on the loop its name
/// hashes to, whichever loops its clients' sockets are on.
extension HubServerTests {
    @Suite struct RoomLoops {
        /// The first names `room-0`, `room-1`, … that land on loop `index` of `loops`.
        static func rooms(on index: Int, of loops: Int, count: Int) -> [String] {
            let placement = RoomPlacement(loops: loops)
            return (0..<1_000).lazy.map { "room-\($0)" }.filter { placement.loop(of: try! RoomName(validating: $0)) == index }
                .prefix(count).map { $0 }
        }

        @Test func eachRoomRunsOnTheLoopItsNameHashesToWithClientsFromEveryLoop() throws {
            let hub = try RunningHub { $0.loops = 2 }
            let clients = try HubClients(port: hub.port)
            let names = [Self.rooms(on: 0, of: 2, count: 1)[0], Self.rooms(on: 1, of: 2, count: 1)[0]]
            var followers: [[Connection]] = []
            for name in names { followers.append((0..<6).map { _ in clients.join(name, role: "follower") }) }
            let perLoop = try hub.health()["connectionsPerLoop"]?.arrayValue?.compactMap(\.numberValue) ?? []
            #expect(perLoop.count == 2 && perLoop.allSatisfy { $0 >= 5 }, "each room has followers on both loops: \(perLoop)")
            let ids = followers.joined().compactMap(\.client)
            #expect(ids.count == 12 && Set(ids).count == 12, "client ids never repeat across the loops' hubs: \(ids)")
            for (index, name) in names.enumerated() {
                let held = hub.onLoop(index) { s in (rooms: s.hub.roomSummaries.map(\.name), clients: s.hub.counts.clients) }
                #expect(held?.rooms == [name], "loop \(index) runs \(name) only")
                #expect(held?.clients == 6, "and its six members, wherever their sockets are")
            }
            for (index, name) in names.enumerated() {
                let driver = clients.join(name, role: "driver")
                driver.send(#"{"type":"set","camera":{"zoom":\#(5 + index)}}"#)
                for follower in followers[index] {
                    #expect(
                        waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == Double(5 + index) },
                        "frames of \(name) reach its followers on every loop")
                }
            }
        }

        @Test func whatAClientSendsRightAfterItsHelloFollowsItToItsRoomsLoopInOrder() throws {
            let hub = try RunningHub { $0.loops = 2 }
            let clients = try HubClients(port: hub.port)
            let names = [Self.rooms(on: 0, of: 2, count: 1)[0], Self.rooms(on: 1, of: 2, count: 1)[0]]
            // Eight connections over both loops, each to both rooms: half of them are handed over.
            let connections = (0..<8).map { _ in clients.open() }
            for (i, connection) in connections.enumerated() {
                connection.send(#"{"type":"hello","room":"\#(names[i % 2])","role":"driver"}"#)
                for t in 0..<30 { connection.send(#"{"type":"ping","t":\#(t)}"#) }
                connection.send(#"{"type":"set","camera":{"zoom":\#(3 + i)}}"#)
                connection.send(#"{"type":"query","id":"after","what":"bounds"}"#)
            }
            for (i, connection) in connections.enumerated() {
                #expect(waitUntil { connection.messages("result").count == 1 }, "connection \(i) was answered")
                let types = connection.messages.compactMap(\.type).filter { $0 != "frame" && $0 != "event" }
                #expect(types.first == "welcome", "the hello ran first: \(types.prefix(3))")
                let pongs = connection.messages("pong").compactMap { $0.json["t"]?.numberValue }
                #expect(pongs == (0..<30).map(Double.init), "every ping answered, in order")
                #expect(connection.messages("error").isEmpty, "\(connection.messages("error").map(\.text))")
            }
        }

        /// A client whose hello went to another loop's hub and was dropped there
        /// (the rate limit it carried along was spent) may ask for a room of its
        /// own loop: it is handed back, served there, and once it closes no
        /// loop keeps a session or a link for it.
        @Test func aClientWhoseHelloWasDroppedJoinsARoomOfAnotherLoopAndLeavesNoLinkBehind() throws {
            let hub = try RunningHub { $0.loops = 2 }
            let clients = try HubClients(port: hub.port)
            // The drop needs the hello to come within ~4 ms of the flood (the bucket
            // refills 240 a second): a loaded machine may miss that, so up to five tries.
            var dropped: (connection: Connection, own: Int)?
            for _ in 0..<5 where dropped == nil {
                #expect(waitUntil { (0..<2).allSatisfy { hub.onLoop($0) { $0.hub.counts.connections } == 0 } })
                let connection = clients.open()
                let own = hub.loopOf(connection)
                let elsewhere = Self.rooms(on: 1 - own, of: 2, count: 1)[0]
                for t in 0..<Int(HubProtocol.commandBurst) + 20 { connection.send(#"{"type":"ping","t":\#(t)}"#) }
                connection.send(#"{"type":"hello","room":"\#(elsewhere)","role":"driver"}"#)
                #expect(waitUntil { connection.messages("error").contains { $0.json["code"]?.stringValue == "rate_limited" } })
                // The session arrives with its hello and the hello runs there at once: once the
                // other loop holds the session, the hello has run (joined or dropped).
                #expect(waitUntil { hub.onLoop(1 - own) { $0.hub.counts.connections } == 1 })
                if hub.onLoop(1 - own, { $0.hub.counts.clients }) == 0 {
                    #expect(connection.messages("welcome").isEmpty)
                    dropped = (connection, own)
                } else {
                    clients.client.close(connection.id)
                }
            }
            let (connection, own) = try #require(dropped, "a hello dropped by the rate limit it carried along")
            Thread.sleep(forTimeInterval: 1.0)  // the bucket refills
            connection.send(#"{"type":"hello","room":"\#(Self.rooms(on: own, of: 2, count: 1)[0])","role":"driver"}"#)
            #expect(connection.next("welcome") != nil, "handed back to its own loop's room")
            #expect(connection.roundTrip(), "and served there")
            clients.client.close(connection.id)
            #expect(waitUntil { hub.onLoop(own) { $0.hub.counts.clients } == 0 }, "its leave reached its room")
            for index in 0..<2 {
                #expect(waitUntil { hub.onLoop(index) { $0.handedOver.isEmpty } == true }, "loop \(index) keeps no link for it")
                #expect(hub.onLoop(index) { $0.hub.counts.connections } == 0, "loop \(index) keeps no session for it")
            }
        }

        @Test func eachLoopSavesItsRoomsAndRestoresThemAfterARestart() throws {
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("camhub-loops-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: data) }
            let names = [Self.rooms(on: 0, of: 2, count: 1)[0], Self.rooms(on: 1, of: 2, count: 1)[0]]
            do {
                let hub = try RunningHub {
                    $0.loops = 2
                    $0.dataDirectory = data
                }
                let clients = try HubClients(port: hub.port)
                for (i, name) in names.enumerated() {
                    clients.join(name, role: "driver").send(#"{"type":"set","camera":{"zoom":\#(4 + i)}}"#)
                    #expect(waitUntil { (try? hub.camera(of: name))??["zoom"]?.numberValue == Double(4 + i) })
                }
                hub.shutdown()
            }
            let again = try RunningHub {
                $0.loops = 2
                $0.dataDirectory = data
            }
            let clients = try HubClients(port: again.port)
            for (i, name) in names.enumerated() {
                let welcome = clients.join(name, role: "follower").messages("welcome").first?.json
                #expect(welcome?["camera"]?["zoom"]?.numberValue == Double(4 + i), "\(name), on loop \(i), as it was saved")
            }
        }

        @Test func theRoomCapCountsTheRoomsOfEveryLoop() throws {
            let hub = try RunningHub {
                $0.loops = 2
                $0.hub.maxRooms = 2
            }
            let clients = try HubClients(port: hub.port)
            let names = Self.rooms(on: 0, of: 2, count: 2) + Self.rooms(on: 1, of: 2, count: 1)
            #expect(clients.join(names[0], role: "follower").client != nil)
            #expect(clients.join(names[2], role: "follower").client != nil, "the second room, on the other loop")
            let third = clients.open()
            third.send(#"{"type":"hello","room":"\#(names[1])","role":"follower"}"#)
            #expect(third.nextError("full") != nil, "a third room on either loop is over the cap")
            #expect(third.waitForClose() != nil, "closed: 1013, which this libwebsockets client reports as 1002")
        }

        @Test func healthMetricsAndTheRoomListAddUpEveryLoopsRooms() throws {
            let hub = try RunningHub {
                $0.loops = 2
                $0.apiKeys = ["k"]
            }
            let clients = try HubClients(port: hub.port)
            let names = Self.rooms(on: 0, of: 2, count: 2) + Self.rooms(on: 1, of: 2, count: 2)
            for name in names { _ = clients.join(name, role: "follower") }
            let health = try hub.health()
            #expect(health["rooms"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == names.sorted())
            #expect(health["clients"]?.numberValue == 4)
            let metrics = try hub.scrape()
            #expect(metrics["camhub_rooms"] == 4 && metrics["camhub_members"] == 4)
            let list = try RawHTTP.request(port: hub.port, path: "/api/v1/rooms", extraHeaders: ["Authorization: Bearer k"])
            let listed = try JSONParser.parse(list.body)["rooms"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
            #expect(listed == names.sorted())
            let one = try RawHTTP.request(port: hub.port, path: "/api/v1/rooms/\(names[3])", extraHeaders: ["Authorization: Bearer k"])
            let room = try JSONParser.parse(one.body)
            #expect(one.status == 200 && room["name"]?.stringValue == names[3], "a room of loop 1, asked on any loop")
        }
    }
}

extension RunningHub {
    /// What `body` reads off loop `index`'s hub, on that loop (nil: it did not answer in 10 s).
    func onLoop<T: Sendable>(_ index: Int, _ body: @escaping @Sendable (HubServer.State) -> T) -> T? {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        server.hubs.post(to: index) { s in
            result.withLock { $0 = body(s) }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 10)
        return result.withLock { $0 }
    }

    /// The loop holding `connection`'s socket on the hub's side: whose hub holds its session before any hello.
    /// (The only connection open: the hub of the first loop that holds a session, once one does.)
    func loopOf(_ connection: Connection) -> Int {
        var found: Int?
        waitUntil {
            found = (0..<server.hubs.count).first { onLoop($0, { $0.hub.counts.connections }) ?? 0 > 0 }
            return found != nil
        }
        return found ?? 0
    }
}
