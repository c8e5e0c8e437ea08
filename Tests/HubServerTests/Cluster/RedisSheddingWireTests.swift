import Foundation
import HubCluster
import HubCore
import SocketTestSupport
import Testing

extension HubServerTests {
    /// A Redis that stops answering (frozen with SIGSTOP) while the owner's
    /// camera moves: the owner's commands in flight stop growing at
    /// `redisQueue` plus what is not sheddable, its moving frames are shed and
    /// counted, and once Redis answers again the queue drains to nothing.
    @Test func aFrozenRedisMakesTheOwnerShedMovingFramesInsteadOfQueueingThem() throws {
        let redis = try RedisServer()
        defer {
            redis.resume()
            redis.stop()
        }
        let hub = try RunningHub {
            $0.redis = try? RedisEndpoint(url: redis.url)
            // Well below the frames of one lease (60 a second, one command each): the
            // owner fences itself once its lease may have run out, and then sends none.
            $0.redisQueue = 20
            $0.hub.tick = 60
        }
        defer { hub.shutdown() }
        #expect(waitUntil { (try? hub.health()["redis"]?["state"]?.stringValue) == "up" })
        let clients = try HubClients(port: hub.port)
        let presenter = clients.join("shed", role: "presenter")
        presenter.send(#"{"type":"fly","id":"f","camera":{"lat":48,"lon":11,"zoom":12},"duration":30}"#)
        #expect(waitUntil { ((try? hub.scrape()["camhub_frames_sent_total"]) ?? 0) > 10 }, "the camera moves")
        redis.pause()
        #expect(
            waitUntil(.seconds(15)) { ((try? hub.scrape()["camhub_redis_frames_shed_total"]) ?? 0) > 0 },
            "moving frames are shed while Redis does not answer")
        let frozen = try hub.scrape()
        #expect(frozen[#"camhub_queue_depth{queue="redis"}"#] <= 20 + 20, "bounded: \(frozen[#"camhub_queue_depth{queue="redis"}"#])")
        redis.resume()
        #expect(
            waitUntil(.seconds(15)) { (try? hub.scrape()[#"camhub_queue_depth{queue="redis"}"#]) == 0 },
            "the queue drains once Redis answers again")
    }
}
