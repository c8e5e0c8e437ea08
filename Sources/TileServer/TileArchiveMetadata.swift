import Foundation

/// What the viewer needs to know about a tile archive to draw it: its zoom
/// range (MapLibre overzooms past `maxZoom`), name, attribution and, when the
/// archive says, its bounds (west, south, east, north in degrees) and vector
/// layers (the `json` metadata key of MBTiles, passed through as JSON text);
/// for elevation tiles, their image format and the archive's `encoding`.
public struct TileArchiveMetadata: Sendable, Equatable {
    /// "pbf" for vector tiles; "png" or "webp" for elevation (raster-dem) tiles.
    public var format: String
    /// The metadata's `encoding` of elevation tiles ("terrarium", "mapbox"), as written; nil when it has none.
    public var encoding: String?
    public var name: String?
    public var attribution: String?
    public var minZoom: Int
    public var maxZoom: Int
    public var bounds: [Double]?
    /// The `vector_layers` array as JSON text, nil when the archive has none.
    public var vectorLayersJSON: String?

    /// From MBTiles metadata (name → value) and the zooms the tiles table holds.
    /// `kind` is what the archive must hold: vector tiles (`--tiles`) refuse a
    /// raster archive, elevation tiles (`--terrain`) anything but PNG or WebP images.
    init(mbtiles values: [String: String], minZoom: Int, maxZoom: Int, path: String, kind: TileKind = .vector) throws {
        let given = values["format"]?.lowercased()
        switch kind {
        case .vector:
            let format = given ?? "pbf"
            guard format == "pbf" || format == "mvt" else {
                throw TileArchiveError(path: path, problem: "its tiles are \(format), not vector tiles (format pbf): the hub serves vector tiles only")
            }
            self.format = "pbf"
        case .elevation:
            guard let format = given, format == "png" || format == "webp" else {
                throw TileArchiveError(
                    path: path,
                    problem: "its tiles are \(given ?? "of no stated format"), not elevation images (format png or webp, raster-dem)")
            }
            self.format = format
            encoding = values["encoding"]
        }
        name = values["name"]
        attribution = values["attribution"]
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        if let text = values["bounds"] {
            let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            bounds = parts.count == 4 && parts.allSatisfy(\.isFinite) ? parts : nil
        }
        if let json = values["json"], let data = json.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let layers = object["vector_layers"],
            let text = try? JSONSerialization.data(withJSONObject: layers, options: [.sortedKeys])
        {
            vectorLayersJSON = String(decoding: text, as: UTF8.self)
        }
    }

    /// TileJSON 3.0.0 for this archive, its tiles at `tilesURL` (a template
    /// with {z}, {x}, {y}), with `extra` fields (`"key":value` JSON text) at the end.
    public func tileJSON(tilesURL: String, extra: [String] = []) -> String {
        var fields: [String] = [
            "\"tilejson\":\"3.0.0\"",
            "\"tiles\":[\(Self.quoted(tilesURL))]",
            "\"scheme\":\"xyz\"",
            "\"minzoom\":\(minZoom)",
            "\"maxzoom\":\(maxZoom)",
        ]
        if let name { fields.append("\"name\":\(Self.quoted(name))") }
        if let attribution { fields.append("\"attribution\":\(Self.quoted(attribution))") }
        if let bounds { fields.append("\"bounds\":[\(bounds.map { "\($0)" }.joined(separator: ","))]") }
        if format == "pbf" { fields.append("\"vector_layers\":\(vectorLayersJSON ?? "[]")") }
        fields += extra
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func quoted(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
        let array = data.map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
        return String(array.dropFirst().dropLast())
    }
}

/// What a tile archive holds: the basemap's vector tiles (`--tiles`) or elevation images (`--terrain`).
public enum TileKind: Sendable {
    case vector
    /// raster-dem: PNG or WebP tiles whose pixels encode heights (`DEMEncoding`).
    case elevation
}
