import CamHubProtocol
import NIOCore
import NIOWebSocket
import WSClient

/// One WebSocket of a room, from connect to close: the hello when it opens,
/// every message to `received`, a ping every `pingPeriod`, and a deadline for
/// the welcome (`joinTimeout`): a socket not welcomed by then is given up.
extension Room {
    /// Why a socket ended whose HTTP upgrade the server refused.
    static let upgradeRefusal = "the server refused the WebSocket upgrade (not a hub's /hub endpoint?)"

    /// How often a WebSocket ping goes to the hub; one unanswered for as long ends the socket.
    static let pingPeriod = Duration.seconds(10)

    /// One socket, from connect to close; returns how it ended (1006 when no
    /// close frame came, or when no welcome came within `joinTimeout`).
    func connectOnce() async -> ConnectionClose {
        welcomed = false
        refusal = nil
        overdue = nil
        generation += 1
        let current = generation
        let timeout = joinTimeout
        return await withCheckedContinuation { continuation in
            attemptEnd = continuation
            let socket = Task { self.attemptEnded(current, await self.socket(current)) }
            Task {
                try? await Task.sleep(for: .seconds(timeout))
                await self.giveUpUnlessWelcomed(current, socket)
            }
        }
    }

    /// Socket `number` ended: the attempt waiting for it goes on (a socket given up already is not waited for).
    func attemptEnded(_ number: Int, _ close: ConnectionClose) {
        guard number == generation, let attemptEnd else { return }
        self.attemptEnd = nil
        attemptEnd.resume(returning: overdue ?? close)
    }

    /// The welcome is overdue: an open socket is closed; one still in its
    /// handshake (which swift-websocket cannot abandon) is left to end on its
    /// own, ignored from now on, and the attempt ends at once.
    private func giveUpUnlessWelcomed(_ number: Int, _ socket: Task<Void, Never>) async {
        guard number == generation, !welcomed, !stopped else { return }
        overdue = ConnectionClose(code: CloseCode.dropped, reason: "no welcome within \(joinTimeout) s")
        if let outbound {
            try? await outbound.close(.policyViolation, reason: "no welcome")
        } else {
            socket.cancel()
            generation += 1
            attemptEnd?.resume(returning: overdue!)
            attemptEnd = nil
        }
    }

    /// The socket itself: connect, hello, every message until it closes; how it ended (1006 when no close frame came).
    private func socket(_ number: Int) async -> ConnectionClose {
        var configuration = WebSocketClientConfiguration()
        configuration.additionalHeaders[.secWebSocketProtocol] = HubProtocol.subprotocol
        // A socket whose ping is not answered within a period is closed (a half-open TCP connection).
        configuration.autoPing = .enabled(timePeriod: Self.pingPeriod)
        let url = HubProtocol.naming(room: hello.room.value, in: self.url)
        do {
            let frame = try await WebSocketClient.connect(
                url: url, configuration: configuration, tlsConfiguration: tls.configuration, logger: logger
            ) { inbound, outbound, _ in
                guard await self.attached(outbound, number) else { return }
                for try await message in inbound.messages(maxSize: Self.largestMessage) {
                    guard await self.received(message, from: number) else { return }
                }
            }
            guard let frame else { return ConnectionClose(code: CloseCode.dropped, reason: "no close frame") }
            return ConnectionClose(code: Int(UInt16(webSocketErrorCode: frame.closeCode)), reason: frame.reason ?? "")
        } catch let error as WebSocketClientError where error == .webSocketUpgradeFailed {
            return ConnectionClose(code: CloseCode.dropped, reason: Self.upgradeRefusal)
        } catch {
            return ConnectionClose(code: CloseCode.dropped, reason: "\(error)")
        }
    }

    /// Socket `number` opened: say hello (false when the room was closed or the socket given up meanwhile).
    private func attached(_ writer: WebSocketOutboundWriter, _ number: Int) async -> Bool {
        guard !stopped, number == generation else { return false }
        outbound = writer
        do {
            try await writer.writeTextMessage(String(decoding: ClientMessage.hello(hello).encoded, as: UTF8.self))
            return true
        } catch {
            return false
        }
    }

}
