import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing

@testable import HubServer

/// A cluster whose hubs each run two event loops (`--redis` with `--loops 2`):
/// every loop is a member of the cluster and runs the rooms whose names hash
/// to it; clients of one hub sit on both of its loops, and the owner's answers
/// to a mirror's driver cross both Redis and a loop hand-over.
extension HubServerTests {
    @Test func hubsWithTwoLoopsEachServeOneRoomAcrossTheCluster() throws {
        let cluster = try TestCluster(hubs: 2, loops: 2)
        defer { cluster.shutdown() }
        let (a, b) = (cluster.hubs[0], cluster.hubs[1])
        let clientsA = try HubClients(port: a.port)
        let presenter = clientsA.join(role: "presenter")
        let followerA = clientsA.join(role: "follower")
        #expect(a.owns("demo") == true)
        let clientsB = try HubClients(port: b.port)
        let followersB = (0..<2).map { _ in clientsB.join(role: "follower", rate: 30) }
        let driver = clientsB.join(role: "driver")
        let perLoop = try b.health()["connectionsPerLoop"]?.arrayValue?.compactMap(\.numberValue) ?? []
        #expect(perLoop.count == 2 && perLoop.allSatisfy { $0 >= 1 }, "hub B's clients are on both loops: \(perLoop)")

        driver.send(#"{"type":"ease","id":"e","camera":\#(Self.easeTarget),"duration":0.4}"#)
        #expect(driver.next("animation")?["status"]?.stringValue == "started", "the owner's answer reaches the driver on hub B")
        #expect(driver.next("animation", timeout: .seconds(20))?["status"]?.stringValue == "finished")
        for follower in followersB + [followerA] {
            #expect(waitUntil(.seconds(20)) { follower.frames.last?.json["moving"]?.boolValue == false })
            #expect(Self.isEaseTarget(follower.frames.last?.json["camera"]), "\(follower.frames.last?.text ?? "")")
        }
        #expect(presenter.messages("animation").isEmpty, "answers meant for the driver reach it only")
    }

    /// One room on each loop of a two-loop hub.
    fileprivate static var roomPerLoop: [String] { [RoomLoops.rooms(on: 0, of: 2, count: 1)[0], RoomLoops.rooms(on: 1, of: 2, count: 1)[0]] }

    @Test func everyLoopOfAClusterHubIsAMemberOwningTheRoomsHashedToIt() throws {
        let cluster = try TestCluster(hubs: 2, loops: 2)
        defer { cluster.shutdown() }
        let (a, b) = (cluster.hubs[0], cluster.hubs[1])
        let redis = try #require(try a.health()["redis"])
        let ids = redis["hubs"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let first = try #require(redis["hub"]?.stringValue)
        #expect(ids == [first, first + "1"], "one member per loop, named after loop 0's: \(ids)")
        #expect(ids.allSatisfy { $0.wholeMatch(of: /[a-z0-9]{1,32}/) != nil }, "a client id's suffix, as the protocol has it")

        let (clientsA, clientsB) = (try HubClients(port: a.port), try HubClients(port: b.port))
        let rooms = Self.roomPerLoop
        let presenters = rooms.map { clientsA.join($0, role: "presenter") }
        for (loop, presenter) in presenters.enumerated() {
            #expect(presenter.client?.hasSuffix("." + ids[loop]) == true, "a client's id names its room's loop: \(presenter.client ?? "")")
            #expect(presenter.client?.wholeMatch(of: /c[1-9][0-9]*\.[a-z0-9]{1,32}/) != nil)
        }
        for (loop, room) in rooms.enumerated() {
            let name = try RoomName(validating: room)
            #expect(a.onLoop(loop) { $0.hub.owns(name) } == true, "hub A's loop \(loop) owns \(room)")
            #expect(a.onLoop(1 - loop) { $0.hub.owns(name) == nil } == true, "the other loop does not have it")
        }
        let followersB = rooms.map { clientsB.join($0, role: "follower") }
        for (loop, room) in rooms.enumerated() {
            #expect(b.owns(room) == false, "hub B mirrors \(room)")
            let driver = clientsB.join(room, role: "driver")
            driver.send(#"{"type":"set","camera":{"zoom":\#(6 + loop)}}"#)
            #expect(waitUntil(.seconds(10)) { followersB[loop].frames.last?.json["camera"]?["zoom"]?.numberValue == Double(6 + loop) })
            #expect(waitUntil(.seconds(10)) { presenters[loop].frames.last?.json["camera"]?["zoom"]?.numberValue == Double(6 + loop) })
        }
        let health = try b.health()
        #expect(health["redis"]?["hubs"]?.arrayValue?.count == 2 && health["redis"]?["state"]?.stringValue == "up")
    }

    /// Two hubs of two loops each and one room per loop, joined in each room
    /// first by a client of hub A in role `onA` (so A owns both), then by one of hub B in role `onB`.
    private struct TwoRoomsOnTwoHubs {
        let cluster: TestCluster
        let rooms = HubServerTests.roomPerLoop
        let clientsA: HubClients
        let clientsB: HubClients
        let onA: [Connection]
        let onB: [Connection]
        var a: RunningHub { cluster.hubs[0] }
        var b: RunningHub { cluster.hubs[1] }

        init(onA roleA: String, onB roleB: String, apiKeys: [String] = []) throws {
            cluster = try TestCluster(hubs: 2, loops: 2, apiKeys: apiKeys)
            clientsA = try HubClients(port: cluster.hubs[0].port)
            clientsB = try HubClients(port: cluster.hubs[1].port)
            let (rooms, clientsA, clientsB) = (self.rooms, self.clientsA, self.clientsB)
            onA = rooms.map { clientsA.join($0, role: roleA) }
            onB = rooms.map { clientsB.join($0, role: roleB) }
        }
    }

    @Test func whenAHubWithTwoLoopsStopsTheOtherHubTakesOverTheRoomsOfBothLoops() throws {
        let setup = try TwoRoomsOnTwoHubs(onA: "presenter", onB: "driver")
        defer { setup.cluster.shutdown() }
        let (a, b, rooms, presenters, drivers) = (setup.a, setup.b, setup.rooms, setup.onA, setup.onB)
        #expect(rooms.allSatisfy { a.owns($0) == true && b.owns($0) == false })
        a.shutdown()
        for presenter in presenters { _ = presenter.waitForClose() }
        for room in rooms { #expect(waitUntil(.seconds(10)) { b.owns(room) == true }, "hub B owns \(room) once hub A has left") }
        for (loop, driver) in drivers.enumerated() {
            driver.send(#"{"type":"set","camera":{"zoom":\#(3 + loop)}}"#)
            #expect(waitUntil(.seconds(10)) { (try? b.camera(of: rooms[loop]))??["zoom"]?.numberValue == Double(3 + loop) })
        }
    }

    @Test func theServerAPIOfATwoLoopHubFindsRoomsAndClientsOnEitherLoopAcrossTheCluster() throws {
        let setup = try TwoRoomsOnTwoHubs(onA: "driver", onB: "follower", apiKeys: [ServerAPIWire.key])
        defer { setup.cluster.shutdown() }
        let (a, b, rooms, drivers, followersB) = (setup.a, setup.b, setup.rooms, setup.onA, setup.onB)
        for hub in [a, b] {
            let list = { try? Self.api(hub, "GET", "/api/v1/rooms").json?["rooms"]?.arrayValue }
            #expect(list()?.compactMap { $0["name"]?.stringValue } == rooms.sorted(), "each room once")
            // The owner counts the mirror's members when their presence reaches it over Redis.
            #expect(waitUntil { list()?.allSatisfy { $0["clients"]?.numberValue == 2 } == true }, "head counts across the cluster")
        }
        for (loop, room) in rooms.enumerated() {
            let set = try Self.api(b, "POST", "/api/v1/rooms/\(room)/commands", body: #"{"type":"set","camera":{"zoom":\#(4 + loop)}}"#)
            #expect(set.status == 200, "hub B's loop \(loop) asks hub A's loop \(loop)")
            #expect(waitUntil { followersB[loop].frames.last?.json["camera"]?["zoom"]?.numberValue == Double(4 + loop) })
            #expect(try Self.api(b, "GET", "/api/v1/rooms/\(room)").json?["camera"]?["zoom"]?.numberValue == Double(4 + loop))
            let client = try #require(drivers[loop].client)
            #expect(try Self.api(b, "DELETE", "/api/v1/rooms/\(room)/clients/\(client)").status == 204)
            #expect(drivers[loop].waitForClose()?.code?.rawValue == 4000, "closed on hub A, from hub B")
        }
    }
}
