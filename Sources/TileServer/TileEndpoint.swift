import WebSocketTransport

/// `GET /tiles/{z}/{x}/{y}.pbf` (XYZ numbering) from the hub's tile archive,
/// and `GET /tiles.json`, the archive's TileJSON.
///
/// A tile is answered with `Content-Type: application/vnd.mapbox-vector-tile`,
/// `Content-Encoding: gzip` when the stored bytes are gzip (as tippecanoe
/// writes them) and `Cache-Control: public, max-age=3600`; a tile the archive
/// lacks with 204 (MapLibre draws nothing there, no error); a path that is not
/// a tile address with 404; a read failure with 500 naming it.
///
/// `respond` reads the archive: it runs on a worker thread (`OffLoopReads`), never
/// on an event loop; a read is one indexed SQLite lookup in a memory-mapped
/// file, or a PMTiles directory walk (docs/ARCHITECTURE.md, "Tiles").
public struct TileEndpoint: Sendable {
    public static let prefix = "/tiles/"
    public static let tileJSONPath = "/tiles.json"
    public static let contentType = "application/vnd.mapbox-vector-tile"
    public static let cacheControl = "public, max-age=3600"

    let archive: any TileArchive
    /// "https" with TLS, else "http": the scheme of the absolute tile URL in TileJSON.
    let scheme: String

    public init(archive: any TileArchive, scheme: String) {
        self.archive = archive
        self.scheme = scheme
    }

    /// z, x, y of "/tiles/z/x/y.pbf" (also ".mvt"), nil for any other path.
    public static func address(_ path: String) -> (z: Int, x: Int, y: Int)? {
        TileAddress.parse(path, prefix: prefix, extensions: [".pbf", ".mvt"])
    }

    public func respond(_ request: HTTPRequest) -> HTTPResponse {
        guard let (z, x, y) = Self.address(request.path) else {
            return .text("not found: tiles are at /tiles/{z}/{x}/{y}.pbf\n", status: 404)
        }
        let bytes: [UInt8]?
        do { bytes = try archive.tile(z: z, x: x, y: y) } catch {
            return .text("cannot read tile \(z)/\(x)/\(y) from \(archive.path): \(error)\n", status: 500)
        }
        guard let bytes, !bytes.isEmpty else {
            return HTTPResponse(status: 204, contentType: Self.contentType, body: [], headers: ["cache-control": Self.cacheControl])
        }
        var headers = ["cache-control": Self.cacheControl]
        if TileBytes.isGzip(bytes) { headers["content-encoding"] = "gzip" }
        return HTTPResponse(status: 200, contentType: Self.contentType, body: bytes, headers: headers)
    }

    /// TileJSON whose tile URL is absolute on the host the request was sent to
    /// (MapLibre fetches tiles from a worker, where relative URLs do not resolve).
    public func tileJSON(_ request: HTTPRequest) -> HTTPResponse {
        let url = "\(scheme)://\(TileAddress.host(of: request))\(Self.prefix){z}/{x}/{y}.pbf"
        return HTTPResponse(
            status: 200, contentType: "application/json", body: Array(archive.metadata.tileJSON(tilesURL: url).utf8),
            headers: ["cache-control": "no-cache"])
    }
}

/// A tile's address in a URL path.
enum TileAddress {
    /// z, x, y of "`prefix`z/x/y`extension`" (whole numbers of at most 10 digits,
    /// one of `extensions`), nil for any other path.
    static func parse(_ path: String, prefix: String, extensions: [String]) -> (z: Int, x: Int, y: Int)? {
        guard path.hasPrefix(prefix) else { return nil }
        let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let ext = extensions.first(where: { parts[2].hasSuffix($0) }) else { return nil }
        let stem = parts[2].dropLast(ext.count)
        func number(_ s: Substring) -> Int? {
            guard !s.isEmpty, s.count <= 10, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(s)
        }
        guard let z = number(parts[0]), let x = number(parts[1]), let y = number(stem) else { return nil }
        return (z, x, y)
    }

    /// The host of a request, when it is a plausible host name or address (else "localhost"),
    /// for the absolute tile URLs of TileJSON (MapLibre fetches tiles from a worker, where relative URLs do not resolve).
    static func host(of request: HTTPRequest) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        return request.host.flatMap { !$0.isEmpty && $0.count <= 255 && $0.allSatisfy(allowed.contains) ? $0 : nil } ?? "localhost"
    }
}

/// Facts about stored tile bytes.
public enum TileBytes {
    /// True when the bytes start with the gzip magic number (1f 8b).
    public static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }
}
