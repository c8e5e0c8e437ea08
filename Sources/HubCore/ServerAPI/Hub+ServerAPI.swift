import CamHubProtocol
import CameraCore

/// Connection keys of the server API's sessions: one per room it sent
/// commands to, above the keys of other hubs' clients (`remoteConnectionBase`).
public let apiConnectionBase: ConnectionKey = remoteConnectionBase + (1 << 60)

/// One room of the server API's room list: its JSON object, and whether the
/// hub that wrote it runs the room's camera (owns it) or mirrors it.
public struct APIRoomEntry: Hashable, Sendable {
    public var name: RoomName
    public var owned: Bool
    /// `{"name","clients","followers","presenter","moving"}`.
    public var json: [UInt8]

    public init(name: RoomName, owned: Bool, json: [UInt8]) {
        self.name = name
        self.owned = owned
        self.json = json
    }
}

/// Why the server API could not do what it was asked: the HTTP status, a
/// code (the protocol's error codes, and `not_found`, `unauthorized`,
/// `method_not_allowed`, `rate_limited`, `timeout` for what only HTTP has),
/// a message naming the field first, and the offending message's `ref`.
public struct APIFailure: Error, Hashable, Sendable {
    public var status: Int
    public var code: String
    public var message: String
    public var ref: String?

    public init(status: Int, code: String, _ message: String, ref: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.ref = ref
    }

    /// A protocol error, with the HTTP status that says the same.
    public init(_ error: ProtocolError) {
        let status =
            switch error.code {
            case .badMessage, .unknownType, .token: 400
            case .forbidden: 403
            case .unknownAnimation: 404
            case .conflict, .policy, .notJoined: 409
            case .rateLimited: 429
            case .unavailable, .full: 503
            }
        self.init(status: status, code: error.code.rawValue, error.message, ref: error.ref)
    }

    /// `{"type":"error","code":…,"message":…,"ref":…}`, as the protocol's `error`.
    public var json: [UInt8] {
        var w = JSONWriter(capacity: 96 + message.utf8.count)
        w.raw("{\"type\":\"error\",\"code\":")
        w.string(code)
        w.raw(",\"message\":")
        w.string(message)
        w.raw(",\"ref\":")
        w.string(ref)
        w.raw("}")
        return w.bytes
    }

    public static func noRoom(_ name: RoomName) -> APIFailure {
        APIFailure(status: 404, code: "not_found", "room: no room '\(name.value)' on this hub")
    }
}

/// The server API's side of the hub (`/api/v1/`, served by `HubServer`):
/// the rooms and their state as JSON, commands run as the room's server
/// (a presenter with a client id of its own, unlisted), clients removed. On the hub's thread.
extension Hub {
    /// The messages the server API runs (as a presenter would send them).
    public static let apiCommandTypes: Set<String> = [
        "set", "ease", "fly", "animate", "cancel", "limits", "track", "route", "summon", "followPolicy", "projection", "story", "step",
    ]

    /// `{"rooms":[{"name","clients","followers","presenter","moving"}…]}`, by name.
    public func apiRoomList() -> [UInt8] { Self.apiRoomList(apiRoomEntries()) }

    /// This hub's rooms as the room list has them, by name, each marked
    /// whether this hub runs its camera (in a cluster: whose entry wins, `mergedRoomEntries`).
    public func apiRoomEntries() -> [APIRoomEntry] {
        rooms.values.sorted(by: { $0.name.value < $1.name.value }).map { room in
            let name = room.name
            let audience = room.audience
            var w = JSONWriter(capacity: 96)
            w.raw("{\"name\":")
            w.string(name.value)
            w.raw(",\"clients\":")
            w.integer(UInt64(audience.clients))
            w.raw(",\"followers\":")
            w.integer(UInt64(audience.followers))
            w.raw(",\"presenter\":")
            w.string(room.clusterPresenter)
            w.raw(",\"moving\":")
            w.bool(room.mirror?.moving ?? room.frameMoving)
            w.raw("}")
            return APIRoomEntry(name: name, owned: room.authority == .owned, json: w.bytes)
        }
    }

    /// `{"rooms":[…]}` of `entries` in their order; with `"unanswered":N` when
    /// N hubs of a cluster did not say their rooms in time (never on one hub).
    public static func apiRoomList(_ entries: [APIRoomEntry], unanswered: Int = 0) -> [UInt8] {
        var w = JSONWriter(capacity: 64 + entries.reduce(0) { $0 + $1.json.count + 1 })
        w.raw("{\"rooms\":[")
        for (i, entry) in entries.enumerated() {
            if i > 0 { w.raw(",") }
            w.encoded(entry.json)
        }
        w.raw("]")
        if unanswered > 0 {
            w.raw(",\"unanswered\":")
            w.integer(UInt64(unanswered))
        }
        w.raw("}")
        return w.bytes
    }

    /// The rooms of several hubs as one list, by name: a room several hubs
    /// have appears once, as its owner tells it (else as the first hub that has it).
    /// Head counts are the cluster's on every hub, so the entries differ only in freshness.
    public static func mergedRoomEntries(_ lists: [[APIRoomEntry]]) -> [APIRoomEntry] {
        var byName: [RoomName: APIRoomEntry] = [:]
        for entry in lists.joined() {
            guard let known = byName[entry.name] else {
                byName[entry.name] = entry
                continue
            }
            if entry.owned && !known.owned { byName[entry.name] = entry }
        }
        return byName.values.sorted { $0.name.value < $1.name.value }
    }

    /// `{"name":…,"seq":…,"camera":…,…}`: the room's state as a joiner is
    /// welcomed with it (camera, limits, presenter, head counts, follow policy,
    /// roster with follow states, running animations, tracking, route, view),
    /// plus `moving`. Nil when this hub has no such room.
    public func apiRoom(_ name: RoomName, at time: HubTime) -> [UInt8]? {
        guard let room = rooms[name] else { return nil }
        let state = room.welcome(at: time, tick: configuration.tick)
        var w = JSONWriter(capacity: 512 + 64 * state.roster.count)
        w.raw("{\"name\":")
        w.string(name.value)
        w.raw(",\"moving\":")
        w.bool(room.mirror?.moving ?? room.frameMoving)
        HubMessage.roomStateHead(state, into: &w)
        w.raw("],")
        HubMessage.roomStateTail(state, into: &w)
        w.raw("}")
        return w.bytes
    }

    /// Runs `bytes`, one command as a presenter would send it, in room `name`
    /// as the room's server: its answers (`error`, `clamped`, `animation`,
    /// `result`) go to the returned connection key through `sink`. Throws
    /// when the room is not here (404), the message is not one of
    /// `apiCommandTypes` or does not decode (400), or this hub cannot run the
    /// room's camera now (503: another hub owns it, or it is fenced).
    public mutating func apiCommand(_ bytes: [UInt8], in name: RoomName, at time: HubTime, sink: some HubSink) throws(APIFailure)
        -> (key: ConnectionKey, client: String, message: ClientMessage)
    {
        guard rooms.contains(name) else { throw .noRoom(name) }
        let message: ClientMessage
        do { message = try ClientMessage.decode(bytes, tick: configuration.tick) } catch { throw APIFailure(error) }
        guard Self.apiCommandTypes.contains(message.type) else {
            let allowed = Self.apiCommandTypes.sorted().joined(separator: ", ")
            throw APIFailure(ProtocolError(.badMessage, "type: the server API runs \(allowed), not \(message.type)", ref: message.ref))
        }
        let (key, client) = apiSession(in: name)
        let command = ForwardedCommand(room: name, client: client, role: .presenter, viewport: Viewport(width: 1280, height: 720), message: bytes)
        guard receiveForwarded(command, as: key, at: time, sink: sink) else {
            throw APIFailure(.unavailable(ref: message.ref))
        }
        return (key, client, message)
    }

    /// The server API's key and client id in room `name` (made on first use).
    private mutating func apiSession(in name: RoomName) -> (ConnectionKey, String) {
        if let key = apiSessions[name], let client = sessions[key]?.client { return (key, client) }
        apiSessionCount += 1
        apiSessions[name] = apiConnectionBase + apiSessionCount
        return (apiConnectionBase + apiSessionCount, ids.next())  // a client id like any other (`c12`), for the room's reports
    }

    /// Room `name` went away: so does the server API's session in it.
    mutating func forgetAPISession(in name: RoomName) {
        guard let key = apiSessions.removeValue(forKey: name), let client = sessions.removeValue(forKey: key)?.client else { return }
        remoteConnections[client] = nil
        connectionOfClient[client] = nil
    }

    /// Closes client `client` of room `name` with 4000 "removed by the server
    /// API" (its room sees it leave). Returns false when it is not a client of
    /// that room on this hub.
    public mutating func apiRemove(client: String, from name: RoomName, at time: HubTime, sink: some HubSink) -> Bool {
        guard
            let connection = sessions.first(where: { $0.value.client == client && $0.value.room == name && $0.key < remoteConnectionBase })?
                .key
        else { return false }
        closeSession(connection, code: .removedByServer, reason: "removed by the server API", at: time, sink: sink)
        return true
    }
}
