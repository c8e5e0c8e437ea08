import Foundation
import SocketTestSupport
import Testing

@testable import WebSocketTransport

extension TransportTests {
    /// A web root `www/` inside a temp dir, with `secret.txt` beside it.
    static func makeWebRoot() throws -> TempDir {
        let dir = try TempDir()
        try dir.write("secret.txt", "TOP-SECRET")
        try dir.write("www/index.html", "<!doctype html><title>hub</title>")
        try dir.write("www/app.js", "export const x = 1;")
        try dir.write("www/style.css", "body{}")
        try dir.write("www/data/roads.geojson", "{\"type\":\"FeatureCollection\",\"features\":[]}")
        try dir.write("www/sub/index.html", "sub index")
        try FileManager.default.createSymbolicLink(
            atPath: dir.path + "/www/escape.txt", withDestinationPath: dir.path + "/secret.txt")
        try FileManager.default.createSymbolicLink(
            atPath: dir.path + "/www/inside.txt", withDestinationPath: dir.path + "/www/app.js")
        return dir
    }

    @Test func staticFilesAreServedWithTheirContentType() throws {
        let root = try Self.makeWebRoot()
        let server = try ServerHarness { $0.webRoot = root.path + "/www" }
        defer { server.server.shutdown() }
        let cases: [(String, String, String)] = [
            ("/", "text/html; charset=utf-8", "<!doctype html><title>hub</title>"),
            ("/index.html", "text/html; charset=utf-8", "<!doctype html><title>hub</title>"),
            ("/app.js", "text/javascript; charset=utf-8", "export const x = 1;"),
            ("/style.css", "text/css; charset=utf-8", "body{}"),
            ("/data/roads.geojson", "application/geo+json", "{\"type\":\"FeatureCollection\",\"features\":[]}"),
            ("/sub/", "text/html; charset=utf-8", "sub index"),
            ("/inside.txt", "text/plain; charset=utf-8", "export const x = 1;"),
        ]
        for (path, type, body) in cases {
            let response = try RawHTTP.request(port: server.port, path: path)
            #expect(response.status == 200, "\(path)")
            #expect(response.headers["content-type"] == type, "\(path)")
            #expect(response.text == body, "\(path)")
        }
    }

    @Test func headRequestReturnsHeadersOnly() throws {
        let root = try Self.makeWebRoot()
        let server = try ServerHarness { $0.webRoot = root.path + "/www" }
        defer { server.server.shutdown() }
        let response = try RawHTTP.request(port: server.port, path: "/app.js", method: "HEAD")
        #expect(response.status == 200)
        #expect(response.headers["content-length"] == "19")
        #expect(response.body.isEmpty)
    }

    @Test func pathTraversalIsRefused() throws {
        let root = try Self.makeWebRoot()
        let server = try ServerHarness { $0.webRoot = root.path + "/www" }
        defer { server.server.shutdown() }
        let attacks = [
            "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/%2E%2E/secret.txt",
            "/sub/../../secret.txt", "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt",
            "/escape.txt", "//etc/passwd", "/.%2e/secret.txt",
        ]
        for path in attacks {
            let response = try RawHTTP.request(port: server.port, path: path)
            #expect([400, 403, 404].contains(response.status), "\(path) → \(response.status)")
            #expect(!response.text.contains("TOP-SECRET"), "\(path) leaked the secret")
            #expect(!response.text.contains("root:"), "\(path) leaked /etc/passwd")
        }
        #expect(try RawHTTP.request(port: server.port, path: "/escape.txt").status == 403)
        // lws clamps "/.." at the root: it is the root index, never above it.
        let clamped = try RawHTTP.request(port: server.port, path: "/..")
        #expect(clamped.status == 200 && clamped.text.contains("<title>hub</title>"))
    }

    @Test func unknownPathIs404() throws {
        let root = try Self.makeWebRoot()
        let server = try ServerHarness { $0.webRoot = root.path + "/www" }
        defer { server.server.shutdown() }
        #expect(try RawHTTP.request(port: server.port, path: "/nope.html").status == 404)
        #expect(try RawHTTP.request(port: server.port, path: "/data/").status == 404)  // no listing
        let bare = try ServerHarness()  // no web root at all
        defer { bare.server.shutdown() }
        #expect(try RawHTTP.request(port: bare.port, path: "/").status == 404)
    }

    @Test func dynamicHealthzHandlerRunsOnTheLoopThread() throws {
        let onLoop = Box<Bool?>(nil)
        let serverBox = Box<WebSocketServer?>(nil)
        let server = try ServerHarness {
            $0.httpHandlers["/healthz"] = { request in
                onLoop.value = serverBox.value?.loop.isCurrentThread
                return .json("{\"ok\":true,\"method\":\"\(request.method.rawValue)\"}")
            }
        }
        serverBox.value = server.server
        defer {
            serverBox.value = nil
            server.server.shutdown()
        }
        let response = try RawHTTP.request(port: server.port, path: "/healthz")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.text == "{\"ok\":true,\"method\":\"GET\"}")
        #expect(onLoop.value == true)
        let head = try RawHTTP.request(port: server.port, path: "/healthz", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        let post = try RawHTTP.request(port: server.port, path: "/healthz", method: "DELETE")
        #expect(post.status == 405)
    }
}

extension TransportTests {
    /// lws already normalizes URIs; the resolver must refuse on its own too.
    @Test func staticFileResolverRefusesTraversalItself() throws {
        let root = try Self.makeWebRoot()
        let files = try #require(StaticFiles(root: root.path + "/www"))
        #expect(files.resolve("/../secret.txt") == .forbidden)
        #expect(files.resolve("/sub/../../secret.txt") == .forbidden)
        #expect(files.resolve("relative.txt") == .forbidden)
        #expect(files.resolve("/escape.txt") == .forbidden)
        #expect(files.resolve("/.hidden") == .notFound)
        #expect(files.resolve("/data") == .notFound)  // directory without index
        guard case .file(_, let type) = files.resolve("/") else {
            Issue.record("root index not resolved")
            return
        }
        #expect(type == "text/html; charset=utf-8")
        #expect(ContentTypes.forPath("/a/b.WASM") == "application/wasm")
        #expect(ContentTypes.forPath("/x.mjs") == "text/javascript; charset=utf-8")
        #expect(ContentTypes.forPath("/font.woff2") == "font/woff2")
        #expect(ContentTypes.forPath("/favicon.ico") == "image/x-icon")
        #expect(ContentTypes.forPath("/logo.svg") == "image/svg+xml")
        #expect(ContentTypes.forPath("/a.png") == "image/png")
        #expect(ContentTypes.forPath("/noext") == "application/octet-stream")
    }
}

extension TransportTests {
    @Test func largeStaticFileIsServedWhole() throws {
        let root = try TempDir()
        let size = 1 << 20
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        try FileManager.default.createDirectory(atPath: root.path + "/www", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: root.path + "/www/map.wasm", contents: Data(bytes)))
        let server = try ServerHarness { $0.webRoot = root.path + "/www" }
        defer { server.server.shutdown() }
        let response = try RawHTTP.request(port: server.port, path: "/map.wasm")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/wasm")
        #expect(response.body.count == size)
        #expect(response.body == bytes)
    }
}
