import HubCluster
import HubCore
import Synchronization
import WebSocketTransport

extension HubServer.State {
    /// This loop, after each of its engine's events: serves the API requests other hubs
    /// asked this one, and hands the answers to this hub's requests to
    /// `forwarded`. `bound` is this state, for answers that come later.
    func takeClusterAPI(_ bound: LoopBound<HubServer.State>) {
        guard let cluster else { return }
        for arrival in cluster.takeAPIArrivals() {
            guard case .asked(let request) = arrival else {
                forwarded.arrived(arrival)
                continue
            }
            serve(request, cluster, bound)
        }
    }

    /// Runs a request of another hub as if it had come over HTTP here, and answers it over Redis.
    private func serve(_ request: ClusterAPIRequest, _ cluster: ClusterEngine, _ bound: LoopBound<HubServer.State>) {
        switch request.ask {
        case .rooms:
            cluster.answerRooms(request, hub.apiRoomEntries())
        case .room(let room):
            guard let json = hub.apiRoom(room, at: now()) else { return answer(request, .noRoom(room), cluster) }
            cluster.answer(request, status: 200, body: json)
        case .remove(let client, let room):
            guard hub.apiRemove(client: client, from: room, at: now(), sink: sink) else {
                let failure = APIFailure(status: 404, code: "not_found", "client: no client '\(client)' in room '\(room.value)' on its hub")
                return answer(request, failure, cluster)
            }
            cluster.answer(request, status: 204, body: [])
        case .command(let room, let body, let untilFinished):
            // The answer may come now or at the animation's end (from a tick): either way on this loop.
            let answered = AnsweredFlag()
            let responder = HTTPResponder { response in
                answered.raise()
                bound.value.cluster?.answer(request, status: response.status, body: response.body)
            }
            ServerAPI.command(body, in: room, untilFinished: untilFinished, self, responder)
            if !answered.isRaised { cluster.answerWaiting(request) }
        case .story(let room, let body, let contentType):
            let responder = HTTPResponder { response in bound.value.cluster?.answer(request, status: response.status, body: response.body) }
            ServerAPI.putStory(body, contentType: contentType, in: room, self, responder)
        }
    }

    private func answer(_ request: ClusterAPIRequest, _ failure: APIFailure, _ cluster: ClusterEngine) {
        cluster.answer(request, status: failure.status, body: failure.json)
    }
}

/// Whether a responder was called: raised once, read on the thread that raised it.
final class AnsweredFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}
