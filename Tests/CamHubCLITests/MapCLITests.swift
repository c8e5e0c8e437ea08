import Foundation
import SocketTestSupport
import Testing

/// `camhub serve --tiles` and `--style` as a user meets them: a bad file stops the start in one line.
@Suite(.serialized, .timeLimit(.minutes(1)), SocketSuiteLock())
struct MapCLITests {
    @Test func serveWithAMissingTileArchiveSaysSoInOneLineAndExits1() throws {
        let web = try TempDir()
        let result = try camhub(["serve", "--port", "0", "--web", web.path, "--tiles", web.path + "/none.mbtiles"])
        #expect(result.status == 1)
        #expect(result.stderr == "camhub: --tiles \(web.path)/none.mbtiles: no such file\n")
    }

    @Test func serveWithABrokenTileArchiveNamesTheProblemAndExits1() throws {
        let web = try TempDir()
        let path = web.path + "/broken.mbtiles"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let result = try camhub(["serve", "--port", "0", "--web", web.path, "--tiles", path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("camhub: --tiles \(path): not a readable MBTiles (SQLite) file"), "\(result.stderr)")
    }

    @Test func serveWithAStyleFileThatIsNotAStyleNamesTheProblemAndExits1() throws {
        let web = try TempDir()
        let path = web.path + "/style.json"
        try #"{"version":8}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try camhub(["serve", "--port", "0", "--web", web.path, "--style", path])
        #expect(result.status == 1)
        #expect(result.stderr == "camhub: --style \(path): not a MapLibre style: it needs \"sources\" (an object) and \"layers\" (an array)\n")
    }
}
