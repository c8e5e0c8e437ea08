import Foundation
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// A 48-byte secret, as `openssl rand -base64 48` would give.
let testSecret = try! TokenSecret(text: "b1Jq0x6QvWcVqkQ8a8Yy4nHc3mW0pQ2rT7uV9wXzA1bC3dE5fG7hJ9kL1mN3pQ5r\n")
let otherSecret = try! TokenSecret(text: String(repeating: "x", count: 32))
/// The hub's wall clock in these tests: 2023-11-14T22:13:20Z.
let wallNow = 1_700_000_000.0

func signed(
    room: String = "demo", role: Role = .presenter, exp: Double = wallNow + 3600, nbf: Double? = nil,
    name: String? = nil, secret: TokenSecret = testSecret
) -> String {
    RoomToken.sign(RoomTokenClaims(room: room, role: role, exp: exp, nbf: nbf, name: name), secret: secret)
}

/// Replaces one part of a compact token (0 header, 1 payload, 2 signature).
func replacingPart(_ token: String, _ index: Int, with text: String) -> String {
    var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    parts[index] = text
    return parts.joined(separator: ".")
}

@Suite("Signed room tokens (JWT HS256)")
struct RoomTokenTests {
    @Test("a signed token verifies to its claims")
    func roundTrip() throws {
        let claims = RoomTokenClaims(room: "demo", role: .driver, exp: wallNow + 60, nbf: wallNow - 5, name: "Ana \"the\" driver", jti: "t-42")
        let token = RoomToken.sign(claims, secret: testSecret)
        #expect(RoomToken.looksSigned(token))
        #expect(try RoomToken.verify(token, secret: testSecret, now: wallNow) == claims)
        let header = Base64URL.decode(token.split(separator: ".")[0]).map { String(decoding: $0, as: UTF8.self) }
        #expect(header == #"{"alg":"HS256","typ":"JWT"}"#)
    }

    @Test("RFC 7515 A.1: the specification's HS256 example verifies with its key (its claims are not a room token's)")
    func rfc7515Example() throws {
        let key = Base64URL.decode("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow")!
        let secret = try TokenSecret(key)
        let token =
            "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        #expect(throws: RoomTokenError.malformed("no room claim (a string)")) { try RoomToken.verify(token, secret: secret, now: 0) }
        let altered = token.replacingOccurrences(of: "B92K", with: "B93K")
        #expect(throws: RoomTokenError.badSignature) { try RoomToken.verify(altered, secret: secret, now: 0) }
        // The last character carries two unused bits: another text for the same bytes is refused, not accepted.
        let nonCanonical = String(token.dropLast()) + "l"
        #expect(throws: RoomTokenError.malformed("signature is not base64url")) { try RoomToken.verify(nonCanonical, secret: secret, now: 0) }
    }

    @Test("base64url: RFC 4648 vectors without padding; padding and foreign characters are refused")
    func base64url() {
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(Substring(encoded)) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("Zg==") == nil)
        #expect(Base64URL.decode("Zm+v") == nil)
        #expect(Base64URL.decode("Z") == nil)
        #expect(Base64URL.decode("Zh") == nil, "Zg and Zh would both be 'f'")
    }

    @Test("each failure says which check failed")
    func failures() {
        #expect(throws: RoomTokenError.expired(exp: wallNow, now: wallNow)) {
            try RoomToken.verify(signed(exp: wallNow), secret: testSecret, now: wallNow)
        }
        #expect(throws: RoomTokenError.notYetValid(nbf: wallNow + 10, now: wallNow)) {
            try RoomToken.verify(signed(nbf: wallNow + 10), secret: testSecret, now: wallNow)
        }
        #expect(throws: RoomTokenError.badSignature) { try RoomToken.verify(signed(secret: otherSecret), secret: testSecret, now: wallNow) }
        // A payload swapped in from another token (a different room) under the first token's signature.
        let forged = replacingPart(signed(room: "demo"), 1, with: String(signed(room: "other").split(separator: ".")[1]))
        #expect(throws: RoomTokenError.badSignature) { try RoomToken.verify(forged, secret: testSecret, now: wallNow) }
        // alg none (an unsigned token) and other algorithms are refused before the signature.
        let none = replacingPart(signed(), 0, with: Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)))
        #expect(throws: RoomTokenError.unsupportedAlgorithm("none")) {
            try RoomToken.verify(replacingPart(none, 2, with: ""), secret: testSecret, now: wallNow)
        }
        let rs = replacingPart(signed(), 0, with: Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8)))
        #expect(throws: RoomTokenError.unsupportedAlgorithm("RS256")) { try RoomToken.verify(rs, secret: testSecret, now: wallNow) }
        #expect(throws: RoomTokenError.malformed("not three dot-separated parts")) { try RoomToken.verify("a.b", secret: testSecret, now: wallNow) }
        #expect(throws: RoomTokenError.malformed("header is not base64url")) { try RoomToken.verify("a*.b.c", secret: testSecret, now: wallNow) }
    }

    @Test("claims are checked: exp required, room a room name or *, role known, name valid")
    func claimRules() {
        func token(_ payload: String) -> String {
            let input = Base64URL.encode(Array(RoomToken.header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
            // Signed with the right secret, so only the claims are wrong.
            return RoomToken.signRaw(input, secret: testSecret)
        }
        let cases: [(String, String)] = [
            (#"{"room":"demo","role":"driver"}"#, "no exp claim (a number of seconds since 1970)"),
            (#"{"room":"demo","role":"driver","exp":"soon"}"#, "no exp claim (a number of seconds since 1970)"),
            (#"{"room":"no spaces","role":"driver","exp":2e9}"#, "room claim: may only contain A-Z, a-z, 0-9, '_' and '-'"),
            (#"{"room":"demo","role":"admin","exp":2e9}"#, "role claim 'admin' is not presenter, driver or follower"),
            (#"{"room":"demo","role":"driver","exp":2e9,"nbf":true}"#, "nbf claim is not a number of seconds since 1970"),
            (#"{"room":"demo","role":"driver","exp":2e9,"name":""}"#, "name claim must be 1–64 characters without control characters"),
            (#"{"role":"driver","exp":2e9}"#, "no room claim (a string)"),
        ]
        for (payload, why) in cases {
            #expect(throws: RoomTokenError.malformed(why), "\(payload)") { try RoomToken.verify(token(payload), secret: testSecret, now: wallNow) }
        }
        #expect((try? RoomToken.verify(token(#"{"room":"*","role":"follower","exp":2e9}"#), secret: testSecret, now: wallNow))?.room == "*")
    }

    @Test("a secret needs at least 32 bytes; surrounding whitespace is not part of it")
    func secretLength() {
        #expect(throws: TokenSecretError(count: 31)) { try TokenSecret(text: String(repeating: "s", count: 31) + "\n") }
        #expect(throws: Never.self) { try TokenSecret(text: "  " + String(repeating: "s", count: 32) + "\n") }
        // The same secret written with and without a final newline signs the same way.
        let a = try! TokenSecret(text: String(repeating: "s", count: 40))
        let b = try! TokenSecret(text: String(repeating: "s", count: 40) + "\n")
        #expect(signed(secret: a) == signed(secret: b))
    }
}

@Suite("Token policy: static tokens and signed room tokens")
struct TokenPolicyTests {
    func hello(_ role: Role, room: String = "demo", name: String? = nil, token: String? = nil) -> Hello {
        Hello(room: try! RoomName(validating: room), role: role, name: name, token: token)
    }

    func refusal(_ policy: TokenPolicy, _ hello: Hello) -> String? {
        do {
            _ = try policy.authorize(hello, now: wallNow)
            return nil
        } catch {
            #expect(error.code == .forbidden && error.close == .policyViolation && error.ref == "hello")
            return error.message
        }
    }

    @Test("without a secret the static tokens rule as before")
    func staticOnly() {
        let policy = TokenPolicy(roleTokens: RoleTokens(presenter: "p-secret"))
        #expect(refusal(policy, hello(.presenter, token: "p-secret")) == nil)
        #expect(refusal(policy, hello(.presenter)) == "token: missing token for role presenter")
        #expect(refusal(policy, hello(.driver)) == nil)
        #expect(refusal(policy, hello(.follower)) == nil)
        // A signed-looking token means nothing to a hub without a secret.
        #expect(refusal(policy, hello(.presenter, token: signed())) == "token: wrong token for role presenter")
    }

    @Test("with a secret: a signed token for the room and a high enough role joins; each failure is named")
    func signedTokens() {
        let policy = TokenPolicy(secret: testSecret)
        #expect(refusal(policy, hello(.presenter, token: signed())) == nil)
        #expect(refusal(policy, hello(.driver, token: signed(role: .presenter))) == nil, "a role grants the ones below it")
        #expect(refusal(policy, hello(.follower, room: "elsewhere", token: signed(room: "*", role: .follower))) == nil)
        #expect(refusal(policy, hello(.presenter, token: signed(role: .driver))) == "token: grants driver at most, not presenter")
        #expect(refusal(policy, hello(.driver, room: "other", token: signed())) == "token: for room 'demo', not 'other'")
        #expect(
            refusal(policy, hello(.driver, token: signed(exp: wallNow - 1)))
                == "token: expired at 2023-11-14T22:13:19Z (hub clock 2023-11-14T22:13:20Z)")
        #expect(
            refusal(policy, hello(.driver, token: signed(nbf: wallNow + 60)))
                == "token: not valid before 2023-11-14T22:14:20Z (hub clock 2023-11-14T22:13:20Z)")
        #expect(
            refusal(policy, hello(.driver, token: signed(secret: otherSecret)))
                == "token: wrong signature (not signed with this hub's secret, or altered)")
        #expect(refusal(policy, hello(.driver)) == "token: missing token for role driver (this hub needs a signed room token)")
        #expect(refusal(policy, hello(.follower)) == "token: missing token for role follower (this hub needs a signed room token)")
        #expect(refusal(policy, hello(.driver, token: "guess")) == "token: wrong token for role driver (this hub needs a signed room token)")
    }

    @Test("the name claim becomes the display name")
    func nameClaim() throws {
        let policy = TokenPolicy(secret: testSecret)
        #expect(try policy.authorize(hello(.driver, name: "mallory", token: signed(name: "Ana")), now: wallNow).name == "Ana")
        #expect(try policy.authorize(hello(.driver, name: "bob", token: signed()), now: wallNow).name == nil)
    }

    @Test("--public-follow: followers need no token, but a bad signed token is still refused")
    func publicFollow() {
        let policy = TokenPolicy(secret: testSecret, publicFollow: true)
        #expect(refusal(policy, hello(.follower)) == nil)
        #expect(refusal(policy, hello(.driver)) != nil)
        #expect(refusal(policy, hello(.follower, token: signed(exp: wallNow - 1)))?.hasPrefix("token: expired at") == true)
    }

    @Test("with a secret the static tokens keep working (and grant the roles below them)")
    func staticWithSecret() {
        let policy = TokenPolicy(roleTokens: RoleTokens(presenter: "p-secret", driver: "d-secret"), secret: testSecret)
        #expect(refusal(policy, hello(.presenter, token: "p-secret")) == nil)
        #expect(refusal(policy, hello(.driver, token: "p-secret")) == nil)
        #expect(refusal(policy, hello(.driver, token: "d-secret")) == nil)
        #expect(refusal(policy, hello(.follower, token: "d-secret")) == nil)
        #expect(refusal(policy, hello(.presenter, token: "d-secret")) != nil)
    }
}
