import CamHubProtocol
import CameraCore
import Foundation
import HubCore
import SocketTestSupport
import Testing

@testable import HubCluster

/// The storyboard travels with the room's frames: a frame carries it and
/// reads back whole, a mirror welcomes with it, and a new owner goes on with it.
@Suite struct ClusterStoryCodecTests {
    @Test func aFrameCarriesTheStoryboardAndItsStep() throws {
        var frame = RoomFrame(seq: 3, time: 1.5e12, camera: Camera(zoom: 4), limits: CameraLimits(), moving: true, by: "c1")
        let step = StoryStep(camera: Camera(latitude: 38.72, longitude: -9.14, zoom: 11, roll: 5), via: .ease, duration: 2, hold: 3, title: "Lisbon")
        frame.story = StoryState(steps: [step, step], index: 1, playing: true, drivers: true)
        guard case .frame(let back)? = ClusterMessage(decoding: ClusterMessage.frame(frame).encoded()) else {
            Issue.record("not a frame")
            return
        }
        #expect(back == frame)
        frame.story = nil
        guard case .frame(let bare)? = ClusterMessage(decoding: ClusterMessage.frame(frame).encoded()) else {
            Issue.record("not a frame")
            return
        }
        #expect(bare.story == nil)
    }
}

extension HubServerTests {
    @Test func theStoryboardReachesAJoinerOnAMirrorAndGoesOnWithTheNewOwnerAfterAFailover() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let owner = try ServeProcess(camhubPath, ["--redis", redis.url])
        defer { owner.stop(SIGKILL) }
        let presenter = try HubClients(port: owner.port).join(role: "presenter")
        presenter.send(
            #"{"type":"story","op":"set","steps":[{"camera":{"lat":38.72,"lon":-9.14,"zoom":11},"via":"jump","title":"Lisbon"},{"camera":{"lat":41.15,"lon":-8.61,"zoom":12},"via":"jump","title":"Porto"}]}"#
        )
        #expect(presenter.nextEvent("storyChanged")?["count"]?.numberValue == 2)
        // The owner checkpoints the storyboard with its next frame, a tick after the change: a hub
        // that prepares the room before then reads the frame before it (and its clients learn the
        // storyboard at the next step). Under load that tick can come after the other hub's join.
        #expect(
            waitUntil { ((try? redis.lines("GET {demo}:frame")) ?? []).joined().contains("Porto") },
            "the owner's checkpoint has the storyboard")
        let other = try TestCluster.hub(on: redis)
        defer { other.shutdown() }
        let clients = try HubClients(port: other.port)
        let follower = clients.join(role: "follower")
        #expect(other.owns("demo") == false)
        let story = { (c: Connection) in c.messages("welcome").first?.json["story"] }
        #expect(story(follower)?["count"]?.numberValue == 2, "the mirror welcomes with the owner's storyboard")
        presenter.send(#"{"type":"step","to":1}"#)
        let heard = follower.nextEvent("storyStep")
        #expect(heard?["index"]?.numberValue == 1 && heard?["title"]?.stringValue == "Porto", "a mirror's follower hears the step")
        #expect(waitUntil { story(clients.join(role: "follower"))?["index"]?.numberValue == 1 }, "and a joiner there finds it")

        owner.stop(SIGKILL)
        #expect(waitUntil(.seconds(20)) { other.owns("demo") == true }, "the other hub takes the room")
        let after = story(clients.join(role: "follower"))
        #expect(after?["index"]?.numberValue == 1 && after?["title"]?.stringValue == "Porto", "the new owner has the storyboard on its step")
        let stepper = clients.join(role: "presenter")
        stepper.send(#"{"type":"step","to":"previous"}"#)
        #expect(follower.nextEvent("storyStep")?["title"]?.stringValue == "Lisbon", "and steps it")
    }
}
