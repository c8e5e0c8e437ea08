import HubCluster
import Testing

@testable import HubServer

/// A hub with several loops is several members of its cluster: what it says
/// of them adds up to one hub.
extension HubServerTests {
    @Suite struct ClusterMembers {
        @Test func theLinkLoggedIsTheWorstOfTheLoopsSoAnOutageIsOneLine() {
            let links = ClusterLinks(loops: 2)
            #expect(links.set(.up, loop: 0) == nil, "loop 1 is still connecting")
            #expect(links.set(.up, loop: 1) == .up, "linked once every loop is")
            #expect(links.set(.down, loop: 0) == .down, "the first link lost is the outage")
            #expect(links.set(.down, loop: 1) == nil, "the second is the same outage")
            #expect(links.set(.connecting, loop: 0) == nil, "retrying while another loop is down")
            #expect(links.set(.up, loop: 0) == nil)
            #expect(links.set(.up, loop: 1) == .up, "back once the last loop is")
        }

        static func member(_ id: String, _ link: RedisLinkState, reason: String? = nil, published: UInt64) -> ClusterFigures {
            ClusterFigures(
                hubIDs: [id], link: link, reason: reason, published: published, forwarded: 1, leaseRenewals: 2, remoteClients: 3,
                unanswered: 0, undecodable: 1, fencedRefusals: 2, preparing: 1, preparationsGivenUp: 3, heldTooMuch: 4, commandsInFlight: 4,
                framesShed: 0, inboxDepth: 5, inboxShed: 6)
        }

        @Test func healthAddsTheMembersUpWithTheWorstLinkAndEveryId() {
            let sum = Self.member("k3x9qa", .up, published: 10) + Self.member("k3x9qa1", .down, reason: "connection refused", published: 5)
            #expect(sum.hubIDs == ["k3x9qa", "k3x9qa1"])
            #expect(sum.link == .down && sum.reason == "connection refused", "degraded when any loop cannot reach Redis")
            #expect(sum.published == 15 && sum.remoteClients == 6 && sum.commandsInFlight == 8 && sum.inboxShed == 12)
            #expect(sum.fencedRefusals == 4 && sum.preparing == 2 && sum.preparationsGivenUp == 6 && sum.heldTooMuch == 8)
            let without: ClusterFigures? = nil
            #expect((without + without) == nil, "no Redis, no figures")
            #expect((without + sum)?.hubIDs.count == 2)
        }
    }
}
