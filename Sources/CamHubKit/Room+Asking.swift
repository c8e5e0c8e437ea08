import CamHubProtocol
import WSClient

/// Questions to the hub and their answers: each expected reply is registered
/// (`Answers`) before its question is sent.
extension Room {
    func newID(_ prefix: String = "swift") -> String {
        nextID += 1
        return "\(prefix)\(nextID)"
    }

    /// Sends an animation command and waits for its end (or its refusal).
    func animation(_ message: ClientMessage, id: String) async throws(CamHubError) -> AnimationReport {
        let me = client
        let answer = try await ask(message) { reply in
            switch reply {
            case .animation(let report, _): report.id == id && report.status.isEnd && (report.owner ?? me) == me
            case .error(let error): error.ref == id
            default: false
            }
        }
        guard case .animation(let report, _) = answer else { throw Self.failure(answer) }
        return report
    }

    /// Sends `message` and then a `ping`: the hub answers a connection in
    /// order, so the pong says the message was handled (its error, if any, came first).
    func roundTrip(_ message: ClientMessage) async throws(CamHubError) {
        let ref = message.ref
        nextID += 1
        let t = Double(nextID)
        let refused = answers.expect { reply in if case .error(let error) = reply { error.ref == ref } else { false } }
        defer { answers.forget(refused) }
        _ = try await ask(message, then: .ping(t: t)) { reply in
            if case .pong(let echoed, _) = reply { echoed == t } else { false }
        }
        if let error = answers.take(refused) { throw Self.failure(error) }
    }

    /// Sends `message` (and `then`, if given) and returns the first reply `matches` accepts.
    func ask(
        _ message: ClientMessage, then next: ClientMessage? = nil, until matches: @escaping @Sendable (HubToClient) -> Bool
    ) async throws(CamHubError) -> HubToClient {
        let key = answers.expect(matches)
        do {
            try await send(message)
            if let next { try await send(next) }
            return try await withCheckedThrowingContinuation { answers.wait(key, $0) }
        } catch let error as CamHubError {
            answers.forget(key)
            throw error
        } catch {
            answers.forget(key)
            throw CamHubError(.connection, "\(error)")
        }
    }

    /// Waits for the reply registered as `key` (at once when it came already).
    func wait(for key: Int) async throws(CamHubError) -> HubToClient {
        do {
            return try await withCheckedThrowingContinuation { answers.wait(key, $0) }
        } catch {
            answers.forget(key)
            throw error as? CamHubError ?? CamHubError(.connection, "\(error)")
        }
    }

    /// Sends any protocol message as it is, without waiting for an answer (the
    /// JavaScript client's `send`); messages one task sends go out in order.
    /// What the hub answers comes in `messages` (and `events`, `frames`).
    /// Throws `.connection` while not joined: nothing is queued for a later socket.
    public func send(_ message: ClientMessage) async throws(CamHubError) {
        guard let outbound, isConnected else {
            throw CamHubError(.connection, "\(message.type): not joined now (\(connection))")
        }
        do {
            try await outbound.writeTextMessage(String(decoding: message.encoded, as: UTF8.self))
        } catch {
            throw CamHubError(.connection, "\(error)")
        }
    }

    static func failure(_ reply: HubToClient) -> CamHubError {
        if case .error(let error) = reply { return CamHubError(error) }
        return CamHubError(.protocolViolation, "unexpected \(reply.type)")
    }
}
