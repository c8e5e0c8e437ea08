import CamHubProtocol
import WebSocketTransport

/// A hub endpoint `ws://HOST:PORT/PATH` or `wss://HOST:PORT/PATH` (TLS).
public struct HubURL: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var path: String
    /// `wss://`: TLS, with the server's certificate checked for `host`.
    public var secure: Bool
    /// How a `wss://` hub's certificate is checked (`--ca-file`, `--insecure`).
    public var tls = ClientTLS()

    public init(host: String, port: Int, path: String = "/hub", secure: Bool = false) {
        self.host = host
        self.port = port
        self.path = path
        self.secure = secure
    }

    /// Parses `ws://host[:port][/path]` or `wss://…` (port defaults to 80 or
    /// 443, path to `/hub`). IPv6 literals go in brackets: `ws://[::1]:8080/hub`.
    public init(parsing text: String) throws(ClientError) {
        let scheme: Int
        if text.hasPrefix("ws://") {
            secure = false
            scheme = 5
        } else if text.hasPrefix("wss://") {
            secure = true
            scheme = 6
        } else {
            throw ClientError("\(text): expected ws://HOST:PORT/PATH or wss://HOST:PORT/PATH")
        }
        var rest = Substring(text.dropFirst(scheme))
        let authority: Substring
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            rest = rest[slash...]
        } else {
            authority = rest
            rest = "/hub"
        }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw ClientError("\(text): unclosed [ in host") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw ClientError("\(text): unexpected text after the host")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw ClientError("\(text): missing host") }
        var port = secure ? 443 : 80
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else { throw ClientError("\(text): bad port '\(portText)'") }
            port = p
        }
        self.host = String(host)
        self.port = port
        self.path = String(rest)
    }

    public var description: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "\(secure ? "wss" : "ws")://\(shown):\(port)\(path)"
    }

    /// True for 127.0.0.0/8, ::1 and localhost (the only targets a benchmark
    /// may load without `--allow-remote`).
    public var isLoopback: Bool {
        let h = host.lowercased()
        if h == "localhost" || h == "::1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }

    /// The host as the transport should dial it (an IP literal; "localhost" → 127.0.0.1,
    /// because the client context has IPv6 disabled and resolves on the loop thread).
    public var dialHost: String { host.lowercased() == "localhost" ? "127.0.0.1" : host }

    /// The client's TLS settings for this hub (nil for ws://).
    public var clientTLS: ClientTLS? { secure ? tls : nil }

    /// This URL with `?room=` naming the room the hello joins, unless it
    /// names one already (`HubProtocol.naming(room:in:)`).
    public func naming(room: String) -> HubURL {
        var named = self
        named.path = HubProtocol.naming(room: room, in: path)
        return named
    }

    public func connectRequest(origin: String? = nil) -> ConnectRequest {
        ConnectRequest(
            host: dialHost, port: port, path: path, subprotocol: "camhub.v1", origin: origin,
            useTLS: secure, serverName: secure ? host : nil)
    }
}

/// An error of the scripted clients, with a message for people.
public struct ClientError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String
    public init(_ message: String) {
        self.message = message
    }
    public var description: String { message }
}
