import Foundation
import HubRecording
import SocketTestSupport
import Testing

/// `--record` in a cluster: a room is recorded where its camera runs.
extension HubServerTests {
    @Test func theOwnerRecordsTheCommandsAMirrorForwardedAndTheMirrorRecordsNone() throws {
        let (folderA, folderB) = (try TempDir(), try TempDir())
        let cluster = try TestCluster(hubs: 0)
        defer { cluster.shutdown() }
        let a = try cluster.addHub(record: folderA.path)
        let follower = try HubClients(port: a.port).join(role: "follower")
        let b = try cluster.addHub(record: folderB.path)
        #expect(a.owns("demo") == true)
        let driver = try HubClients(port: b.port).join(role: "driver")
        #expect(b.owns("demo") == false)
        driver.send(#"{"type":"set","camera":{"zoom":6,"lat":3,"lon":4}}"#)
        #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 6 })
        a.shutdown()
        b.shutdown()

        let files = try FileManager.default.contentsOfDirectory(atPath: folderA.path + "/demo").map { folderA.path + "/demo/" + $0 }
        let recording = try Recording.read(files.sorted())
        let commands = recording.entries.compactMap { entry -> (client: String, message: String)? in
            if case .command(let client, _, _, let message) = entry.kind { return (client, message) }
            return nil
        }
        #expect(commands.count == 1 && commands.first?.message.contains(#""zoom":6"#) == true, "\(commands)")
        #expect(commands.first?.client == driver.client, "recorded as the driver of hub B")
        let mirrorFiles = (try? FileManager.default.contentsOfDirectory(atPath: folderB.path + "/demo")) ?? []
        let mirrorCommands = try mirrorFiles.isEmpty ? [] : Recording.read(mirrorFiles.map { folderB.path + "/demo/" + $0 }).entries
        #expect(mirrorCommands.isEmpty, "the mirror records nothing of the room")
    }
}
