import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing
import WebSocketTransport

extension HubServerTests {
    /// The hub's HTTP surface: only files under the web root, GET/HEAD only,
    /// nosniff and a Content-Security-Policy on every file.
    @Suite struct HTTPSurface {
        @Test func staticFilesCarryNosniffAndTheViewersCSP() throws {
            let web = try TempDir()
            try web.write("index.html", "<!doctype html><title>camhub</title>")
            let hub = try RunningHub { $0.webRoot = web.path }
            let index = try RawHTTP.request(port: hub.port, path: "/index.html")
            #expect(index.status == 200)
            #expect(index.headers["x-content-type-options"] == "nosniff")
            let csp = try #require(index.headers["content-security-policy"])
            #expect(csp == HubServerConfiguration().contentSecurityPolicy)
            for directive in ["script-src 'self'", "object-src 'none'", "frame-ancestors 'none'", "connect-src 'self'"] {
                #expect(csp.contains(directive), "\(directive)")
            }
            #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"))
        }

        @Test func nothingOutsideTheWebRootAndOnlyGETOrHEAD() throws {
            let outside = try TempDir()
            try outside.write("secret.txt", "the token secret")
            let web = try TempDir()
            try web.write("index.html", "<!doctype html>")
            try FileManager.default.createSymbolicLink(atPath: web.path + "/escape.txt", withDestinationPath: outside.path + "/secret.txt")
            let relative = "/../" + URL(fileURLWithPath: outside.path).lastPathComponent + "/secret.txt"
            let hub = try RunningHub { $0.webRoot = web.path }
            for path in [relative, "/%2e%2e" + relative.dropFirst(3), "/escape.txt", "/..%2f..%2fetc/passwd", "/%2E%2E/%2E%2E/etc/passwd"] {
                let response = try RawHTTP.request(port: hub.port, path: path)
                #expect([403, 404].contains(response.status), "\(path) → \(response.status)")
                #expect(!response.text.contains("the token secret"), "\(path)")
            }
            for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
                let response = try RawHTTP.request(port: hub.port, path: "/index.html", method: method)
                #expect(response.status == 405 || response.status == 400, "\(method) → \(response.status)")
            }
            #expect(try RawHTTP.request(port: hub.port, path: "/index.html", method: "HEAD").status == 200)
        }
    }
}
