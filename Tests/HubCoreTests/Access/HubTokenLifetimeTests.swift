import Testing

@testable import CamHubProtocol
@testable import HubCore

@Suite("Hub: a signed token holds for the whole session")
struct HubTokenLifetimeTests {
    func wall(_ bench: HubBench) -> Double { bench.time.epochMilliseconds / 1000 }

    func token(_ bench: HubBench, in seconds: Double, role: Role = .driver, room: String = "demo", jti: String? = nil) -> String {
        RoomToken.sign(RoomTokenClaims(room: room, role: role, exp: wall(bench) + seconds, jti: jti), secret: testSecret)
    }

    func securedBench() -> HubBench { HubBench { $0.tokens = TokenPolicy(secret: testSecret) } }

    @Test func aClientIsToldAMinuteBeforeItsTokenExpiresAndClosedWith4001WhenItDoes() {
        let bench = securedBench()
        let driver = bench.join(role: "driver", token: token(bench, in: 90)).key
        bench.run(seconds: 29)
        #expect(bench.messages(driver, type: "tokenExpiring").isEmpty, "not yet: 61 s left")
        bench.run(seconds: 2)
        let warnings = bench.messages(driver, type: "tokenExpiring")
        #expect(warnings.count == 1)
        #expect(warnings.first?["exp"]?.numberValue == wall(bench) - 31 + 90)
        bench.run(seconds: 58)
        #expect(!bench.isClosed(driver) && bench.messages(driver, type: "tokenExpiring").count == 1, "told once")
        bench.run(seconds: 2)
        #expect(bench.closes(driver).map(\.code) == [4001])
        #expect(bench.closes(driver).first?.reason == "token expired")
    }

    @Test func aRefreshWithANewTokenKeepsTheSessionOpenPastTheFirstOnesExpiry() {
        let bench = securedBench()
        let driver = bench.join(role: "driver", token: token(bench, in: 30)).key
        bench.run(seconds: 1)
        let fresh = token(bench, in: 120)
        bench.send(#"{"type":"refresh","token":"\#(fresh)"}"#, from: driver)
        #expect(bench.messages(driver, type: "tokenRefreshed").last?["exp"]?.numberValue == wall(bench) + 120)
        bench.run(seconds: 60)
        #expect(!bench.isClosed(driver), "the first token expired 30 s ago")
        bench.send(#"{"type":"set","camera":{"zoom":4}}"#, from: driver)
        #expect(bench.room()?.camera.zoom == 4, "and the client still drives")
    }

    @Test func aRefreshForAnotherRoomOrALowerRoleIsRefusedWithCodeTokenAndTheOldTokenStays() {
        let bench = securedBench()
        let driver = bench.join(role: "driver", token: token(bench, in: 30)).key
        for (bad, why) in [
            (token(bench, in: 120, room: "other"), "token: for room 'other', not 'demo'"),
            (token(bench, in: 120, role: .follower), "token: grants follower at most, not driver"),
            (token(bench, in: -1), "token: expired at "),
            ("not-a-token", "token: malformed signed token"),
        ] {
            bench.send(#"{"type":"refresh","token":"\#(bad)"}"#, from: driver)
            #expect(bench.lastError(driver)?["code"]?.stringValue == "token")
            #expect(bench.lastError(driver)?["ref"]?.stringValue == "refresh")
            #expect(bench.lastError(driver)?["message"]?.stringValue?.hasPrefix(why) == true, "\(why)")
        }
        #expect(!bench.isClosed(driver) && bench.answersPing(driver), "the connection stays usable")
        bench.run(seconds: 31)
        #expect(bench.closes(driver).map(\.code) == [4001], "the old token still ends the session")
    }

    @Test func revokingATokensIDClosesItsClientsWith4003AndRefusesItFromThenOn() {
        let bench = securedBench()
        let revoked = token(bench, in: 600, jti: "t-1")
        let kept = bench.join(role: "driver", token: token(bench, in: 600, jti: "t-2")).key
        let first = bench.join(role: "driver", token: revoked).key
        let second = bench.join(role: "follower", token: revoked).key
        let closed = bench.hub.revokeTokens(["t-1"], at: bench.time, sink: bench.sink)
        #expect(closed == 2)
        #expect(bench.closes(first).map(\.code) == [4003] && bench.closes(second).map(\.code) == [4003])
        #expect(bench.closes(first).first?.reason == "token revoked")
        #expect(!bench.isClosed(kept))
        let again = bench.join(role: "driver", token: revoked)
        #expect(again.client == nil)
        #expect(bench.lastError(again.key)?["message"]?.stringValue == "token: revoked (jti 't-1')")
        bench.send(#"{"type":"refresh","token":"\#(revoked)"}"#, from: kept)
        #expect(bench.lastError(kept)?["code"]?.stringValue == "token")
    }

    @Test func aClientWithAStaticTokenHasNoExpiry() {
        let bench = HubBench { $0.tokens = TokenPolicy(roleTokens: RoleTokens(presenter: "p"), secret: testSecret) }
        let presenter = bench.join(role: "presenter", token: "p").key
        bench.run(seconds: 3600)
        #expect(!bench.isClosed(presenter) && bench.messages(presenter, type: "tokenExpiring").isEmpty)
    }
}
