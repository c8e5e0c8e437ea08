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
/// - `{room}:frame`: the last published frame (the checkpoint a new owner continues from);
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

    private enum Pending {
        case claim(RoomName)
        case load(RoomName)
        case lease(RoomName)
        case ignore
    }
    private var pending: [Int: Pending] = [:]
    private var nextToken = 0
    /// Rooms being prepared for their first local join: what Redis has said so
    /// far, and the messages held until then (in arrival order).
    private struct Preparation {
        var owned: Bool?
        var frame: RoomFrame??
        var held: [(ConnectionKey, [UInt8])] = []
    }
    private var preparing: [RoomName: Preparation] = [:]
    /// Connections with held messages → the room they wait for.
    private var heldConnections: [ConnectionKey: RoomName] = [:]
    /// Rooms this hub subscribed to.
    private var subscribed: Set<RoomName> = []
    /// Clients of other hubs whose commands ran here: their key in the hub, and back to client and hub.
    private var remoteKeys: [String: ConnectionKey] = [:]
    private var remoteClients: [ConnectionKey: (client: String, hub: String)] = [:]
    private var nextRemoteKey = remoteConnectionBase
    /// Lease renewals or claims under way (one per room at a time).
    private var leaseInFlight: Set<RoomName> = []

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
            send(["EVAL", Self.releaseScript, "1", key(name, "owner"), hubID], .ignore)
        }
        redis.stop()
    }

    // MARK: Before the hub (server glue)

    /// Holds `bytes` when it must wait for Redis: a `hello` for a room this hub
    /// does not have yet (the room is prepared first: owned here or mirrored,
    /// with the cluster's camera), or anything from a connection whose earlier
    /// messages wait. Returns false when the hub may take the message now.
    public func hold(_ bytes: [UInt8], from connection: ConnectionKey, hub: Hub) -> Bool {
        if let room = heldConnections[connection] {
            preparing[room]?.held.append((connection, bytes))
            return true
        }
        guard case .hello(let hello)? = try? ClientMessage.decode(bytes, tick: hub.configuration.tick),
            hub.owns(hello.room) == nil
        else { return false }
        heldConnections[connection] = hello.room
        if preparing[hello.room] != nil {
            preparing[hello.room]!.held.append((connection, bytes))
            return true
        }
        preparing[hello.room] = Preparation(held: [(connection, bytes)])
        subscribe(hello.room)
        send(["EVAL", Self.leaseScript, "1", key(hello.room, "owner"), hubID, "\(leaseMilliseconds)"], .claim(hello.room))
        send(["GET", key(hello.room, "frame")], .load(hello.room))
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
            link = state
            linkReason = reason
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
        case .claim(let room):
            // Redis down: serve the room from here; the lease is claimed when Redis is back.
            preparing[room]?.owned = reply == .integer(1) || reply == .disconnected
            finishPreparing(room, hub: &hub, at: time, sink: sink)
        case .load(let room):
            if case .data(let bytes) = reply, case .frame(let frame)? = ClusterMessage(decoding: bytes) {
                preparing[room]?.frame = .some(frame)
            } else {
                preparing[room]?.frame = .some(nil)
            }
            finishPreparing(room, hub: &hub, at: time, sink: sink)
        case .lease(let room):
            leaseInFlight.remove(room)
            guard let owned = hub.owns(room) else { return }
            switch reply {
            case .integer(1) where !owned: hub.adopt(room, at: time, sink: sink)
            case .integer(0) where owned: hub.demote(room)
            default: break  // kept, or Redis down (the hub keeps what it has)
            }
        }
    }

    private func finishPreparing(_ room: RoomName, hub: inout Hub, at time: HubTime, sink: some HubSink) {
        guard let p = preparing[room], let owned = p.owned, let frame = p.frame else { return }
        preparing[room] = nil
        hub.prepareRoom(room, owned: owned, frame: frame, at: time)
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
            remoteClients[key] = (command.client, replyTo)
            hub.receiveForwarded(command, as: key, at: time, sink: sink)
        case .left(let client):
            guard let room = roomOf(channel), hub.owns(room) == true else { return }
            hub.remoteClientLeft(client, in: room, at: time, sink: sink)
            if let key = remoteKeys.removeValue(forKey: client) { remoteClients[key] = nil }
        case .presence(let hubID, let presence):
            guard hubID != self.hubID, let room = roomOf(channel) else { return }
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
        }
    }

    // MARK: Leases (every `renewInterval`, from a loop timer)

    /// Every `renewInterval` on the loop thread: leases, presence, and
    /// forgetting the members of hubs not heard from for `presenceSilence` s.
    public func tick(hub: inout Hub, at time: HubTime, sink: some HubSink) {
        renewLeases(hub: hub)
        announcePresence(hub: hub, at: time.seconds)
        hub.expireRemotePresence(silence: presenceSilence, at: time, sink: sink)
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
    func renewLeases(hub: Hub) {
        guard link == .up else { return }
        for room in hub.roomNames where !leaseInFlight.contains(room) && (hub.owns(room) == true || hub.hasMembers(room)) {
            leaseInFlight.insert(room)
            send(["EVAL", Self.leaseScript, "1", key(room, "owner"), hubID, "\(leaseMilliseconds)"], .lease(room))
        }
    }

    // MARK: RoomBroker (called from inside the hub)

    public func publish(_ frame: RoomFrame, in room: RoomName) {
        published += 1
        let bytes = ClusterMessage.frame(frame).encoded()
        redis.command(
            bytes: [Array("SET".utf8), Array(key(room, "frame").utf8), bytes, Array("PX".utf8), Array("86400000".utf8)],
            token: token(.ignore))
        redis.command(bytes: [Array("SPUBLISH".utf8), Array(key(room, "frames").utf8), bytes], token: token(.ignore))
    }

    public func forward(_ command: ForwardedCommand) {
        forwarded += 1
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

    public func roomRemoved(_ room: RoomName) {
        subscribed.remove(room)
        announced[room] = nil
        redis.unsubscribe(key(room, "frames"))
        redis.unsubscribe(key(room, "cmd"))
        send(["EVAL", Self.releaseScript, "1", key(room, "owner"), hubID], .ignore)
    }

    // MARK: Helpers

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

    /// Takes the lease when it is free or ours, and (re)sets its expiry: 1 = ours, 0 = another hub's.
    static let leaseScript = """
        local v = redis.call('GET', KEYS[1])
        if v == false or v == ARGV[1] then
          redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
          return 1
        end
        return 0
        """
    /// Deletes the lease if it is ours.
    static let releaseScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """
}
