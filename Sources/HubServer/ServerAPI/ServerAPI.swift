import CamHubProtocol
import Foundation
import HubCore
import WebSocketTransport

/// The server API for backends and moderation, under `/api/v1/` on the hub's
/// HTTP port (`--api-key-file`; without keys it is off and answers 404):
/// - `GET /api/v1/rooms`, `GET /api/v1/rooms/{room}`;
/// - `POST /api/v1/rooms/{room}/commands` (`?wait=finished`);
/// - `GET`, `PUT /api/v1/rooms/{room}/story` (`ServerAPI+Story`);
/// - `POST /api/v1/rooms/{room}/story/step` (`ServerAPI+Step`);
/// - `DELETE /api/v1/rooms/{room}/clients/{client}`.
/// Described in docs/openapi.yaml. Authorized and rate-limited on the loop
/// that took the request (`APIAccess`); a room's work runs on its loop's hub,
/// the room list is gathered from every loop's (`LoopHubs.gather`).
/// In a cluster any hub answers for the whole cluster: what it cannot answer
/// alone it asks the other hubs over Redis (`ServerAPI+Cluster`, `ForwardedAPIRequests`).
struct ServerAPI: Sendable {
    static let prefix = "/api/v1/"
    let access: APIAccess

    /// What a request asks: work on one room's hub, or the list of every loop's rooms.
    enum Work: Sendable {
        case room(RoomName, @Sendable (HubServer.State, HTTPResponder) -> Void)
        case list
    }

    /// The handler of `/api/v1/`: a room's work runs on the hub of `hubs` that holds it.
    func handler(_ hubs: LoopHubs) -> HTTPAPIHandler {
        let access = self.access
        return { request, responder in
            guard let key = access.key(from: request.authorization) else {
                let failure = APIFailure(status: 401, code: "unauthorized", "authorization: send Authorization: Bearer <API key>")
                return responder.respond(Self.response(failure, headers: ["www-authenticate": "Bearer"]))
            }
            guard access.admit(key) else {
                let failure = APIFailure(
                    status: 429, code: "rate_limited", "more than \(Int(APIAccess.requestsPerSecond)) requests per second for this key")
                return responder.respond(Self.response(failure, headers: ["retry-after": "1"]))
            }
            do throws(APIFailure) {
                switch try Self.route(request) {
                case .room(let room, let work):
                    hubs.post(to: hubs.placement.loop(of: room)) { s in
                        work(s, responder)
                        s.sink.flush()
                    }
                case .list:
                    let entries: @Sendable (HubServer.State) -> [APIRoomEntry] = { $0.hub.apiRoomEntries() }
                    hubs.gather(entries) { s, lists in
                        Self.listRooms(s, lists.joined().sorted { $0.name.value < $1.name.value }, responder)
                    }
                }
            } catch {
                responder.respond(Self.response(error))
            }
        }
    }

    /// What the request asks of the hub, checked as far as it can be here.
    private static func route(_ request: HTTPRequest) throws(APIFailure) -> Work {
        let parts = request.path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let read = request.method == .get || request.method == .head
        switch parts.count {
        case 1 where parts[0] == "rooms":
            guard read else { throw methodNotAllowed("GET") }
            return .list
        case 2 where parts[0] == "rooms":
            guard read else { throw methodNotAllowed("GET") }
            let room = try roomName(parts[1])
            return .room(room) { s, r in
                guard let json = s.hub.apiRoom(room, at: s.now()) else { return askOwner(.room(room), of: room, s, r) }
                r.respond(.json(String(decoding: json, as: UTF8.self)))
            }
        case 3 where parts[0] == "rooms" && parts[2] == "commands":
            guard request.method == .post else { throw methodNotAllowed("POST") }
            let room = try roomName(parts[1])
            let wait = try waitsUntilFinished(request)
            let body = request.body
            return .room(room) { s, r in
                // In a cluster, a room this hub does not run goes to the hub that does.
                guard s.cluster == nil || s.hub.owns(room) == true else {
                    return askOwner(.command(room, body: body, untilFinished: wait), of: room, s, r)
                }
                command(body, in: room, untilFinished: wait, s, r)
            }
        case 3 where parts[0] == "rooms" && parts[2] == "story":
            return try storyFile(request, in: try roomName(parts[1]))
        case 4 where parts[0] == "rooms" && parts[2] == "story" && parts[3] == "step":
            guard request.method == .post else { throw methodNotAllowed("POST") }
            return try storyStep(request.body, in: try roomName(parts[1]))
        case 4 where parts[0] == "rooms" && parts[2] == "clients" && !parts[3].isEmpty:
            guard request.method == .delete else { throw methodNotAllowed("DELETE") }
            let room = try roomName(parts[1])
            let client = parts[3]
            return .room(room) { s, r in
                if let hub = s.cluster?.hub(ofClient: client), hub != s.cluster?.hubID { return askHub(hub, toRemove: client, from: room, s, r) }
                guard s.hub.apiRemove(client: client, from: room, at: s.now(), sink: s.sink) else {
                    let failure = APIFailure(status: 404, code: "not_found", "client: no client '\(client)' in room '\(room.value)' on this hub")
                    return r.respond(response(failure))
                }
                r.respond(HTTPResponse(status: 204, contentType: "application/json", body: []))
            }
        default:
            throw APIFailure(status: 404, code: "not_found", "path: \(request.path) is not part of the API (see docs/openapi.yaml)")
        }
    }

    /// Runs a command; answers with the error, the animation's report (its
    /// first, or its last with `?wait=finished`), the storyboard after a
    /// `step` (`stepAnswer`), the `result` (summon) or `clamped` event the hub
    /// gave, or `{"type":"done"}`.
    static func command(_ body: [UInt8], in room: RoomName, untilFinished: Bool, _ s: HubServer.State, _ r: HTTPResponder) {
        let (bytes, animationID) = withAnimationID(body)
        let now = s.now()
        var ran: (key: ConnectionKey, client: String, message: ClientMessage)?
        let answers: [[UInt8]]
        do throws(APIFailure) {
            let collected = try s.api.collect { () throws(APIFailure) in ran = try s.hub.apiCommand(bytes, in: room, at: now, sink: s.sink) }
            answers = ran.map { collected[$0.key] ?? [] } ?? []
        } catch {
            return r.respond(response(error))
        }
        s.sink.flush()
        guard let ran else { return r.respond(response(APIFailure(status: 500, code: "internal", "the command did not run"))) }
        if let error = answers.first(where: { $0.starts(with: Array(#"{"type":"error""#.utf8)) }) {
            return r.respond(response(failure(from: error) ?? APIFailure(status: 400, code: "bad_message", "the hub refused the command")))
        }
        if case .step = ran.message, let story = s.hub.story(of: room) { return r.respond(.json(stepAnswer(story))) }
        if let id = animationID ?? ran.message.animationID {
            // Its report may have come already; else when the room next ticks (or, with `untilFinished`, when it ends).
            let waiter = APIAnswers.Waiter(key: ran.key, id: id, untilEnd: untilFinished, responder: r, since: now.seconds)
            if let report = answers.first(where: { waiter.isAnswered(by: $0) }) { return r.respond(.json(String(decoding: report, as: UTF8.self))) }
            return s.api.wait(waiter)
        }
        // A `result` (summon) or a `clamped` event; reports of earlier animations it ended are not its answer.
        let answer = answers.last { $0.starts(with: Array(#"{"type":"result""#.utf8)) || $0.starts(with: Array(#"{"type":"event""#.utf8)) }
        r.respond(.json(answer.map { String(decoding: $0, as: UTF8.self) } ?? #"{"type":"done"}"#))
    }

    static func response(_ failure: APIFailure, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: failure.status, contentType: "application/json", body: failure.json, headers: headers)
    }

    static func methodNotAllowed(_ allowed: String) -> APIFailure {
        APIFailure(status: 405, code: "method_not_allowed", "method: this path takes \(allowed)")
    }

    static func roomName(_ text: String) throws(APIFailure) -> RoomName {
        do { return try RoomName(validating: text) } catch { throw APIFailure(status: 400, code: "bad_message", "room: \(error.message)") }
    }

    private static func waitsUntilFinished(_ request: HTTPRequest) throws(APIFailure) -> Bool {
        switch request.query["wait"] {
        case nil: return false
        case "finished": return true
        case let other?: throw APIFailure(status: 400, code: "bad_message", "wait: must be 'finished' (got '\(other)')")
        }
    }

    /// The `error` message `bytes` as an API failure.
    static func failure(from bytes: [UInt8]) -> APIFailure? {
        guard case .object(let o)? = try? JSONParser.parse(bytes), case .string(let code)? = o["code"],
            let known = ProtocolError.Code(rawValue: code), case .string(let message)? = o["message"]
        else { return nil }
        let ref: String? = if case .string(let r)? = o["ref"] { r } else { nil }
        return APIFailure(ProtocolError(known, message, ref: ref))
    }

    /// An `ease`, `fly` or `animate` without an `id` gets one (`api-N`), so
    /// that its report can be told apart; other messages are left as they are.
    private static func withAnimationID(_ body: [UInt8]) -> ([UInt8], String?) {
        guard case .object(let o)? = try? JSONParser.parse(body), case .string(let type)? = o["type"],
            ["ease", "fly", "animate"].contains(type), o["id"] == nil, let open = body.firstIndex(of: UInt8(ascii: "{"))
        else { return (body, nil) }
        let id = "api-\(UUID().uuidString.prefix(8).lowercased())"
        return (Array(body[...open]) + Array(#""id":"\#(id)","#.utf8) + Array(body[(open + 1)...]), id)
    }
}

extension ClientMessage {
    /// The id of an animation command (`ease`, `fly`, `animate`), when it has one.
    var animationID: String? {
        switch self {
        case .ease(let m): m.id
        case .fly(let m): m.id
        case .animate(let m): m.id
        default: nil
        }
    }
}
