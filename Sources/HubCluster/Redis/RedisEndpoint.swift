import Foundation

/// Where the Redis of a cluster is, as `camhub serve --redis` takes it:
/// - `redis://[:password@]HOST:PORT[/DB]`: one Redis;
/// - `redis+sentinel://[:password@]HOST:PORT[,HOST:PORT…]/MASTER[/DB]`: the master named
///   MASTER, as Redis Sentinel says it is (asked on every connection: after a failover the
///   hub reconnects to the new master). The password is the master's.
public struct RedisEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The Redis to connect to (with Sentinel: the first sentinel, until a master is found).
    public var host: String
    public var port: Int
    public var password: String?
    public var database: Int
    /// Set with Sentinel: the sentinels to ask and the master's name.
    public var sentinel: Sentinel?

    public struct Sentinel: Hashable, Sendable {
        public var nodes: [Node]
        public var master: String
    }

    public struct Node: Hashable, Sendable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var description: String { "\(host):\(port)" }
    }

    public init(host: String, port: Int, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.password = password
        self.database = database
    }

    /// Parses the URL; the error names what was wrong.
    public init(url: String) throws(RedisURLError) {
        let plain = "redis://"
        let sentinel = "redis+sentinel://"
        let isSentinel = url.hasPrefix(sentinel)
        guard isSentinel || url.hasPrefix(plain) else { throw RedisURLError("\(url): must start with redis:// or redis+sentinel://") }
        var rest = Substring(url.dropFirst(isSentinel ? sentinel.count : plain.count))
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let auth = rest[..<at]
            rest = rest[rest.index(after: at)...]
            guard auth.first == ":" else { throw RedisURLError("\(url): the part before @ must be :password (Redis has no user names before ACLs)") }
            password = String(auth.dropFirst())
        }
        var path: [Substring] = []
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false)
            rest = rest[..<slash]
        }
        var master: String?
        if isSentinel {
            guard let name = path.first, !name.isEmpty else { throw RedisURLError("\(url): needs the master's name after the sentinels (…/mymaster)") }
            master = String(name)
            path.removeFirst()
        }
        var database = 0
        if let db = path.first, !db.isEmpty {
            guard path.count == 1, let n = Int(db), n >= 0 else {
                throw RedisURLError("\(url): database '\(path.joined(separator: "/"))' must be a number 0 or more")
            }
            database = n
        }
        let nodes = try rest.split(separator: ",", omittingEmptySubsequences: false).map { text throws(RedisURLError) in try Self.node(text, in: url) }
        guard isSentinel || nodes.count == 1 else { throw RedisURLError("\(url): one HOST:PORT (several are for redis+sentinel://)") }
        self.init(host: nodes[0].host, port: nodes[0].port, password: password, database: database)
        if let master { self.sentinel = Sentinel(nodes: nodes, master: master) }
    }

    private static func node(_ text: Substring, in url: String) throws(RedisURLError) -> Node {
        guard let colon = text.lastIndex(of: ":") else { throw RedisURLError("\(url): needs HOST:PORT, not '\(text)'") }
        let host = String(text[..<colon]).trimmingCharacters(in: ["[", "]"])
        guard !host.isEmpty else { throw RedisURLError("\(url): the host is empty") }
        guard let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
            throw RedisURLError("\(url): port '\(text[text.index(after: colon)...])' must be 1…65535")
        }
        return Node(host: host, port: port)
    }

    /// The URL with the password hidden (for logs).
    public var description: String {
        let auth = password == nil ? "" : ":***@"
        guard let sentinel else { return "redis://\(auth)\(host):\(port)/\(database)" }
        return "redis+sentinel://\(auth)\(sentinel.nodes.map(\.description).joined(separator: ","))/\(sentinel.master)/\(database)"
    }
}

public struct RedisURLError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = "--redis: " + description }
}
