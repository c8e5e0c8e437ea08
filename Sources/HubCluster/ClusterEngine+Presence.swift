import CamHubProtocol
import HubCore

/// Presence: this hub's members announced when they change, the other hubs'
/// applied, and the members of silent hubs removed (see `PresenceBook`).
extension ClusterEngine {
    /// Seconds without hearing from a hub after which its members count as gone (it died).
    public var presenceSilence: Double {
        get { book.silence }
        set { book.silence = newValue }
    }

    /// Each room's local members, when they changed: on the room's channel,
    /// and in `{room}:presence` for hubs that start mirroring the room later.
    /// Rooms where nothing changed cost nothing (liveness is the heartbeat's).
    func announcePresence(hub: inout Hub) {
        guard link == .up else { return }  // kept for after the outage (`catchUp` announces every room)
        for room in hub.takePresenceChanges() {
            guard let presence = hub.localPresence(of: room), book.changes(room, to: presence) else { continue }
            let bytes = ClusterMessage.presence(hub: hubID, presence).encoded()
            let presenceKey = Array(key(room, "presence").utf8)
            if presence.isEmpty {
                redis.command(bytes: [Array("HDEL".utf8), presenceKey, Array(hubID.utf8)], token: token(.ignore))
            } else {
                redis.command(bytes: [Array("HSET".utf8), presenceKey, Array(hubID.utf8), bytes], token: token(.ignore))
                redis.command(bytes: [Array("PEXPIRE".utf8), presenceKey, Array("86400000".utf8)], token: token(.ignore))
            }
            redis.command(bytes: [Array("SPUBLISH".utf8), Array(key(room, "frames").utf8), bytes], token: token(.ignore))
        }
    }

    /// The presences in an `HGETALL {room}:presence` reply, but this hub's own.
    func presences(in reply: RedisReply) -> [(hub: String, HubPresence)] {
        guard case .array(let items) = reply else { return [] }
        return stride(from: 1, to: items.count, by: 2).compactMap { i in
            guard let bytes = items[i].bytes, case .presence(let other, let presence)? = ClusterMessage(decoding: bytes), other != hubID
            else { return nil }
            return (other, presence)
        }
    }

    /// Another hub's members of `room`, from its message or from Redis.
    func applyPresence(_ presence: HubPresence, of other: String, in room: RoomName, hub: inout Hub, at time: HubTime, sink: some HubSink) {
        book.heard(other, at: time.seconds)  // read from Redis: silent from now on means gone
        book.announced(by: other, in: room, empty: presence.isEmpty)
        hub.applyRemotePresence(presence, from: other, in: room, at: time, sink: sink)
    }

    /// Hubs silent for `presenceSilence` (they died): their members leave
    /// every room they were in (only those rooms are touched), their
    /// presence goes from Redis, and the clients whose commands ran here are
    /// forgotten (a hub may die before its first presence message).
    func forgetSilentHubs(hub: inout Hub, at time: HubTime, sink: some HubSink) {
        for (silent, rooms) in book.takeSilentHubs(at: time.seconds) {
            for room in rooms {
                for client in hub.dropRemotePresence(of: silent, in: room, at: time, sink: sink) { forgetRemote(client) }
                if link == .up { send(["HDEL", key(room, "presence"), silent], .ignore) }
            }
        }
        for remote in remoteClients.values where book.isSilent(remote.hub, at: time.seconds) {
            hub.remoteClientLeft(remote.client, in: remote.room, at: time, sink: sink)
            forgetRemote(remote.client)
        }
    }

    /// A client of another hub left (or its hub went silent): its key goes.
    func forgetRemote(_ client: String) {
        if let key = remoteKeys.removeValue(forKey: client) { remoteClients[key] = nil }
    }

    /// Clients of other hubs this engine keeps a connection key for (their commands ran here).
    public var remoteClientCount: Int { remoteKeys.count }
}
