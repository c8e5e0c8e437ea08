import CameraCore
import CameraMotion
import Foundation
import HubCore
import SocketTestSupport
import Testing

@testable import HubCluster

/// What the Redis thread hands to the hub's loop is bounded: past the bound,
/// other hubs' moving frames are shed and counted; nothing else is.
@Suite struct RedisInboxTests {
    @Test func aFullInboxShedsMovingFramesOnlyAndCountsThem() {
        let inbox = RedisInbox(limit: 2)
        #expect(inbox.admit(sheddable: true) && inbox.admit())
        #expect(!inbox.admit(sheddable: true), "a moving frame beyond the bound is shed")
        #expect(inbox.admit(), "a reply, command or resting frame still goes")
        #expect(inbox.depth == 3 && inbox.shed == 1)
        for _ in 0..<3 { inbox.done() }
        #expect(inbox.depth == 0 && inbox.admit(sheddable: true), "room again once loop 0 ran them")
    }

    @Test func onlyAMovingFrameThatIsNeitherCornerNorPromptIsSheddable() {
        func frame(moving: Bool, corner: Bool = false, prompt: Bool = false) -> [UInt8] {
            var f = RoomFrame(seq: 7, time: 1.5e12, camera: Camera(zoom: 9), limits: CameraLimits(), moving: moving, by: "c1")
            f.epoch = 1_795_838_952_615_599
            f.corner = corner
            f.prompt = prompt
            f.velocity = moving ? CameraVelocity(latitude: 0, longitude: 1, zoom: 0, bearing: 0, tilt: 0) : nil
            return ClusterMessage.frame(f).encoded()
        }
        #expect(ClusterMessage.isSheddableFrame(frame(moving: true)))
        #expect(!ClusterMessage.isSheddableFrame(frame(moving: false)), "the frame a mirror's camera ends on")
        #expect(!ClusterMessage.isSheddableFrame(frame(moving: true, corner: true)))
        #expect(!ClusterMessage.isSheddableFrame(frame(moving: true, prompt: true)))
        #expect(!ClusterMessage.isSheddableFrame(ClusterMessage.heartbeat(hub: "a").encoded()))
        #expect(!ClusterMessage.isSheddableFrame([]))
    }
}

extension HubServerTests {
    /// Every event the Redis thread hands over is taken off the inbox when the
    /// hub's loop runs it: while a room moves on two hubs, the mirror's inbox
    /// depth is in /metrics and comes back to nothing, and nothing was shed.
    @Test func theRedisInboxEmptiesAsTheHubsLoopRunsItsEvents() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let owner = try TestCluster.hub(on: redis)
        defer { owner.shutdown() }
        let mirror = try TestCluster.hub(on: redis)
        defer { mirror.shutdown() }
        let onOwner = try HubClients(port: owner.port)
        let onMirror = try HubClients(port: mirror.port)
        let presenter = onOwner.join("inbox", role: "presenter")
        #expect(waitUntil { owner.owns("inbox") == true })
        let follower = onMirror.join("inbox", role: "follower", rate: 60)
        presenter.send(#"{"type":"fly","id":"f","camera":{"lat":48,"lon":11,"zoom":12},"duration":1}"#)
        #expect(waitUntil(.seconds(10)) { presenter.next("animation")?["status"]?.stringValue == "finished" })
        #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 12 }, "the mirror's follower ends on the camera")
        #expect(waitUntil { (try? mirror.scrape()[#"camhub_queue_depth{queue="redis_inbox"}"#]) == 0 })
        #expect(try mirror.scrape()["camhub_redis_inbox_frames_shed_total"] == 0)
    }
}
