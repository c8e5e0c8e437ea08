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
}
