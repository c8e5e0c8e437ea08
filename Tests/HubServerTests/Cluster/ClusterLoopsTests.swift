import Foundation
import HubCore
import SocketTestSupport
import Testing

/// A cluster whose hubs each run two event loops (`--redis` with `--loops 2`):
/// clients of one hub sit on both of its loops, and the owner's answers to a
/// mirror's driver cross both Redis and a loop hand-over.
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
}
