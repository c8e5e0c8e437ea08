import Foundation
import Gzip

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A vector tile archive in the PMTiles v3 format: a 127-byte header, a root
/// directory, optional leaf directories and the tile data, found by tile id
/// (the tile's position on a Hilbert curve, zoom by zoom). Directories are
/// read with `pread` and inflated when gzip-compressed; tiles are returned
/// as stored (often gzip: `TileBytes.isGzip`).
///
/// Thread-safe: the file descriptor is only read with `pread`, the root
/// directory is parsed once at open, and the leaf directories parsed lately
/// are kept (`LeafDirectories`, 64 of them, behind a `Mutex`).
public final class PMTilesArchive: TileArchive {
    public let path: String
    public let metadata: TileArchiveMetadata
    private let fd: Int32
    private let header: PMTilesHeader
    private let root: [PMTilesEntry]
    /// Leaf directories parsed lately, so that neighbouring tiles do not read and inflate theirs again.
    let leaves = LeafDirectories(capacity: 64)

    /// Opens and checks the archive (vector tiles, or PNG or WebP elevation
    /// tiles for `kind` `.elevation`); `TileArchiveError` naming the problem.
    public init(path: String, kind: TileKind = .vector) throws {
        self.path = path
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw TileArchiveError(path: path, problem: String(cString: strerror(errno))) }
        do {
            let bytes = try Self.read(fd, offset: 0, count: PMTilesHeader.size, path: path)
            header = try PMTilesHeader(bytes, path: path)
            var values: [String: String] = [:]
            switch (kind, header.tileType) {
            case (.vector, 0), (.vector, 1): values["format"] = "pbf"
            case (.vector, _):
                throw TileArchiveError(
                    path: path, problem: "its tiles are not vector tiles (PMTiles tile type \(header.tileType)): the hub serves vector tiles only")
            case (.elevation, 2): values["format"] = "png"
            case (.elevation, 4): values["format"] = "webp"
            case (.elevation, _):
                throw TileArchiveError(
                    path: path,
                    problem: "its tiles are not elevation images (PMTiles tile type \(header.tileType); raster-dem needs 2, PNG, or 4, WebP)")
            }
            let rootBytes = try Self.read(fd, offset: header.rootOffset, count: Int(header.rootLength), path: path)
            root = try PMTilesEntry.directory(Self.inflate(rootBytes, compression: header.internalCompression, path: path), path: path)
            if header.metadataLength > 0, header.metadataLength < 16 << 20 {
                let raw = try Self.read(fd, offset: header.metadataOffset, count: Int(header.metadataLength), path: path)
                let json = try Self.inflate(raw, compression: header.internalCompression, path: path)
                if let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] {
                    for key in ["name", "attribution", "encoding"] { if let v = object[key] as? String { values[key] = v } }
                    if let layers = object["vector_layers"],
                        let text = try? JSONSerialization.data(withJSONObject: ["vector_layers": layers])
                    {
                        values["json"] = String(decoding: text, as: UTF8.self)
                    }
                }
            }
            values["bounds"] = [header.minLon, header.minLat, header.maxLon, header.maxLat].map { "\(Double($0) / 1e7)" }.joined(separator: ",")
            metadata = try TileArchiveMetadata(
                mbtiles: values, minZoom: Int(header.minZoom), maxZoom: Int(header.maxZoom), path: path, kind: kind)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    public func tile(z: Int, x: Int, y: Int) throws -> [UInt8]? {
        guard (0...26).contains(z) else { return nil }
        let side = 1 << z
        guard (0..<side).contains(x), (0..<side).contains(y) else { return nil }
        let id = PMTilesEntry.tileID(z: z, x: x, y: y)
        var directory = root
        for _ in 0..<4 {  // root + at most 3 levels of leaves (the spec's limit)
            guard let entry = PMTilesEntry.find(id, in: directory) else { return nil }
            if entry.runLength > 0 {
                guard id - entry.tileID < UInt64(entry.runLength) else { return nil }
                return try Self.read(fd, offset: header.tileDataOffset + entry.offset, count: Int(entry.length), path: path)
            }
            if let kept = leaves.directory(at: entry.offset) {
                directory = kept
                continue
            }
            let raw = try Self.read(fd, offset: header.leafOffset + entry.offset, count: Int(entry.length), path: path)
            directory = try PMTilesEntry.directory(Self.inflate(raw, compression: header.internalCompression, path: path), path: path)
            leaves.keep(directory, at: entry.offset)
        }
        return nil
    }

    static func read(_ fd: Int32, offset: UInt64, count: Int, path: String) throws -> [UInt8] {
        guard count >= 0, count <= 64 << 20 else { throw TileArchiveError(path: path, problem: "a directory or tile of \(count) bytes is out of range") }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n <= 0 { throw TileArchiveError(path: path, problem: "the file ends before byte \(offset + UInt64(count)) (truncated?)") }
            done += n
        }
        return bytes
    }

    /// The bytes of a directory or of the metadata: as stored (compression 1,
    /// none) or inflated (2, gzip); other compressions are refused.
    static func inflate(_ bytes: [UInt8], compression: UInt8, path: String) throws -> [UInt8] {
        switch compression {
        case 1: return bytes
        case 2: return try gunzip(bytes, path: path)
        default: throw TileArchiveError(path: path, problem: "its directories use compression \(compression) (only none and gzip are read)")
        }
    }

    /// A gzip directory or metadata, inflated (256 MiB at most: a directory is never that large).
    static func gunzip(_ input: [UInt8], path: String) throws -> [UInt8] {
        do {
            let (bytes, truncated) = try Gzip.decompress(input, limit: 256 << 20)
            if truncated { throw TileArchiveError(path: path, problem: "a gzip directory ends inside its stream") }
            return bytes
        } catch let error as Gzip.Failure {
            throw TileArchiveError(path: path, problem: "a gzip directory does not inflate (\(error.description))")
        }
    }
}

/// The fixed 127-byte PMTiles v3 header (little-endian).
struct PMTilesHeader {
    static let size = 127
    var rootOffset: UInt64, rootLength: UInt64
    var metadataOffset: UInt64, metadataLength: UInt64
    var leafOffset: UInt64, leafLength: UInt64
    var tileDataOffset: UInt64, tileDataLength: UInt64
    var internalCompression: UInt8, tileCompression: UInt8, tileType: UInt8
    var minZoom: UInt8, maxZoom: UInt8
    var minLon: Int32, minLat: Int32, maxLon: Int32, maxLat: Int32

    init(_ b: [UInt8], path: String) throws {
        guard b.count == Self.size, Array(b[0..<7]) == Array("PMTiles".utf8) else {
            throw TileArchiveError(path: path, problem: "not a PMTiles file (no PMTiles header)")
        }
        guard b[7] == 3 else { throw TileArchiveError(path: path, problem: "PMTiles version \(b[7]); only version 3 is read") }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[at + $1]) << (8 * UInt32($1)) }) }
        rootOffset = u64(8)
        rootLength = u64(16)
        metadataOffset = u64(24)
        metadataLength = u64(32)
        leafOffset = u64(40)
        leafLength = u64(48)
        tileDataOffset = u64(56)
        tileDataLength = u64(64)
        internalCompression = b[97]
        tileCompression = b[98]
        tileType = b[99]
        minZoom = b[100]
        maxZoom = b[101]
        minLon = i32(102)
        minLat = i32(106)
        maxLon = i32(110)
        maxLat = i32(114)
    }
}

/// One directory entry: tiles `tileID ..< tileID + runLength` share the bytes
/// at `offset` (in the tile data), or, with `runLength` 0, a leaf directory at
/// `offset` (in the leaf directories).
struct PMTilesEntry: Equatable {
    var tileID: UInt64
    var offset: UInt64
    var length: UInt32
    var runLength: UInt32

    /// A serialized directory: entry count, then the ids (deltas), run
    /// lengths, lengths and offsets (0 = right after the previous entry,
    /// else offset + 1), each a run of unsigned LEB128 varints.
    static func directory(_ bytes: [UInt8], path: String) throws -> [PMTilesEntry] {
        var at = 0
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while at < bytes.count, shift < 64 {
                let byte = bytes[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            throw TileArchiveError(path: path, problem: "a PMTiles directory is cut short or malformed")
        }
        let count = Int(clamping: try varint())
        guard count <= bytes.count else { throw TileArchiveError(path: path, problem: "a PMTiles directory claims \(count) entries") }
        var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: count)
        var id: UInt64 = 0
        for i in 0..<count {
            id &+= try varint()
            entries[i].tileID = id
        }
        for i in 0..<count { entries[i].runLength = UInt32(truncatingIfNeeded: try varint()) }
        for i in 0..<count { entries[i].length = UInt32(truncatingIfNeeded: try varint()) }
        for i in 0..<count {
            let v = try varint()
            entries[i].offset = v == 0 && i > 0 ? entries[i - 1].offset + UInt64(entries[i - 1].length) : v &- 1
        }
        return entries
    }

    /// The entry with the largest id ≤ `id` (directories are sorted by id).
    static func find(_ id: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        var lo = 0
        var hi = entries.count - 1
        var best: PMTilesEntry?
        while lo <= hi {
            let mid = (lo + hi) / 2
            if entries[mid].tileID <= id {
                best = entries[mid]
                lo = mid + 1
            } else {
                hi = mid - 1
            }
        }
        return best
    }

    /// The tile id of z/x/y: the tiles of lower zooms counted first, then the
    /// position on zoom z's Hilbert curve.
    static func tileID(z: Int, x: Int, y: Int) -> UInt64 {
        let before = ((UInt64(1) << (2 * UInt64(z))) - 1) / 3
        var x = UInt64(x)
        var y = UInt64(y)
        var d: UInt64 = 0
        var s = (UInt64(1) << UInt64(z)) >> 1
        while s > 0 {
            let rx: UInt64 = x & s > 0 ? 1 : 0
            let ry: UInt64 = y & s > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = s &- 1 &- x
                    y = s &- 1 &- y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return before + d
    }
}
