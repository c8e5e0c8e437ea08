import CamHubProtocol
import HubCluster
import HubCore
import WebSocketTransport

/// The server API on a hub of a cluster (`--redis`): what this hub cannot
/// answer alone it asks the other hubs over Redis (`ClusterEngine.ask`), and
/// `ForwardedAPIRequests` answers the HTTP request when they reply, or with
/// 503 when they do not in time. On the room's loop, whose engine asks (the
/// room list on loop 0's): every loop is a member of the cluster.
extension ServerAPI {
    /// `GET /rooms` on loop 0, with `entries` (this process's rooms, from
    /// every loop, by name); in a cluster, every hub's, merged by name.
    static func listRooms(_ s: HubServer.State, _ entries: [APIRoomEntry], _ r: HTTPResponder) {
        guard let cluster = s.cluster, cluster.link == .up else {
            return r.respond(.json(String(decoding: Hub.apiRoomList(entries), as: UTF8.self)))
        }
        let id = cluster.ask(.rooms)
        s.forwarded.add(id, .rooms(lists: [entries], expected: nil), responder: r, at: s.now().seconds)
    }

    /// A room's state or command for the room's owner, which this hub is not
    /// (404 without a cluster: the room is not here).
    static func askOwner(_ ask: ClusterAPIRequest.Ask, of room: RoomName, _ s: HubServer.State, _ r: HTTPResponder) {
        guard let cluster = s.cluster else { return r.respond(response(.noRoom(room))) }
        guard cluster.link == .up else {
            let message = "cluster: Redis is unreachable, so the hub that owns room '\(room.value)' cannot be asked"
            return r.respond(response(ForwardedAPIRequests.unavailable(message)))
        }
        let nowhere = APIFailure(status: 404, code: "not_found", "room: no room '\(room.value)' on any hub of the cluster")
        let unanswered =
            "cluster: the hub that owns room '\(room.value)' did not answer within \(Int(ForwardedAPIRequests.answerWithin)) s"
        let id = cluster.ask(ask)
        s.forwarded.add(id, .single(nowhere: nowhere, unanswered: unanswered), responder: r, at: s.now().seconds)
    }

    /// `DELETE` of a client whose id names another hub: that hub removes it.
    static func askHub(_ hub: String, toRemove client: String, from room: RoomName, _ s: HubServer.State, _ r: HTTPResponder) {
        guard let cluster = s.cluster, cluster.link == .up else {
            let message = "cluster: Redis is unreachable, so hub '\(hub)' of client '\(client)' cannot be asked"
            return r.respond(response(ForwardedAPIRequests.unavailable(message)))
        }
        let nowhere = APIFailure(status: 404, code: "not_found", "client: no client '\(client)' on any hub of the cluster (no hub '\(hub)')")
        let unanswered = "cluster: hub '\(hub)' of client '\(client)' did not answer within \(Int(ForwardedAPIRequests.answerWithin)) s"
        let id = cluster.ask(.remove(client: client, room: room))
        s.forwarded.add(id, .single(nowhere: nowhere, unanswered: unanswered), responder: r, at: s.now().seconds)
    }
}
