import CamHubProtocol

/// A joined client's signed token, which its session lasts as long as: when
/// it expires (seconds since 1970, the hub's wall clock), its id, and whether
/// the client was told that it expires soon.
struct TokenLease: Hashable, Sendable {
    var exp: Double
    var jti: String?
    var warned = false

    /// When the hub acts on it next: the warning (`Hub.tokenWarning` s before `exp`), then the close.
    var due: Double { warned ? exp : exp - Hub.tokenWarning }
}

/// Tokens that live as long as sessions do: a signed token's `exp` holds for
/// the whole session, not only at `hello`. The client is told
/// (`tokenExpiring`) a minute ahead, may send `refresh` with a new token, and
/// is closed with 4001 when its token runs out; a revoked token (`jti` in
/// `--revoked-file`) closes its clients with 4003.
extension Hub {
    /// Seconds before `exp` at which a client gets `tokenExpiring`.
    public static let tokenWarning = 60.0

    /// After a join with a signed token: the session now lasts while the token holds.
    mutating func holdToken(exp: Double, jti: String?, for connection: ConnectionKey) {
        let lease = TokenLease(exp: exp, jti: jti)
        tokenLeases[connection] = lease
        tokenDue = min(tokenDue, lease.due)
    }

    /// Warns the clients whose token expires within `tokenWarning` s and
    /// closes those whose token expired. Costs nothing until the earliest
    /// token falls due (`tokenDue`).
    mutating func checkTokens(at time: HubTime, sink: some HubSink) {
        let now = time.epochMilliseconds / 1000
        guard now >= tokenDue else { return }
        var next = Double.infinity
        for (connection, lease) in tokenLeases {
            guard sessions[connection] != nil else {
                tokenLeases[connection] = nil
                continue
            }
            if now >= lease.exp {
                closeSession(connection, code: .tokenExpired, reason: "token expired", at: time, sink: sink)
                continue
            }
            var lease = lease
            if now >= lease.due {
                lease.warned = true
                tokenLeases[connection] = lease
                sink.send(HubMessage.tokenExpiring(exp: lease.exp), to: connection)
            }
            next = min(next, lease.due)
        }
        tokenDue = next
    }

    /// `refresh`: `token` replaces the session's. It must be signed with this
    /// hub's secret, valid now, for the client's room, grant at least the
    /// client's role (a refresh never changes the role) and not be revoked;
    /// otherwise `error` code `token`, and the session keeps its old token.
    mutating func refreshToken(_ token: String, role: Role, room: RoomName, from connection: ConnectionKey, at time: HubTime, sink: some HubSink)
        throws(ProtocolError)
    {
        guard let secret = tokenPolicy.secret else {
            throw ProtocolError(.token, "token: this hub takes no signed tokens (it has no token secret)", ref: "refresh")
        }
        let claims: RoomTokenClaims
        do {
            claims = try tokenPolicy.verify(token, for: room, role: role, secret: secret, now: time.epochMilliseconds / 1000)
        } catch {
            throw ProtocolError(.token, "token: \(error)", ref: "refresh")
        }
        holdToken(exp: claims.exp, jti: claims.jti, for: connection)
        sink.send(HubMessage.tokenRefreshed(exp: claims.exp), to: connection)
    }

    /// The revoked token ids are now `ids` (`--revoked-file`, read again on
    /// SIGHUP): later hellos and refreshes with them are refused, and the
    /// clients that joined with one are closed with 4003. Returns how many.
    @discardableResult
    public mutating func revokeTokens(_ ids: Set<String>, at time: HubTime, sink: some HubSink) -> Int {
        tokenPolicy.revoked = ids
        var closed = 0
        for (connection, lease) in tokenLeases {
            guard let jti = lease.jti, ids.contains(jti) else { continue }
            closeSession(connection, code: .tokenRevoked, reason: "token revoked", at: time, sink: sink)
            closed += 1
        }
        return closed
    }
}
