import CamHubProtocol
import HubCore

/// The hub's lease, its rooms' ownership, fencing and catching up: what the
/// engine does every renewal interval (`tick`, from a loop timer on the hub's
/// loop thread) and when a lease answer comes back.
///
/// One lease per hub (`LeaseScripts`): a renewal is one command, and rooms
/// go to Redis only when their ownership is in question: an owner's rooms
/// after its lease expired, a mirror's room when its owner hub fell silent or
/// has no members left in it, and every owned room once per
/// `roomKeysRefreshInterval` (their keys' expiry).
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
        giveUpLatePreparations(at: time, sink: sink)
    }

    /// Commands no owner acknowledged in time: their clients get `unavailable`.
    func answerUnacknowledged(hub: Hub, at time: HubTime, sink: some HubSink) {
        for entry in awaiting.expire(at: time.seconds) {
            unanswered += 1
            guard let connection = hub.connection(ofClient: entry.client) else { continue }
            sink.send(HubMessage.error(.unavailable(ref: entry.ref)), to: connection)
        }
    }

    /// Renews the hub's lease; has Redis confirm the owned rooms that need it;
    /// and lets mirrors with members here claim rooms whose owner may be gone.
    func renewLeases(hub: inout Hub, at time: HubTime) {
        guard link == .up else { return }
        if !aliveInFlight {
            aliveInFlight = true
            send(["EVAL", LeaseScripts.alive, "1", LeaseScripts.aliveKey(of: hubID), "\(leaseMilliseconds)"], .alive(sentAt: time.seconds))
        }
        let refresh = time.seconds >= roomKeysRefreshAt
        if refresh { roomKeysRefreshAt = time.seconds + Self.roomKeysRefreshInterval }
        let mirrorsClaim = time.seconds >= mirrorsClaimFrom
        let unconfirmed = hub.unconfirmedRooms
        var rooms: [(RoomName, epoch: UInt64)] = []
        for room in hub.roomNames where !leaseInFlight.contains(room) {
            guard let state = hub.leaseState(of: room) else { continue }
            let ask =
                state.owned
                ? refresh || unconfirmed.contains(room)
                : mirrorsClaim && state.hasMembers && ownerMayBeGone(of: room, epoch: state.epoch, at: time.seconds)
            guard ask else { continue }
            leaseInFlight.insert(room)
            rooms.append((room, state.epoch))
        }
        for start in stride(from: 0, to: rooms.count, by: Self.leaseBatch) {
            let batch = rooms[start..<min(start + Self.leaseBatch, rooms.count)]
            requestLeases(batch, as: .leases(batch.map(\.0), sentAt: time.seconds))
        }
    }

    /// Rooms per lease script call.
    static let leaseBatch = 500
    /// Seconds between an owner's refreshes of its rooms' keys (they expire after `LeaseScripts.roomKeyMilliseconds`).
    static let roomKeysRefreshInterval = 3600.0

    /// A mirror claims its room only when the owner may be gone: its hub has
    /// not been heard from for a lease's time (it died or stalls), it has no
    /// members left in the room (it lets the room go once empty), or the
    /// room changed owner since this hub last asked (`epoch`).
    func ownerMayBeGone(of room: RoomName, epoch: UInt64, at now: Double) -> Bool {
        guard let owner = owners[room], owner.epoch == epoch else { return true }
        return !book.heard(owner.hub, within: Double(leaseMilliseconds) / 1000, at: now) || !book.hasMembers(owner.hub, in: room)
    }

    /// `rooms`: each with the newest epoch this hub knows for it.
    func requestLeases(_ rooms: ArraySlice<(RoomName, epoch: UInt64)>, as purpose: Pending) {
        var args = ["EVAL", LeaseScripts.lease, "\(4 * rooms.count)"]
        args.reserveCapacity(5 + 5 * rooms.count)
        for (room, _) in rooms { args += [key(room, "owner"), key(room, "epoch"), key(room, "frame"), key(room, "route")] }
        args += [hubID, "\(LeaseScripts.roomKeyMilliseconds)"]
        for (_, epoch) in rooms { args.append("\(epoch)") }
        send(args, purpose)
    }

    /// The answers of a lease script call for `count` rooms (`LeaseScripts.lease`).
    func leaseAnswers(_ reply: RedisReply, count: Int, sentAt: Double) -> [LeaseAnswer] {
        guard case .array(let items) = reply, items.count == 2 * count else {
            return Array(repeating: .unknown, count: count)  // Redis down, an error, or this hub's lease expired
        }
        return (0..<count).map { i in
            guard case .integer(let value) = items[2 * i], let owner = items[2 * i + 1].bytes else { return .unknown }
            guard value > 0 else { return .theirs(epoch: UInt64(-value), owner: String(decoding: owner, as: UTF8.self)) }
            return .ours(ClusterLease(epoch: UInt64(value), until: leaseUntil(sentAt: sentAt)))
        }
    }

    /// Until when a lease renewed by a command sent at `sentAt` holds (hub seconds).
    func leaseUntil(sentAt: Double) -> Double {
        sentAt + Double(leaseMilliseconds) / 1000 * (1 - Self.leaseMargin)
    }

    func aliveAnswered(_ reply: RedisReply, sentAt: Double, hub: inout Hub, at time: HubTime, sink: some HubSink) {
        defer { aliveInFlight = false }
        guard case .integer(let was) = reply else { return }  // Redis down: the lease runs out by the hub's clock
        leaseRenewals += 1
        if was == 0 { hub.hubLeaseLapsed() }  // another hub may have taken any room meanwhile
        hub.hubLeaseRenewed(until: leaseUntil(sentAt: sentAt), at: time, sink: sink)
        if was == 0 { renewLeases(hub: &hub, at: time) }  // has the rooms confirmed now, not a tick later
    }

    func leaseAnswered(_ room: RoomName, _ answer: LeaseAnswer, hub: inout Hub, at time: HubTime, sink: some HubSink) {
        guard let state = hub.leaseState(of: room) else { return }
        switch answer {
        case .ours(let lease):
            owners[room] = nil
            hub.leaseHeld(room, lease, at: time, sink: sink)
        case .theirs(let epoch, let owner):
            let wasOwner = state.owned
            hub.leaseLost(room, epoch: epoch)
            owners[room] = (owner, hub.epoch(of: room))
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

    /// Redis refused a fenced write or publish for `room`: its epoch is not
    /// the one this hub holds (another hub took the room, or Redis lost the
    /// room's keys). An owner asks for the lease again at once: it goes on
    /// with a new epoch, or learns the room's new owner and becomes a mirror.
    func fencedWriteRefused(_ room: RoomName, hub: Hub, at time: HubTime) {
        fencedRefusals += 1
        guard link == .up, !leaseInFlight.contains(room), hub.leaseState(of: room)?.owned == true else { return }
        leaseInFlight.insert(room)
        requestLeases([(room, hub.epoch(of: room))], as: .leases([room], sentAt: time.seconds))
    }

    func readCheckpoint(_ room: RoomName) {
        send(["GET", key(room, "frame")], .checkpoint(room))
    }
}
