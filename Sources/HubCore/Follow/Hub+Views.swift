import CamHubProtocol
import CameraCore

/// The audience's view: where exploring members look (`looking`), told to
/// presenters and drivers (`viewports`). Runs on the hub the explorer is on,
/// like `follow`, which tells the other hubs with its presence; followers
/// never get it (they may not subscribe to `viewports`).
extension Hub {
    /// How fast one member's `looking` may come: clients send at most
    /// `HubProtocol.lookingPerSecond`; one more a second and a burst of 3 is
    /// slack for timer jitter.
    static let lookingPolicy = CommandRateLimiter.Policy(rate: HubProtocol.lookingPerSecond + 1, burst: 3)

    /// `looking`: `region` becomes where the sender looks, or (nil) it stops
    /// sharing and its outline goes. Only an exploring sender may share one
    /// (`conflict` otherwise); a counted (unlisted) follower's is not kept. O(1).
    mutating func look(
        _ region: [GeoCoordinate]?, session: Session, in name: RoomName, at time: HubTime, sink: some HubSink
    ) throws(ProtocolError) {
        guard let member = session.member, let client = session.client else { return }
        guard let region else { return dropLook(of: client, in: name) }
        let (state, listed) = rooms.read(existing: name) { ($0.members[Int(member)].follow, $0.roster.entry(for: client) != nil) }
        guard state == .exploring else {
            throw ProtocolError(
                .conflict, "looking: only an exploring client shares its region (this one is \(state.name): send follow exploring first)",
                ref: "looking")
        }
        guard listed else { return }
        let verdict = rooms.update(existing: name) { $0.noteLook(of: client, region: region, at: time.seconds, policy: Self.lookingPolicy) }
        switch verdict {
        case .accept:
            if broker != nil { presenceChanged.insert(name) }  // the other hubs' presenters see it too
            wake(name)
        case .drop: sink.note(.rateLimited)
        case .dropAndReport:
            sink.note(.rateLimited)
            throw ProtocolError(.rateLimited, "looking: more than \(Int(HubProtocol.lookingPerSecond)) a second; excess dropped", ref: "looking")
        }
    }

    /// `client` stopped sharing, follows again, went away or left: its region goes from the next `viewports`.
    mutating func dropLook(of client: String, in name: RoomName) {
        guard rooms.update(name, { $0.dropLook(of: client) }) == true else { return }
        if broker != nil { presenceChanged.insert(name) }
        wake(name)
    }

    /// Sends the room's `viewports` when one is due (at most one per
    /// `viewportsInterval`, the newest regions), to the members subscribed to
    /// it: presenters and drivers.
    mutating func sendDueViewports(in name: RoomName, at time: HubTime, sink: some HubSink) {
        let interval = configuration.viewportsInterval
        guard let viewports = rooms.update(name, { $0.dueViewports(at: time.seconds, interval: interval) }) ?? nil else { return }
        broadcast(.viewports(viewports), in: name, at: time, sink: sink)
    }
}
