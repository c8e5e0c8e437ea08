import Foundation
import GRDB

/// A vector tile archive in the MBTiles 1.3 format (an SQLite file: a `tiles`
/// table or view with `zoom_level`, `tile_column`, `tile_row`, `tile_data`
/// and a `metadata` name/value table), opened read-only through GRDB.
///
/// MBTiles numbers rows from the south (TMS); `tile(z:x:y:)` takes the web's
/// XYZ numbering (rows from the north) and flips it: row = 2^z - 1 - y.
///
/// Thread-safe: GRDB's queue serializes the reads. A read is one indexed
/// SQLite lookup; the file is memory-mapped (`mmap_size`) and SQLite keeps a
/// page cache, so a repeated or nearby tile is served from memory.
public final class MBTilesArchive: TileArchive {
    public let path: String
    public let metadata: TileArchiveMetadata
    private let queue: DatabaseQueue

    /// Opens and checks the archive; a `TileArchiveError` naming the file and
    /// what is wrong when it is missing, not SQLite, lacks the MBTiles tables,
    /// holds tiles of another `kind` or no tiles at all.
    public init(path: String, kind: TileKind = .vector) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw TileArchiveError(path: path, problem: "no such file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw TileArchiveError(path: path, problem: "the file is not readable")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "tiles"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA mmap_size = 268435456")  // map up to 256 MiB of the file
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            metadata = try queue.read { db in
                guard try db.tableExists("tiles") || db.viewExists("tiles") else {
                    throw TileArchiveError(path: path, problem: "not an MBTiles file (it has no tiles table)")
                }
                let columns = Set(try db.columns(in: "tiles").map { $0.name.lowercased() })
                let needed: Set = ["zoom_level", "tile_column", "tile_row", "tile_data"]
                guard needed.isSubset(of: columns) else {
                    throw TileArchiveError(path: path, problem: "its tiles table lacks \(needed.subtracting(columns).sorted().joined(separator: ", "))")
                }
                var values: [String: String] = [:]
                if try db.tableExists("metadata") || db.viewExists("metadata") {
                    for row in try Row.fetchAll(db, sql: "SELECT name, value FROM metadata") {
                        if let name: String = row["name"], let value: String = row["value"] { values[name] = value }
                    }
                }
                let zooms = try Row.fetchOne(db, sql: "SELECT MIN(zoom_level) AS lo, MAX(zoom_level) AS hi FROM tiles")
                guard let lo: Int = zooms?["lo"], let hi: Int = zooms?["hi"] else {
                    throw TileArchiveError(path: path, problem: "it holds no tiles")
                }
                return try TileArchiveMetadata(mbtiles: values, minZoom: lo, maxZoom: hi, path: path, kind: kind)
            }
        } catch let error as TileArchiveError {
            throw error
        } catch let error as DatabaseError {
            throw TileArchiveError(path: path, problem: "not a readable MBTiles (SQLite) file: \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// The stored bytes of tile z/x/y (XYZ numbering), nil when the archive has
    /// none there or the numbers are out of range. Often gzip-compressed (see
    /// `TileBytes.isGzip`). Throws only when SQLite fails to read.
    public func tile(z: Int, x: Int, y: Int) throws -> [UInt8]? {
        guard (0...30).contains(z) else { return nil }
        let side = 1 << z
        guard (0..<side).contains(x), (0..<side).contains(y) else { return nil }
        let row = side - 1 - y
        return try queue.read { db in
            try Data.fetchOne(
                db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                arguments: [z, x, row]
            ).map { [UInt8]($0) }
        }
    }
}

/// Why a tile archive cannot be served, naming the option, the file and the problem.
public struct TileArchiveError: Error, CustomStringConvertible, Equatable {
    public let path: String
    /// The option that named the file: "--tiles" or "--terrain".
    public let option: String
    public let problem: String
    public var description: String { "\(option) \(path): \(problem)" }
    public init(path: String, option: String = "--tiles", problem: String) {
        self.path = path
        self.option = option
        self.problem = problem
    }

    /// The same problem, said of `option`'s file.
    func named(_ option: String) -> TileArchiveError { TileArchiveError(path: path, option: option, problem: problem) }
}
