import Dispatch
import Synchronization

/// Requests whose answer reads files (tiles, recordings) answered off the
/// event loops: the loop that took the request hands it to a worker thread
/// (Dispatch's global pool) and the answer comes back through
/// `HTTPResponder`, so a slow disk never stalls a loop (on loop 0, every
/// room). At most `limit` reads are in flight; a request beyond that is
/// answered 503 with `Retry-After: 1` at once, so the work waiting is bounded.
public final class OffLoopReads: Sendable {
    /// What is read, for the busy answer ("tile", "recording").
    public let what: String
    /// Reads in flight at most (the global pool runs about as many threads as cores, more when they block).
    public let limit: Int
    private let inFlight = Atomic<Int>(0)
    private let workers: DispatchQueue

    public init(_ what: String, limit: Int = 64) {
        precondition(limit >= 1)
        self.what = what
        self.limit = limit
        workers = DispatchQueue(label: "camhub.reads.\(what)", attributes: .concurrent)
    }

    /// Reads now running or waiting for a worker.
    public var running: Int { inFlight.load(ordering: .relaxed) }

    /// A handler answering GET and HEAD with `answer` run on a worker (other methods: 405).
    public func handler(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) -> HTTPAPIHandler {
        { [self] request, responder in
            guard request.method == .get || request.method == .head else {
                return responder.respond(.text("method not allowed\n", status: 405))
            }
            guard inFlight.add(1, ordering: .relaxed).newValue <= limit else {
                inFlight.subtract(1, ordering: .relaxed)
                let text = "more than \(limit) \(what) reads at once; try again\n"
                return responder.respond(
                    HTTPResponse(status: 503, contentType: "text/plain; charset=utf-8", body: Array(text.utf8), headers: ["retry-after": "1"]))
            }
            workers.async { [self] in
                let response = answer(request)
                inFlight.subtract(1, ordering: .relaxed)
                responder.respond(response)
            }
        }
    }
}
