import CamHubProtocol

/// Tokens that live as long as sessions: with `getToken`, a new token is
/// fetched when the hub says the session's expires soon (`tokenExpiring`, a
/// minute before) and sent with `refresh`; after a close for an expired or
/// revoked token (4001, 4003) the room joins again with a new one.
extension Room {
    /// Replaces the session's token now; returns its expiry (seconds since
    /// 1970). A token the hub does not take throws its error (code `token`);
    /// the old token stays. Later reconnections join with the new one.
    @discardableResult
    public func refresh(token: String) async throws(CamHubError) -> Double {
        let answer = try await ask(.refresh(token: token)) { reply in
            switch reply {
            case .tokenRefreshed: true
            case .error(let error): error.ref == "refresh"
            default: false
            }
        }
        guard case .tokenRefreshed(let exp) = answer else { throw Self.failure(answer) }
        hello.token = token
        tokenExpiry = exp
        changeSink.yield(.tokenRefreshed(exp: exp))
        return exp
    }

    /// A new token from `getToken`.
    func fetchToken() async throws(CamHubError) -> String {
        guard let getToken else { throw CamHubError(.tokenSource, "no getToken was given") }
        let token: String
        do { token = try await getToken() } catch { throw CamHubError(.tokenSource, "\(error)") }
        guard !token.isEmpty else { throw CamHubError(.tokenSource, "it gave an empty token") }
        return token
    }

    /// After `tokenExpiring`: a new token, sent with `refresh` (a failure comes in `changes`).
    func refreshSoon() {
        guard getToken != nil else { return }
        Task {
            do throws(CamHubError) {
                let token = try await fetchToken()
                try await refresh(token: token)
            } catch {
                changeSink.yield(.tokenRefreshFailed(error))
            }
        }
    }
}
