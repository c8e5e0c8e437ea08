import CamHubClient
import CamHubProtocol
import Foundation
import Gzip
import HubCore
import SocketTestSupport
import StoryFormats
import Testing

@testable import HubServer

extension HubServerTests {
    /// `PUT` and `GET /api/v1/rooms/{room}/story` against a real hub: a tour
    /// file becomes the room's storyboard, is exported in each format, and a
    /// broken file is refused naming where, changing nothing.
    @Suite struct StoryAPIWire {
        static let key = "api-key-for-the-story-tests"
        static let tour = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/stories/iberia-tour.kml")

        func put(_ hub: RunningHub, _ room: String, _ body: [UInt8], type: String) throws -> (status: Int, json: JSONValue?) {
            let response = try RawHTTP.request(
                port: hub.port, path: "/api/v1/rooms/\(room)/story", method: "PUT",
                extraHeaders: ["Authorization: Bearer \(Self.key)", "Content-Type: \(type)"], body: body, timeoutSeconds: 20)
            if type == "application/json" {
                WireCapture.recordAPI(
                    method: "PUT", path: "/api/v1/rooms/\(room)/story", query: "", status: response.status,
                    request: String(decoding: body, as: UTF8.self), response: String(decoding: response.body, as: UTF8.self))
            }
            return (response.status, try? JSONParser.parse(response.body))
        }

        func get(_ hub: RunningHub, _ room: String, format: String) throws -> (status: Int, body: [UInt8]) {
            let path = "/api/v1/rooms/\(room)/story?format=\(format)"
            let response = try RawHTTP.request(
                port: hub.port, path: path, extraHeaders: ["Authorization: Bearer \(Self.key)"], timeoutSeconds: 20)
            if format == "json" {
                WireCapture.recordAPI(
                    method: "GET", path: "/api/v1/rooms/\(room)/story", query: "format=json", status: response.status, request: "",
                    response: String(decoding: response.body, as: UTF8.self))
            }
            return (response.status, response.body)
        }

        @Test func aKMLTourPutIntoARoomIsItsStoryboardAndComesBackInEachFormat() throws {
            let hub = try RunningHub { $0.apiKeys = [Self.key] }
            defer { hub.shutdown() }
            let follower = try HubClients(port: hub.port).join("iberia", role: "follower")
            let kml = Array(try Data(contentsOf: Self.tour))
            let answer = try put(hub, "iberia", kml, type: "application/vnd.google-earth.kml+xml")
            #expect(answer.status == 200 && answer.json?["count"]?.numberValue == 4, "\(String(describing: answer.json))")
            #expect(follower.nextEvent("storyChanged")?["count"]?.numberValue == 4)

            let json = try get(hub, "iberia", format: "json")
            let kept = try StoryState.decode(json.body).steps
            let read = try KMLTour.read(kml)
            #expect(json.status == 200 && kept == read)
            let exported = try get(hub, "iberia", format: "kml")
            let titles = try KMLTour.read(exported.body).map(\.title)
            #expect(exported.status == 200 && titles == ["Lisbon", "Porto & the Douro", "Madrid", nil])
            let kmz = try get(hub, "iberia", format: "kmz")
            #expect(kmz.status == 200 && Zip.isZip(kmz.body))
            #expect(try put(hub, "iberia", kmz.body, type: "application/vnd.google-earth.kmz").status == 200, "a KMZ goes back in")
            let story = try get(hub, "iberia", format: "storytelling")
            let chapters = try StoryFile.read(story.body, mediaType: "application/json")
            #expect(chapters.count == 4)
        }

        @Test func aBrokenTourIsRefusedNamingTheLineAndTheStoryboardStays() throws {
            let hub = try RunningHub { $0.apiKeys = [Self.key] }
            defer { hub.shutdown() }
            _ = try HubClients(port: hub.port).join("iberia", role: "follower")
            let steps = #"[{"camera":{"lat":1,"lon":2,"zoom":3},"title":"Kept"}]"#
            #expect(try put(hub, "iberia", Array(steps.utf8), type: "application/json").status == 200)
            let broken = "<kml xmlns:gx=\"http://www.google.com/kml/ext/2.2\">\n<gx:Tour>\n<gx:Playlist>\n<gx:FlyTo></gx:Tour></kml>"
            let answer = try put(hub, "iberia", Array(broken.utf8), type: "application/vnd.google-earth.kml+xml")
            #expect(answer.status == 400 && answer.json?["code"]?.stringValue == "bad_message")
            #expect(answer.json?["message"]?.stringValue?.hasPrefix("story: line 4: not well-formed XML") == true, "\(String(describing: answer.json))")
            let after = try StoryState.decode(try get(hub, "iberia", format: "json").body)
            #expect(after.steps.map(\.title) == ["Kept"])
            let unknown = try put(hub, "iberia", Array("x".utf8), type: "text/csv")
            #expect(unknown.status == 400 && unknown.json?["message"]?.stringValue?.contains("text/csv is not a storyboard") == true)
            #expect(try put(hub, "nowhere", Array(steps.utf8), type: "application/json").status == 404)
        }

        /// In a cluster any hub takes the file: one that mirrors the room hands
        /// it to the owner over Redis (a KMZ's bytes too) and answers with the owner's answer.
        @Test func aStoryPutToTheHubThatMirrorsTheRoomReachesItsOwner() throws {
            let cluster = try TestCluster(hubs: 2, apiKeys: [Self.key])
            defer { cluster.shutdown() }
            let (a, b) = (cluster.hubs[0], cluster.hubs[1])
            _ = try HubClients(port: a.port).join("iberia", role: "presenter")
            let follower = try HubClients(port: b.port).join("iberia", role: "follower")
            #expect(a.owns("iberia") == true && b.owns("iberia") == false, "hub A owns the room, hub B mirrors it")
            let kml = Array(try Data(contentsOf: Self.tour))
            let answer = try put(b, "iberia", kml, type: "application/vnd.google-earth.kml+xml")
            #expect(answer.status == 200 && answer.json?["count"]?.numberValue == 4, "\(String(describing: answer.json))")
            #expect(follower.nextEvent("storyChanged")?["count"]?.numberValue == 4, "the mirror's follower hears it")
            #expect(try StoryState.decode(try get(a, "iberia", format: "json").body).steps == (try KMLTour.read(kml)), "the owner has it")

            let kmz = try get(a, "iberia", format: "kmz").body
            #expect(try put(b, "iberia", kmz, type: "application/vnd.google-earth.kmz").status == 200, "a KMZ's bytes cross Redis whole")
            let broken = try put(b, "iberia", Array("<kml>\n<gx:Tour>".utf8), type: "application/vnd.google-earth.kml+xml")
            #expect(broken.status == 400 && broken.json?["message"]?.stringValue?.hasPrefix("story: line ") == true, "the owner's error as it is")
            #expect(try put(b, "nowhere", Array("[]".utf8), type: "application/json").status == 404, "a room no hub has")
        }
    }
}
