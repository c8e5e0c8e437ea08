import WebSocketTransport

/// `GET /map/config.json`: which style, tiles and terrain the viewer starts with, and
/// whether the hub serves recordings, as `{"style": URL | null, "tiles":
/// "/tiles.json" | null, "terrain": {"url": "/terrain.json", "encoding":
/// "terrarium" | "mapbox"} | null, "recordings": "/recordings" | null}` (a `?style=` on
/// the page overrides `style`); and `GET /map/style.json`, the `--style` file.
public enum MapEndpoints {
    public static let configPath = "/map/config.json"
    public static let stylePath = "/map/style.json"

    /// `recordings`: where the hub lists its recordings (nil: it records none).
    /// `terrain`: the encoding of the terrain the hub serves (nil: it serves none).
    public static func config(style: MapStyle?, hasTiles: Bool, terrain: DEMEncoding? = nil, recordings: String? = nil) -> String {
        let styleText: String
        switch style {
        case .url(let url): styleText = TileArchiveMetadata.quoted(url)
        case .file: styleText = "\"\(stylePath)\""
        case nil: styleText = "null"
        }
        let recordingsText = recordings.map { TileArchiveMetadata.quoted($0) } ?? "null"
        let terrainText = terrain.map { "{\"url\":\"\(TerrainEndpoint.tileJSONPath)\",\"encoding\":\"\($0.rawValue)\"}" } ?? "null"
        return
            "{\"style\":\(styleText),\"tiles\":\(hasTiles ? "\"\(TileEndpoint.tileJSONPath)\"" : "null"),\"terrain\":\(terrainText),\"recordings\":\(recordingsText)}"
    }

    public static func styleFile(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "application/json", body: bytes, headers: ["cache-control": "no-cache"])
    }
}

extension MapEndpoints {
    /// Adds the map's HTTP endpoints to `transport`: the tile archive and the
    /// terrain archive (`terrain`, with `terrainEncoding` overriding its metadata's;
    /// each opened and checked now: a missing or broken one throws `TileArchiveError`;
    /// their tiles read on worker threads, `OffLoopReads`),
    /// the `--style` file, `/map/config.json` (which also says where the
    /// recordings are listed, when `recordings` is given); and lets the page's Content-Security-Policy
    /// load a `--style` URL's origin.
    public static func install(
        tiles: String?, terrain: String? = nil, terrainEncoding: String? = nil, style: MapStyle?, tls: Bool, recordings: String?,
        on transport: inout ServerConfiguration
    ) throws {
        var encoding: DEMEncoding?
        if let terrain {
            let endpoint = TerrainEndpoint(terrain: try Terrain.open(terrain, encoding: terrainEncoding), scheme: tls ? "https" : "http")
            transport.httpAPIHandlers[TerrainEndpoint.prefix] = OffLoopReads("terrain tile").handler(endpoint.respond)
            transport.httpHandlers[TerrainEndpoint.tileJSONPath] = { endpoint.tileJSON($0) }
            encoding = endpoint.terrain.encoding
        }
        if let tiles {
            let endpoint = TileEndpoint(archive: try TileArchives.open(tiles), scheme: tls ? "https" : "http")
            transport.httpAPIHandlers[TileEndpoint.prefix] = OffLoopReads("tile").handler(endpoint.respond)
            transport.httpHandlers[TileEndpoint.tileJSONPath] = { endpoint.tileJSON($0) }
        }
        if case .file(_, let bytes) = style {
            transport.httpHandlers[stylePath] = { _ in styleFile(bytes) }
        }
        let config = Self.config(style: style, hasTiles: tiles != nil, terrain: encoding, recordings: recordings)
        transport.httpHandlers[configPath] = { _ in .json(config) }
        if let origin = style?.origin, let csp = transport.contentSecurityPolicy {
            transport.contentSecurityPolicy =
                csp
                .replacingOccurrences(of: "connect-src 'self'", with: "connect-src 'self' \(origin)")
                .replacingOccurrences(of: "img-src 'self'", with: "img-src 'self' \(origin)")
        }
    }
}
