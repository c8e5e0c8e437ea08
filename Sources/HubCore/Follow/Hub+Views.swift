import CamHubProtocol
import CameraCore

/// The audience's view: what exploring members look at (`looking`), told to
/// presenters and drivers (`views`). Runs on the hub the explorer is on, like
/// `follow`; followers never get it (they may not subscribe to `views`).
extension Hub {
    /// How fast one member's `looking` may come: clients send at most
    /// `HubProtocol.lookingPerSecond`; one more a second and a burst of 3 is
    /// slack for timer jitter.
    static let lookingPolicy = CommandRateLimiter.Policy(rate: HubProtocol.lookingPerSecond + 1, burst: 3)

    /// `looking`: the sender's own camera (clamped to the room's limits) seen in
    /// its viewport becomes what it looks at. Only an exploring sender may say
    /// so (`conflict` otherwise); a counted (unlisted) follower's is not kept. O(1).
    mutating func look(
        _ update: CameraUpdate, session: Session, in name: RoomName, at time: HubTime, sink: some HubSink
    ) throws(ProtocolError) {
        guard let member = session.member, let client = session.client else { return }
        let (state, listed, limits) = rooms.read(existing: name) { ($0.members[Int(member)].follow, $0.roster.entry(for: client) != nil, $0.limits) }
        guard state == .exploring else {
            throw ProtocolError(
                .conflict, "looking: only an exploring client says what it looks at (this one is \(state.name): send follow exploring first)",
                ref: "looking")
        }
        guard listed else { return }
        let camera: Camera
        do { camera = try Camera.world.applying(update, limits: limits).camera } catch {
            throw ProtocolError(.badMessage, "camera.\(error.field): \(error.message)", ref: "looking")
        }
        let viewport = session.viewport
        let verdict = rooms.update(existing: name) { $0.noteLook(of: client, camera: camera, viewport: viewport, at: time.seconds, policy: Self.lookingPolicy) }
        switch verdict {
        case .accept: break
        case .drop: sink.note(.rateLimited)
        case .dropAndReport:
            sink.note(.rateLimited)
            throw ProtocolError(
                .rateLimited, "looking: more than \(Int(HubProtocol.lookingPerSecond)) a second; excess dropped", ref: "looking")
        }
    }

    /// `client` follows again, went away or left: its view goes from the next `views`.
    mutating func dropLook(of client: String, in name: RoomName) {
        if rooms.update(name, { $0.dropLook(of: client) }) == true { wake(name) }
    }

    /// Sends the room's `views` when one is due (at most one per `viewsInterval`),
    /// to the members subscribed to it: presenters and drivers.
    mutating func sendDueViews(in name: RoomName, at time: HubTime, sink: some HubSink) {
        let interval = configuration.viewsInterval
        guard let views = rooms.update(name, { $0.dueViews(at: time.seconds, interval: interval) }) ?? nil else { return }
        broadcast(.views(views), in: name, at: time, sink: sink)
    }
}
