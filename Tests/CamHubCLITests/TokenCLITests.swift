import CamHubProtocol
import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing

/// `camhub token` and `camhub serve --token-secret-file`, as a user runs them.
@Suite(.serialized, .timeLimit(.minutes(1)), SocketSuiteLock())
struct TokenCLITests {
    static let secretText = "q3Lr8nKf0Vt2xYb6Wc1Zp9Dm4Hs7Je5Ga0Ru2Tk8Nv3Qy6Bx1Fw4Cz7Lo9Ei5\n"

    @Test func tokenPrintsAJWTTheHubsSecretVerifies() throws {
        let dir = try TempDir()
        try dir.write("secret", Self.secretText)
        let before = Date().timeIntervalSince1970
        let result = try camhub([
            "token", "--secret-file", dir.path + "/secret", "--room", "demo", "--role", "presenter",
            "--ttl", "2h", "--name", "ana",
        ])
        let after = Date().timeIntervalSince1970
        #expect(result.status == 0, "\(result.stderr)")
        let token = result.stdout.trimmingCharacters(in: .newlines)
        let claims = try RoomToken.verify(token, secret: try TokenSecret(text: Self.secretText), now: before)
        #expect(claims.room == "demo" && claims.role == .presenter && claims.name == "ana" && claims.nbf == nil)
        // Two hours from when it ran, however long starting it took (a second either way for whole seconds).
        #expect(claims.exp >= before + 7200 - 1 && claims.exp <= after + 7200 + 1, "\(claims.exp - before)")
        // The same secret from the environment signs tokens the hub accepts just the same.
        let started = Date().timeIntervalSince1970
        let fromEnv = try Subprocess.run(
            camhubPath, ["token", "--room", "*", "--role", "follower", "--ttl", "90s", "--not-before", "30s"],
            timeout: .seconds(10), environment: ["CAMHUB_TOKEN_SECRET": Self.secretText])
        let ended = Date().timeIntervalSince1970
        #expect(fromEnv.status == 0, "\(fromEnv.stderr)")
        let later = try RoomToken.verify(
            fromEnv.stdout.trimmingCharacters(in: .newlines),
            secret: try TokenSecret(text: Self.secretText), now: ended + 31)  // past its not-before, before its expiry
        #expect(later.room == "*" && later.role == .follower)
        #expect(later.nbf! >= started + 30 - 1 && later.nbf! <= ended + 30 + 1, "\(later.nbf! - started)")
    }

    @Test func tokenRefusesBadArgumentsAndShortSecrets() throws {
        let dir = try TempDir()
        try dir.write("short", "too short\n")
        let short = try camhub(["token", "--secret-file", dir.path + "/short", "--room", "demo", "--role", "driver", "--ttl", "1h"])
        #expect(short.status == 64)
        #expect(short.stderr.contains("the token secret has 9 bytes; it needs at least 32"), "\(short.stderr)")
        let role = try camhub(["token", "--secret-file", dir.path + "/short", "--room", "demo", "--role", "admin", "--ttl", "1h"])
        #expect(role.stderr.contains("--role must be presenter, driver or follower (got admin)"))
        let ttl = try camhub(["token", "--secret-file", dir.path + "/short", "--room", "demo", "--role", "driver", "--ttl", "soon"])
        #expect(ttl.stderr.contains("--ttl must be a positive duration"))
    }

    @Test func serveWithAShortSecretSaysSoAndExits1() throws {
        let dir = try TempDir()
        try dir.write("short", "abc")
        let result = try camhub(["serve", "--port", "0", "--web", dir.path, "--token-secret-file", dir.path + "/short"])
        #expect(result.status == 1)
        #expect(result.stderr == "camhub: \(dir.path)/short: the token secret has 3 bytes; it needs at least 32 (e.g. `openssl rand -base64 48`)\n")
    }

    @Test func followWithASignedTokenJoinsAndWithoutOneIsRefused() throws {
        var configuration = HubServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.hub.tokens = TokenPolicy(secret: try TokenSecret(text: Self.secretText))
        let server = try HubServer(configuration: configuration)
        let port = try server.start()
        defer { server.shutdown() }
        let url = "ws://127.0.0.1:\(port)/hub"
        let refused = try camhub(["follow", "--url", url, "--room", "demo", "--duration", "0.5"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "camhub follow: the hub refused --token: token: missing token for role follower (this hub needs a signed room token)\n")
        let token = try Subprocess.run(
            camhubPath, ["token", "--room", "demo", "--role", "follower", "--ttl", "1m", "--name", "wall"],
            timeout: .seconds(10), environment: ["CAMHUB_TOKEN_SECRET": Self.secretText])
        let joined = try camhub([
            "follow", "--url", url, "--room", "demo", "--format", "json", "--duration", "0.5",
            "--token", token.stdout.trimmingCharacters(in: .newlines),
        ])
        #expect(joined.status == 0, "\(joined.stderr)")
        let welcome = try JSONParser.parse(String(joined.stdout.split(separator: "\n").first ?? ""))
        #expect(welcome["type"]?.stringValue == "welcome")
        let me = welcome["roster"]?.arrayValue?.first { $0["client"] == welcome["client"] }
        #expect(me?["name"]?.stringValue == "wall", "the token's name claim is the display name")
    }
}
