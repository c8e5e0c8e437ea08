import CamHubProtocol
import CameraCore
import HubCore

/// The Redis engine of one hub (`camhub serve --redis`): the `RoomBroker`
/// that makes rooms span hubs. Lives on the hub's loop thread: every method is
/// called there, and what Redis answers reaches it through `handle`, which the
/// server calls on that thread with the events `RedisClient` posted.
///
/// Keys and channels carry the room in a `{room}` hash tag (see `LeaseScripts`
/// for the leases):
/// - `hub:{id}:alive`: hub `id`'s lease, `PX leaseMilliseconds`, renewed every `renewInterval`;
/// - `{room}:owner`: the owner's hub id (the room is its hub's while that hub's lease lives);
/// - `{room}:epoch`: one more on every change of owner (fencing);
/// - `{room}:frame`: the last published frame (the checkpoint a new owner
///   continues from), written only by the owner of the newest epoch;
/// - `{room}:route`: the room's route, written when it changes (by the newest epoch only);
/// - `{room}:presence`: hash, each hub's members of the room (written when they change);
/// - `{room}:frames`: sharded channel of frames, one message per changed tick;
/// - `{room}:cmd`: sharded channel of commands forwarded to the owner;
/// - `hub:{id}`: sharded channel of answers meant for one client of hub `id`;
/// - `hubs`: sharded channel of every hub's heartbeat.
public final class ClusterEngine {
    /// What the Redis thread posts for `handle`.
    public enum Event: Sendable {
        case reply(token: Int, RedisReply)
        case message(channel: String, payload: [UInt8])
        case link(RedisLinkState, reason: String?)
    }

    /// This hub's id in the cluster (random at start; a suffix of its client ids).
    public let hubID: String
    public let redis: RedisClient
    /// What the Redis thread handed over and the hub's loop has not run yet (bounded for moving frames).
    public let inbox: RedisInbox
    /// The epochs of this hub's own frames, which the Redis thread drops when Redis hands them back.
    let ownFrames = OwnFrames()
    /// The hub lease's time to live; it is renewed every `renewInterval` (a third of it).
    public let leaseMilliseconds: Int
    public var renewInterval: Double { Double(leaseMilliseconds) / 3000 }
    public private(set) var link: RedisLinkState = .connecting
    public private(set) var linkReason: String?
    /// Frames this hub published, commands it forwarded, since start (for `/healthz` and the benchmark).
    public internal(set) var published: UInt64 = 0
    public internal(set) var forwarded: UInt64 = 0
    /// Answers Redis gave to the hub's lease renewals, since start.
    public internal(set) var leaseRenewals: UInt64 = 0
    /// Messages on the room channels that this hub could not read (a hub of
    /// another version shares the Redis): counted, shown in `/healthz`, dropped.
    public private(set) var undecodable: UInt64 = 0
    /// Fenced writes and publishes Redis refused (the room's epoch was not this hub's).
    public internal(set) var fencedRefusals: UInt64 = 0
    /// What may wait for Redis while a room is prepared (`hold`).
    public var holdLimits = HoldLimits()
    /// Connections closed 1013 for sending more than `holdLimits` while their room was prepared.
    public internal(set) var heldTooMuch: UInt64 = 0
    /// Rooms given up because Redis did not answer within `holdLimits.deadline`.
    public internal(set) var preparationsGivenUp: UInt64 = 0

    /// What a reply answers. Lease requests keep when they were sent (hub
    /// seconds): a lease taken lasts from then, not from when Redis answered.
    enum Pending {
        case claim(RoomName, sentAt: Double)
        /// The hub's lease renewal.
        case alive(sentAt: Double)
        case load(RoomName)
        case loadRoute(RoomName)
        case loadPresence(RoomName)
        /// Renewals and claims of several rooms in one script call.
        case leases([RoomName], sentAt: Double)
        /// Another hub's members of a room, read when this hub was cut off.
        case presence(RoomName)
        /// A mirror catching up with the owner's last published frame.
        case checkpoint(RoomName)
        /// A fenced write or publish for a room (`LeaseScripts.checkpoint`,
        /// `fencedPublish`): 0 means refused, the room's lease is asked again.
        case fenced(RoomName)
        /// How many hubs got server API request `id` (SPUBLISH's count).
        case apiDelivered(UInt64)
        case ignore
    }

    /// What a lease request found.
    enum LeaseAnswer {
        case ours(ClusterLease)
        case theirs(epoch: UInt64, owner: String)
        /// Redis did not answer (down): nobody can take the lease meanwhile.
        case unknown
    }
    var pending: [Int: Pending] = [:]
    var nextToken = 0
    /// Rooms being prepared for their first local join: what Redis has said so
    /// far, and the messages held until then (in arrival order).
    struct Preparation {
        /// When the first hello for the room came (hub seconds): the room is given up `holdLimits.deadline` later.
        var startedAt: Double
        var lease: LeaseAnswer?
        var frame: RoomFrame??
        var route: [GeoCoordinate]?
        var presence: [(hub: String, HubPresence)]?
        var held: [(ConnectionKey, [UInt8])] = []
        /// Per waiting connection: how many messages and bytes it has held.
        var heldSize: [ConnectionKey: (messages: Int, bytes: Int)] = [:]
    }
    var preparing: [RoomName: Preparation] = [:]
    /// Connections with held messages → the room they wait for.
    var heldConnections: [ConnectionKey: RoomName] = [:]
    /// Rooms this hub subscribed to.
    var subscribed: Set<RoomName> = []
    /// Clients of other hubs whose commands ran here: their key in the hub, and back to client and hub.
    var remoteKeys: [String: ConnectionKey] = [:]
    var remoteClients: [ConnectionKey: (client: String, hub: String, room: RoomName)] = [:]
    /// The other hubs' liveness and rooms, and what this hub announced (`PresenceBook`).
    var book = PresenceBook(silence: 3)
    var nextRemoteKey = remoteConnectionBase
    /// Lease confirmations or claims under way (one per room at a time).
    var leaseInFlight: Set<RoomName> = []
    /// The hub's lease renewal is under way.
    var aliveInFlight = false
    /// Hub seconds from which the owner refreshes its rooms' keys again.
    var roomKeysRefreshAt = 0.0
    /// Mirrored rooms → their owner's hub id, and the epoch this hub knew when it learnt it.
    var owners: [RoomName: (hub: String, epoch: UInt64)] = [:]
    /// Hub seconds from which mirrors may try to take their rooms (a renewal interval after the link came back).
    var mirrorsClaimFrom = -Double.infinity
    /// Set when the link came back: mirrors read the checkpoints again on the next tick.
    var catchUpAgain = false
    /// Commands forwarded to owners, until they acknowledge them.
    var awaiting = AwaitedAnswers(timeout: 1)
    /// Commands forwarded that no owner acknowledged in time (answered `unavailable`), since start.
    public internal(set) var unanswered: UInt64 = 0
    /// The server API's requests and answers that came, for the server (`takeAPIArrivals`).
    var apiArrivals: [ClusterAPIArrival] = []
    /// The number of the last server API request this hub asked.
    var lastAPIRequest: UInt64 = 0
    /// Part of the lease an owner does not count on (its clock and Redis's may drift).
    static let leaseMargin = 0.1

    /// `post` hands an event to the hub's loop thread (the server wraps its
    /// loop's `execute`), at most `redisInbox` of them waiting before moving
    /// frames are shed (`RedisInbox`); `handle` takes each one off.
    public init(
        endpoint: RedisEndpoint, hubID: String = ClusterEngine.randomID(), leaseMilliseconds: Int = 1500,
        redisQueue: Int = 10_000, redisInbox: Int = 10_000, post: @escaping @Sendable (Event) -> Void
    ) throws {
        self.hubID = hubID
        self.leaseMilliseconds = leaseMilliseconds
        let inbox = RedisInbox(limit: redisInbox)
        self.inbox = inbox
        let own = ownFrames
        redis = try RedisClient(
            endpoint: endpoint,
            handlers: .init(
                reply: { token, reply in
                    _ = inbox.admit()
                    post(.reply(token: token, reply))
                },
                message: { channel, payload in
                    guard !own.isOwn(payload, on: channel) else { return }
                    guard inbox.admit(sheddable: ClusterMessage.isSheddableFrame(payload)) else { return }
                    post(.message(channel: channel, payload: payload))
                },
                state: { state, reason in
                    _ = inbox.admit()
                    post(.link(state, reason: reason))
                }), sheddingFrom: redisQueue)
        redis.subscribe("hub:{\(hubID)}")
        redis.subscribe("hubs")
    }

    /// Six characters of `[a-z0-9]`.
    public static func randomID() -> String {
        String((0..<6).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
    }

    /// The id of loop `loop`'s member of a hub whose loop 0 is `base` (a
    /// `randomID`): `base`, then `base` and the loop's number (`k3x9qa`,
    /// `k3x9qa1`, …). It stays within the `[a-z0-9]{1,32}` a client id's
    /// suffix is made of (docs/asyncapi.yaml), and `base`'s fixed length keeps
    /// the members of one process apart from any other hub's.
    public static func memberID(_ base: String, loop: Int) -> String {
        loop == 0 ? base : base + String(loop)
    }

    /// Client ids this hub hands out end with this (unique across hubs).
    public var clientIDSuffix: String { "." + hubID }

    public func start() { redis.start() }

    /// Clean shutdown: gives up this hub's rooms and lease and says goodbye
    /// (other hubs take over at once instead of after the lease expires), and
    /// closes the connections.
    public func stop(hub: Hub) {
        for name in hub.roomNames where hub.owns(name) == true {
            send(["EVAL", LeaseScripts.release, "1", key(name, "owner"), hubID], .ignore)
        }
        send(["DEL", LeaseScripts.aliveKey(of: hubID)], .ignore)
        publish(.goodbye(hub: hubID), on: "hubs")
        redis.stop()
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
        inbox.done()
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
                renewLeases(hub: &hub, at: time)
                catchUp(hub: &hub)
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

    func replied(_ purpose: Pending, _ reply: RedisReply, hub: inout Hub, at time: HubTime, sink: some HubSink) {
        switch purpose {
        case .ignore:
            return
        case .fenced(let room):
            if case .integer(0) = reply { fencedWriteRefused(room, hub: hub, at: time) }
        case .claim(let room, let sentAt):
            preparing[room]?.lease = leaseAnswers(reply, count: 1, sentAt: sentAt)[0]
            finishPreparing(room, hub: &hub, at: time, sink: sink)
        case .alive(let sentAt):
            aliveAnswered(reply, sentAt: sentAt, hub: &hub, at: time, sink: sink)
        case .checkpoint(let room):
            if case .data(let bytes) = reply, case .frame(let frame)? = ClusterMessage(decoding: bytes) {
                hub.applyRemoteFrame(frame, in: room)  // dropped if older than what this hub has
            }
        case .loadPresence(let room):
            preparing[room]?.presence = presences(in: reply)
            finishPreparing(room, hub: &hub, at: time, sink: sink)
        case .presence(let room):
            for (other, presence) in presences(in: reply) { applyPresence(presence, of: other, in: room, hub: &hub, at: time, sink: sink) }
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
        case .apiDelivered(let id):
            let receivers: Int? = if case .integer(let n) = reply { Int(n) } else { nil }
            apiArrivals.append(.delivered(id: id, receivers: receivers))
        case .leases(let rooms, let sentAt):
            for (room, answer) in zip(rooms, leaseAnswers(reply, count: rooms.count, sentAt: sentAt)) {
                leaseInFlight.remove(room)
                leaseAnswered(room, answer, hub: &hub, at: time, sink: sink)
            }
        }
    }

    func finishPreparing(_ room: RoomName, hub: inout Hub, at time: HubTime, sink: some HubSink) {
        guard let p = preparing[room], let answer = p.lease, let frame = p.frame, let route = p.route, let presence = p.presence
        else { return }
        preparing[room] = nil
        switch answer {
        case .ours(let lease): hub.prepareRoom(room, owned: true, lease: lease, frame: frame, route: route, at: time)
        // Redis down: nobody can hold the lease; the room starts here, fenced until a renewal succeeds.
        case .unknown: hub.prepareRoom(room, owned: true, lease: nil, frame: frame, route: route, at: time)
        case .theirs(let epoch, let owner):
            hub.prepareRoom(room, owned: false, lease: nil, frame: frame, route: route, at: time)
            hub.leaseLost(room, epoch: epoch)
            owners[room] = (owner, hub.epoch(of: room))
        }
        // The other hubs' members, so that the first welcome here lists them.
        for (other, presence) in presence { applyPresence(presence, of: other, in: room, hub: &hub, at: time, sink: sink) }
        for (connection, _) in p.held { heldConnections[connection] = nil }
        for (connection, bytes) in p.held { hub.receive(bytes, from: connection, at: time, sink: sink) }
    }

    func received(_ message: ClusterMessage, on channel: String, hub: inout Hub, at time: HubTime, sink: some HubSink) {
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
            book.heard(replyTo, at: time.seconds)
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
            applyPresence(presence, of: hubID, in: room, hub: &hub, at: time, sink: sink)
        case .heartbeat(let other):
            if other != hubID { book.heard(other, at: time.seconds) }
        case .goodbye(let other):
            if other != hubID { book.heard(other, at: -.infinity) }  // gone: its rooms are claimed and its members leave at once
        case .event(let kind, let bytes, let epoch):
            guard let room = roomOf(channel) else { return }
            hub.applyRemoteEvent(bytes, kind: EventSubscriptions(rawValue: kind), epoch: epoch, in: room, sink: sink)
        case .reply(let client, let bytes):
            guard let connection = hub.connection(ofClient: client) else { return }
            sink.send(bytes, to: connection)
        case .summon(let hubID, let by, let name, let epoch):
            guard hubID != self.hubID, let room = roomOf(channel) else { return }
            hub.applyRemoteSummon(by: by, name: name, epoch: epoch, in: room, at: time, sink: sink)
        case .handled(_, let id, _):
            awaiting.acknowledged(id)
        case .route(let points, let epoch):
            guard let room = roomOf(channel) else { return }
            hub.applyRemoteRoute(points, epoch: epoch, in: room)
        case .apiRequest, .apiAnswer, .apiWaiting, .apiRooms:
            receivedAPI(message, hub: hub, at: time)
        }
    }

    // MARK: Helpers

    func subscribe(_ room: RoomName) {
        guard subscribed.insert(room).inserted else { return }
        redis.subscribe(key(room, "frames"))
        redis.subscribe(key(room, "cmd"))
    }

    func publish(_ message: ClusterMessage, on channel: String) {
        redis.command(bytes: [Array("SPUBLISH".utf8), Array(channel.utf8), message.encoded()], token: token(.ignore))
    }

    func send(_ args: [String], _ purpose: Pending) {
        redis.command(args, token: token(purpose))
    }

    func token(_ purpose: Pending) -> Int {
        nextToken += 1
        if case .ignore = purpose { return -nextToken }  // replies to negative tokens are dropped unread
        pending[nextToken] = purpose
        return nextToken
    }

    func key(_ room: RoomName, _ kind: String) -> String { "{\(room.value)}:\(kind)" }

    func roomOf(_ channel: String) -> RoomName? {
        guard channel.first == "{", let close = channel.firstIndex(of: "}") else { return nil }
        return try? RoomName(validating: String(channel[channel.index(after: channel.startIndex)..<close]))
    }
}
