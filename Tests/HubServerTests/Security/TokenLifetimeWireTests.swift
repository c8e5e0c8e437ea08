import Foundation
import HubCore
import SocketTestSupport
import Testing

extension HubServerTests {
    /// Tokens that live as long as sessions, against a real `camhub serve`:
    /// expiry during a session, and revocation by `--revoked-file` on SIGHUP.
    @Suite struct TokenLifetimeWire {
        static let secret = "a loopback test secret, 32 bytes or more"

        func token(_ seconds: Double, jti: String? = nil) throws -> String {
            let claims = RoomTokenClaims(room: "demo", role: .driver, exp: Date().timeIntervalSince1970 + seconds, jti: jti)
            return RoomToken.sign(claims, secret: try TokenSecret(text: Self.secret))
        }

        func files() throws -> (directory: URL, secret: String, revoked: String) {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camhub-tokens-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let secret = directory.appendingPathComponent("secret").path
            let revoked = directory.appendingPathComponent("revoked").path
            try Self.secret.write(toFile: secret, atomically: true, encoding: .utf8)
            try "# revoked token ids\n".write(toFile: revoked, atomically: true, encoding: .utf8)
            return (directory, secret, revoked)
        }

        @Test func aClientWhoseTokenRunsOutIsWarnedThenClosedWith4001() throws {
            let (directory, secret, _) = try files()
            defer { try? FileManager.default.removeItem(at: directory) }
            let hub = try ServeProcess(camhubPath, ["--token-secret-file", secret])
            defer { _ = hub.stop() }
            let driver = try HubClients(port: hub.port).join(role: "driver", token: try token(3))
            #expect(driver.client != nil)
            #expect(driver.next("tokenExpiring")?["exp"]?.numberValue != nil, "less than a minute left: warned at once")
            #expect(driver.waitForClose()?.code?.rawValue == 4001)
        }

        @Test func listingATokensIDAndSendingSIGHUPClosesItsClientWith4003() throws {
            let (directory, secret, revoked) = try files()
            defer { try? FileManager.default.removeItem(at: directory) }
            let hub = try ServeProcess(camhubPath, ["--token-secret-file", secret, "--revoked-file", revoked])
            defer { _ = hub.stop() }
            let clients = try HubClients(port: hub.port)
            let doomed = clients.join(role: "driver", token: try token(600, jti: "t-9"))
            let kept = clients.join(role: "driver", token: try token(600, jti: "t-10"))
            #expect(doomed.client != nil && kept.client != nil)
            try "# revoked token ids\nt-9\n".write(toFile: revoked, atomically: true, encoding: .utf8)
            kill(hub.process.processIdentifier, SIGHUP)
            #expect(doomed.waitForClose()?.code?.rawValue == 4003)
            #expect(kept.roundTrip(), "a client with another token stays")
            let again = clients.open()
            again.send(#"{"type":"hello","room":"demo","role":"driver","token":"\#(try token(600, jti: "t-9"))"}"#)
            #expect(again.nextError("forbidden")?["message"]?.stringValue == "token: revoked (jti 't-9')")
        }
    }
}
