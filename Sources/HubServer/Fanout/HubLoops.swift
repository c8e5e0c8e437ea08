import CamHubProtocol
import Synchronization
import WebSocketTransport

/// The servers of one hub: `count` libwebsockets servers, each on its own loop
/// thread, serving one port. Loop 0 listens and puts each accepted connection
/// on the loop of the room its URL names, or without one on the loops in turn
/// (`AcceptSpread`). (lws 4.1 does not
/// set SO_REUSEPORT, so the loops cannot each listen on the port.)
///
/// Who owns what:
/// - Every loop owns its own sockets and their send lanes, and a hub
///   (`HubServer.State`, `LoopHubs`) with the rooms `RoomPlacement` gives it:
///   their ticks, send passes and sessions.
/// - A client's opens, messages and closes go to its loop's hub; a client
///   whose `hello` names a room of another loop is handed to that loop's hub,
///   and what it sends later follows it there, in order (a mailbox post each).
///   Frames and messages for a connection of another loop go to it as one
///   `OutboundBatch` per flush.
/// - Loop 0 also owns the metrics' registry; with `--redis` each loop owns its Redis engine.
/// - Nothing else is shared but immutable frames' payload bytes, the caps'
///   `ConnectionAdmission` and the rooms' count (`RoomCount`), each behind its lock or atomics.
struct HubLoops: Sendable {
    let servers: [WebSocketServer]
    /// Per loop, the bound on its clients' messages waiting for another loop's hub.
    let mailboxGates: [HubMailboxGate]

    /// `hubQueue`: messages each loop's clients may have waiting for other loops' hubs.
    init(servers: [WebSocketServer], hubQueue: Int) {
        self.servers = servers
        mailboxGates = servers.map { _ in HubMailboxGate(limit: hubQueue) }
    }

    /// Client messages waiting for another loop's hub, over all loops (any thread).
    var mailboxDepth: Int { mailboxGates.reduce(0) { $0 + $1.depth } }

    var count: Int { servers.count }
    /// Loop 0: the hub's own loop.
    var hub: WebSocketServer { servers[0] }

    /// Which loop owns `connection`.
    func index(of connection: ConnectionID) -> Int {
        connection.loop(among: servers.count)
    }

    /// Batches from the hubs' loops waiting for the other loops, over all of them (any thread).
    var queuedBatches: Int { servers.reduce(0) { $0 + $1.queuedBatchCount } }

    /// The transport's running totals over every loop, for the metrics (any thread).
    var transportTotals: TransportTotals {
        TransportTotals(
            framesReplaced: servers.reduce(0) { $0 + $1.framesReplaced },
            framesJoined: servers.reduce(0) { $0 + $1.batchedSendStats.joinedFrames },
            slowCloses: servers.reduce(SlowCloses()) { $0 + $1.slowCloses })
    }
}

/// Places each accepted connection on a loop (`ServerConfiguration.handOff`):
/// on the loop of its room when the request names one (`/hub?room=demo`, the
/// room the client's `hello` will join; our client libraries add it), else
/// over the loops in turn (loop 0 keeps one, then each other loop gets one).
///
/// Why by room: a follower on another loop than its room's gets each frame
/// through a cross-loop batch, and measured on two cores that costs more than
/// the second loop gives (docs/BENCHMARKS.md, "Fan-out … default setup"); a
/// room's followers on its own loop are written straight from its send pass,
/// and rooms spread over the loops by name. A hint that does not match the
/// hello costs nothing more than no hint (the hub hands the client over as
/// before). Round robin rather than least-loaded for the rest: a burst of
/// accepts arrives before any of them is counted as open. Called on loop 0's
/// thread; the counter is atomic only because the closure must be `Sendable`.
final class AcceptSpread: Sendable {
    private let others: [WebSocketServer]
    private let placement: RoomPlacement
    private let accepted = Atomic<Int>(0)

    init(others: [WebSocketServer], placement: RoomPlacement) {
        self.others = others
        self.placement = placement
    }

    /// Whether a loop other than 0 took `socket`.
    func handOff(_ socket: Int32, requestTarget: String?) -> Bool {
        let loop: Int
        if let room = requestTarget.flatMap(Self.room(in:)) {
            loop = placement.loop(of: room)
        } else {
            loop = accepted.add(1, ordering: .relaxed).newValue % (others.count + 1)
        }
        guard loop > 0 else { return false }
        others[loop - 1].adopt(socket: socket)
        return true
    }

    /// The valid room name of a request target's `room` query parameter
    /// ("/hub?room=demo&x=1" → demo); nil when there is none or it is not a room name.
    static func room(in target: String) -> RoomName? {
        guard let query = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("room=") {
            return try? RoomName(validating: String(pair.dropFirst(5)))
        }
        return nil
    }
}
