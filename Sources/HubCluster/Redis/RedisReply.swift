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

/// `redis://[:password@]HOST:PORT[/DB]`, as `camhub serve --redis` takes it.
public struct RedisEndpoint: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var password: String?
    public var database: Int

    public init(host: String, port: Int, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.password = password
        self.database = database
    }

    /// Parses the URL; the error names what was wrong.
    public init(url: String) throws(RedisURLError) {
        let prefix = "redis://"
        guard url.hasPrefix(prefix) else { throw RedisURLError("\(url): must start with redis://") }
        var rest = Substring(url.dropFirst(prefix.count))
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let auth = rest[..<at]
            rest = rest[rest.index(after: at)...]
            guard auth.first == ":" else { throw RedisURLError("\(url): the part before @ must be :password (Redis has no user names before ACLs)") }
            password = String(auth.dropFirst())
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let db = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !db.isEmpty {
                guard let n = Int(db), n >= 0 else { throw RedisURLError("\(url): database '\(db)' must be a number 0 or more") }
                database = n
            }
        }
        guard let colon = rest.lastIndex(of: ":") else { throw RedisURLError("\(url): needs HOST:PORT") }
        let host = String(rest[..<colon]).trimmingCharacters(in: ["[", "]"])
        guard !host.isEmpty else { throw RedisURLError("\(url): the host is empty") }
        guard let port = Int(rest[rest.index(after: colon)...]), (1...65535).contains(port) else {
            throw RedisURLError("\(url): port '\(rest[rest.index(after: colon)...])' must be 1…65535")
        }
        self.init(host: host, port: port, password: password, database: database)
    }

    /// The URL with the password hidden (for logs).
    public var description: String { "redis://\(password == nil ? "" : ":***@")\(host):\(port)/\(database)" }
}

public struct RedisURLError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = "--redis: " + description }
}
