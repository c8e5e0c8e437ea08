import Foundation
import HubServer
import SocketTestSupport
import Testing
import TileServer
import WebSocketTransport

extension HubServerTests {
    @Test func aStoredTileIsServedAsAGzippedVectorTileWithCaching() throws {
        // z 2: rows 0…3; XYZ y 0 is the northernmost row, TMS row 3.
        let archive = try TileFixtures.mbtiles([(2, 1, 3, TileFixtures.gzipped)])
        let hub = try RunningHub { $0.tiles = archive }
        let response = try RawHTTP.request(port: hub.port, path: "/tiles/2/1/0.pbf")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/vnd.mapbox-vector-tile")
        #expect(response.headers["content-encoding"] == "gzip")
        #expect(response.headers["cache-control"] == "public, max-age=3600")
        #expect(response.body == TileFixtures.gzipped)
    }

    @Test func anUncompressedTileIsServedWithoutContentEncoding() throws {
        let archive = try TileFixtures.mbtiles([(0, 0, 0, TileFixtures.plain)])
        let hub = try RunningHub { $0.tiles = archive }
        let response = try RawHTTP.request(port: hub.port, path: "/tiles/0/0/0.pbf")
        #expect(response.status == 200)
        #expect(response.headers["content-encoding"] == nil)
        #expect(response.body == TileFixtures.plain)
    }

    @Test func xyzRowsAreFlippedFromTheArchivesTMSRows() throws {
        // z 3: TMS row r is XYZ y = 7 - r.
        let archive = try TileFixtures.mbtiles([(3, 5, 0, [0x1A, 0]), (3, 5, 7, [0x1A, 7]), (3, 5, 2, [0x1A, 2])])
        let hub = try RunningHub { $0.tiles = archive }
        #expect(try RawHTTP.request(port: hub.port, path: "/tiles/3/5/7.pbf").body == [0x1A, 0])
        #expect(try RawHTTP.request(port: hub.port, path: "/tiles/3/5/0.pbf").body == [0x1A, 7])
        #expect(try RawHTTP.request(port: hub.port, path: "/tiles/3/5/5.pbf").body == [0x1A, 2])
    }

    @Test func aTileTheArchiveLacksIsNoContent() throws {
        let archive = try TileFixtures.mbtiles([(0, 0, 0, TileFixtures.plain)])
        let hub = try RunningHub { $0.tiles = archive }
        for path in ["/tiles/5/3/4.pbf", "/tiles/1/2/0.pbf", "/tiles/40/0/0.pbf"] {
            let response = try RawHTTP.request(port: hub.port, path: path)
            #expect(response.status == 204, "\(path)")
            #expect(response.body.isEmpty)
            #expect(response.headers["content-length"] == nil, "no Content-Length on a 204")
        }
    }

    @Test func aPathThatIsNoTileAddressIsNotFound() throws {
        let archive = try TileFixtures.mbtiles([(0, 0, 0, TileFixtures.plain)])
        let hub = try RunningHub { $0.tiles = archive }
        for path in ["/tiles/0/0.pbf", "/tiles/a/0/0.pbf", "/tiles/0/0/0.png", "/tiles/0/0/-1.pbf", "/tiles/"] {
            #expect(try RawHTTP.request(port: hub.port, path: path).status == 404, "\(path)")
        }
    }

    @Test func tileJSONNamesTheAbsoluteTileURLAndTheArchivesZooms() throws {
        let archive = try TileFixtures.mbtiles(
            [(1, 0, 0, TileFixtures.plain), (4, 0, 0, TileFixtures.plain)],
            metadata: ["name": "mine", "format": "pbf", "attribution": "me", "bounds": "-10,-5,10,5"])
        let hub = try RunningHub { $0.tiles = archive }
        let response = try RawHTTP.request(port: hub.port, path: "/tiles.json")
        #expect(response.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(json["tiles"] as? [String] == ["http://127.0.0.1:\(hub.port)/tiles/{z}/{x}/{y}.pbf"])
        #expect(json["minzoom"] as? Int == 1)
        #expect(json["maxzoom"] as? Int == 4)
        #expect(json["name"] as? String == "mine")
        #expect(json["bounds"] as? [Double] == [-10, -5, 10, 5])
    }

    @Test func aMissingTileArchiveIsAClearErrorAtStart() throws {
        let path = try TileFixtures.folder() + "/nope.mbtiles"
        #expect(throws: TileArchiveError(path: path, problem: "no such file")) { try RunningHub { $0.tiles = path } }
    }

    @Test func aFileThatIsNotSQLiteIsAClearErrorAtStart() throws {
        let path = try TileFixtures.folder() + "/broken.mbtiles"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: TileArchiveError.self) { try RunningHub { $0.tiles = path } }
        #expect(error.description.hasPrefix("--tiles \(path): not a readable MBTiles (SQLite) file"), "\(error)")
    }

    @Test func anArchiveWithoutTilesIsAClearErrorAtStart() throws {
        let path = try TileFixtures.mbtiles([])
        let error = try #require(throws: TileArchiveError.self) { try RunningHub { $0.tiles = path } }
        #expect(error.problem == "it holds no tiles", "\(error)")
    }

    @Test func aRasterArchiveIsRefusedAtStart() throws {
        let path = try TileFixtures.mbtiles([(0, 0, 0, [0x89, 0x50])], metadata: ["format": "png"])
        let error = try #require(throws: TileArchiveError.self) { try RunningHub { $0.tiles = path } }
        #expect(error.problem.contains("png, not vector tiles"), "\(error)")
    }

    @Test func withoutAnArchiveTheTilePathsAreNotFoundAndTheConfigSaysNoTiles() throws {
        let hub = try RunningHub()
        #expect(try RawHTTP.request(port: hub.port, path: "/tiles/0/0/0.pbf").status == 404)
        let config = try RawHTTP.request(port: hub.port, path: "/map/config.json")
        #expect(config.text == #"{"style":null,"tiles":null,"terrain":null,"recordings":null}"#)
    }

    @Test func aStyleFileIsServedAndNamedInTheMapConfig() throws {
        let path = try TileFixtures.folder() + "/style.json"
        let text = #"{"version":8,"name":"mine","sources":{},"layers":[]}"#
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let archive = try TileFixtures.mbtiles([(0, 0, 0, TileFixtures.plain)])
        let hub = try RunningHub {
            $0.style = try? MapStyle.load(path)
            $0.tiles = archive
        }
        #expect(
            try RawHTTP.request(port: hub.port, path: "/map/config.json").text
                == #"{"style":"/map/style.json","tiles":"/tiles.json","terrain":null,"recordings":null}"#)
        let style = try RawHTTP.request(port: hub.port, path: "/map/style.json")
        #expect(style.status == 200)
        #expect(style.text == text)
    }

    @Test func aStyleURLIsPassedToThePageAndItsOriginAllowed() throws {
        let web = try TileFixtures.folder()
        try "<p>hi</p>".write(toFile: web + "/index.html", atomically: true, encoding: .utf8)
        let hub = try RunningHub {
            $0.style = try? MapStyle.load("https://maps.example.org:8443/styles/a.json")
            $0.webRoot = web
        }
        #expect(
            try RawHTTP.request(port: hub.port, path: "/map/config.json").text
                == #"{"style":"https:\/\/maps.example.org:8443\/styles\/a.json","tiles":null,"terrain":null,"recordings":null}"#)
        let csp = try RawHTTP.request(port: hub.port, path: "/").headers["content-security-policy"] ?? ""
        #expect(csp.contains("connect-src 'self' https://maps.example.org:8443;"), "\(csp)")
    }

    @Test func aStyleFileThatIsNotAStyleIsRefusedWithTheReason() throws {
        let folder = try TileFixtures.folder()
        let cases: [(String, String)] = [
            ("[1]", "the JSON is not an object"), (#"{"version":7}"#, "\"version\" must be 8"),
            ("{", "not JSON"), (#"{"version":8,"layers":[]}"#, "it needs \"sources\""),
        ]
        for (index, (text, reason)) in cases.enumerated() {
            let path = folder + "/s\(index).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let error = try #require(throws: MapStyleError.self) { try MapStyle.load(path) }
            #expect(error.description.contains(reason), "\(error)")
        }
        #expect(throws: MapStyleError.self) { try MapStyle.load(folder + "/missing.json") }
    }
}
