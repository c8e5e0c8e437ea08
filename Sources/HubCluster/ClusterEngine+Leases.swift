import HubCore

/// Leases, fencing and catching up: what the engine does every renewal
/// interval (`tick`, from a loop timer on the hub's loop thread) and when a
/// lease answer comes back.
extension ClusterEngine {
    /// Every `renewInterval` on the loop thread: leases, presence, and
    /// forgetting the members of hubs not heard from for `presenceSilence` s.
    public func tick(hub: inout Hub, at time: HubTime, sink: some HubSink) {
        if catchUpAgain && link == .up {
            catchUpAgain = false
            catchUp(hub: &hub)
        }
        renewLeases(hub: &hub, at: time)
        if link == .up { publish(.heartbeat(hub: hubID), on: "hubs") }
        announcePresence(hub: &hub)
        forgetSilentHubs(hub: &hub, at: time, sink: sink)
        answerUnacknowledged(hub: hub, at: time, sink: sink)
    }

    /// Commands no owner acknowledged in time: their clients get `unavailable`.
    func answerUnacknowledged(hub: Hub, at time: HubTime, sink: some HubSink) {
        for entry in awaiting.expire(at: time.seconds) {
            unanswered += 1
            guard let connection = hub.connection(ofClient: entry.client) else { continue }
            sink.send(HubMessage.error(.unavailable(ref: entry.ref)), to: connection)
        }
    }

    /// Owner: renews each lease. Mirror with members here: tries to take the
    /// lease (it is free when the owner died or let go), and adopts the room.
    /// In script calls of at most `leaseBatch` rooms each.
    func renewLeases(hub: inout Hub, at time: HubTime) {
        guard link == .up else { return }
        let mirrorsClaim = time.seconds >= mirrorsClaimFrom
        var rooms: [(RoomName, epoch: UInt64)] = []
        for room in hub.roomNames where !leaseInFlight.contains(room) {
            guard let state = hub.leaseState(of: room), state.owned || (mirrorsClaim && state.hasMembers) else { continue }
            leaseInFlight.insert(room)
            rooms.append((room, state.epoch))
        }
        for start in stride(from: 0, to: rooms.count, by: Self.leaseBatch) {
            let batch = rooms[start..<min(start + Self.leaseBatch, rooms.count)]
            requestLeases(batch, as: .leases(batch.map(\.0), sentAt: time.seconds))
        }
    }

    /// Rooms per lease script call: one call renews them all (a Redis round
    /// trip per room each renewal interval would cost idle rooms a core share).
    static let leaseBatch = 500

    /// `rooms`: each with the newest epoch this hub knows for it.
    func requestLeases(_ rooms: ArraySlice<(RoomName, epoch: UInt64)>, as purpose: Pending) {
        var args = ["EVAL", LeaseScripts.lease, "\(2 * rooms.count)"]
        args.reserveCapacity(5 + 3 * rooms.count)
        for (room, _) in rooms { args += [key(room, "owner"), key(room, "epoch")] }
        args += [hubID, "\(leaseMilliseconds)"]
        for (_, epoch) in rooms { args.append("\(epoch)") }
        send(args, purpose)
    }

    func leaseAnswer(_ reply: RedisReply, sentAt: Double) -> LeaseAnswer {
        guard case .integer(let value) = reply else { return .unknown }
        guard value > 0 else { return .theirs(epoch: UInt64(-value)) }
        let seconds = Double(leaseMilliseconds) / 1000
        return .ours(ClusterLease(epoch: UInt64(value), until: sentAt + seconds * (1 - Self.leaseMargin)))
    }

    func leaseAnswered(_ room: RoomName, _ answer: LeaseAnswer, hub: inout Hub, at time: HubTime, sink: some HubSink) {
        guard let state = hub.leaseState(of: room) else { return }
        switch answer {
        case .ours(let lease): hub.leaseHeld(room, lease, at: time, sink: sink)
        case .theirs(let epoch):
            let wasOwner = state.owned
            hub.leaseLost(room, epoch: epoch)
            if wasOwner { readCheckpoint(room) }  // the new owner's frames so far may not have reached this hub
        case .unknown: break  // Redis down: an owner stays fenced once its lease has run out
        }
    }

    /// Mirrors read each room's checkpoint: frames published while this hub
    /// was cut off from Redis never reach it, and a room at rest publishes no other.
    /// Every room's presence is read again and this hub's announced again (messages may have been lost).
    func catchUp(hub: inout Hub) {
        for room in hub.roomNames {
            if hub.owns(room) == false { readCheckpoint(room) }
            send(["HGETALL", key(room, "presence")], .presence(room))
            book.forget(room)
            hub.presenceNeedsAnnouncing(room)  // on the next tick
        }
    }

    func readCheckpoint(_ room: RoomName) {
        send(["GET", key(room, "frame")], .checkpoint(room))
    }
}
