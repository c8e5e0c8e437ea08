/// Sends for the connections of one server loop, gathered on another thread
/// (the hub's) and applied on that loop in one go, in the order they were
/// added: `WebSocketServer.apply(_:)` costs one mailbox post per batch, not
/// one per message.
///
/// A frame put in a batch must belong to that batch's loop alone (lws writes
/// each frame's header into its payload's headroom on the writing thread), so
/// a sender serving several loops gives each loop its own copy of a frame.
public struct OutboundBatch: Sendable {
    enum Operation: Sendable {
        case send(SharedFrame, ConnectionID)
        /// One frame for the latest-frame slots of several connections.
        case latest(SharedFrame, [ConnectionID])
        case close(ConnectionID, CloseCode, String)
    }

    private(set) var operations: [Operation] = []

    public init() {}

    public var isEmpty: Bool { operations.isEmpty }

    /// As `WebSocketServer.send(_:to:)`, when the batch is applied.
    public mutating func send(_ frame: SharedFrame, to connection: ConnectionID) {
        operations.append(.send(frame, connection))
    }

    /// As `WebSocketServer.sendLatest(_:to:)`. Consecutive calls with the same
    /// payload share one entry.
    public mutating func sendLatest(_ frame: SharedFrame, to connection: ConnectionID) {
        if case .latest(let last, var connections)? = operations.last, last.payload === frame.payload {
            operations.removeLast()
            connections.append(connection)
            operations.append(.latest(last, connections))
        } else {
            operations.append(.latest(frame, [connection]))
        }
    }

    /// As `WebSocketServer.close(_:code:reason:)`.
    public mutating func close(_ connection: ConnectionID, code: CloseCode, reason: String) {
        operations.append(.close(connection, code, reason))
    }

    /// `batches` as one, for a loop that fell behind: everything in order,
    /// except that each connection keeps only its newest latest-slot frame (the
    /// others count in `replaced`), and a connection with more than
    /// `controlLimit` ordered messages waiting loses them and is closed 1013
    /// (they cannot be dropped, and the loop cannot keep up with it).
    static func merging(_ batches: [OutboundBatch], controlLimit: Int) -> (merged: OutboundBatch, replaced: Int) {
        var newestFrame: [UInt64: (batch: Int, operation: Int)] = [:]
        var controls: [UInt64: Int] = [:]
        for (b, batch) in batches.enumerated() {
            for (o, operation) in batch.operations.enumerated() {
                switch operation {
                case .latest(_, let ids): for id in ids { newestFrame[id.rawValue] = (b, o) }
                case .send(_, let id): controls[id.rawValue, default: 0] += 1
                case .close: break
                }
            }
        }
        let overflowed = Set(controls.filter { $0.value > controlLimit }.keys)
        var merged = OutboundBatch()
        var replaced = 0
        for (b, batch) in batches.enumerated() {
            for (o, operation) in batch.operations.enumerated() {
                switch operation {
                case .latest(let frame, let ids):
                    let kept = ids.filter { id in
                        guard let newest = newestFrame[id.rawValue], !overflowed.contains(id.rawValue) else { return false }
                        return newest == (b, o)
                    }
                    replaced += ids.count - kept.count
                    if !kept.isEmpty { merged.operations.append(.latest(frame, kept)) }
                case .send(_, let id):
                    if !overflowed.contains(id.rawValue) { merged.operations.append(operation) }
                case .close(let id, _, _):
                    if !overflowed.contains(id.rawValue) { merged.operations.append(operation) }
                }
            }
        }
        for id in overflowed.sorted() {
            merged.operations.append(.close(ConnectionID(rawValue: id), .tryAgainLater, "too far behind"))
        }
        return (merged, replaced)
    }
}
