import CamHubProtocol
import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing

/// `camhub serve --data DIR`: rooms kept across restarts, exactly.
extension CLITests {
    /// A presenter sets limits, flies and cancels half-way (the camera stops where
    /// the flight was: numbers of arbitrary bits); returns the welcome a new follower gets.
    private func moveTheRoom(port: Int, dir: TempDir) throws -> JSONValue {
        try dir.write(
            "tour.json",
            """
            [{"type": "limits", "minZoom": 1.25, "maxTilt": 55, "maxTiltByZoom": [[4, 30], [12.5, 55]],
              "bounds": {"south": -60, "west": -170, "north": 70, "east": 170}},
             {"type": "fly", "id": "away", "camera": {"lat": 48.8566, "lon": 2.3522, "zoom": 9.7, "bearing": 33.3, "tilt": 41}, "duration": 3},
             {"type": "wait", "seconds": 0.7},
             {"type": "cancel", "id": "away"}]
            """)
        let url = "ws://127.0.0.1:\(port)/hub"
        let present = try camhub(["present", "--url", url, "--room", "kept", "--script", dir.path + "/tour.json", "--plain"])
        #expect(present.status == 0, "\(present.stderr)")
        return try welcome(port: port)
    }

    private func welcome(port: Int, room: String = "kept") throws -> JSONValue {
        let follow = try camhub(["follow", "--url", "ws://127.0.0.1:\(port)/hub", "--room", room, "--format", "json", "--duration", "0.2"])
        #expect(follow.status == 0, "\(follow.stderr)")
        return try JSONParser.parse(String(try #require(follow.stdout.split(separator: "\n").first)))
    }

    @Test func roomsSurviveARestartWithTheirCameraToTheBit() throws {
        let dir = try TempDir()
        let data = dir.path + "/data"
        let first = try ServeProcess(camhubPath, ["--web", dir.path, "--data", data])
        let before = try moveTheRoom(port: first.port, dir: dir)
        let camera = try #require(before["camera"])
        let lat = camera["lat"]?.numberValue ?? 0
        let bearing = camera["bearing"]?.numberValue ?? 0
        #expect(lat > 20 && lat < 48.8566 && bearing > 0 && bearing < 33.3, "stopped half-way: \(camera)")
        #expect(before["limits"]?["minZoom"]?.numberValue == 1.25)
        #expect(first.stop(SIGTERM) == 0)
        #expect(FileManager.default.fileExists(atPath: data + "/rooms.sqlite"))

        let second = try ServeProcess(camhubPath, ["--web", dir.path, "--data", data])
        let after = try welcome(port: second.port)
        #expect(after["camera"] == camera, "the same camera, bit for bit: \(String(describing: after["camera"])) vs \(camera)")
        #expect(after["limits"] == before["limits"])
        #expect((after["seq"]?.numberValue ?? 0) >= (before["seq"]?.numberValue ?? 1), "seq goes on from where it was")
        let fresh = try welcome(port: second.port, room: "other")
        #expect(fresh["camera"] != camera, "other rooms start from the default")
        #expect(second.stop() == 0)
    }

    @Test func afterKillNineTheRoomIsAsItWasASecondBefore() throws {
        let dir = try TempDir()
        let data = dir.path + "/data"
        let first = try ServeProcess(camhubPath, ["--web", dir.path, "--data", data])
        let before = try moveTheRoom(port: first.port, dir: dir)
        // Writes are coalesced to one a second: wait until the store holds the room as the welcome showed it.
        let seq = try #require(before["seq"]?.numberValue)
        let store = try RoomStore(directory: data)
        #expect(
            waitUntil(.seconds(20)) { ((try? store.load())?.first { $0.name == "kept" }).map { Double($0.seq) >= seq } ?? false },
            "the room reached the store")
        first.stop(SIGKILL)
        #expect(first.process.terminationReason == .uncaughtSignal, "killed, no shutdown save")

        let second = try ServeProcess(camhubPath, ["--web", dir.path, "--data", data])
        let after = try welcome(port: second.port)
        #expect(after["camera"] == before["camera"], "\(String(describing: after["camera"])) vs \(String(describing: before["camera"]))")
        #expect(after["limits"] == before["limits"])
        #expect(second.stop() == 0)
    }

    @Test func aCorruptOrUnusableDataFolderIsAClearErrorAtStart() throws {
        let dir = try TempDir()
        try dir.write("data/rooms.sqlite", String(repeating: "not a database\n", count: 200))
        let corrupt = try camhub(["serve", "--port", "0", "--web", dir.path, "--data", dir.path + "/data"])
        #expect(corrupt.status == 1)
        #expect(
            corrupt.stderr.hasPrefix(
                "camhub: cannot start the hub: --data \(dir.path)/data: \(dir.path)/data/rooms.sqlite is not a usable CameraHub room store ("),
            "\(corrupt.stderr)")
        #expect(corrupt.stderr.hasSuffix("; move it away to start afresh\n"))
        #expect(corrupt.stdout == "")
        let kept = try String(contentsOfFile: dir.path + "/data/rooms.sqlite", encoding: .utf8)
        #expect(kept.hasPrefix("not a database"), "the file is left as it was")

        try dir.write("plain-file", "x")
        let unusable = try camhub(["serve", "--port", "0", "--web", dir.path, "--data", dir.path + "/plain-file/data"])
        #expect(unusable.status == 1)
        #expect(
            unusable.stderr.hasPrefix("camhub: cannot start the hub: --data \(dir.path)/plain-file/data: cannot create the folder ("),
            "\(unusable.stderr)")
    }
}
