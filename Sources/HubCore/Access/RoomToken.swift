import CamHubProtocol
import Crypto
import Foundation

/// The claims of a signed room token (a JWT, RFC 7519, signed with HS256).
///
/// `room` is a room name or `*` (every room); `role` the highest role the
/// token grants; `exp` (required) and `nbf` (optional) are NumericDates,
/// seconds since 1970 on the hub's wall clock; `name`, when present, is the
/// display name the hub uses instead of `hello.name`; `jti`, when present,
/// the token's id, which `--revoked-file` may list.
public struct RoomTokenClaims: Hashable, Sendable {
    /// A room name, or `*` for any room.
    public var room: String
    public var role: Role
    /// Expiry (seconds since 1970): the token is accepted while the hub clock is before it.
    public var exp: Double
    /// Not before (seconds since 1970): the token is accepted from this instant on.
    public var nbf: Double?
    public var name: String?
    /// The token's id (JWT `jti`): a revoked id is refused, and its clients closed (4003).
    public var jti: String?

    public init(room: String, role: Role, exp: Double, nbf: Double? = nil, name: String? = nil, jti: String? = nil) {
        self.room = room
        self.role = role
        self.exp = exp
        self.nbf = nbf
        self.name = name
        self.jti = jti
    }

    /// True when the token is for `room` (or for every room).
    public func covers(_ room: RoomName) -> Bool { self.room == "*" || self.room == room.value }
}

/// Why a room token was refused. `description` is the text after `token: `
/// in the hub's `forbidden` error.
public enum RoomTokenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not three base64url parts, or a header or payload that is not the expected JSON.
    case malformed(String)
    /// The header names another algorithm than HS256 (`none` included).
    case unsupportedAlgorithm(String)
    /// The signature does not match: another secret, or an altered header or payload.
    case badSignature
    /// The hub clock is at or after `exp`.
    case expired(exp: Double, now: Double)
    /// The hub clock is before `nbf`.
    case notYetValid(nbf: Double, now: Double)
    /// The token is for another room.
    case wrongRoom(token: String, hello: String)
    /// The token grants a lower role than `hello.role`.
    case roleNotGranted(granted: Role, asked: Role)
    /// The token's `jti` is listed as revoked.
    case revoked(jti: String)

    public var description: String {
        switch self {
        case .malformed(let why): "malformed signed token (\(why))"
        case .unsupportedAlgorithm(let alg): "signed with '\(alg)'; this hub accepts HS256 only"
        case .badSignature: "wrong signature (not signed with this hub's secret, or altered)"
        case .expired(let exp, let now): "expired at \(RoomToken.utc(exp)) (hub clock \(RoomToken.utc(now)))"
        case .notYetValid(let nbf, let now): "not valid before \(RoomToken.utc(nbf)) (hub clock \(RoomToken.utc(now)))"
        case .wrongRoom(let token, let hello): "for room '\(token)', not '\(hello)'"
        case .roleNotGranted(let granted, let asked): "grants \(granted) at most, not \(asked)"
        case .revoked(let jti): "revoked (jti '\(jti)')"
        }
    }
}

/// The key room tokens are signed with (HMAC-SHA256). At least 32 bytes, as
/// RFC 7518 §3.2 asks of an HS256 key.
public struct TokenSecret: Sendable {
    public static let minimumBytes = 32
    let key: SymmetricKey

    public init(_ bytes: [UInt8]) throws(TokenSecretError) {
        guard bytes.count >= Self.minimumBytes else { throw TokenSecretError(count: bytes.count) }
        key = SymmetricKey(data: bytes)
    }

    /// The text of a secret file or variable: surrounding whitespace (a final newline) is not part of it.
    public init(text: String) throws(TokenSecretError) {
        try self.init(Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8))
    }
}

public struct TokenSecretError: Error, Hashable, Sendable, CustomStringConvertible {
    public var count: Int
    public var description: String {
        "the token secret has \(count) bytes; it needs at least \(TokenSecret.minimumBytes) (e.g. `openssl rand -base64 48`)"
    }
}

/// Signs and verifies room tokens: compact JWS with `{"alg":"HS256","typ":"JWT"}`.
/// The HMAC is swift-crypto's; its verification compares in constant time.
public enum RoomToken {
    static let header = #"{"alg":"HS256","typ":"JWT"}"#

    /// A signed token carrying `claims`.
    public static func sign(_ claims: RoomTokenClaims, secret: TokenSecret) -> String {
        var w = JSONWriter(capacity: 160)
        w.raw("{\"room\":")
        w.string(claims.room)
        w.raw(",\"role\":")
        w.string(claims.role.rawValue)
        w.raw(",\"exp\":")
        w.number(claims.exp)
        if let nbf = claims.nbf {
            w.raw(",\"nbf\":")
            w.number(nbf)
        }
        if let name = claims.name {
            w.raw(",\"name\":")
            w.string(name)
        }
        if let jti = claims.jti {
            w.raw(",\"jti\":")
            w.string(jti)
        }
        w.raw("}")
        return signRaw(Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(w.bytes), secret: secret)
    }

    /// `signingInput` (base64url header "." base64url payload) with its HS256 signature appended.
    static func signRaw(_ signingInput: String, secret: TokenSecret) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: secret.key)
        return signingInput + "." + Base64URL.encode(Array(mac))
    }

    /// True when `token` has the shape of a compact JWS (three dot-separated
    /// parts), so that it is checked as a signed token rather than compared
    /// with the static role tokens.
    public static func looksSigned(_ token: String) -> Bool {
        token.utf8.lazy.filter { $0 == UInt8(ascii: ".") }.count == 2
    }

    /// The claims of `token` if it is signed with `secret`, well formed and
    /// valid at `now` (seconds since 1970, the hub's wall clock). Checks, in
    /// this order: shape, algorithm, signature, claims, `exp`, `nbf`.
    public static func verify(_ token: String, secret: TokenSecret, now: Double) throws(RoomTokenError) -> RoomTokenClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("not three dot-separated parts") }
        guard let headerBytes = Base64URL.decode(parts[0]) else { throw .malformed("header is not base64url") }
        guard case .object(let header)? = try? JSONParser.parse(headerBytes) else { throw .malformed("header is not a JSON object") }
        guard case .string(let alg)? = header["alg"] else { throw .malformed("header has no alg") }
        guard alg == "HS256" else { throw .unsupportedAlgorithm(alg) }
        if header["crit"] != nil { throw .malformed("header has crit extensions this hub does not know") }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("signature is not base64url") }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: secret.key) else {
            throw .badSignature
        }
        guard let payloadBytes = Base64URL.decode(parts[1]) else { throw .malformed("payload is not base64url") }
        guard case .object(let payload)? = try? JSONParser.parse(payloadBytes) else { throw .malformed("payload is not a JSON object") }
        let claims = try claims(of: payload)
        guard now < claims.exp else { throw .expired(exp: claims.exp, now: now) }
        if let nbf = claims.nbf, now < nbf { throw .notYetValid(nbf: nbf, now: now) }
        return claims
    }

    static func claims(of payload: [String: JSONValue]) throws(RoomTokenError) -> RoomTokenClaims {
        guard case .string(let room)? = payload["room"] else { throw .malformed("no room claim (a string)") }
        if room != "*" {
            do { _ = try RoomName(validating: room) } catch { throw .malformed("room claim: \(error.message)") }
        }
        guard case .string(let roleName)? = payload["role"] else { throw .malformed("no role claim (a string)") }
        guard let role = Role(rawValue: roleName) else { throw .malformed("role claim '\(roleName)' is not presenter, driver or follower") }
        guard case .number(let exp)? = payload["exp"], exp.isFinite else { throw .malformed("no exp claim (a number of seconds since 1970)") }
        var nbf: Double?
        switch payload["nbf"] {
        case nil: break
        case .number(let value)? where value.isFinite: nbf = value
        default: throw .malformed("nbf claim is not a number of seconds since 1970")
        }
        var name: String?
        switch payload["name"] {
        case nil: break
        case .string(let value)?:
            guard Hello.isValidName(value) else {
                throw .malformed("name claim must be 1–\(HubProtocol.maxNameLength) characters without control characters")
            }
            name = value
        default: throw .malformed("name claim is not a string")
        }
        var jti: String?
        switch payload["jti"] {
        case nil: break
        case .string(let value)? where !value.isEmpty: jti = value
        default: throw .malformed("jti claim is not a non-empty string")
        }
        return RoomTokenClaims(room: room, role: role, exp: exp, nbf: nbf, name: name, jti: jti)
    }

    /// `2026-11-23T20:00:00Z` (whole seconds, UTC), for error messages.
    static func utc(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return "\(seconds)" }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    }
}

/// Base64url without padding (RFC 4648 §5), as JWS uses it.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let n = b0 << 16 | b1 << 8 | b2
            let chars = min(4, (bytes.count - i) + 1)
            for k in 0..<chars { out.append(alphabet[Int(n >> UInt32(18 - 6 * k) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// nil when `text` has a character outside the alphabet, padding, an
    /// impossible length, or non-zero bits after the last byte (one text per value).
    static func decode(_ text: Substring) -> [UInt8]? {
        var values: [UInt32] = []
        values.reserveCapacity(text.utf8.count)
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(UInt32(c - UInt8(ascii: "A")))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(UInt32(c - UInt8(ascii: "a")) + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(UInt32(c - UInt8(ascii: "0")) + 52)
            case UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "_"): values.append(63)
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i < values.count {
            let chunk = values[i..<min(i + 4, values.count)]
            var n: UInt32 = 0
            for (k, v) in chunk.enumerated() { n |= v << UInt32(18 - 6 * k) }
            let produced = chunk.count - 1
            // Canonical only: the bits past the last whole byte must be zero.
            let leftover = (UInt32(1) << UInt32(24 - 8 * produced)) - 1
            guard produced == 3 || n & leftover == 0 else { return nil }
            for k in 0..<produced { out.append(UInt8(truncatingIfNeeded: n >> UInt32(16 - 8 * k))) }
            i += 4
        }
        return out
    }
}
