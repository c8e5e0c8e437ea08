import Testing

@testable import HubCore

@Suite("Hub: signed room tokens against the hub's wall clock")
struct HubTokenTests {
    /// The bench's wall clock: `HubBench.epochOffset` + its monotonic seconds.
    func wall(_ bench: HubBench) -> Double { bench.time.epochMilliseconds / 1000 }

    @Test func aSignedTokenJoinsWithItsNameAndAnExpiredOneIsForbiddenThenClosed() {
        let bench = HubBench { $0.tokens = TokenPolicy(secret: testSecret) }
        let token = RoomToken.sign(RoomTokenClaims(room: "demo", role: .presenter, exp: wall(bench) + 10, name: "Ana"), secret: testSecret)
        let ana = bench.join(role: "presenter", name: "someone", token: token)
        #expect(ana.client != nil)
        #expect(bench.welcome(ana.key)?["roster"]?.arrayValue?.first?["name"]?.stringValue == "Ana")
        let anaAgain = RoomToken.sign(RoomTokenClaims(room: "demo", role: .presenter, exp: wall(bench) + 100, name: "Ana"), secret: testSecret)
        bench.send(#"{"type":"refresh","token":"\#(anaAgain)"}"#, from: ana.key)
        // Ten seconds later on the hub's clock the first token has expired.
        bench.wait(10)
        let late = bench.join(role: "presenter", token: token)
        #expect(late.client == nil)
        #expect(bench.lastError(late.key)?["code"]?.stringValue == "forbidden")
        #expect(bench.lastError(late.key)?["message"]?.stringValue?.hasPrefix("token: expired at ") == true)
        #expect(bench.closes(late.key).map(\.code) == [1008])
        #expect(!bench.isClosed(ana.key), "nobody already joined is affected")
    }

    @Test func followersNeedATokenUnlessFollowingIsPublic() {
        let closed = HubBench { $0.tokens = TokenPolicy(secret: testSecret) }
        let refused = closed.join(role: "follower")
        #expect(closed.lastError(refused.key)?["message"]?.stringValue == "token: missing token for role follower (this hub needs a signed room token)")
        #expect(closed.closes(refused.key).map(\.code) == [1008])
        let open = HubBench { $0.tokens = TokenPolicy(secret: testSecret, publicFollow: true) }
        #expect(open.join(role: "follower").client != nil)
        #expect(open.lastError(open.join(role: "driver").key)?["code"]?.stringValue == "forbidden")
    }

    @Test func aWrongRoomTokenIsForbidden() {
        let bench = HubBench { $0.tokens = TokenPolicy(secret: testSecret) }
        let token = RoomToken.sign(RoomTokenClaims(room: "other", role: .presenter, exp: wall(bench) + 60), secret: testSecret)
        let key = bench.join(role: "driver", token: token).key
        #expect(bench.lastError(key)?["message"]?.stringValue == "token: for room 'other', not 'demo'")
        #expect(bench.closes(key).map(\.code) == [1008])
    }
}
