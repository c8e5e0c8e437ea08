import CamHubProtocol
import Foundation
import NIOCore
import NIOWebSocket
import WSClient

/// The connection's life: one WebSocket at a time, the hello on each, the
/// welcome that opens it, and what happens when it ends: a drain (1001,
/// 1012) or a drop (1006) is retried with backoff and jitter, a token close
/// (4001, 4003) with a new token from `getToken`, a refusal ends the room.
/// Runs on the actor, in the task `open` starts (`supervisor`).
extension Room {
    /// Connects, says hello and returns once welcomed; throws the hub's refusal,
    /// or `.connection` when the first socket cannot be made (no retry then).
    func open() async throws(CamHubError) {
        do {
            try await withCheckedThrowingContinuation { continuation in
                firstJoin = continuation
                supervisor = Task { await self.run() }
            }
        } catch {
            throw error as? CamHubError ?? CamHubError(.connection, "\(error)")
        }
    }

    /// Connects again and again until the room is closed or cannot go on.
    private func run() async {
        while !stopped {
            let close = await connectOnce()
            outbound = nil
            answers.failAll(CamHubError(.closed(close), "the connection closed before the answer came"))
            if stopped { break }
            switch nextAttempt(after: close) {
            case .stop:
                return
            case .retry(let wait):
                if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }
            case .newToken(let why):
                do { hello.token = try await fetchToken() } catch {
                    finish(CamHubError(error.kind, "\(why.message); and no new token: \(error.message)", ref: why.ref))
                    return
                }
            }
        }
        finish(nil)
    }

    /// What comes after a socket ended.
    private enum Next {
        /// Connect again after this many seconds.
        case retry(after: Double)
        /// Fetch a new token (`getToken`), then connect again at once; the error is why.
        case newToken(CamHubError)
        /// The room ended (`finish` was called).
        case stop
    }

    /// What to do after a socket ended with `close`.
    private func nextAttempt(after close: ConnectionClose) -> Next {
        let wasWelcomed = welcomed
        if let refused = refusal ?? (!wasWelcomed && close.code == CloseCode.policy ? closedError(close, "the hub refused the hello") : nil) {
            return retryWithNewToken(refused) ? .newToken(refused) : end(refused)
        }
        if firstJoin != nil && !wasWelcomed {
            let kind: CamHubError.Kind = close.reason == Self.upgradeRefusal ? .upgradeRefused : .connection
            return end(CamHubError(kind, "could not connect to \(url): \(close.reason.isEmpty ? "\(close.code)" : close.reason)"))
        }
        if CloseCode.token.contains(close.code) {
            let error = closedError(close, "the hub ended the session: its token \(close.code == 4001 ? "expired" : "was revoked")")
            guard retryWithNewToken(error) else { return end(error) }
            changed(.reconnecting(attempt: attempt + 1, lastClose: close))
            return .newToken(error)
        }
        if CloseCode.final.contains(close.code) { return end(closedError(close, "the hub ended the session")) }
        guard let backoff else { return end(closedError(close, "the connection was lost")) }
        if wasWelcomed { lostBecause = close }
        let wait =
            wasWelcomed && CloseCode.draining.contains(close.code)
            ? backoff.drainWait(audience: welcome?.audience.clients ?? people.entries.count, random: .random(in: 0..<1))
            : backoff.delay(attempt: attempt, random: .random(in: 0..<1))
        if let most = backoff.attempts, attempt >= most {
            return end(closedError(lostBecause ?? close, "the connection was lost; gave up after \(most) attempts to join again"))
        }
        attempt += 1
        changed(.reconnecting(attempt: attempt, lastClose: lostBecause ?? close))
        changeSink.yield(.retrying(attempt: attempt, after: wait))
        return .retry(after: wait)
    }

    private func closedError(_ close: ConnectionClose, _ message: String) -> CamHubError {
        CamHubError(.closed(close), message)
    }

    /// A token problem with `getToken`: a new token is fetched (at most
    /// `maxTokenRetries` in a row) and the hello is sent with it next.
    private func retryWithNewToken(_ error: CamHubError) -> Bool {
        let tokenProblem = error.code == .token || error.message.hasPrefix("token") || error.closeCode.map(CloseCode.token.contains) == true
        guard tokenProblem, getToken != nil, tokenRetries < Self.maxTokenRetries else { return false }
        tokenRetries += 1
        return true
    }

    private func end(_ error: CamHubError) -> Next {
        finish(error)
        return .stop
    }

    /// The room is over: its state says why, its streams end, waiting commands fail.
    func finish(_ error: CamHubError?) {
        if case .closed = connection { return }
        stopped = true
        changed(.closed(error))
        answers.failAll(error ?? CamHubError(.connection, "the room was closed"))
        firstJoin?.resume(throwing: error ?? CamHubError(.connection, "the room was closed"))
        firstJoin = nil
        frameSink.finish()
        eventSink.finish()
        changeSink.finish()
        messageSink.finish()
    }

    func changed(_ state: ConnectionState) {
        connection = state
        changeSink.yield(.connection(state))
    }

    /// A welcome on the current socket: the room's state is the hub's again.
    func joined(_ welcome: Welcome, time welcomeTime: Double) {
        if self.welcome != nil, !welcomed { reconnects += 1 }
        welcomed = true
        self.welcome = welcome
        client = welcome.client
        role = welcome.role
        rate = welcome.rate
        tick = welcome.tick
        camera = welcome.camera
        limits = welcome.limits
        seq = welcome.seq
        story = welcome.story
        viewports = RoomViewports(clients: [], others: 0)
        people.welcome(welcome.roster)
        live.welcome(welcome.animations)
        playout.reset()
        playout.setRate(welcome.rate)
        playout.tick = welcome.tick
        playout.push(
            TimedCamera(seq: welcome.seq, time: welcomeTime, camera: welcome.camera, moving: false), receivedAt: DisplayClock.now())
        attempt = 0
        tokenRetries = 0
        lostBecause = nil
        changed(.open)
        changeSink.yield(.welcomed(client: welcome.client))
        firstJoin?.resume()
        firstJoin = nil
    }

    /// The hub refused this socket's hello: remember why and close the socket.
    func refused(_ error: ProtocolError) {
        refusal = CamHubError(error)
        let writer = outbound
        Task { try? await writer?.close(.policyViolation, reason: nil) }
    }
}
