import ArgumentParser
import Foundation
import Logging
import TOMLKit

/// `camhub serve --config FILE`: every serve option as a TOML key (the flag's
/// name with `_` for `-`). Precedence, highest first: a flag given on the
/// command line, a `CAMHUB_*` environment variable (secrets only: the role
/// tokens, the metrics token and `CAMHUB_TOKEN_SECRET`, the token secret itself when no
/// `token_secret_file` is given), the file,
/// the built-in default. Unknown keys and wrong types are errors naming them.
enum ServeConfig {
    /// Each key: its flag, and how it sets a `Serve`.
    struct Key: Sendable {
        let name: String
        let set: @Sendable (inout Serve, any TOMLValueConvertible) throws -> Void
        var flag: String { name.replacingOccurrences(of: "_", with: "-") }
    }

    static let keys: [Key] = [
        Key(name: "host") { $0.host = try string($1, "host") },
        Key(name: "port") { $0.port = try int($1, "port") },
        Key(name: "tick") { $0.tick = try number($1, "tick") },
        Key(name: "loops") { $0.loops = try int($1, "loops") },
        Key(name: "web") { $0.web = try string($1, "web") },
        Key(name: "presenter_token") { $0.presenterToken = try string($1, "presenter_token") },
        Key(name: "driver_token") { $0.driverToken = try string($1, "driver_token") },
        Key(name: "room_ttl") { $0.roomTTL = try number($1, "room_ttl") },
        Key(name: "allow_origin") { $0.allowOrigin = try strings($1, "allow_origin") },
        Key(name: "echo") { $0.echo = try bool($1, "echo") },
        Key(name: "metrics_token") { $0.metricsToken = try string($1, "metrics_token") },
        Key(name: "api_key_file") { $0.apiKeyFile = try string($1, "api_key_file") },
        Key(name: "data") { $0.data = try string($1, "data") },
        Key(name: "tiles") { $0.tiles = try string($1, "tiles") },
        Key(name: "style") { $0.style = try string($1, "style") },
        // Security (docs/SECURITY.md)
        Key(name: "token_secret_file") { $0.tokenSecretFile = try string($1, "token_secret_file") },
        Key(name: "public_follow") { $0.publicFollow = try bool($1, "public_follow") },
        Key(name: "revoked_file") { $0.revokedFile = try string($1, "revoked_file") },
        Key(name: "tls_cert") { $0.tlsCert = try string($1, "tls_cert") },
        Key(name: "tls_key") { $0.tlsKey = try string($1, "tls_key") },
        Key(name: "max_connections") { $0.maxConnections = try int($1, "max_connections") },
        Key(name: "max_connections_per_ip") { $0.maxConnectionsPerIp = try int($1, "max_connections_per_ip") },
        Key(name: "max_connection_rate_per_ip") { $0.maxConnectionRatePerIp = try number($1, "max_connection_rate_per_ip") },
        Key(name: "limit_loopback") { $0.limitLoopback = try bool($1, "limit_loopback") },
        Key(name: "max_rooms") { $0.maxRooms = try int($1, "max_rooms") },
        Key(name: "max_clients_per_room") { $0.maxClientsPerRoom = try int($1, "max_clients_per_room") },
        Key(name: "slow_client_timeout") { $0.slowClientTimeout = try number($1, "slow_client_timeout") },
        Key(name: "drain_spread") { $0.drainSpread = try number($1, "drain_spread") },
        Key(name: "drain_timeout") { $0.drainTimeout = try number($1, "drain_timeout") },
        Key(name: "echo_max_message") { $0.echoMaxMessage = try int($1, "echo_max_message") },
        // Recordings (docs/RECORDING.md)
        Key(name: "record") { $0.record = try string($1, "record") },
        Key(name: "record_max_bytes") { $0.recordMaxBytes = try int($1, "record_max_bytes") },
        // Several hubs, one room (ARCHITECTURE.md)
        Key(name: "redis") { $0.redis = try string($1, "redis") },
        Key(name: "log_level") {
            let text = try string($1, "log_level")
            guard let level = Logger.Level(rawValue: text) else {
                throw invalid("log_level", "one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            $0.logLevel = level
        },
        Key(name: "log_format") {
            let text = try string($1, "log_format")
            guard let format = LogFormat(rawValue: text) else { throw invalid("log_format", "text or json") }
            $0.logFormat = format
        },
    ]

    /// Secrets an environment variable may fill: key → variable.
    static let secrets: [(key: String, variable: String, set: @Sendable (inout Serve, String) -> Void)] = [
        ("presenter_token", "CAMHUB_PRESENTER_TOKEN", { $0.presenterToken = $1 }),
        ("driver_token", "CAMHUB_DRIVER_TOKEN", { $0.driverToken = $1 }),
        ("metrics_token", "CAMHUB_METRICS_TOKEN", { $0.metricsToken = $1 }),
        ("redis", "CAMHUB_REDIS", { $0.redis = $1 }),
    ]

    /// `serve` with the file's values and the environment's secrets applied
    /// under the flags given in `arguments` (the command line after `serve`).
    static func effective(_ serve: Serve, arguments: [String], environment: [String: String]) throws -> Serve {
        var merged = serve
        let given = givenFlags(arguments)
        if let path = serve.config {
            let table = try load(path)
            let known = Set(keys.map(\.name))
            let unknown = table.keys.filter { !known.contains($0) }.sorted()
            guard unknown.isEmpty else {
                throw ValidationError(
                    "--config \(path): unknown key\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")) (known: \(keys.map(\.name).joined(separator: ", ")))"
                )
            }
            for key in keys where !given.contains(key.flag) {
                guard let value = table[key.name] else { continue }
                do { try key.set(&merged, value) } catch let error as ValidationError {
                    throw ValidationError("--config \(path): \(error.message)")
                }
            }
        }
        for secret in secrets where !given.contains(secret.key.replacingOccurrences(of: "_", with: "-")) {
            if let value = environment[secret.variable], !value.isEmpty { secret.set(&merged, value) }
        }
        return merged
    }

    /// Long option names present in `arguments` (`--port 1` and `--port=1` alike), up to a `--`.
    static func givenFlags(_ arguments: [String]) -> Set<String> {
        var given: Set<String> = []
        for argument in arguments {
            if argument == "--" { break }
            guard argument.hasPrefix("--") else { continue }
            given.insert(String(argument.dropFirst(2).prefix { $0 != "=" }))
        }
        return given
    }

    private static func load(_ path: String) throws -> TOMLTable {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("--config \(path): cannot read the file")
        }
        do { return try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw ValidationError("--config \(path): line \(error.source.begin.line), column \(error.source.begin.column): \(error.description)")
        }
    }

    /// The effective settings as TOML, secrets left out (only whether each is set).
    static func text(_ serve: Serve) -> String {
        func quoted(_ s: String) -> String {
            "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        func secret(_ name: String, _ value: String?) -> String {
            "# \(name) is \(value == nil ? "not set" : "set (not shown)")"
        }
        func optional(_ key: String, _ value: String?, unset: String) -> String {
            value.map { "\(key) = \(quoted($0))" } ?? "# \(key) is not set (\(unset))"
        }
        let secretFromEnvironment = ProcessInfo.processInfo.environment["CAMHUB_TOKEN_SECRET"]?.isEmpty == false
        var lines: [String] = [
            "host = \(quoted(serve.host))",
            "port = \(serve.port)",
            "tick = \(serve.tick)",
            "loops = \(serve.loops)",
            "web = \(quoted(serve.web))",
            secret("presenter_token", serve.presenterToken),
            secret("driver_token", serve.driverToken),
            "room_ttl = \(serve.roomTTL)",
            "allow_origin = [\(serve.allowOrigin.map(quoted).joined(separator: ", "))]",
            "echo = \(serve.echo)",
            secret("metrics_token", serve.metricsToken),
            optional("api_key_file", serve.apiKeyFile, unset: "the server API is off"),
        ]
        lines += [
            optional("data", serve.data, unset: "rooms in memory only"),
            optional("tiles", serve.tiles, unset: "\(Serve.defaultTiles) when it exists"),
            optional("style", serve.style, unset: "the viewer's own style"),
            optional(
                "token_secret_file", serve.tokenSecretFile,
                unset: "CAMHUB_TOKEN_SECRET \(secretFromEnvironment ? "is set" : "is not set")"),
            "public_follow = \(serve.publicFollow)",
            optional("revoked_file", serve.revokedFile, unset: "no token is revoked"),
            optional("tls_cert", serve.tlsCert, unset: "plain http:// and ws://"),
            optional("tls_key", serve.tlsKey, unset: "no TLS"),
        ]
        lines += [
            "max_connections = \(serve.maxConnections)",
            "max_connections_per_ip = \(serve.maxConnectionsPerIp)",
            "max_connection_rate_per_ip = \(serve.maxConnectionRatePerIp)",
            "limit_loopback = \(serve.limitLoopback)",
            "max_rooms = \(serve.maxRooms)",
            "max_clients_per_room = \(serve.maxClientsPerRoom)",
            "slow_client_timeout = \(serve.slowClientTimeout)",
            "drain_spread = \(serve.drainSpread)",
            "drain_timeout = \(serve.drainTimeout)",
            "echo_max_message = \(serve.echoMaxMessage)",
            optional("record", serve.record, unset: "nothing recorded"),
            "record_max_bytes = \(serve.recordMaxBytes)",
            serve.redis.map { $0.contains("@") ? "# redis is set (with a password: not shown)" : "redis = \(quoted($0))" }
                ?? "# redis is not set (the in-memory engine: one hub alone)",
            "log_level = \(quoted(serve.logLevel.rawValue))",
            "log_format = \(quoted(serve.logFormat.rawValue))",
        ]
        return lines.joined(separator: "\n")
    }

    // MARK: typed values

    private static func invalid(_ key: String, _ expected: String) -> ValidationError {
        ValidationError("\(key) must be \(expected)")
    }

    private static func string(_ value: any TOMLValueConvertible, _ key: String) throws -> String {
        guard let s = value.string else { throw invalid(key, "a string") }
        return s
    }

    private static func int(_ value: any TOMLValueConvertible, _ key: String) throws -> Int {
        guard let i = value.int else { throw invalid(key, "an integer") }
        return i
    }

    private static func number(_ value: any TOMLValueConvertible, _ key: String) throws -> Double {
        if let d = value.double { return d }
        if let i = value.int { return Double(i) }
        throw invalid(key, "a number")
    }

    private static func bool(_ value: any TOMLValueConvertible, _ key: String) throws -> Bool {
        guard let b = value.bool else { throw invalid(key, "true or false") }
        return b
    }

    private static func strings(_ value: any TOMLValueConvertible, _ key: String) throws -> [String] {
        guard let array = value.array else { throw invalid(key, "an array of strings") }
        return try array.map { element in
            guard let s = element.string else { throw invalid(key, "an array of strings") }
            return s
        }
    }
}
