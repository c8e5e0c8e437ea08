import HubCluster
import HubCore
import WebSocketTransport

/// Server API requests this hub took over HTTP and asked other hubs of its
/// cluster (`ClusterEngine.ask`), until their answers come back over Redis.
/// Every one is answered within a bound: by the other hub, else with 503
/// (or, for the room list, with the rooms of the hubs that did answer).
/// On its loop only (the thread of the hub whose engine asked), where the engine's arrivals are taken.
final class ForwardedAPIRequests {
    enum Kind {
        /// One hub answers (the room's owner, or the client's hub). `nowhere`:
        /// the answer when Redis handed the request to no hub; `unanswered`:
        /// the 503's message when none answered in time.
        case single(nowhere: APIFailure, unanswered: String)
        /// Every hub answers with its rooms; this hub's are in `lists` already.
        /// `expected`: how many other hubs got the request (known once Redis says).
        case rooms(lists: [[APIRoomEntry]], expected: Int?)
    }

    struct Pending {
        let responder: HTTPResponder
        var kind: Kind
        /// Hub seconds when it was asked.
        let since: Double
        /// The hub that runs the command and waits for its animation's end
        /// (`?wait=finished`): the request then waits while that hub lives.
        var runningOn: String?
    }

    private var pending: [UInt64: Pending] = [:]
    /// Seconds another hub has to answer, or to say that it waits for an animation's end.
    static let answerWithin = 2.0
    /// Seconds a request waits at most for an animation's end on another hub
    /// (that hub answers 504 at `APIAnswers.longestWait`; this is the net under it).
    static let longestWait = APIAnswers.longestWait + 2 * answerWithin

    var count: Int { pending.count }

    func add(_ id: UInt64, _ kind: Kind, responder: HTTPResponder, at now: Double) {
        pending[id] = Pending(responder: responder, kind: kind, since: now)
    }

    /// An arrival about a request this hub asked (`.asked` is not one: the server serves those).
    func arrived(_ arrival: ClusterAPIArrival) {
        switch arrival {
        case .asked:
            return
        case .delivered(let id, let receivers):
            delivered(id, receivers: receivers)
        case .answered(let id, let status, let body):
            guard let request = pending.removeValue(forKey: id) else { return }
            request.responder.respond(HTTPResponse(status: status, contentType: "application/json", body: body))
        case .waiting(let id, let hub):
            pending[id]?.runningOn = hub
        case .rooms(let id, _, let entries):
            guard case .rooms(let lists, let expected)? = pending[id]?.kind else { return }
            pending[id]?.kind = .rooms(lists: lists + [entries], expected: expected)
            finishRooms(id)
        }
    }

    /// Redis handed request `id` to `receivers` hubs (this one included, for the room list).
    private func delivered(_ id: UInt64, receivers: Int?) {
        guard let request = pending[id] else { return }
        switch request.kind {
        case .single(let nowhere, _):
            if receivers == 0 {
                finish(id, with: ServerAPI.response(nowhere))
            } else if receivers == nil {
                finish(id, with: ServerAPI.response(Self.unavailable("cluster: Redis did not take the request; try again")))
            }
        case .rooms(let lists, _):
            pending[id]?.kind = .rooms(lists: lists, expected: max(0, (receivers ?? 1) - 1))
            finishRooms(id)
        }
    }

    /// Answers the room list once every hub that got the request answered.
    private func finishRooms(_ id: UInt64) {
        guard case .rooms(let lists, let expected?)? = pending[id]?.kind, lists.count - 1 >= expected else { return }
        finish(id, with: .json(String(decoding: Hub.apiRoomList(Hub.mergedRoomEntries(lists)), as: UTF8.self)))
    }

    /// Answers what waited too long (at hub second `now`): 503 when the
    /// other hub did not answer in `answerWithin` s or, running a command
    /// that waits for its animation, fell silent (`isSilent`); the room list
    /// with the rooms of the hubs that answered.
    func expire(at now: Double, isSilent: (String) -> Bool) {
        for (id, request) in pending {
            let waited = now - request.since
            if let hub = request.runningOn {
                if isSilent(hub) {
                    finish(
                        id, with: ServerAPI.response(Self.unavailable("cluster: hub '\(hub)', which ran the command, went silent before its animation ended")))
                } else if waited >= Self.longestWait {
                    let failure = APIFailure(status: 504, code: "timeout", "wait: the animation did not end within \(Int(APIAnswers.longestWait)) s")
                    finish(id, with: ServerAPI.response(failure))
                }
                continue
            }
            guard waited >= Self.answerWithin else { continue }
            switch request.kind {
            case .single(_, let unanswered):
                finish(id, with: ServerAPI.response(Self.unavailable(unanswered)))
            case .rooms(let lists, let expected):
                let missing = max(0, (expected ?? 0) - (lists.count - 1))
                finish(id, with: .json(String(decoding: Hub.apiRoomList(Hub.mergedRoomEntries(lists), unanswered: missing), as: UTF8.self)))
            }
        }
    }

    private func finish(_ id: UInt64, with response: HTTPResponse) {
        pending.removeValue(forKey: id)?.responder.respond(response)
    }

    static func unavailable(_ message: String) -> APIFailure { APIFailure(status: 503, code: "unavailable", message) }
}
