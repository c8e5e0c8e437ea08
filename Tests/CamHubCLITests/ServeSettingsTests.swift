import Foundation
import SocketTestSupport
import Testing

/// The settings table of `camhub serve`: one entry per option, and what it drives
/// (the `--config` keys, the `CAMHUB_*` variables, `--print-config`, camhub.example.toml).
extension CLITests {
    /// The repository's camhub.example.toml.
    static let exampleConfigPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../camhub.example.toml").standardizedFileURL.path

    /// Options of `serve` that are not settings: the file itself and the print-and-exit modes.
    static let serveModes: Set<String> = ["help", "config", "print-config", "print-example-config"]

    @Test func everyServeFlagHasASettingAndEverySettingAFlag() throws {
        // The options as the argument parser holds them (its own dump of `Serve`'s arguments)…
        let dump = try camhub(["serve", "--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let arguments = try #require((tool["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
        let flags = Set(
            arguments.flatMap { argument in
                (argument["names"] as? [[String: String]] ?? []).filter { $0["kind"] == "long" }.compactMap { $0["name"] }
            }
        ).subtracting(Self.serveModes)
        // …and the table's settings, one line each in --print-config ("key = …" or "# key is …").
        let web = try TempDir()
        let printed = try camhub(["serve", "--web", web.path, "--print-config"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let keys = printed.stdout.split(separator: "\n").map { line in
            String(line.split(separator: " ")[line.hasPrefix("# ") ? 1 : 0])
        }
        #expect(Set(keys).count == keys.count, "no setting twice: \(keys)")
        let settingFlags = Set(keys.map { $0.replacingOccurrences(of: "_", with: "-") })
        #expect(flags.subtracting(settingFlags).isEmpty, "options without a setting")
        #expect(settingFlags.subtracting(flags).isEmpty, "settings without an option")
        #expect(flags.count >= 35)
    }

    @Test func exampleConfigIsWhatTheTableProduces() throws {
        let printed = try camhub(["serve", "--print-example-config"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let file = try String(contentsOfFile: Self.exampleConfigPath, encoding: .utf8)
        #expect(
            printed.stdout == file,
            "camhub.example.toml is stale: run `camhub serve --print-example-config > camhub.example.toml`")
    }

    @Test func exampleConfigSetsEveryDefaultItShows() throws {
        let web = try TempDir()
        let defaults = try camhub(["serve", "--web", web.path, "--print-config"])
        let example = try camhub(["serve", "--config", Self.exampleConfigPath, "--web", web.path, "--print-config"])
        #expect(example.status == 0, "\(example.stderr)")
        #expect(example.stdout == defaults.stdout)
    }

    @Test func exampleConfigIsPrintedOnlyWithoutOtherOptions() throws {
        let result = try camhub(["serve", "--port", "1", "--print-example-config"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --print-example-config prints the built-in defaults: give it alone (got --port)\n"))
        #expect(result.stdout == "")
    }

    @Test func printConfigShowsEachKindOfSettingInItsOwnWay() throws {
        let dir = try TempDir()
        try dir.write(
            "camhub.toml",
            """
            host = "0.0.0.0"
            tick = 30
            loops = 3
            web = "\(dir.path)"
            presenter_token = "pt-never-shown"
            room_ttl = 5
            allow_origin = ["https://a.example", "https://b\\"q\\\\.example"]
            echo = true
            data = "/tmp/data"
            max_connection_rate_per_ip = 3.5
            redis = "redis://127.0.0.1:6379/1"
            log_level = "debug"
            """)
        let printed = try camhub(["serve", "--config", dir.path + "/camhub.toml", "--print-config"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let lines = printed.stdout.split(separator: "\n").map(String.init)
        for line in [
            #"host = "0.0.0.0""#, "port = 8080", "tick = 30.0", "loops = 3", "# presenter_token is set (not shown)",
            "# driver_token is not set", "room_ttl = 5.0", #"allow_origin = ["https://a.example", "https://b\"q\\.example"]"#,
            "echo = true", #"data = "/tmp/data""#, "# tiles is not set (.build-tiles/basemap.mbtiles when it exists)",
            "# token_secret_file is not set (CAMHUB_TOKEN_SECRET is not set)", "max_connection_rate_per_ip = 3.5",
            #"redis = "redis://127.0.0.1:6379/1""#, #"log_level = "debug""#, #"log_format = "text""#,
        ] {
            #expect(lines.contains(line), "\(line) in \(printed.stdout)")
        }
        #expect(!printed.stdout.contains("pt-never-shown"), "a secret is never printed")
    }

    @Test func eachEnvironmentVariableSetsItsSettingOverTheFileAndUnderTheFlag() throws {
        let dir = try TempDir()
        try dir.write("camhub.toml", "web = \"\(dir.path)\"\nredis = \"redis://file:6379\"\n")
        let environment = [
            "CAMHUB_DRIVER_TOKEN": "d", "CAMHUB_METRICS_TOKEN": "m", "CAMHUB_REDIS": "redis://:password@env:6379",
            "CAMHUB_TOKEN_SECRET": String(repeating: "s", count: 40),
        ]
        let config = ["serve", "--config", dir.path + "/camhub.toml", "--print-config"]
        let fromEnvironment = try Subprocess.run(camhubPath, config, timeout: .seconds(10), environment: environment)
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        for line in [
            "# driver_token is set (not shown)", "# metrics_token is set (not shown)", "# presenter_token is not set",
            "# redis is set (with a password: not shown)", "# token_secret_file is not set (CAMHUB_TOKEN_SECRET is set)",
        ] {
            #expect(fromEnvironment.stdout.contains(line + "\n"), "\(line) in \(fromEnvironment.stdout)")
        }
        let flagged = try Subprocess.run(
            camhubPath, config + ["--redis", "redis://flag:6379"], timeout: .seconds(10), environment: environment)
        #expect(flagged.stdout.contains(#"redis = "redis://flag:6379""# + "\n"), "\(flagged.stdout)")
    }

    @Test func aFileValueUnderAFlagGivenIsNotRead() throws {
        let dir = try TempDir()
        try dir.write("camhub.toml", "web = \"\(dir.path)\"\nport = \"not a number\"\n")
        let result = try camhub(["serve", "--config", dir.path + "/camhub.toml", "--port=9", "--print-config"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("port = 9\n"))
    }
}
