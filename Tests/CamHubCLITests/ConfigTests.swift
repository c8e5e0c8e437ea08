import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing

extension CLITests {
    @Test func configFileFlagsAndEnvironmentTakeTheirTurns() throws {
        let dir = try TempDir()
        try dir.write("site/index.html", "<p>hub</p>")
        try dir.write(
            "camhub.toml",
            """
            # every value differs from the default
            host = "127.0.0.1"
            port = 1            # overridden by --port 0 below
            tick = 30
            web = "\(dir.path)/site"
            room_ttl = 5
            allow_origin = ["https://maps.example.org"]
            presenter_token = "from-file"
            driver_token = "driver-from-file"
            log_format = "json"
            """)
        let config = dir.path + "/camhub.toml"
        let printed = try Subprocess.run(
            camhubPath, ["serve", "--config", config, "--tick", "45", "--print-config"],
            timeout: .seconds(10), environment: ["CAMHUB_PRESENTER_TOKEN": "from-env"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let lines = Set(printed.stdout.split(separator: "\n").map(String.init))
        #expect(lines.contains("tick = 45.0"), "a flag beats the file")
        #expect(lines.contains("port = 1"))
        #expect(lines.contains("room_ttl = 5.0"))
        #expect(lines.contains("web = \"\(dir.path)/site\""))
        #expect(lines.contains("allow_origin = [\"https://maps.example.org\"]"))
        #expect(lines.contains("log_format = \"json\""))
        #expect(lines.contains("log_level = \"info\""), "a key the file leaves out keeps its default")
        #expect(lines.contains("# presenter_token is set (not shown)"))
        for secret in ["from-file", "from-env", "driver-from-file"] { #expect(!printed.stdout.contains(secret)) }

        // The environment's secret beats the file's; the file's port loses to --port 0.
        let serve = try ServeProcess(camhubPath, ["--config", config], environment: ["CAMHUB_PRESENTER_TOKEN": "from-env"])
        try dir.write("script.json", #"[{"type": "wait", "seconds": 0.05}]"#)
        let url = "ws://127.0.0.1:\(serve.port)/hub"
        func present(_ token: String) throws -> Subprocess.Result {
            try camhub(["present", "--url", url, "--script", dir.path + "/script.json", "--token", token, "--plain"])
        }
        #expect(try present("from-file").status != 0, "the file's token is replaced by the environment's")
        #expect(try present("from-env").status == 0)
        let index = try RawHTTP.request(port: serve.port, path: "/index.html")
        #expect(index.text == "<p>hub</p>", "web comes from the file")
        #expect(serve.stop() == 0)
        #expect(serve.stdout.contains("tick 30 Hz"), "tick comes from the file")
        #expect(serve.stderr.split(separator: "\n").allSatisfy { (try? JSONParser.parse(String($0))) != nil }, "log_format json from the file")

        // A flag beats the environment.
        let flagged = try ServeProcess(
            camhubPath, ["--config", config, "--presenter-token", "from-flag"],
            environment: ["CAMHUB_PRESENTER_TOKEN": "from-env"])
        let flaggedURL = "ws://127.0.0.1:\(flagged.port)/hub"
        #expect(try camhub(["present", "--url", flaggedURL, "--script", dir.path + "/script.json", "--token", "from-env", "--plain"]).status != 0)
        #expect(try camhub(["present", "--url", flaggedURL, "--script", dir.path + "/script.json", "--token", "from-flag", "--plain"]).status == 0)
        flagged.stop()
    }

    @Test func configFileWithUnknownKeysOrWrongTypesIsRefusedByName() throws {
        let dir = try TempDir()
        try dir.write("bad.toml", "port = 8080\nprot = 1\ntoken = \"x\"\n[metrics]\nenabled = true\n")
        let unknown = try camhub(["serve", "--config", dir.path + "/bad.toml"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("Error: --config \(dir.path)/bad.toml: unknown keys metrics, prot, token (known: host, port,"))
        #expect(unknown.stdout == "")

        try dir.write("typed.toml", "port = \"8080\"\n")
        let typed = try camhub(["serve", "--config", dir.path + "/typed.toml"])
        #expect(typed.status == 64)
        #expect(typed.stderr.hasPrefix("Error: --config \(dir.path)/typed.toml: port must be an integer\n"))

        try dir.write("broken.toml", "port = \n")
        let broken = try camhub(["serve", "--config", dir.path + "/broken.toml"])
        #expect(broken.status == 64)
        #expect(broken.stderr.hasPrefix("Error: --config \(dir.path)/broken.toml: line 1, column 8: "))

        let missing = try camhub(["serve", "--config", dir.path + "/none.toml"])
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("Error: --config \(dir.path)/none.toml: cannot read the file\n"))
    }

    @Test func configFileSetsTheSecurityCapsAndRecordingOptions() throws {
        let dir = try TempDir()
        try dir.write("secret", String(repeating: "s", count: 40))
        try dir.write(
            "camhub.toml",
            """
            web = "\(dir.path)"
            token_secret_file = "\(dir.path)/secret"
            public_follow = true
            max_connections = 50
            max_connections_per_ip = 7
            max_connection_rate_per_ip = 3.5
            limit_loopback = true
            max_rooms = 9
            max_clients_per_room = 1
            slow_client_timeout = 2.5
            echo_max_message = 4096
            record = "\(dir.path)/rec"
            record_max_bytes = 2048
            """)
        let config = dir.path + "/camhub.toml"
        let printed = try camhub(["serve", "--config", config, "--max-rooms", "11", "--print-config"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let lines = Set(printed.stdout.split(separator: "\n").map(String.init))
        for line in [
            "token_secret_file = \"\(dir.path)/secret\"", "public_follow = true", "max_connections = 50",
            "max_connections_per_ip = 7", "max_connection_rate_per_ip = 3.5", "limit_loopback = true",
            "max_rooms = 11", "max_clients_per_room = 1", "slow_client_timeout = 2.5", "echo_max_message = 4096",
            "record = \"\(dir.path)/rec\"", "record_max_bytes = 2048",
        ] {
            #expect(lines.contains(line), "\(line) in \(printed.stdout)")
        }
        #expect(!printed.stdout.contains(String(repeating: "s", count: 40)), "the secret itself is never printed")

        // They take effect: followers join without a token (public_follow), one per room (max_clients_per_room).
        let serve = try ServeProcess(camhubPath, ["--config", config])
        let url = "ws://127.0.0.1:\(serve.port)/hub"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: camhubPath)
        // Long enough to still hold the place when the second follower (another process) tries, however slow the machine.
        holder.arguments = ["follow", "--url", url, "--room", "one", "--quiet", "--duration", "8"]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        #expect(
            waitUntil(.seconds(20)) { (try? RawHTTP.request(port: serve.port, path: "/healthz"))?.text.contains(#""clients":1,"#) == true },
            "the first follower joined")
        let second = try camhub(["follow", "--url", url, "--room", "one", "--duration", "0.2"])
        #expect(second.status != 0)
        #expect(second.stderr.contains("full"), "\(second.stderr)")
        holder.waitUntilExit()
        #expect(holder.terminationStatus == 0, "the first follower joined without a token")
        #expect(serve.stop() == 0)
        #expect(FileManager.default.fileExists(atPath: dir.path + "/rec"), "record comes from the file")
    }

    @Test func theExampleConfigParsesAndNamesEveryKey() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../camhub.example.toml").path
        let web = try TempDir()
        let result = try camhub(["serve", "--config", example, "--web", web.path, "--print-config"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: example, encoding: .utf8)
        let printedKeys = result.stdout.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            return line.hasPrefix("# ") ? words.dropFirst().first.map(String.init) : words.first.map(String.init)
        }
        #expect(printedKeys.count >= 27, "every serve option is printed: \(printedKeys)")
        for key in printedKeys {
            #expect(text.contains("\n\(key) = ") || text.contains("\n# \(key) = "), "camhub.example.toml documents \(key)")
        }
    }
}
