import CamHubKit
import CamHubProtocol
import CameraCore
import Foundation
import Testing

/// Signed tokens that live as long as the session: `getToken` is asked for a
/// new one when the hub warns (`tokenExpiring`), and the session goes on past
/// the first token's expiry.
@Suite("CamHubKit tokens", .serialized)
struct TokenTests {
    static let secret = "a loopback test secret, 32 bytes or more"

    /// A hub with a token secret, and a way to sign tokens for it (`camhub token`).
    static func securedHub(revoked: URL? = nil) throws -> (LocalHub, URL) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("camhub-kit-secret-\(UUID().uuidString)")
        try secret.write(to: file, atomically: true, encoding: .utf8)
        let revocation = revoked.map { ["--revoked-file", $0.path] } ?? []
        return (try LocalHub(["--token-secret-file", file.path] + revocation), file)
    }

    static func token(secretFile: URL, ttl: String, jti: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = LocalHub.binary
        process.arguments =
            ["token", "--secret-file", secretFile.path, "--room", "kit", "--role", "driver", "--ttl", ttl] + (jti.map { ["--jti", $0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A JWT's `exp` claim (seconds since 1970).
    static func expiry(of token: String) -> Double? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let data = Data(base64Encoded: payload),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return (claims["exp"] as? NSNumber)?.doubleValue
    }

    @Test func getTokenRefreshesTheSessionBeforeItsTokenRunsOut() async throws {
        let (hub, secretFile) = try Self.securedHub()
        defer { hub.stop() }
        let fresh = try Self.token(secretFile: secretFile, ttl: "1h")
        // Long enough that a loaded machine still joins and refreshes in time (the hub warns at
        // once: less than a minute left), short enough to see the session outlive it.
        let shortLived = try Self.token(secretFile: secretFile, ttl: "8s")
        let firstExpiry = try #require(Self.expiry(of: shortLived))
        let room = try await CamHub.connect(url: hub.url, room: "kit", role: .driver, token: shortLived, getToken: { fresh })
        // warned at once (less than a minute left), refreshed on its own
        let refreshed = await first(room.changes, within: 10) { if case .tokenRefreshed = $0 { true } else { false } }
        guard case .tokenRefreshed(let exp)? = refreshed else {
            Issue.record("no refresh: \(String(describing: refreshed))")
            return
        }
        #expect(Date().timeIntervalSince1970 < firstExpiry, "refreshed before the first token ran out")
        #expect(exp > firstExpiry + 3000, "the new token's expiry")
        // past the first token's expiry (the hub would close 4001 at it): the session goes on
        try await Task.sleep(for: .seconds(max(0, firstExpiry + 0.3 - Date().timeIntervalSince1970)))
        try await room.set(CameraUpdate(zoom: 6))
        let (reconnects, connected) = (await room.reconnects, await room.isConnected)
        #expect(reconnects == 0 && connected, "the same session, not a new one")
        await room.close()
    }

    @Test func aTokenTheHubDoesNotTakeIsRefusedWithItsErrorAndTheOldOneStays() async throws {
        let (hub, secretFile) = try Self.securedHub()
        defer { hub.stop() }
        let room = try await CamHub.connect(
            url: hub.url, room: "kit", role: .driver, token: try Self.token(secretFile: secretFile, ttl: "1h"))
        do {
            try await room.refresh(token: "not.a.token")
            Issue.record("the hub took a malformed token")
        } catch {
            #expect(error.code == .token, "\(error)")
        }
        let connected = await room.isConnected
        #expect(connected)
        await room.close()
    }

    @Test func aRevokedSessionWithGetTokenJoinsAgainWithANewToken() async throws {
        let revoked = FileManager.default.temporaryDirectory.appendingPathComponent("camhub-kit-revoked-\(UUID().uuidString)")
        try "".write(to: revoked, atomically: true, encoding: .utf8)
        let (hub, secretFile) = try Self.securedHub(revoked: revoked)
        defer { hub.stop() }
        let room = try await CamHub.connect(
            url: hub.url, room: "kit", role: .driver, token: try Self.token(secretFile: secretFile, ttl: "1h", jti: "t-1"),
            getToken: { try TokenTests.token(secretFile: secretFile, ttl: "1h", jti: "t-2") })
        try "t-1\n".write(to: revoked, atomically: true, encoding: .utf8)
        kill(hub.process.processIdentifier, SIGHUP)
        let lost = await first(room.changes, within: 10) { $0.isReconnecting }
        guard case .connection(.reconnecting(_, let close))? = lost else {
            Issue.record("the revocation did not end the session: \(String(describing: lost))")
            return
        }
        #expect(close.code == 4003, "\(close)")
        let welcomed = await first(room.changes, within: 10) { if case .welcomed = $0 { true } else { false } }
        #expect(welcomed != nil, "joined again with the new token")
        let reconnects = await room.reconnects
        #expect(reconnects == 1)
        try await room.set(CameraUpdate(zoom: 7))
        await room.close()
    }
}
