/// How an elevation tile's pixels encode heights (MapLibre's raster-dem `encoding`).
public enum DEMEncoding: String, Sendable, CaseIterable {
    /// height + 32768 = R·256 + G + B/256 (metres).
    case terrarium
    /// height = −10000 + (R·65536 + G·256 + B)·0.1 (metres; Mapbox Terrain-RGB).
    case mapbox
}

/// The terrain the hub serves (`camhub serve --terrain FILE`): an MBTiles or
/// PMTiles archive of raster-dem tiles (PNG or WebP) and their encoding.
public struct Terrain: Sendable {
    public let archive: any TileArchive
    public let encoding: DEMEncoding

    /// Opens and checks `path`; the encoding is `encoding` when given (the
    /// `--terrain-encoding` option), else the archive's metadata `encoding`.
    /// Throws `TileArchiveError` for `--terrain`, naming the file and what is
    /// wrong: missing, not an archive, no elevation images, or no known encoding.
    public static func open(_ path: String, encoding: String? = nil) throws -> Terrain {
        let names = DEMEncoding.allCases.map(\.rawValue).joined(separator: " or ")
        if let encoding, DEMEncoding(rawValue: encoding) == nil {
            throw TileArchiveError(path: path, option: "--terrain", problem: "--terrain-encoding \(encoding) is not an encoding (\(names))")
        }
        let archive: any TileArchive
        do { archive = try TileArchives.open(path, kind: .elevation) } catch let error as TileArchiveError { throw error.named("--terrain") }
        guard let stated = encoding ?? archive.metadata.encoding else {
            throw TileArchiveError(
                path: path, option: "--terrain", problem: "its metadata has no \"encoding\": say which with --terrain-encoding \(names)")
        }
        guard let known = DEMEncoding(rawValue: stated.lowercased()) else {
            throw TileArchiveError(
                path: path, option: "--terrain",
                problem: "its metadata's encoding \"\(stated)\" is not one MapLibre reads (\(names)); override it with --terrain-encoding")
        }
        return Terrain(archive: archive, encoding: known)
    }
}
