import Dispatch
import Synchronization
import WebSocketTransport

/// Tile reads off the event loops: a tile request is answered from a worker
/// thread (Dispatch's global pool), so a slow disk or a cold archive never
/// stalls the loop that took the request (on loop 0, every room). At most
/// `limit` reads are in flight; a request beyond that is answered 503 with
/// `Retry-After: 1` at once, so the queue of waiting reads is bounded.
public final class TileReads: Sendable {
    /// Reads in flight at most (the global pool runs about as many threads as cores, more when they block).
    public let limit: Int
    private let inFlight = Atomic<Int>(0)
    private let workers = DispatchQueue(label: "camhub.tile-reads", attributes: .concurrent)

    public init(limit: Int = 64) {
        precondition(limit >= 1)
        self.limit = limit
    }

    /// Reads now running or waiting for a worker.
    public var running: Int { inFlight.load(ordering: .relaxed) }

    /// The request handler serving `endpoint`'s tiles (GET and HEAD; others 405).
    public func handler(_ endpoint: TileEndpoint) -> HTTPAPIHandler {
        { [self] request, responder in
            guard request.method == .get || request.method == .head else {
                return responder.respond(.text("method not allowed\n", status: 405))
            }
            guard inFlight.add(1, ordering: .relaxed).newValue <= limit else {
                inFlight.subtract(1, ordering: .relaxed)
                return responder.respond(
                    HTTPResponse(
                        status: 503, contentType: "text/plain; charset=utf-8", body: Array("too many tile reads at once; try again\n".utf8),
                        headers: ["retry-after": "1"]))
            }
            workers.async { [self] in
                let response = endpoint.respond(request)
                inFlight.subtract(1, ordering: .relaxed)
                responder.respond(response)
            }
        }
    }
}
