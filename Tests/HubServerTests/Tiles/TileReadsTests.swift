import Dispatch
import SocketTestSupport
import Synchronization
import Testing
import WebSocketTransport

@testable import TileServer

/// Tile reads run on worker threads (`OffLoopReads`), never on an event loop, and at most `limit` at once.
@Suite struct TileReadsTests {
    /// An archive whose every read waits until the test lets it go.
    final class GatedArchive: TileArchive {
        let path = "gated.mbtiles"
        let metadata: TileArchiveMetadata
        let gate = DispatchSemaphore(value: 0)
        init() throws { metadata = try TileArchiveMetadata(mbtiles: ["format": "pbf"], minZoom: 0, maxZoom: 2, path: "gated.mbtiles") }
        func tile(z: Int, x: Int, y: Int) throws -> [UInt8]? {
            gate.wait()
            return [0x1A, 0x00]
        }
    }

    @Test func readsBeyondTheLimitAreAnsweredBusyAtOnceAndTheOthersWhenTheirReadEnds() throws {
        let archive = try GatedArchive()
        let reads = OffLoopReads("tile", limit: 2)
        let handle = reads.handler(TileEndpoint(archive: archive, scheme: "http").respond)
        let statuses = Mutex<[Int]>([])
        let responder = HTTPResponder { response in statuses.withLock { $0.append(response.status) } }
        for _ in 0..<3 { handle(HTTPRequest(method: .get, path: "/tiles/1/0/0.pbf"), responder) }
        #expect(statuses.withLock { $0 } == [503], "the third read is refused at once; the two others wait for the disk")
        #expect(reads.running == 2)
        archive.gate.signal()
        archive.gate.signal()
        #expect(waitUntil { statuses.withLock { $0.count } == 3 })
        #expect(statuses.withLock { $0 } == [503, 200, 200])
        #expect(waitUntil { reads.running == 0 })
    }

    @Test func onlyGetAndHeadReadTiles() throws {
        let handle = OffLoopReads("tile", limit: 1).handler(TileEndpoint(archive: try GatedArchive(), scheme: "http").respond)
        let status = Mutex<Int?>(nil)
        handle(HTTPRequest(method: .post, path: "/tiles/1/0/0.pbf"), HTTPResponder { r in status.withLock { $0 = r.status } })
        #expect(status.withLock { $0 } == 405)
    }
}
