import HubCore

/// The server API across hubs: a hub asks the others over Redis what it
/// cannot answer alone (`ask`), and answers what they ask of it. The engine
/// only carries the messages; the server decides and answers
/// (`takeAPIArrivals`). On the hub's loop thread, like the rest of the engine.
///
/// Where a request goes: a room's state and its commands on `{room}:cmd`
/// (every hub with the room listens; only the owner answers), a client's
/// removal on `hub:{id}` of the hub its id names, the room list on `hubs`
/// (every hub answers). SPUBLISH's count says how many hubs listen: none
/// means no hub has the room, or the client's hub is not in the cluster.
extension ClusterEngine {
    /// Publishes `ask` as a new request; returns its number. Its answers,
    /// and how many hubs got it, come back as `ClusterAPIArrival`s.
    public func ask(_ ask: ClusterAPIRequest.Ask) -> UInt64 {
        lastAPIRequest += 1
        let request = ClusterAPIRequest(id: lastAPIRequest, replyTo: hubID, ask: ask)
        let channel =
            switch ask {
            case .rooms: "hubs"
            case .room(let room), .command(let room, _, _), .story(let room, _, _): key(room, "cmd")
            case .remove(let client, _): "hub:{\(hub(ofClient: client) ?? "")}"
            }
        let bytes = ClusterMessage.apiRequest(request).encoded()
        redis.command(bytes: [Array("SPUBLISH".utf8), Array(channel.utf8), bytes], token: token(.apiDelivered(request.id)))
        return request.id
    }

    /// The hub a client id names (ids end with `.` and their hub's id); nil for an id without one.
    public func hub(ofClient client: String) -> String? {
        guard let dot = client.lastIndex(of: "."), client.index(after: dot) < client.endIndex else { return nil }
        return String(client[client.index(after: dot)...])
    }

    /// Answers `request` with an HTTP status and JSON body.
    public func answer(_ request: ClusterAPIRequest, status: Int, body: [UInt8]) {
        publish(.apiAnswer(id: request.id, status: status, body: body), on: "hub:{\(request.replyTo)}")
    }

    /// Tells the asking hub that command `request` runs here and is answered when its animation ends.
    public func answerWaiting(_ request: ClusterAPIRequest) {
        publish(.apiWaiting(id: request.id, hub: hubID), on: "hub:{\(request.replyTo)}")
    }

    /// Answers a `.rooms` request with this hub's rooms.
    public func answerRooms(_ request: ClusterAPIRequest, _ entries: [APIRoomEntry]) {
        publish(.apiRooms(id: request.id, hub: hubID, entries), on: "hub:{\(request.replyTo)}")
    }

    /// What came since the last call, in arrival order.
    public func takeAPIArrivals() -> [ClusterAPIArrival] {
        defer { apiArrivals.removeAll() }
        return apiArrivals
    }

    /// Whether hub `other` has been silent for `presenceSilence` seconds at hub second `now` (it died or stalls).
    public func isSilent(hub other: String, at now: Double) -> Bool { book.isSilent(other, at: now) }

    /// One of the API messages from Redis: requests this hub should serve
    /// (a room's only when it owns the room; never its own), and answers.
    func receivedAPI(_ message: ClusterMessage, hub: Hub, at time: HubTime) {
        switch message {
        case .apiRequest(let request):
            guard request.replyTo != hubID else { return }
            switch request.ask {
            case .room(let room), .command(let room, _, _), .story(let room, _, _): guard hub.owns(room) == true else { return }
            case .rooms, .remove: break
            }
            book.heard(request.replyTo, at: time.seconds)
            apiArrivals.append(.asked(request))
        case .apiAnswer(let id, let status, let body):
            apiArrivals.append(.answered(id: id, status: status, body: body))
        case .apiWaiting(let id, let other):
            book.heard(other, at: time.seconds)
            apiArrivals.append(.waiting(id: id, hub: other))
        case .apiRooms(let id, let other, let entries):
            apiArrivals.append(.rooms(id: id, hub: other, entries))
        default:
            return
        }
    }
}
