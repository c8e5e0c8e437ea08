import Synchronization
import WebSocketTransport

/// The servers of one hub: `count` libwebsockets servers, each on its own loop
/// thread, serving one port. Loop 0 listens and hands every other accepted
/// connection to the other loops in turn (`AcceptSpread`). (lws 4.1 does not
/// set SO_REUSEPORT, so the loops cannot each listen on the port.)
///
/// Who owns what:
/// - Loop 0 (`hub`) owns the `Hub` and everything that touches it: the tick,
///   the send passes, `/healthz`, `/metrics`, persistence, the connection log.
/// - Every loop owns its own sockets and their send lanes. Loops 1… hand
///   their connections' opens, messages and closes to loop 0 (a mailbox post
///   each) and get back one `OutboundBatch` per flush.
/// - Nothing else is shared but immutable frames' payload bytes and the caps'
///   `ConnectionAdmission` (behind its lock).
struct HubLoops: Sendable {
    let servers: [WebSocketServer]
    /// Per loop, the bound on its clients' messages waiting for loop 0 (nil for loop 0 itself).
    let mailboxGates: [HubMailboxGate?]

    /// `hubQueue`: messages each loop but 0 may have waiting for loop 0.
    init(servers: [WebSocketServer], hubQueue: Int) {
        self.servers = servers
        mailboxGates = servers.indices.map { $0 == 0 ? nil : HubMailboxGate(limit: hubQueue) }
    }

    /// Client messages of the other loops waiting for loop 0, over all of them (any thread).
    var mailboxDepth: Int { mailboxGates.reduce(0) { $0 + ($1?.depth ?? 0) } }

    var count: Int { servers.count }
    /// Loop 0: the hub's own loop.
    var hub: WebSocketServer { servers[0] }

    /// Which loop owns `connection`.
    func index(of connection: ConnectionID) -> Int {
        connection.loop(among: servers.count)
    }

    /// Batches from the hub's loop waiting for the other loops, over all of them (any thread).
    var queuedBatches: Int { servers.reduce(0) { $0 + $1.queuedBatchCount } }

    /// The transport's running totals over every loop, for the metrics (any thread).
    var transportTotals: TransportTotals {
        TransportTotals(
            framesReplaced: servers.reduce(0) { $0 + $1.framesReplaced },
            framesJoined: servers.reduce(0) { $0 + $1.batchedSendStats.joinedFrames },
            slowCloses: servers.reduce(SlowCloses()) { $0 + $1.slowCloses })
    }

    /// An HTTP request about the hub (`path`, GET or HEAD) that arrived on loop
    /// `index` (not 0): `answer` runs on the hub's loop and its response goes
    /// back to the request whenever it comes, so loop `index` never waits;
    /// 503 when the hub's loop has not answered within `timeout`.
    func answeredOnHubLoop(
        _ path: String, from index: Int, timeout: Duration = .seconds(2), _ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) -> HTTPAPIHandler {
        let hubLoop = hub.loop
        let here = servers[index].loop
        let busy = HTTPResponse.text("the hub's loop did not answer in time; try again\n", status: 503)
        return { request, responder in
            guard request.path == path else { return responder.respond(.text("not found\n", status: 404)) }
            guard request.method == .get || request.method == .head else {
                return responder.respond(.text("method not allowed\n", status: 405))
            }
            here.schedule(after: timeout) { responder.respond(busy) }  // the first answer wins
            guard hubLoop.execute({ responder.respond(answer(request)) }) else { return responder.respond(busy) }
        }
    }
}

/// Spreads accepted connections over the loops in turn: loop 0 keeps one,
/// then each other loop gets one (`ServerConfiguration.handOff`). Round robin
/// rather than least-loaded: a burst of accepts arrives before any of them
/// is counted as open. Called on loop 0's thread; the counter is atomic only
/// because the closure must be `Sendable`.
final class AcceptSpread: Sendable {
    private let others: [WebSocketServer]
    private let accepted = Atomic<Int>(0)

    init(others: [WebSocketServer]) { self.others = others }

    /// Whether a loop other than 0 took `socket`.
    func handOff(_ socket: Int32) -> Bool {
        let turn = accepted.add(1, ordering: .relaxed).newValue % (others.count + 1)
        guard turn > 0 else { return false }
        others[turn - 1].adopt(socket: socket)
        return true
    }
}
