import CameraCore
import HubCore

/// The Redis engine of one hub (`camhub serve --redis`): the `RoomBroker`
/// that makes rooms span hubs. Lives on the hub's loop thread: every method is
/// called there, and what Redis answers reaches it through `handle`, which the
/// server calls on that thread with the events `RedisClient` posted.
///
/// Keys and channels carry the room in a `{room}` hash tag, so a Redis Cluster
/// keeps each room's keys and channels on one shard:
/// - `{room}:owner`: the lease, the owner's hub id, `PX leaseMilliseconds`;
/// - `{room}:epoch`: the lease's epoch, one more on every change of owner (`LeaseScripts`);
/// - `{room}:frame`: the last published frame (the checkpoint a new owner
///   continues from), written only by the owner of the newest epoch;
/// - `{room}:route`: the room's route, written when it changes (by the newest epoch only);
/// - `{room}:frames`: sharded channel of frames, one message per changed tick;
/// - `{room}:cmd`: sharded channel of commands forwarded to the owner;
/// - `hub:{id}`: sharded channel of answers meant for one client of hub `id`.
public final class ClusterEngine: RoomBroker {
    /// What the Redis thread posts for `handle`.
    public enum Event: Sendable {
        case reply(token: Int, RedisReply)
        case message(channel: String, payload: [UInt8])
        case link(RedisLinkState, reason: String?)
    }

    /// This hub's id in the cluster (random at start; a suffix of its client ids).
    public let hubID: String
    public let redis: RedisClient
    /// The lease's time to live; it is renewed every `renewInterval` (a third of it).
    public let leaseMilliseconds: Int
    public var renewInterval: Double { Double(leaseMilliseconds) / 3000 }
    public private(set) var link: RedisLinkState = .connecting
    public private(set) var linkReason: String?
    /// Frames this hub published, commands it forwarded, since start (for `/healthz` and the benchmark).
    public private(set) var published: UInt64 = 0
    public private(set) var forwarded: UInt64 = 0
    /// Messages on the room channels that this hub could not read (a hub of
    /// another version shares the Redis): counted, shown in `/healthz`, dropped.
    public private(set) var undecodable: UInt64 = 0

    /// What a reply answers. Lease requests keep when they were sent (hub
    /// seconds): a lease taken lasts from then, not from when Redis answered.
    private enum Pending {
        case claim(RoomName, sentAt: Double)
        case load(RoomName)
        case loadRoute(RoomName)
        case lease(RoomName, sentAt: Double)
        /// A mirror catching up with the owner's last published frame.
        case checkpoint(RoomName)
        case ignore
    }

    /// What a lease request found.
    private enum LeaseAnswer {
        case ours(ClusterLease)
        case theirs(epoch: UInt64)
        /// Redis did not answer (down): nobody can take the lease meanwhile.
        case unknown
    }
    private var pending: [Int: Pending] = [:]
    private var nextToken = 0
    /// Rooms being prepared for their first local join: what Redis has said so
    /// far, and the messages held until then (in arrival order).
    private struct Preparation {
        var lease: LeaseAnswer?
        var frame: RoomFrame??
        var route: [GeoCoordinate]?
        var held: [(ConnectionKey, [UInt8])] = []
    }
    private var preparing: [RoomName: Preparation] = [:]
    /// Connections with held messages → the room they wait for.
    private var heldConnections: [ConnectionKey: RoomName] = [:]
    /// Rooms this hub subscribed to.
    private var subscribed: Set<RoomName> = []
    /// Clients of other hubs whose commands ran here: their key in the hub, and back to client and hub.
    private var remoteKeys: [String: ConnectionKey] = [:]
    private var remoteClients: [ConnectionKey: (client: String, hub: String, room: RoomName)] = [:]
    /// When each other hub was last heard from (hub seconds): its presence or a command it forwarded.
    private var heardFrom: [String: Double] = [:]
    private var nextRemoteKey = remoteConnectionBase
    /// Lease renewals or claims under way (one per room at a time).
    private var leaseInFlight: Set<RoomName> = []
    /// Hub seconds from which mirrors may try to take their rooms (a renewal interval after the link came back).
    private var mirrorsClaimFrom = -Double.infinity
    /// Set when the link came back: mirrors read the checkpoints again on the next tick.
    private var catchUpAgain = false
    /// Commands forwarded to owners, until they acknowledge them.
    private var awaiting = AwaitedAnswers(timeout: 1)
    /// Commands forwarded that no owner acknowledged in time (answered `unavailable`), since start.
    public private(set) var unanswered: UInt64 = 0
    /// Part of the lease an owner does not count on (its clock and Redis's may drift).
    static let leaseMargin = 0.1

    /// `post` hands an event to the hub's loop thread (the server wraps its loop's `execute`).
    public init(
        endpoint: RedisEndpoint, hubID: String = ClusterEngine.randomID(), leaseMilliseconds: Int = 1500,
        post: @escaping @Sendable (Event) -> Void
    ) throws {
        self.hubID = hubID
        self.leaseMilliseconds = leaseMilliseconds
        redis = try RedisClient(
            endpoint: endpoint,
            handlers: .init(
                reply: { post(.reply(token: $0, $1)) },
                message: { post(.message(channel: $0, payload: $1)) },
                state: { post(.link($0, reason: $1)) }))
        redis.subscribe("hub:{\(hubID)}")
    }

    public static func randomID() -> String {
        String((0..<6).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
    }

    /// Client ids this hub hands out end with this (unique across hubs).
    public var clientIDSuffix: String { "." + hubID }

    public func start() { redis.start() }

    /// Clean shutdown: gives up this hub's leases (another hub takes over at
    /// once instead of after the lease expires) and closes the connections.
    public func stop(hub: Hub) {
        for name in hub.roomNames where hub.owns(name) == true {
            send(["EVAL", LeaseScripts.release, "1", key(name, "owner"), hubID], .ignore)
        }
        redis.stop()
    }

    // MARK: Before the hub (server glue)

    /// Holds `bytes` when it must wait for Redis: a `hello` for a room this hub
    /// does not have yet (the room is prepared first: owned here or mirrored,
    /// with the cluster's camera), or anything from a connection whose earlier
    /// messages wait. Returns false when the hub may take the message now.
    ///
    /// Nothing is done for a room before its hello is admitted: a hello the
    /// hub would refuse (token, caps) goes straight to the hub, which answers
    /// it, and leaves no key, lease or subscription in Redis.
    public func hold(_ bytes: [UInt8], from connection: ConnectionKey, hub: Hub, at time: HubTime) -> Bool {
        if let room = heldConnections[connection] {
            preparing[room]?.held.append((connection, bytes))
            return true
        }
        guard case .hello(let hello)? = try? ClientMessage.decode(bytes, tick: hub.configuration.tick),
            hub.owns(hello.room) == nil
        else { return false }
        let others = preparing.count - (preparing[hello.room] == nil ? 0 : 1)
        guard (try? hub.admit(hello, preparing: others, at: time)) != nil else { return false }
        heldConnections[connection] = hello.room
        if preparing[hello.room] != nil {
            preparing[hello.room]!.held.append((connection, bytes))
            return true
        }
        preparing[hello.room] = Preparation(held: [(connection, bytes)])
        subscribe(hello.room)
        requestLease(hello.room, hub: hub, at: time, as: .claim(hello.room, sentAt: time.seconds))
        send(["GET", key(hello.room, "frame")], .load(hello.room))
        send(["GET", key(hello.room, "route")], .loadRoute(hello.room))
        return true
    }

    /// A message of the hub for `connection`, when it is a client of another
    /// hub (`Hub.receiveForwarded`): sent to that hub. Returns false for local connections.
    public func route(_ bytes: [UInt8], to connection: ConnectionKey) -> Bool {
        guard connection >= remoteConnectionBase else { return false }
        guard let remote = remoteClients[connection] else { return true }
        publish(ClusterMessage.reply(client: remote.client, message: bytes), on: "hub:{\(remote.hub)}")
        return true
    }

    // MARK: Redis → hub

    public func handle(_ event: Event, hub: inout Hub, at time: HubTime, sink: some HubSink) {
        switch event {
        case .link(let state, let reason):
            let was = link
            link = state
            linkReason = reason
            if was == .up && state != .up { hub.leasesInDoubt(at: time.seconds) }
            if state == .up && was != .up {
                // Owners renew at once; mirrors try to take a room only a renewal
                // interval later, so that an owner that lived through the outage keeps its room.
                mirrorsClaimFrom = time.seconds + renewInterval
                renewLeases(hub: hub, at: time)
                catchUp(hub: hub)
                catchUpAgain = true  // once more on the next tick: the subscriptions may have come back after the read
            }
        case .reply(let token, let reply):
            guard let purpose = pending.removeValue(forKey: token) else { return }
            replied(purpose, reply, hub: &hub, at: time, sink: sink)
        case .message(let channel, let payload):
            guard let message = ClusterMessage(decoding: payload) else {
                undecodable += 1  // another version's hub on the same Redis, or not a hub at all
                return
            }
            received(message, on: channel, hub: &hub, at: time, sink: sink)
        }
    }

    private func replied(_ purpose: Pending, _ reply: RedisReply, hub: inout Hub, at time: HubTime, sink: some HubSink) {
        switch purpose {
        case .ignore:
            return
        case .claim(let room, let sentAt):
            preparing[room]?.lease = leaseAnswer(reply, sentAt: sentAt)
            finishPreparing(room, hub: &hub, at: time, sink: sink)
        case .checkpoint(let room):
            if case .data(let bytes) = reply, case .frame(let frame)? = ClusterMessage(decoding: bytes) {
                hub.applyRemoteFrame(frame, in: room)  // dropped if older than what this hub has
            }
        case .loadRoute(let room):
            if case .data(let bytes) = reply, case .route(let points, _)? = ClusterMessage(decoding: bytes) {
                preparing[room]?.route = points
            } else {
                preparing[room]?.route = []
            }
            finishPreparing(room, hub: &hub, at: time, sink: sink)
        case .load(let room):
            if case .data(let bytes) = reply, case .frame(let frame)? = ClusterMessage(decoding: bytes) {
                preparing[room]?.frame = .some(frame)
            } else {
                preparing[room]?.frame = .some(nil)
            }
            finishPreparing(room, hub: &hub, at: time, sink: sink)
        case .lease(let room, let sentAt):
            leaseInFlight.remove(room)
            guard hub.owns(room) != nil else { return }
            switch leaseAnswer(reply, sentAt: sentAt) {
            case .ours(let lease): hub.leaseHeld(room, lease, at: time, sink: sink)
            case .theirs(let epoch):
                let wasOwner = hub.owns(room) == true
                hub.leaseLost(room, epoch: epoch)
                if wasOwner { readCheckpoint(room) }  // the new owner's frames so far may not have reached this hub
            case .unknown: break  // Redis down: an owner stays fenced once its lease has run out
            }
        }
    }

    /// Mirrors read each room's checkpoint: frames published while this hub
    /// was cut off from Redis never reach it, and a room at rest publishes no other.
    private func catchUp(hub: Hub) {
        for room in hub.roomNames where hub.owns(room) == false { readCheckpoint(room) }
    }

    private func readCheckpoint(_ room: RoomName) {
        send(["GET", key(room, "frame")], .checkpoint(room))
    }

    private func leaseAnswer(_ reply: RedisReply, sentAt: Double) -> LeaseAnswer {
        guard case .integer(let value) = reply else { return .unknown }
        guard value > 0 else { return .theirs(epoch: UInt64(-value)) }
        let seconds = Double(leaseMilliseconds) / 1000
        return .ours(ClusterLease(epoch: UInt64(value), until: sentAt + seconds * (1 - Self.leaseMargin)))
    }

    private func finishPreparing(_ room: RoomName, hub: inout Hub, at time: HubTime, sink: some HubSink) {
        guard let p = preparing[room], let answer = p.lease, let frame = p.frame, let route = p.route else { return }
        preparing[room] = nil
        switch answer {
        case .ours(let lease): hub.prepareRoom(room, owned: true, lease: lease, frame: frame, route: route, at: time)
        // Redis down: nobody can hold the lease; the room starts here, fenced until a renewal succeeds.
        case .unknown: hub.prepareRoom(room, owned: true, lease: nil, frame: frame, route: route, at: time)
        case .theirs(let epoch):
            hub.prepareRoom(room, owned: false, lease: nil, frame: frame, route: route, at: time)
            hub.leaseLost(room, epoch: epoch)
        }
        for (connection, _) in p.held { heldConnections[connection] = nil }
        for (connection, bytes) in p.held { hub.receive(bytes, from: connection, at: time, sink: sink) }
    }

    private func received(_ message: ClusterMessage, on channel: String, hub: inout Hub, at time: HubTime, sink: some HubSink) {
        switch message {
        case .frame(let frame):
            guard let room = roomOf(channel) else { return }
            hub.applyRemoteFrame(frame, in: room)
        case .command(let command, let replyTo):
            guard hub.owns(command.room) == true else { return }
            let key =
                remoteKeys[command.client]
                ?? {
                    nextRemoteKey += 1
                    return nextRemoteKey
                }()
            remoteKeys[command.client] = key
            remoteClients[key] = (command.client, replyTo, command.room)
            heardFrom[replyTo] = time.seconds
            // Answers first (routed as the hub makes them), then the acknowledgement.
            if hub.receiveForwarded(command, as: key, at: time, sink: sink), command.id != 0 {
                let handled = ClusterMessage.handled(client: command.client, id: command.id, epoch: hub.epoch(of: command.room))
                publish(handled, on: "hub:{\(replyTo)}")
            }
        case .left(let client):
            guard let room = roomOf(channel), hub.owns(room) == true else { return }
            hub.remoteClientLeft(client, in: room, at: time, sink: sink)
            forgetRemote(client)
        case .presence(let hubID, let presence):
            guard hubID != self.hubID, let room = roomOf(channel) else { return }
            heardFrom[hubID] = time.seconds
            hub.applyRemotePresence(presence, from: hubID, in: room, at: time, sink: sink)
        case .event(let kind, let bytes):
            guard let room = roomOf(channel) else { return }
            hub.applyRemoteEvent(bytes, kind: EventSubscriptions(rawValue: kind), in: room, sink: sink)
        case .reply(let client, let bytes):
            guard let connection = hub.connection(ofClient: client) else { return }
            sink.send(bytes, to: connection)
        case .summon(let hubID, let by, let name):
            guard hubID != self.hubID, let room = roomOf(channel) else { return }
            hub.applyRemoteSummon(by: by, name: name, in: room, at: time, sink: sink)
        case .handled(_, let id, _):
            awaiting.acknowledged(id)
        case .route(let points, let epoch):
            guard let room = roomOf(channel) else { return }
            hub.applyRemoteRoute(points, epoch: epoch, in: room)
        }
    }

    // MARK: Leases (every `renewInterval`, from a loop timer)

    /// Every `renewInterval` on the loop thread: leases, presence, and
    /// forgetting the members of hubs not heard from for `presenceSilence` s.
    public func tick(hub: inout Hub, at time: HubTime, sink: some HubSink) {
        if catchUpAgain && link == .up {
            catchUpAgain = false
            catchUp(hub: hub)
        }
        renewLeases(hub: hub, at: time)
        announcePresence(hub: hub, at: time.seconds)
        for client in hub.expireRemotePresence(silence: presenceSilence, at: time, sink: sink) { forgetRemote(client) }
        forgetClientsOfSilentHubs(hub: &hub, at: time, sink: sink)
        answerUnacknowledged(hub: hub, at: time, sink: sink)
    }

    /// Commands no owner acknowledged in time: their clients get `unavailable`.
    private func answerUnacknowledged(hub: Hub, at time: HubTime, sink: some HubSink) {
        for entry in awaiting.expire(at: time.seconds) {
            unanswered += 1
            guard let connection = hub.connection(ofClient: entry.client) else { continue }
            sink.send(HubMessage.error(.unavailable(ref: entry.ref)), to: connection)
        }
    }

    /// Seconds without a presence message after which a hub's members count as gone (it died).
    public var presenceSilence: Double = 3

    /// What this hub last announced per room, and when (hub seconds).
    private var announced: [RoomName: (presence: HubPresence, at: Double)] = [:]

    /// Each room's local members, when they changed and at least once a second.
    private func announcePresence(hub: Hub, at now: Double) {
        guard link == .up else { return }
        for room in hub.roomNames {
            guard let presence = hub.localPresence(of: room) else { continue }
            if let last = announced[room], last.presence == presence, now - last.at < 1 { continue }
            announced[room] = (presence, now)
            publish(ClusterMessage.presence(hub: hubID, presence), on: key(room, "frames"))
        }
    }

    /// Owner: renews each lease. Mirror with members here: tries to take the
    /// lease (it is free when the owner died or let go), and adopts the room.
    func renewLeases(hub: Hub, at time: HubTime) {
        guard link == .up else { return }
        let mirrorsClaim = time.seconds >= mirrorsClaimFrom
        for room in hub.roomNames
        where !leaseInFlight.contains(room) && (hub.owns(room) == true || (mirrorsClaim && hub.hasMembers(room))) {
            leaseInFlight.insert(room)
            requestLease(room, hub: hub, at: time, as: .lease(room, sentAt: time.seconds))
        }
    }

    private func requestLease(_ room: RoomName, hub: Hub, at time: HubTime, as purpose: Pending) {
        send(
            ["EVAL", LeaseScripts.lease, "2", key(room, "owner"), key(room, "epoch"), hubID, "\(leaseMilliseconds)", "\(hub.epoch(of: room))"],
            purpose)
    }

    // MARK: RoomBroker (called from inside the hub)

    public func publish(_ frame: RoomFrame, in room: RoomName) {
        published += 1
        let bytes = ClusterMessage.frame(frame).encoded()
        redis.command(
            bytes: [
                Array("EVAL".utf8), Array(LeaseScripts.checkpoint.utf8), Array("2".utf8), Array(key(room, "frame").utf8),
                Array(key(room, "epoch").utf8), Array("\(frame.epoch)".utf8), bytes,
            ],
            token: token(.ignore))
        redis.command(bytes: [Array("SPUBLISH".utf8), Array(key(room, "frames").utf8), bytes], token: token(.ignore))
    }

    public func forward(_ command: ForwardedCommand) {
        forwarded += 1
        var command = command
        command.id = awaiting.add(client: command.client, ref: command.ref)
        publish(ClusterMessage.command(command, replyTo: hubID), on: key(command.room, "cmd"))
    }

    public func clientLeft(_ client: String, in room: RoomName) {
        publish(ClusterMessage.left(client: client), on: key(room, "cmd"))
    }

    public func relay(_ event: [UInt8], kind: EventSubscriptions, in room: RoomName) {
        publish(ClusterMessage.event(kind: kind.rawValue, message: event), on: key(room, "frames"))
    }

    public func summon(by client: String, name: String, in room: RoomName) {
        publish(ClusterMessage.summon(hub: hubID, by: client, name: name), on: key(room, "frames"))
    }

    public func deliver(_ message: [UInt8], toClient client: String) {
        guard let dot = client.lastIndex(of: ".") else { return }
        publish(ClusterMessage.reply(client: client, message: message), on: "hub:{\(client[client.index(after: dot)...])}")
    }

    public func routeChanged(_ points: [GeoCoordinate], epoch: UInt64, in room: RoomName) {
        let bytes = ClusterMessage.route(points, epoch: epoch).encoded()
        redis.command(
            bytes: [
                Array("EVAL".utf8), Array(LeaseScripts.checkpoint.utf8), Array("2".utf8), Array(key(room, "route").utf8),
                Array(key(room, "epoch").utf8), Array("\(epoch)".utf8), bytes,
            ],
            token: token(.ignore))
        redis.command(bytes: [Array("SPUBLISH".utf8), Array(key(room, "frames").utf8), bytes], token: token(.ignore))
    }

    public func roomRemoved(_ room: RoomName) {
        subscribed.remove(room)
        announced[room] = nil
        redis.unsubscribe(key(room, "frames"))
        redis.unsubscribe(key(room, "cmd"))
        send(["EVAL", LeaseScripts.release, "1", key(room, "owner"), hubID], .ignore)
    }

    // MARK: Helpers

    /// A client of another hub left (or its hub went silent): its key goes.
    private func forgetRemote(_ client: String) {
        if let key = remoteKeys.removeValue(forKey: client) { remoteClients[key] = nil }
    }

    /// Clients of other hubs whose commands ran here, of hubs silent for
    /// `presenceSilence`: a hub may die before its first presence message.
    private func forgetClientsOfSilentHubs(hub: inout Hub, at time: HubTime, sink: some HubSink) {
        let silent = { (id: String) in time.seconds - (self.heardFrom[id] ?? -.infinity) > self.presenceSilence }
        for remote in remoteClients.values where silent(remote.hub) {
            hub.remoteClientLeft(remote.client, in: remote.room, at: time, sink: sink)
            forgetRemote(remote.client)
        }
        heardFrom = heardFrom.filter { !silent($0.key) }
    }

    /// Clients of other hubs this engine keeps a connection key for (their commands ran here).
    public var remoteClientCount: Int { remoteKeys.count }

    private func subscribe(_ room: RoomName) {
        guard subscribed.insert(room).inserted else { return }
        redis.subscribe(key(room, "frames"))
        redis.subscribe(key(room, "cmd"))
    }

    private func publish(_ message: ClusterMessage, on channel: String) {
        redis.command(bytes: [Array("SPUBLISH".utf8), Array(channel.utf8), message.encoded()], token: token(.ignore))
    }

    private func send(_ args: [String], _ purpose: Pending) {
        redis.command(args, token: token(purpose))
    }

    private func token(_ purpose: Pending) -> Int {
        nextToken += 1
        if case .ignore = purpose { return -nextToken }  // replies to negative tokens are dropped unread
        pending[nextToken] = purpose
        return nextToken
    }

    func key(_ room: RoomName, _ kind: String) -> String { "{\(room.value)}:\(kind)" }

    private func roomOf(_ channel: String) -> RoomName? {
        guard channel.first == "{", let close = channel.firstIndex(of: "}") else { return nil }
        return try? RoomName(validating: String(channel[channel.index(after: channel.startIndex)..<close]))
    }
}
