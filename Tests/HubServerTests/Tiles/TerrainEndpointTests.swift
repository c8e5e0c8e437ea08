import Foundation
import HubServer
import SocketTestSupport
import Testing
import TileServer
import WebSocketTransport

extension HubServerTests {
    /// Bytes that start like a PNG (the hub serves them as stored, without decoding).
    static let pngTile: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    static let demMetadata = ["name": "hill", "format": "png", "encoding": "terrarium", "bounds": "7,46,9,47"]

    @Test func aStoredTerrainTileIsServedAsAPNGWithCaching() throws {
        // z 2: XYZ y 0 is TMS row 3.
        let archive = try TileFixtures.mbtiles([(2, 1, 3, Self.pngTile)], metadata: Self.demMetadata)
        let hub = try RunningHub { $0.terrain = archive }
        let response = try RawHTTP.request(port: hub.port, path: "/terrain/2/1/0.png")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "image/png")
        #expect(response.headers["content-encoding"] == nil)
        #expect(response.headers["cache-control"] == "public, max-age=3600")
        #expect(response.body == Self.pngTile)
    }

    @Test func aTerrainTileTheArchiveLacksOrAnotherPathIsNotFound() throws {
        let archive = try TileFixtures.mbtiles([(2, 1, 3, Self.pngTile)], metadata: Self.demMetadata)
        let hub = try RunningHub { $0.terrain = archive }
        #expect(try RawHTTP.request(port: hub.port, path: "/terrain/2/1/1.png").status == 404)
        #expect(try RawHTTP.request(port: hub.port, path: "/terrain/2/1/0.webp").status == 404)
        #expect(try RawHTTP.request(port: hub.port, path: "/terrain/2/1/x.png").status == 404)
        #expect(try RawHTTP.request(port: hub.port, path: "/terrain/9/0/0.png").status == 404)
    }

    @Test func theTerrainTileJSONAndTheMapConfigTellTheViewerTheSourceAndItsEncoding() throws {
        let archive = try TileFixtures.mbtiles(
            [(8, 133, 164, Self.pngTile), (11, 1069, 1322, Self.pngTile)], metadata: Self.demMetadata)
        let hub = try RunningHub { $0.terrain = archive }
        let response = try RawHTTP.request(port: hub.port, path: "/terrain.json")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(json["tiles"] as? [String] == ["http://127.0.0.1:\(hub.port)/terrain/{z}/{x}/{y}.png"])
        #expect(json["encoding"] as? String == "terrarium")
        #expect(json["tileSize"] as? Int == 256)
        #expect(json["minzoom"] as? Int == 8)
        #expect(json["maxzoom"] as? Int == 11)
        #expect(json["bounds"] as? [Double] == [7, 46, 9, 47])
        #expect(json["vector_layers"] == nil)
        #expect(
            try RawHTTP.request(port: hub.port, path: "/map/config.json").text
                == #"{"style":null,"tiles":null,"terrain":{"url":"/terrain.json","encoding":"terrarium"},"recordings":null}"#)
    }

    @Test func theTerrainEncodingOptionOverridesTheMetadata() throws {
        var metadata = Self.demMetadata
        metadata["encoding"] = nil
        let archive = try TileFixtures.mbtiles([(0, 0, 0, Self.pngTile)], metadata: metadata)
        let hub = try RunningHub {
            $0.terrain = archive
            $0.terrainEncoding = "mapbox"
        }
        #expect(try RawHTTP.request(port: hub.port, path: "/map/config.json").text.contains(#""terrain":{"url":"/terrain.json","encoding":"mapbox"}"#))
    }

    @Test func aMissingTerrainFileIsAClearErrorAtStart() throws {
        let path = try TileFixtures.folder() + "/nope.mbtiles"
        let error = try #require(throws: TileArchiveError.self) { try RunningHub { $0.terrain = path } }
        #expect(error.description == "--terrain \(path): no such file")
    }

    @Test func aVectorArchiveGivenAsTerrainIsRefusedNamingTheFileAndTheFormat() throws {
        let path = try TileFixtures.mbtiles([(0, 0, 0, TileFixtures.plain)])
        let error = try #require(throws: TileArchiveError.self) { try RunningHub { $0.terrain = path } }
        #expect(error.description == "--terrain \(path): its tiles are pbf, not elevation images (format png or webp, raster-dem)")
    }

    @Test func aTerrainArchiveWithoutAKnownEncodingIsRefusedSayingWhatToDo() throws {
        var metadata = Self.demMetadata
        metadata["encoding"] = nil
        let unsaid = try TileFixtures.mbtiles([(0, 0, 0, Self.pngTile)], metadata: metadata)
        let error = try #require(throws: TileArchiveError.self) { try RunningHub { $0.terrain = unsaid } }
        #expect(error.description == "--terrain \(unsaid): its metadata has no \"encoding\": say which with --terrain-encoding terrarium or mapbox")
        metadata["encoding"] = "lerc"
        let unknown = try TileFixtures.mbtiles([(0, 0, 0, Self.pngTile)], metadata: metadata)
        let other = try #require(throws: TileArchiveError.self) { try RunningHub { $0.terrain = unknown } }
        #expect(other.description.hasPrefix("--terrain \(unknown): its metadata's encoding \"lerc\" is not one MapLibre reads"), "\(other)")
    }

    @Test func withoutTerrainItsPathsAreNotFound() throws {
        let hub = try RunningHub()
        #expect(try RawHTTP.request(port: hub.port, path: "/terrain/0/0/0.png").status == 404)
        #expect(try RawHTTP.request(port: hub.port, path: "/terrain.json").status == 404)
    }
}

extension HubServerTests {
    @Test func aPMTilesTerrainArchiveIsServedWithItsMetadatasEncoding() throws {
        let path = try TileFixtures.pmtiles([(id: 0, bytes: Self.pngTile)], tileType: 2, metadata: #"{"name":"pm dem","encoding":"mapbox"}"#)
        let hub = try RunningHub { $0.terrain = path }
        let response = try RawHTTP.request(port: hub.port, path: "/terrain/0/0/0.png")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "image/png")
        #expect(response.body == Self.pngTile)
        #expect(try RawHTTP.request(port: hub.port, path: "/map/config.json").text.contains(#""encoding":"mapbox""#))
    }

    @Test func aPMTilesVectorArchiveGivenAsTerrainIsRefused() throws {
        let path = try TileFixtures.pmtiles([(id: 0, bytes: TileFixtures.plain)])
        let error = try #require(throws: TileArchiveError.self) { try RunningHub { $0.terrain = path } }
        #expect(error.description.hasPrefix("--terrain \(path): its tiles are not elevation images (PMTiles tile type 1"), "\(error)")
    }
}
