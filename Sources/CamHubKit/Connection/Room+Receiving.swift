import CamHubProtocol
import WSClient

/// What the hub sends, applied to the room's state in order, then handed to
/// the streams and to the commands waiting for it.
extension Room {
    /// A message of socket `number`; false when that socket was given up (its messages are not the room's).
    func received(_ message: WebSocketMessage, from number: Int) -> Bool {
        guard number == generation else { return false }
        let arrived = ReceivedMessage.wallClock()
        let reply: HubToClient
        var text: String?
        do {
            switch message {
            case .text(let received):
                text = received
                reply = try HubToClient.decode(received)
            case .binary(let buffer): reply = try HubToClient.decode(binary: buffer.readableBytesView)
            }
        } catch {
            logger.warning("camhub: a message protocol v1 does not say: \(error)")
            return true
        }
        apply(reply)
        answers.deliver(reply)
        messageSink.yield(ReceivedMessage(message: reply, receivedAt: arrived, text: text))
        return true
    }

    private func apply(_ reply: HubToClient) {
        switch reply {
        case .welcome(let welcome, let time):
            joined(welcome, time: time)
        case .error(let error) where !welcomed && error.ref == "hello":
            refused(error)
        case .frame(let frame):
            camera = frame.camera
            seq = frame.seq
            playout.push(frame, receivedAt: DisplayClock.now())
            frameSink.yield(frame)
        case .event(let event, _):
            applyEvent(event)
            eventSink.yield(event)
        case .animation(let report, _):
            live.report(report, me: client)
        case .tokenExpiring(let exp):
            tokenExpiry = exp
            refreshSoon()
        case .tokenRefreshed(let exp):
            tokenExpiry = exp
        default:
            break
        }
    }

    private func applyEvent(_ event: HubEvent) {
        people.apply(event)
        switch event {
        case .limitsChanged(let newLimits, _): limits = newLimits
        case .storyStep(let e): story = (story ?? StorySummary(count: e.count, index: e.index)).stepped(e)
        case .storyChanged(let c): story = StorySummary.changed(c)
        case .viewports(let v): viewports = v
        case .presenterChanged(let current, _, let demoted, _):
            if current == client { role = .presenter } else if demoted == client { role = .driver }
        default: break
        }
    }
}
