import CHiredis
import Foundation

/// One Redis reply, copied out of hiredis (so it can cross threads).
public enum RedisReply: Hashable, Sendable {
    case status(String)
    case error(String)
    case integer(Int64)
    case data([UInt8])
    case null
    case array([RedisReply])
    /// No reply: the connection was down or went down before it came.
    case disconnected

    /// A bulk or status string as bytes (nil for other kinds).
    public var bytes: [UInt8]? {
        switch self {
        case .data(let b): b
        case .status(let s): Array(s.utf8)
        default: nil
        }
    }

    init(_ reply: UnsafePointer<redisReply>) {
        let r = reply.pointee
        func text() -> [UInt8] {
            guard let str = r.str, r.len > 0 else { return [] }
            return str.withMemoryRebound(to: UInt8.self, capacity: r.len) { Array(UnsafeBufferPointer(start: $0, count: r.len)) }
        }
        switch r.type {
        case REDIS_REPLY_STRING: self = .data(text())
        case REDIS_REPLY_STATUS: self = .status(String(decoding: text(), as: UTF8.self))
        case REDIS_REPLY_ERROR: self = .error(String(decoding: text(), as: UTF8.self))
        case REDIS_REPLY_INTEGER: self = .integer(r.integer)
        case REDIS_REPLY_ARRAY:
            var items: [RedisReply] = []
            items.reserveCapacity(r.elements)
            for i in 0..<r.elements { if let e = r.element[i] { items.append(RedisReply(e)) } }
            self = .array(items)
        default: self = .null
        }
    }
}

/// Where a hub's link to Redis stands (for `/healthz` and logs).
public enum RedisLinkState: String, Hashable, Sendable {
    /// Connecting (at start, or after a drop, with backoff).
    case connecting
    /// Both connections (commands, sharded subscriptions) are up.
    case up
    /// A connection dropped; reconnecting with backoff.
    case down
}
