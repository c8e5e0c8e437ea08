import CamHubProtocol
import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing
import WebSocketTransport

/// `wss://` from the command line: `follow`/`present` with --ca-file and
/// --insecure, and `serve --tls-cert/--tls-key`.
@Suite(.serialized, .timeLimit(.minutes(1)), SocketSuiteLock())
struct TLSCLITests {
    /// A TLS hub in this process (certificate for localhost / 127.0.0.1).
    func tlsHub(_ certs: TestCertificates) throws -> (HubServer, Int) {
        var configuration = HubServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.tls = ServerTLS(certificateFile: certs.certificate, privateKeyFile: certs.key)
        let server = try HubServer(configuration: configuration)
        return (server, try server.start())
    }

    @Test func followOverWSSWithTheHubsCertificateOrInsecure() throws {
        let certs = try TestCertificates()
        let (server, port) = try tlsHub(certs)
        defer { server.shutdown() }
        for extra in [["--ca-file", certs.certificate], ["--insecure"]] {
            let result = try camhub(
                [
                    "follow", "--url", "wss://localhost:\(port)/hub", "--room", "tls", "--format", "json",
                    "--duration", "0.5",
                ] + extra)
            #expect(result.status == 0, "\(extra): \(result.stderr)")
            let first = try JSONParser.parse(String(result.stdout.split(separator: "\n").first ?? ""))
            #expect(first["type"]?.stringValue == "welcome" && first["room"]?.stringValue == "tls")
        }
    }

    @Test func followRefusesAHubItCannotVerify() throws {
        let certs = try TestCertificates()
        let (server, port) = try tlsHub(certs)
        defer { server.shutdown() }
        let wrongCA = try camhub(["follow", "--url", "wss://localhost:\(port)/hub", "--ca-file", certs.otherCA, "--duration", "0.5"])
        #expect(wrongCA.status == 1)
        #expect(wrongCA.stderr.hasPrefix("camhub follow: "), "\(wrongCA.stderr)")
        #expect(!wrongCA.stdout.contains("welcome"))
        let plain = try camhub(["follow", "--url", "ws://localhost:\(port)/hub", "--ca-file", certs.certificate])
        #expect(plain.status == 64)
        #expect(plain.stderr.contains("--ca-file and --insecure apply to wss:// URLs only"))
    }

    @Test func serveWithTLSPrintsHTTPSAndServesWSS() throws {
        let certs = try TestCertificates()
        let web = try TempDir()
        let half = try camhub(["serve", "--port", "0", "--web", web.path, "--tls-cert", certs.certificate])
        #expect(half.status == 64 && half.stderr.contains("--tls-cert and --tls-key go together"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: camhubPath)
        process.arguments = ["serve", "--port", "0", "--web", web.path, "--tls-cert", certs.certificate, "--tls-key", certs.key]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            // SIGTERM (a clean stop), then SIGKILL if it has not stopped within 5 s.
            process.terminate()
            let deadline = ContinuousClock.now + .seconds(5)
            while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        var line = ""
        let handle = out.fileHandleForReading
        while !line.contains("\n") {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { break }
            line += String(decoding: chunk, as: UTF8.self)
        }
        #expect(line.hasPrefix("camhub: listening on https://127.0.0.1:"), "\(line)")
        #expect(line.contains("WebSocket wss://127.0.0.1:"))
        let port = try #require(line.split(separator: ":").dropFirst(3).first.flatMap { Int($0.prefix { $0.isNumber }) })
        let result = try camhub(["follow", "--url", "wss://localhost:\(port)/hub", "--ca-file", certs.certificate, "--format", "json", "--duration", "0.3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#"{"type":"welcome""#))
    }
}
