import Foundation
import HubCluster
import HubCore
import SocketTestSupport
import Testing

/// A hello for a room this hub does not have waits for Redis: bounded in
/// what its connection may send meanwhile, and in time.
extension HubServerTests {
    /// Redis takes the commands but never answers (frozen with SIGSTOP).
    @Test func aRoomRedisDoesNotAnswerForIsGivenUpAfterTwoSecondsAndStopsCountingAgainstTheRoomCap() throws {
        let redis = try RedisServer()
        defer {
            redis.resume()
            redis.stop()
        }
        let hub = try RunningHub {
            $0.redis = try? RedisEndpoint(url: redis.url)
            $0.hub.maxRooms = 1
        }
        defer { hub.shutdown() }
        #expect(waitUntil { (try? hub.health()["redis"]?["state"]?.stringValue) == "up" })
        let clients = try HubClients(port: hub.port)
        redis.pause()
        let first = clients.open()
        first.send(#"{"type":"hello","room":"first","role":"follower"}"#)
        #expect(waitUntil { (try? hub.health()["redis"]?["preparing"]?.numberValue) == 1 }, "the hello waits for Redis")
        let sent = ContinuousClock.now
        #expect(first.nextError("unavailable")?["ref"]?.stringValue == "hello", "answered once the room is given up")
        #expect(ContinuousClock.now - sent < .seconds(6), "about 2 s, not for ever")
        first.send(#"{"type":"ping","t":1}"#)
        #expect(first.nextError("not_joined") != nil && first.closeEvent == nil, "the connection stays open: it may say hello again")
        #expect((try? hub.health()["redis"]?["preparing"]?.numberValue) == 0)
        #expect((try? hub.health()["redis"]?["preparationsGivenUp"]?.numberValue) == 1)

        let second = clients.open()
        second.send(#"{"type":"hello","room":"second","role":"follower"}"#)
        #expect(second.nextError("unavailable")?["ref"]?.stringValue == "hello", "not `full`: the room given up no longer counts")
        redis.resume()
        second.send(#"{"type":"hello","room":"second","role":"follower"}"#)
        #expect(second.next("welcome") != nil, "with Redis answering again, the same hello joins")
        #expect(try redis.command("EXISTS {first}:owner") == ":0", "the given-up room's claim was released")
    }

    @Test func aConnectionThatSendsTooMuchWhileItsRoomIsPreparedIsClosedAndNothingOfItsIsKept() throws {
        let redis = try RedisServer()
        defer {
            redis.resume()
            redis.stop()
        }
        let hub = try RunningHub { $0.redis = try? RedisEndpoint(url: redis.url) }
        defer { hub.shutdown() }
        #expect(waitUntil { (try? hub.health()["redis"]?["state"]?.stringValue) == "up" })
        let clients = try HubClients(port: hub.port)
        redis.pause()
        let eager = clients.open()
        eager.send(#"{"type":"hello","room":"busy","role":"driver"}"#)
        let patient = clients.open()
        patient.send(#"{"type":"hello","room":"busy","role":"follower"}"#)
        for zoom in 0..<64 { eager.send(#"{"type":"set","camera":{"zoom":\#(zoom % 20)}}"#) }
        #expect(eager.waitForClose() != nil, "closed 1013 (which this libwebsockets client reports as 1002)")
        #expect((try? hub.health()["redis"]?["heldTooMuch"]?.numberValue) == 1)
        redis.resume()
        #expect(patient.next("welcome") != nil, "the others waiting for the room join it")
        #expect(waitUntil { (try? hub.health()["clients"]?.numberValue) == 1 }, "and the closed connection never joins")
    }
}
