import TOMLKit

/// One `camhub serve` setting: its TOML key, where its value lives in `Serve`,
/// the `CAMHUB_*` variable that may set it, and how `--print-config` and
/// camhub.example.toml show it. The table is `ServeSetting.all`; the option
/// itself (its help and built-in default) is the `Serve` property the key path names.
///
/// The entries are made by `value`, `optional` and `secret`, which keep the
/// value's type; an entry keeps only what the file, the environment and the
/// printers need, so that entries of every type fit one table.
struct ServeSetting: Sendable {
    /// The TOML key: the flag's name with `_` for `-` (`room_ttl` for `--room-ttl`).
    let key: String

    /// The variable that sets this setting over the file and under the flag, if any.
    let environment: String?

    /// What camhub.example.toml says of it: one paragraph, wrapped when printed.
    let about: String

    /// Sets the setting from the file's value, or says what the value must be.
    let read: @Sendable (inout Serve, any TOMLValueConvertible) throws(TOMLExpectation) -> Void

    /// Sets the setting from its environment variable's (non-empty) value; never called without one.
    let readEnvironment: @Sendable (inout Serve, String) -> Void

    /// Its `--print-config` line, given the process environment.
    let printed: @Sendable (Serve, [String: String]) -> String

    /// Its camhub.example.toml line, given `Serve` at its built-in defaults.
    let example: @Sendable (Serve) -> String

    /// The long flag without its dashes: `room-ttl`.
    var flagName: String { key.replacingOccurrences(of: "_", with: "-") }
}

extension ServeSetting {
    /// A setting that always has a value, printed as `key = value`.
    /// - Parameter sample: shown commented out in the example instead of the
    ///   default, for a default that depends on the machine (`loops`).
    static func value<Value: TOMLSettingValue>(
        _ key: String, _ path: WritableKeyPath<Serve, Value> & Sendable, sample: Value? = nil, about: String
    ) -> ServeSetting {
        ServeSetting(
            key: key, environment: nil, about: about,
            read: { serve, value throws(TOMLExpectation) in serve[keyPath: path] = try Value.read(value) },
            readEnvironment: { _, _ in },
            printed: { serve, _ in "\(key) = \(serve[keyPath: path].toml)" },
            example: { defaults in
                sample.map { "# \(key) = \($0.toml)" } ?? "\(key) = \(defaults[keyPath: path].toml)"
            })
    }

    /// A setting that may be unset (its flag has no default): printed as
    /// `key = "value"`, or `# key is set (why not shown)` when `hidden` says so,
    /// or `# key is not set (unset)`.
    /// - Parameter sample: the example's commented-out value.
    static func optional(
        _ key: String, _ path: WritableKeyPath<Serve, String?> & Sendable, unset: Unset, hidden: Hiding = .never,
        environment: String? = nil, sample: String, about: String
    ) -> ServeSetting {
        ServeSetting(
            key: key, environment: environment, about: about,
            read: { serve, value throws(TOMLExpectation) in serve[keyPath: path] = try String.read(value) },
            readEnvironment: { serve, value in serve[keyPath: path] = value },
            printed: { serve, variables in
                guard let value = serve[keyPath: path] else { return "# \(key) is not set" + unset.note(variables) }
                return hidden.reason(value).map { "# \(key) is set (\($0))" } ?? "\(key) = \(value.toml)"
            },
            example: { _ in "# \(key) = \(sample.toml)" })
    }

    /// A secret: `--print-config` says only whether it is set; `environment`
    /// keeps it out of the file and out of the process list.
    static func secret(
        _ key: String, _ path: WritableKeyPath<Serve, String?> & Sendable, environment: String, sample: String, about: String
    ) -> ServeSetting {
        optional(key, path, unset: .plain, hidden: .always, environment: environment, sample: sample, about: about)
    }

    /// What `--print-config` adds to `# key is not set`.
    enum Unset: Sendable {
        /// Nothing.
        case plain
        /// What that means: ` (rooms in memory only)`.
        case meaning(String)
        /// That the hub turns to this variable instead: ` (CAMHUB_TOKEN_SECRET is set)`.
        case fallsBackTo(variable: String)

        func note(_ environment: [String: String]) -> String {
            switch self {
            case .plain: ""
            case .meaning(let meaning): " (\(meaning))"
            case .fallsBackTo(let variable): " (\(variable) \(environment[variable]?.isEmpty == false ? "is set" : "is not set"))"
            }
        }
    }

    /// When `--print-config` shows only that a setting is set.
    enum Hiding: Sendable {
        case never
        case always
        /// A URL with a password in it (`redis://:password@host`).
        case whenItHoldsAPassword

        /// Why `value` is not shown, or nil to show it.
        func reason(_ value: String) -> String? {
            switch self {
            case .never: nil
            case .always: "not shown"
            case .whenItHoldsAPassword: value.contains("@") ? "with a password: not shown" : nil
            }
        }
    }
}
