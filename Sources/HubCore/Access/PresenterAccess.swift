/// Which rooms a credential opens as a presenter, outside a WebSocket: the
/// hub's recordings (`GET /recordings`) are as revealing as presenting, so
/// they take the same credential as `hello` with role presenter.
///
/// - A hub without a presenter token and without a secret: every room
///   (as anyone may join as a presenter there).
/// - The static presenter token: every room.
/// - With a secret, a signed room token whose role is presenter: its room
///   (`*`: every room), from `nbf` until `exp`.
public enum PresenterScope: Hashable, Sendable {
    case everyRoom
    case room(String)

    public func covers(_ room: String) -> Bool {
        switch self {
        case .everyRoom: true
        case .room(let only): only == room
        }
    }
}

/// Why a credential was refused: `missing` (HTTP 401) or `refused` (HTTP 403), with the reason.
public enum PresenterAccessError: Error, Hashable, Sendable, CustomStringConvertible {
    case missing(String)
    case refused(String)

    public var description: String {
        switch self {
        case .missing(let why), .refused(let why): why
        }
    }
}

extension TokenPolicy {
    /// True when some credential is needed to act as a presenter.
    public var presenterNeedsToken: Bool { secret != nil || roleTokens.presenter != nil }

    /// The rooms `token` opens as a presenter at `now` (seconds since 1970,
    /// the hub's wall clock); throws which check failed.
    public func presenterScope(token: String?, now: Double) throws(PresenterAccessError) -> PresenterScope {
        guard presenterNeedsToken else { return .everyRoom }
        guard let token, !token.isEmpty else {
            throw .missing("this hub needs the presenter token or a signed room token for role presenter")
        }
        if let secret, RoomToken.looksSigned(token) {
            let claims: RoomTokenClaims
            do { claims = try RoomToken.verify(token, secret: secret, now: now) } catch { throw .refused("token: \(error)") }
            guard claims.role == .presenter else { throw .refused("token: \(RoomTokenError.roleNotGranted(granted: claims.role, asked: .presenter))") }
            return claims.room == "*" ? .everyRoom : .room(claims.room)
        }
        if roleTokens.accepts(token, for: .presenter) { return .everyRoom }
        throw .refused("token: wrong token for role presenter")
    }
}
