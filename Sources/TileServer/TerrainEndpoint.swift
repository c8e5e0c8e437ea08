import WebSocketTransport

/// `GET /terrain/{z}/{x}/{y}.png` (or `.webp`, the archive's format; XYZ
/// numbering) from the hub's terrain archive, and `GET /terrain.json`, its
/// TileJSON with the `encoding` and `tileSize` MapLibre's raster-dem source needs.
///
/// A tile is answered with `Content-Type: image/png` (or `image/webp`) and
/// `Cache-Control: public, max-age=3600`; a tile the archive lacks, or a path
/// that is not a tile address of its format, with 404; a read failure with 500
/// naming it. (Unlike a missing vector tile, an empty answer is no image: MapLibre
/// keeps a raster-dem tile that failed to load flat, and the source's `bounds`
/// keep it from asking outside the archive.)
///
/// `respond` reads the archive: it runs on a worker thread (`OffLoopReads`), never on an event loop.
public struct TerrainEndpoint: Sendable {
    public static let prefix = "/terrain/"
    public static let tileJSONPath = "/terrain.json"
    /// Pixels per tile side the viewer's raster-dem source is told (Terrarium and Terrain-RGB tiles are 256 px).
    public static let tileSize = 256

    let terrain: Terrain
    /// "https" with TLS, else "http": the scheme of the absolute tile URL in TileJSON.
    let scheme: String

    public init(terrain: Terrain, scheme: String) {
        self.terrain = terrain
        self.scheme = scheme
    }

    /// "png" or "webp": the tiles' format, their URLs' extension.
    var format: String { terrain.archive.metadata.format }
    var contentType: String { "image/\(format)" }

    public func respond(_ request: HTTPRequest) -> HTTPResponse {
        guard let (z, x, y) = TileAddress.parse(request.path, prefix: Self.prefix, extensions: [".\(format)"]) else {
            return .text("not found: terrain tiles are at \(Self.prefix){z}/{x}/{y}.\(format)\n", status: 404)
        }
        let bytes: [UInt8]?
        do { bytes = try terrain.archive.tile(z: z, x: x, y: y) } catch {
            return .text("cannot read terrain tile \(z)/\(x)/\(y) from \(terrain.archive.path): \(error)\n", status: 500)
        }
        guard let bytes, !bytes.isEmpty else {
            return .text("no terrain tile \(z)/\(x)/\(y) in \(terrain.archive.path)\n", status: 404)
        }
        return HTTPResponse(status: 200, contentType: contentType, body: bytes, headers: ["cache-control": TileEndpoint.cacheControl])
    }

    /// TileJSON whose tile URL is absolute on the host the request was sent to.
    public func tileJSON(_ request: HTTPRequest) -> HTTPResponse {
        let url = "\(scheme)://\(TileAddress.host(of: request))\(Self.prefix){z}/{x}/{y}.\(format)"
        let text = terrain.archive.metadata.tileJSON(
            tilesURL: url, extra: ["\"encoding\":\"\(terrain.encoding.rawValue)\"", "\"tileSize\":\(Self.tileSize)"])
        return HTTPResponse(status: 200, contentType: "application/json", body: Array(text.utf8), headers: ["cache-control": "no-cache"])
    }
}
