import Foundation
import SocketTestSupport
import Testing

@testable import HubServer
@testable import TileServer

extension HubServerTests {
    @Test func pmtilesTileIDsFollowTheSpecsHilbertOrder() {
        // The PMTiles v3 spec's examples: zoom 0 is id 0, zoom 1 is 1…4 along the curve.
        #expect(PMTilesEntry.tileID(z: 0, x: 0, y: 0) == 0)
        #expect(PMTilesEntry.tileID(z: 1, x: 0, y: 0) == 1)
        #expect(PMTilesEntry.tileID(z: 1, x: 0, y: 1) == 2)
        #expect(PMTilesEntry.tileID(z: 1, x: 1, y: 1) == 3)
        #expect(PMTilesEntry.tileID(z: 1, x: 1, y: 0) == 4)
        #expect(PMTilesEntry.tileID(z: 2, x: 0, y: 0) == 5)
        #expect(PMTilesEntry.tileID(z: 12, x: 3423, y: 1763) == 19_078_479)
    }

    @Test func aPMTilesArchiveIsServedByTileIDInXYZNumbering() throws {
        let archive = try TileFixtures.pmtiles([(0, [0x1A, 0]), (3, [0x1A, 3]), (4, TileFixtures.gzipped)])
        let hub = try RunningHub { $0.tiles = archive }
        #expect(try RawHTTP.request(port: hub.port, path: "/tiles/0/0/0.pbf").body == [0x1A, 0])
        #expect(try RawHTTP.request(port: hub.port, path: "/tiles/1/1/1.pbf").body == [0x1A, 3])
        let gz = try RawHTTP.request(port: hub.port, path: "/tiles/1/1/0.pbf")
        #expect(gz.body == TileFixtures.gzipped)
        #expect(gz.headers["content-encoding"] == "gzip")
        #expect(try RawHTTP.request(port: hub.port, path: "/tiles/1/0/0.pbf").status == 204)
        let json = try RawHTTP.request(port: hub.port, path: "/tiles.json").text
        #expect(json.contains(#""name":"pm test""#) && json.contains(#""maxzoom":2"#), "\(json)")
    }

    @Test func aTruncatedPMTilesArchiveIsAClearErrorAtStart() throws {
        let good = try TileFixtures.pmtiles([(0, [0x1A, 0])])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let path = try TileFixtures.folder() + "/cut.pmtiles"
        try bytes.prefix(130).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: TileArchiveError.self) { try RunningHub { $0.tiles = path } }
        #expect(error.problem.contains("truncated"), "\(error)")
    }

    @Test func tilesBehindALeafDirectoryAreFoundAndTheLeafIsReadOnceForItsNeighbours() throws {
        let archive = try PMTilesArchive(path: TileFixtures.pmtiles([(0, [0x1A, 0]), (3, [0x1A, 3]), (4, [0x1A, 4])], leaf: true))
        #expect(try archive.tile(z: 0, x: 0, y: 0) == [0x1A, 0])
        #expect(try archive.tile(z: 1, x: 1, y: 1) == [0x1A, 3])
        #expect(try archive.tile(z: 1, x: 1, y: 0) == [0x1A, 4])
        #expect(try archive.tile(z: 1, x: 0, y: 0) == nil, "a tile the leaf does not list")
        #expect(archive.leaves.misses == 1, "one read of the leaf for four lookups")
        #expect(archive.leaves.count == 1)
    }

    @Test func theLeafDirectoriesKeptForgetTheLeastRecentlyUsedFirst() {
        let leaves = LeafDirectories(capacity: 2)
        let a = [PMTilesEntry(tileID: 1, offset: 0, length: 1, runLength: 1)]
        let b = [PMTilesEntry(tileID: 2, offset: 0, length: 1, runLength: 1)]
        let c = [PMTilesEntry(tileID: 3, offset: 0, length: 1, runLength: 1)]
        leaves.keep(a, at: 10)
        leaves.keep(b, at: 20)
        #expect(leaves.directory(at: 10) == a, "a is used: b is now the least recent")
        leaves.keep(c, at: 30)
        #expect(leaves.directory(at: 20) == nil, "b was forgotten")
        #expect(leaves.directory(at: 10) == a)
        #expect(leaves.directory(at: 30) == c)
        #expect(leaves.count == 2)
    }
}
