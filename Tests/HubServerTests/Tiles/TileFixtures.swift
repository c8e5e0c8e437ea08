import Foundation
import GRDB
import HubServer

/// Small MBTiles files written by the tests (in a fresh temporary folder).
enum TileFixtures {
    /// One folder per test process for every fixture, removed when the process exits.
    private static let root: String = {
        let path = NSTemporaryDirectory() + "camhub-tiles-\(getpid())-\(UUID().uuidString)"
        atexit { try? FileManager.default.removeItem(atPath: TileFixtures.root) }
        return path
    }()

    static func folder() throws -> String {
        let path = root + "/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// An MBTiles file with `tiles` keyed by (z, x, TMS row), and `metadata`.
    static func mbtiles(
        _ tiles: [(z: Int, x: Int, row: Int, bytes: [UInt8])],
        metadata: [String: String] = ["name": "test", "format": "pbf"]
    ) throws -> String {
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

extension TileFixtures {
    /// A PMTiles v3 file with uncompressed directories (internal compression 1) and vector tiles:
    /// one directory entry per tile (`tiles` sorted by tile id), in the root directory, or with
    /// `leaf` in one leaf directory that the root's only entry points to.
    /// `tileType`: 1 vector tiles, 2 PNG, 4 WebP; `metadata`: the JSON metadata.
    static func pmtiles(
        _ tiles: [(id: UInt64, bytes: [UInt8])], minZoom: UInt8 = 0, maxZoom: UInt8 = 2, leaf: Bool = false, tileType: UInt8 = 1,
        metadata metadataText: String = #"{"name":"pm test"}"#
    ) throws -> String {
        var offset: UInt64 = 0
        let entries = tiles.map { t -> PMTilesDirectoryEntry in
            defer { offset += UInt64(t.bytes.count) }
            return PMTilesDirectoryEntry(id: t.id, offset: offset, length: UInt64(t.bytes.count), runLength: 1)
        }
        let tileDirectory = directory(entries)
        let leaves = leaf ? tileDirectory : []
        let root = leaf ? directory([PMTilesDirectoryEntry(id: tiles[0].id, offset: 0, length: UInt64(leaves.count), runLength: 0)]) : tileDirectory
        let metadata = Array(metadataText.utf8)
        let data = tiles.flatMap(\.bytes)
        var header = [UInt8](repeating: 0, count: 127)
        header.replaceSubrange(0..<7, with: Array("PMTiles".utf8))
        header[7] = 3
        func put(_ value: UInt64, at: Int) { for i in 0..<8 { header[at + i] = UInt8((value >> (8 * UInt64(i))) & 0xFF) } }
        let rootOffset: UInt64 = 127
        let metadataOffset = rootOffset + UInt64(root.count)
        let leafOffset = metadataOffset + UInt64(metadata.count)
        let dataOffset = leafOffset + UInt64(leaves.count)
        put(rootOffset, at: 8)
        put(UInt64(root.count), at: 16)
        put(metadataOffset, at: 24)
        put(UInt64(metadata.count), at: 32)
        put(leafOffset, at: 40)
        put(UInt64(leaves.count), at: 48)
        put(dataOffset, at: 56)
        put(UInt64(data.count), at: 64)
        header[97] = 1
        header[98] = 1
        header[99] = tileType
        header[100] = minZoom
        header[101] = maxZoom
        let path = try folder() + "/test.pmtiles"
        try Data(header + root + metadata + leaves + data).write(to: URL(fileURLWithPath: path))
        return path
    }

    struct PMTilesDirectoryEntry {
        var id: UInt64, offset: UInt64, length: UInt64, runLength: UInt64
    }

    /// A serialized directory: count, id deltas, run lengths, lengths, offsets + 1 (varints).
    static func directory(_ entries: [PMTilesDirectoryEntry]) -> [UInt8] {
        func varint(_ value: UInt64, into out: inout [UInt8]) {
            var v = value
            while v >= 0x80 {
                out.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            out.append(UInt8(v))
        }
        var out: [UInt8] = []
        varint(UInt64(entries.count), into: &out)
        var last: UInt64 = 0
        for e in entries {
            varint(e.id - last, into: &out)
            last = e.id
        }
        for e in entries { varint(e.runLength, into: &out) }
        for e in entries { varint(e.length, into: &out) }
        for e in entries { varint(e.offset + 1, into: &out) }
        return out
    }
}
