import CamHubClient
import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing

@testable import HubServer

extension HubServerTests {
    /// `POST /api/v1/rooms/{room}/story/step` against a real hub on loopback:
    /// it steps the room's storyboard as a presenter's `step` does, and says
    /// where the storyboard is now; bad input is the hub's own error.
    @Suite struct StoryStepAPIWire {
        static let steps =
            #"[{"camera":{"lat":38.7223,"lon":-9.1393,"zoom":11},"via":"jump","title":"Lisbon","notes":"Where the Tagus meets the sea."},"#
            + #"{"camera":{"lat":41.1496,"lon":-8.611,"zoom":12},"via":"jump","title":"Porto"},"#
            + #"{"camera":{"lat":40.4168,"lon":-3.7038,"zoom":10},"via":"jump","title":"Madrid"}]"#

        func step(_ hub: RunningHub, _ room: String, _ body: String) throws -> (status: Int, json: JSONValue?) {
            try ServerAPIWire().call(hub, "POST", "/api/v1/rooms/\(room)/story/step", body: body)
        }

        /// A room with the three steps, set by its presenter, and a follower of it.
        func room(_ hub: RunningHub, _ name: String) throws -> Connection {
            let clients = try HubClients(port: hub.port)
            let follower = clients.join(name, role: "follower")
            clients.join(name, role: "presenter").send(#"{"type":"story","op":"set","steps":\#(Self.steps)}"#)
            #expect(follower.nextEvent("storyChanged")?["count"]?.numberValue == 3)
            return follower
        }

        @Test func itStepsTheStoryboardAndTheRoomsFollowersHearEachStep() throws {
            let hub = try ServerAPIWire().hub()
            defer { hub.shutdown() }
            let follower = try room(hub, "tour")
            let first = try step(hub, "tour", #"{"to":"next"}"#)
            #expect(first.status == 200, "\(String(describing: first.json))")
            #expect(first.json?["type"]?.stringValue == "story" && first.json?["index"]?.numberValue == 0 && first.json?["count"]?.numberValue == 3)
            #expect(first.json?["title"]?.stringValue == "Lisbon" && first.json?["playing"]?.boolValue == false)
            let heard = follower.nextEvent("storyStep")
            #expect(heard?["index"]?.numberValue == 0 && heard?["camera"]?["lat"]?.numberValue == 38.7223)

            let third = try step(hub, "tour", #"{"to":2}"#)
            #expect(third.status == 200 && third.json?["index"]?.numberValue == 2 && third.json?["title"]?.stringValue == "Madrid")
            #expect(follower.nextEvent("storyStep")?["index"]?.numberValue == 2)
            let back = try step(hub, "tour", #"{"to":"previous"}"#)
            #expect(back.json?["index"]?.numberValue == 1 && follower.nextEvent("storyStep")?["title"]?.stringValue == "Porto")
        }

        @Test func aBadToIsA400NamingTheFieldAndChangesNothing() throws {
            let hub = try ServerAPIWire().hub()
            defer { hub.shutdown() }
            _ = try room(hub, "tour")
            let sideways = try step(hub, "tour", #"{"to":"sideways"}"#)
            #expect(sideways.status == 400 && sideways.json?["code"]?.stringValue == "bad_message")
            #expect(sideways.json?["message"]?.stringValue?.hasPrefix("to: unknown step 'sideways'") == true, "\(String(describing: sideways.json))")
            let outside = try step(hub, "tour", #"{"to":7}"#)
            #expect(outside.status == 400 && outside.json?["message"]?.stringValue == "to: must be within 0…2 (got 7)")
            let missing = try step(hub, "tour", "{}")
            #expect(missing.status == 400 && missing.json?["message"]?.stringValue?.hasPrefix("to: missing") == true)
            let unknown = try step(hub, "tour", #"{"go":"next"}"#)
            #expect(unknown.status == 400 && unknown.json?["message"]?.stringValue?.hasPrefix("go: unknown field") == true)
            let notJSON = try step(hub, "tour", "next")
            #expect(notJSON.status == 400 && notJSON.json?["message"]?.stringValue?.hasPrefix("body: not JSON") == true)
            let last = try step(hub, "tour", #"{"to":"next"}"#)
            #expect(last.json?["index"]?.numberValue == 0, "the refused steps moved nothing: next is the first step")
        }

        @Test func anEmptyStoryboardIsAClearError() throws {
            let hub = try ServerAPIWire().hub()
            defer { hub.shutdown() }
            _ = try HubClients(port: hub.port).join("bare", role: "follower")
            let answer = try step(hub, "bare", #"{"to":"next"}"#)
            #expect(answer.status == 400 && answer.json?["code"]?.stringValue == "bad_message")
            #expect(answer.json?["message"]?.stringValue?.hasPrefix("to: the room has no storyboard") == true, "\(String(describing: answer.json))")
            #expect(try step(hub, "nowhere", #"{"to":"next"}"#).status == 404, "a room the hub does not have")
            let get = try ServerAPIWire().call(hub, "GET", "/api/v1/rooms/bare/story/step")
            #expect(get.status == 405 && get.json?["code"]?.stringValue == "method_not_allowed")
        }

        /// In a cluster any hub takes the step: one that mirrors the room hands
        /// it to the owner over Redis and answers with the owner's answer.
        @Test func aStepPostedToTheHubThatMirrorsTheRoomRunsOnItsOwner() throws {
            let cluster = try TestCluster(hubs: 2, apiKeys: [ServerAPIWire.key])
            defer { cluster.shutdown() }
            let (a, b) = (cluster.hubs[0], cluster.hubs[1])
            let presenter = try HubClients(port: a.port).join("tour", role: "presenter")
            let follower = try HubClients(port: b.port).join("tour", role: "follower")
            #expect(a.owns("tour") == true && b.owns("tour") == false, "hub A owns the room, hub B mirrors it")
            presenter.send(#"{"type":"story","op":"set","steps":\#(Self.steps)}"#)
            #expect(follower.nextEvent("storyChanged")?["count"]?.numberValue == 3)
            let answer = try step(b, "tour", #"{"to":1}"#)
            #expect(answer.status == 200 && answer.json?["index"]?.numberValue == 1, "\(String(describing: answer.json))")
            #expect(follower.nextEvent("storyStep")?["title"]?.stringValue == "Porto", "the mirror's follower hears the owner's step")
            let refused = try step(b, "tour", #"{"to":9}"#)
            #expect(refused.status == 400 && refused.json?["message"]?.stringValue == "to: must be within 0…2 (got 9)", "the owner's error as it is")
        }
    }
}
