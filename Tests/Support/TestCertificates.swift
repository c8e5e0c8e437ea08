import Foundation

/// Throwaway self-signed certificates made with Debian's `openssl`.
public final class TestCertificates {
    public let dir: TempDir
    /// The hub's certificate (CN and SAN localhost, 127.0.0.1) and key.
    public var certificate: String { dir.path + "/hub.pem" }
    public var key: String { dir.path + "/hub.key" }
    /// Another self-signed certificate: a CA that did not sign the hub's.
    public var otherCA: String { dir.path + "/other.pem" }

    public init() throws {
        dir = try TempDir()
        for (name, cn) in [("hub", "localhost"), ("other", "Not The Hub CA")] {
            let result = try Subprocess.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                    "-subj", "/CN=\(cn)", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", dir.path + "/\(name).key", "-out", dir.path + "/\(name).pem",
                ], timeout: .seconds(20))
            guard result.status == 0 else { throw SubprocessFailure("openssl: \(result.stderr)") }
        }
    }
}

public struct SubprocessFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
