import CamHubProtocol
import Foundation
import HubCore
import HubServer
import Testing
import WebSocketTransport

extension HubServerTests {
    /// Signed room tokens against the real hub on a loopback port: each way a
    /// token can fail gets `error` `forbidden` naming the failure, then close
    /// 1008, and the presenter who joined first is not affected.
    @Suite struct TokenWire {
        static let secret = try! TokenSecret(text: "a loopback test secret, 32 bytes or more")
        static let otherSecret = try! TokenSecret(text: "another secret of at least thirty-two bytes")

        /// The hub's wall clock is the system's (seconds since 1970).
        static var now: Double { Date().timeIntervalSince1970 }

        static func token(
            room: String = "demo", role: Role = .presenter, exp: Double = now + 600,
            nbf: Double? = nil, secret: TokenSecret = secret
        ) -> String {
            RoomToken.sign(RoomTokenClaims(room: room, role: role, exp: exp, nbf: nbf), secret: secret)
        }

        /// Joins a presenter with a good token, then tries `role` with `token`:
        /// returns the refusal's message and close code.
        func refusal(role: String, token: String) throws -> (message: String?, close: CloseCode?) {
            let hub = try RunningHub { $0.hub.tokens = TokenPolicy(secret: Self.secret) }
            let clients = try HubClients(port: hub.port)
            let first = clients.join(role: "presenter", token: Self.token())
            try #require(first.client != nil, "a valid token joins")
            let refused = clients.open()
            refused.send(#"{"type":"hello","room":"demo","role":"\#(role)","token":"\#(token)"}"#)
            let error = refused.nextError("forbidden")
            let close = refused.waitForClose()?.code
            #expect(first.roundTrip(), "the presenter who joined first keeps its connection")
            return (error?["message"]?.stringValue, close)
        }

        @Test func anExpiredTokenIsForbiddenThenClosed1008() throws {
            let result = try refusal(role: "presenter", token: Self.token(exp: Self.now - 5))
            #expect(result.message?.hasPrefix("token: expired at ") == true, "\(result.message ?? "no error")")
            #expect(result.close == .policyViolation)
        }

        @Test func aTokenNotYetValidIsForbiddenThenClosed1008() throws {
            let result = try refusal(role: "presenter", token: Self.token(nbf: Self.now + 300))
            #expect(result.message?.hasPrefix("token: not valid before ") == true, "\(result.message ?? "no error")")
            #expect(result.close == .policyViolation)
        }

        @Test func aTokenSignedWithAnotherSecretIsForbiddenThenClosed1008() throws {
            let result = try refusal(role: "presenter", token: Self.token(secret: Self.otherSecret))
            #expect(result.message?.hasPrefix("token: wrong signature") == true, "\(result.message ?? "no error")")
            #expect(result.close == .policyViolation)
        }

        @Test func aTokenForAnotherRoomIsForbiddenThenClosed1008() throws {
            let result = try refusal(role: "presenter", token: Self.token(room: "other"))
            #expect(result.message == "token: for room 'other', not 'demo'")
            #expect(result.close == .policyViolation)
        }

        @Test func aTokenGrantingALowerRoleIsForbiddenThenClosed1008() throws {
            let result = try refusal(role: "driver", token: Self.token(role: .follower))
            #expect(result.message == "token: grants follower at most, not driver")
            #expect(result.close == .policyViolation)
        }
    }
}
