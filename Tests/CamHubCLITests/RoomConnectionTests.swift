import Foundation
import SocketTestSupport
import Testing

/// `--url`, `--room` and `--token` of the commands that join a room, one option group for all.
extension CLITests {
    @Test func everyRoomCommandRefusesAURLThatIsNotWebSocketBeforeConnecting() throws {
        let dir = try TempDir()
        try dir.write("script.json", #"[{"type": "wait", "seconds": 0.05}]"#)
        for command in [
            ["present", "--script", dir.path + "/script.json", "--check"], ["follow"], ["replay", dir.path + "/none.jsonl.gz"],
        ] {
            let result = try camhub(command + ["--url", "http://127.0.0.1:9/hub"])
            #expect(result.status == 64, "\(command)")
            #expect(
                result.stderr.hasPrefix("Error: --url: http://127.0.0.1:9/hub: expected ws://HOST:PORT/PATH or wss://HOST:PORT/PATH\n"),
                "\(command): \(result.stderr)")
        }
    }

    @Test func roomAndTokenKeepEachCommandsDefaultAndHelp() throws {
        let expected = [
            "present": ["--room <room>           Room to present in. (default: demo)", "--token <token>         Presenter token, when the hub requires one."],
            "follow": ["--room <room>           Room to follow. (default: demo)", "--token <token>         Token, when the hub requires one of followers"],
            "replay": [
                "--room <room>           Room to play into (default: the recorded room).",
                "--token <token>         Presenter token, when the hub requires one.",
            ],
        ]
        for (command, lines) in expected {
            let help = try camhub([command, "--help"])
            #expect(help.status == 0)
            for line in lines + ["--url <url>             Hub WebSocket URL: ws://HOST:PORT/hub"] {
                #expect(help.stdout.contains(line), "\(command) --help: \(line)")
            }
            #expect(help.stdout.contains("TLS (WSS:// URLS):\n  --ca-file <file>"), "\(command) --help keeps the TLS section")
        }
    }
}
