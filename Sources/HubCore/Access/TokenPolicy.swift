import CamHubProtocol

/// Who may join as what: the static `--presenter-token`/`--driver-token`
/// (`RoleTokens`) and, with a secret (`--token-secret-file`), signed room
/// tokens (`RoomToken`).
///
/// Without a secret the static tokens rule alone, as before. With a secret
/// every role needs a credential — a signed token for the room and a role at
/// least as high, or a matching static token — except followers when
/// `publicFollow` is set. A token with the shape of a JWT is always checked
/// as one when a secret is set (a bad one is refused even where no token is
/// needed), so a client never silently joins with less than it was given.
public struct TokenPolicy: Sendable {
    public var roleTokens: RoleTokens
    public var secret: TokenSecret?
    /// With a secret: followers may join without a token.
    public var publicFollow: Bool
    /// Signed tokens' ids (`jti`) that are refused (`--revoked-file`).
    public var revoked: Set<String> = []

    public init(roleTokens: RoleTokens = RoleTokens(), secret: TokenSecret? = nil, publicFollow: Bool = false) {
        self.roleTokens = roleTokens
        self.secret = secret
        self.publicFollow = publicFollow
    }

    /// What a successful check grants besides the role.
    public struct Grant: Hashable, Sendable {
        /// The signed token's `name` claim: the display name to use instead of `hello.name`.
        public var name: String?
        /// A signed token's expiry and id: the session lasts while it holds (`Hub.checkTokens`).
        public var exp: Double?
        public var jti: String?
    }

    /// Checks `hello`'s token at `now` (seconds since 1970, the hub's wall
    /// clock). Throws `forbidden` (then close 1008) with a message that says
    /// which check failed: `token: expired at …`, `token: for room 'x', not 'y'`, ….
    public func authorize(_ hello: Hello, now: Double) throws(ProtocolError) -> Grant {
        guard let secret else {
            try roleTokens.authorize(role: hello.role, token: hello.token)
            return Grant()
        }
        if let token = hello.token, RoomToken.looksSigned(token) {
            do {
                let claims = try verify(token, for: hello.room, role: hello.role, secret: secret, now: now)
                return Grant(name: claims.name, exp: claims.exp, jti: claims.jti)
            } catch {
                throw Self.forbidden("token: \(error)")
            }
        }
        if hello.role == .follower && publicFollow { return Grant() }
        if let token = hello.token, roleTokens.accepts(token, for: hello.role) { return Grant() }
        throw Self.forbidden("token: \(hello.token == nil ? "missing" : "wrong") token for role \(hello.role) (this hub needs a signed room token)")
    }

    /// A signed `token`'s claims if it is valid at `now`, covers `room`, grants
    /// `role` or higher and is not revoked.
    public func verify(_ token: String, for room: RoomName, role: Role, secret: TokenSecret, now: Double) throws(RoomTokenError)
        -> RoomTokenClaims
    {
        let claims = try RoomToken.verify(token, secret: secret, now: now)
        guard claims.covers(room) else { throw .wrongRoom(token: claims.room, hello: room.value) }
        guard claims.role.rank >= role.rank else { throw .roleNotGranted(granted: claims.role, asked: role) }
        if let jti = claims.jti, revoked.contains(jti) { throw .revoked(jti: jti) }
        return claims
    }

    static func forbidden(_ message: String) -> ProtocolError {
        ProtocolError(.forbidden, message, ref: "hello", close: .policyViolation)
    }
}

extension RoleTokens {
    /// True when `token` is a static token that grants `role` (the presenter
    /// token grants every role, the driver token driver and follower).
    func accepts(_ token: String, for role: Role) -> Bool {
        let accepted: [String?] =
            switch role {
            case .presenter: [presenter]
            case .driver, .follower: [driver, presenter]
            }
        var ok = false
        for case let expected? in accepted where Self.constantTimeEqual(token, expected) { ok = true }
        return ok
    }
}

extension Hello {
    /// A display name the hub accepts: 1–64 characters, no control characters.
    static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.unicodeScalars.count <= HubProtocol.maxNameLength else { return false }
        return name.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
    }
}
