import ArgumentParser

/// camhub.example.toml, made from the settings table: each setting with what
/// it does, its flag and variable, and its built-in default (commented out,
/// with a sample value, where the default is "unset" or depends on the machine).
/// `camhub serve --print-example-config` prints it; a test keeps the file equal to it.
enum ExampleConfig {
    static let flag = "print-example-config"

    static let header = """
        # camhub serve --config camhub.toml
        #
        # Every key is a `camhub serve` option (its flag with `_` for `-`); all are
        # optional. Precedence, highest first: a flag on the command line, a CAMHUB_*
        # environment variable (secrets only, named below), this file, the built-in
        # default. A key the hub does not know is an error naming it. `camhub serve
        # --config camhub.toml --print-config` prints what is in effect (secrets not
        # shown).
        #
        # Made by `camhub serve --print-example-config` from the settings table
        # (Sources/camhub/ServeSettings.swift): change the table, not this file.
        """

    /// The whole file (without its last newline), `defaults` being `Serve` with no option given.
    static func text(defaults: Serve) -> String {
        var lines = [header]
        for setting in ServeSetting.all {
            lines.append("")
            lines += comment(setting)
            lines.append(setting.example(defaults))
        }
        return lines.joined(separator: "\n")
    }

    /// The example prints the built-in defaults, so no other option may change them.
    static func checkAlone(_ arguments: [String]) throws {
        let others = ServeConfig.givenFlags(arguments).subtracting([flag]).sorted()
        guard others.isEmpty else {
            throw ValidationError(
                "--\(flag) prints the built-in defaults: give it alone (got \(others.map { "--" + $0 }.joined(separator: ", ")))")
        }
    }

    private static func comment(_ setting: ServeSetting) -> [String] {
        var flag = "Flag: --\(setting.flagName)"
        if let variable = setting.environment {
            flag += "; environment: \(variable) (wins over this file; prefer it to keep a secret out of files)"
        }
        return wrapped(setting.about, width: 80, prefix: "# ") + wrapped(flag, width: 80, prefix: "# ")
    }

    /// `text` in lines of at most `width` characters (a longer word has a line
    /// of its own), each starting with `prefix`.
    static func wrapped(_ text: String, width: Int, prefix: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, prefix.count + line.count + 1 + word.count > width {
                lines.append(prefix + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(prefix + line) }
        return lines
    }
}
