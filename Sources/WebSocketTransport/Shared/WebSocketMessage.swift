/// Whether a WebSocket message is text (UTF-8) or binary.
public enum MessageKind: Sendable, Hashable {
    case text
    case binary
}

/// One complete WebSocket message (fragments already reassembled).
public enum WebSocketMessage: Sendable, Hashable {
    case text(String)
    case binary([UInt8])

    public var kind: MessageKind {
        switch self {
        case .text: return .text
        case .binary: return .binary
        }
    }

    /// The payload bytes (UTF-8 for text).
    public var bytes: [UInt8] {
        switch self {
        case .text(let s): return Array(s.utf8)
        case .binary(let b): return b
        }
    }
}
