import ArgumentParser
import CamHubProtocol
import Foundation
import HubCore

struct Token: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a signed room token (a JWT, HS256) for a hub started with --token-secret-file.",
        discussion: """
            The token carries the room (or * for every room), the highest role it grants,
            its expiry (now + --ttl) and optionally a display name and a start time. Hand
            it to a client, which sends it as hello.token (the viewer: ?token=…; the
            command line: --token). The secret is read from --secret-file, else from the
            CAMHUB_TOKEN_SECRET environment variable; it must be the hub's, and at least
            32 bytes (make one with `openssl rand -base64 48 > secret`).

            Examples:
              camhub token --secret-file secret --room demo --role presenter --ttl 2h --name ana
              camhub token --secret-file secret --room '*' --role follower --ttl 30d
              camhub token --secret-file secret --room demo --role driver --ttl 1h --jti t-17
              camhub serve --token-secret-file secret   # then: ?room=demo&token=$(camhub token …)
            """
    )

    @Option(help: ArgumentHelp("File holding the hub's token secret (default: $CAMHUB_TOKEN_SECRET).", valueName: "file"))
    var secretFile: String?

    @Option(help: "Room the token is for, or * for every room.")
    var room: String

    @Option(help: "Highest role it grants: presenter, driver or follower.")
    var role: String

    @Option(help: ArgumentHelp("How long it is valid: seconds, or a number with s, m, h or d (90s, 30m, 2h, 7d).", valueName: "duration"))
    var ttl: String

    @Option(help: ArgumentHelp("Valid only from this long after now (same units as --ttl; default: at once).", valueName: "duration"))
    var notBefore: String?

    @Option(help: "Display name the hub gives the client (overrides hello.name).")
    var name: String?

    @Option(help: ArgumentHelp("The token's id (jti), which the hub's --revoked-file may list to revoke it.", valueName: "id"))
    var jti: String?

    func validate() throws {
        if let jti, jti.isEmpty { throw ValidationError("--jti must not be empty") }
        if room != "*" {
            do { _ = try RoomName(validating: room) } catch { throw ValidationError("--\(error.field): \(error.message)") }
        }
        guard Role(rawValue: role) != nil else { throw ValidationError("--role must be presenter, driver or follower (got \(role))") }
        guard let seconds = Self.seconds(ttl), seconds > 0 else {
            throw ValidationError("--ttl must be a positive duration such as 90s, 30m, 2h or 7d (got \(ttl))")
        }
        if let notBefore {
            guard let start = Self.seconds(notBefore), start >= 0 else {
                throw ValidationError("--not-before must be a duration ≥ 0 such as 10m (got \(notBefore))")
            }
            guard start < seconds else { throw ValidationError("--not-before must be shorter than --ttl (the token would never be valid)") }
        }
        if let name {
            guard !name.isEmpty, name.unicodeScalars.count <= HubProtocol.maxNameLength,
                name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
            else {
                throw ValidationError("--name must be 1–\(HubProtocol.maxNameLength) characters without control characters")
            }
        }
    }

    func run() throws {
        let secret: TokenSecret
        do {
            guard let loaded = try loadTokenSecret(file: secretFile) else {
                throw ValidationError("no secret: pass --secret-file FILE or set CAMHUB_TOKEN_SECRET")
            }
            secret = loaded
        } catch let error as ValidationError { throw error } catch { throw ValidationError("\(error)") }
        let now = Date().timeIntervalSince1970.rounded(.down)
        let claims = RoomTokenClaims(
            room: room, role: Role(rawValue: role)!, exp: now + Self.seconds(ttl)!,
            nbf: notBefore.map { now + Self.seconds($0)! }, name: name, jti: jti)
        writeStdout(RoomToken.sign(claims, secret: secret) + "\n")
    }

    /// "90" → 90, "90s" → 90, "30m" → 1800, "2h" → 7200, "7d" → 604800; nil when unreadable.
    static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var number = Substring(text)
        var factor = 1.0
        if let last = text.last, let unit = units[last] {
            number = text.dropLast()
            factor = unit
        }
        guard let value = Double(number), value.isFinite else { return nil }
        return value * factor
    }
}

/// Why a token secret could not be read.
struct SecretError: Error, CustomStringConvertible {
    var description: String
}

/// The token secret from `file`, else from `CAMHUB_TOKEN_SECRET`; nil when neither is given.
func loadTokenSecret(file: String?) throws -> TokenSecret? {
    let text: String
    let source: String
    if let file {
        guard let data = FileManager.default.contents(atPath: file) else { throw SecretError(description: "cannot read the token secret file \(file)") }
        text = String(decoding: data, as: UTF8.self)
        source = file
    } else if let value = ProcessInfo.processInfo.environment["CAMHUB_TOKEN_SECRET"], !value.isEmpty {
        text = value
        source = "CAMHUB_TOKEN_SECRET"
    } else {
        return nil
    }
    do { return try TokenSecret(text: text) } catch { throw SecretError(description: "\(source): \(error)") }
}
