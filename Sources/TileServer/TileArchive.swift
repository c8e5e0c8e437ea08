#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A read-only tile archive: vector tiles the hub serves at /tiles/{z}/{x}/{y}.pbf,
/// or elevation images at /terrain/{z}/{x}/{y}.png (`TileKind`).
public protocol TileArchive: Sendable {
    var path: String { get }
    var metadata: TileArchiveMetadata { get }
    /// The stored bytes of tile z/x/y (XYZ numbering), nil when the archive has none there.
    func tile(z: Int, x: Int, y: Int) throws -> [UInt8]?
}

public enum TileArchives {
    /// Opens `path` as PMTiles when it starts with the PMTiles magic, else as
    /// MBTiles, holding tiles of `kind`; `TileArchiveError` naming the file and the problem.
    public static func open(_ path: String, kind: TileKind = .vector) throws -> any TileArchive {
        if startsWithPMTilesMagic(path) { return try PMTilesArchive(path: path, kind: kind) }
        return try MBTilesArchive(path: path, kind: kind)
    }

    static func startsWithPMTilesMagic(_ path: String) -> Bool {
        let fd = systemOpen(path, O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var magic = [UInt8](repeating: 0, count: 7)
        let n = magic.withUnsafeMutableBytes { read(fd, $0.baseAddress, 7) }
        return n == 7 && magic == Array("PMTiles".utf8)
    }
}

/// `open(2)`, named apart from `TileArchives.open`.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
