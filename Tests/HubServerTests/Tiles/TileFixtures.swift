import Foundation
import GRDB
import HubServer

/// Small MBTiles files written by the tests (in a fresh temporary folder).
enum TileFixtures {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "camhub-tiles-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// An MBTiles file with `tiles` keyed by (z, x, TMS row), and `metadata`.
    static func mbtiles(_ tiles: [(z: Int, x: Int, row: Int, bytes: [UInt8])],
                        metadata: [String: String] = ["name": "test", "format": "pbf"]) throws -> String {
        let path = try folder() + "/test.mbtiles"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE metadata (name TEXT, value TEXT)")
            try db.execute(sql: "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
            try db.execute(sql: "CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
            for (name, value) in metadata {
                try db.execute(sql: "INSERT INTO metadata VALUES (?, ?)", arguments: [name, value])
            }
            for t in tiles {
                try db.execute(sql: "INSERT INTO tiles VALUES (?, ?, ?, ?)", arguments: [t.z, t.x, t.row, Data(t.bytes)])
            }
        }
        try queue.close()
        return path
    }

    /// Bytes that start like a gzip stream (the endpoint only looks at the magic number).
    static let gzipped: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 1, 2, 3, 4]
    /// Bytes of an uncompressed vector tile (a layer field tag first).
    static let plain: [UInt8] = [0x1A, 0x02, 0x78, 0x01]
}
