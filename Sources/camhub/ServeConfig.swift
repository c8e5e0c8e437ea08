import ArgumentParser
import Foundation
import TOMLKit

/// `camhub serve --config FILE` and the `CAMHUB_*` variables, driven by the
/// settings table (`ServeSetting.all`). Precedence, highest first: a flag
/// given on the command line, the setting's environment variable (secrets
/// only: the role tokens, the metrics token and the Redis URL; the token
/// secret itself, `CAMHUB_TOKEN_SECRET`, is read where it is used), the file,
/// the built-in default. Unknown keys and wrong types are errors naming them.
enum ServeConfig {
    /// `serve` with the file's values and the environment's secrets applied
    /// under the flags given in `arguments` (the command line after `serve`).
    static func effective(_ serve: Serve, arguments: [String], environment: [String: String]) throws -> Serve {
        var merged = serve
        let given = givenFlags(arguments)
        let settings = ServeSetting.all.filter { !given.contains($0.flagName) }
        if let path = serve.config {
            try apply(load(path), from: path, to: &merged, settings)
        }
        for setting in settings {
            if let variable = setting.environment, let value = environment[variable], !value.isEmpty {
                setting.readEnvironment(&merged, value)
            }
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

    /// The effective settings as TOML, secrets left out (only whether each is set).
    static func text(_ serve: Serve, environment: [String: String]) -> String {
        ServeSetting.all.map { $0.printed(serve, environment) }.joined(separator: "\n")
    }

    /// Sets `settings` from `table` (every key of which must be a setting's).
    private static func apply(_ table: TOMLTable, from path: String, to serve: inout Serve, _ settings: [ServeSetting]) throws {
        let known = ServeSetting.all.map(\.key)
        let unknown = table.keys.filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw ValidationError(
                "--config \(path): unknown key\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")) (known: \(known.joined(separator: ", ")))"
            )
        }
        for setting in settings {
            guard let value = table[setting.key] else { continue }
            do { try setting.read(&serve, value) } catch {
                throw ValidationError("--config \(path): \(setting.key) must be \(error.expected)")
            }
        }
    }

    private static func load(_ path: String) throws -> TOMLTable {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("--config \(path): cannot read the file")
        }
        do { return try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw ValidationError("--config \(path): line \(error.source.begin.line), column \(error.source.begin.column): \(error.description)")
        }
    }
}
