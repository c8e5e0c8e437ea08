import HubCore
import WebSocketTransport

extension HubServer {
    /// `/healthz` and `/metrics` (GET or HEAD), answered with every loop's
    /// figures: whichever loop takes the request gathers them (`LoopHubs.gather`)
    /// and loop 0 answers, so no loop waits for another meanwhile; 503 when
    /// they have not all answered within `timeout`.
    func hubEndpoints(loop index: Int, timeout: Duration = .seconds(2)) -> [String: HTTPAPIHandler] {
        let hubs = self.hubs
        let loops = self.loops
        let metrics = self.metrics
        let endpoint = MetricsEndpoint(token: configuration.metricsToken)
        let draining = self.draining
        let here = loops.servers[index].loop
        let busy = HTTPResponse.text("the hub's loops did not answer in time; try again\n", status: 503)
        func gathered(_ path: String, _ answer: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void) -> HTTPAPIHandler {
            { request, responder in
                guard request.path == path else { return responder.respond(.text("not found\n", status: 404)) }
                guard request.method == .get || request.method == .head else {
                    return responder.respond(.text("method not allowed\n", status: 405))
                }
                here.schedule(after: timeout) { responder.respond(busy) }  // the first answer wins
                answer(request, responder)
            }
        }
        let health = gathered("/healthz") { _, responder in
            let snapshot: @Sendable (State) -> HealthSnapshot = { s in HealthSnapshot(s.hub, now: s.now().seconds, cluster: s.cluster) }
            hubs.gather(snapshot) { _, parts in
                guard let sum = parts.sum else { return responder.respond(busy) }
                let isDraining = draining.isRaised
                let report = HealthReport.json(sum, connectionsPerLoop: loops.servers.map(\.openConnections), draining: isDraining)
                responder.respond(.json(report, status: isDraining ? 503 : 200))
            }
        }
        let scrape = gathered(MetricsEndpoint.path) { request, responder in
            guard endpoint.authorizes(request) else { return responder.respond(endpoint.respond(request) { [] }) }
            Self.flushMetrics(hubs, metrics, loops) {
                responder.respond(endpoint.respond(request) { metrics.value.exposition() })
            }
        }
        return ["/healthz": health, MetricsEndpoint.path: scrape]
    }
}
