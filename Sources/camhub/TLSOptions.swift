import ArgumentParser
import CamHubClient
import Foundation
import WebSocketTransport

/// `--ca-file` and `--insecure`: how `follow`, `present` and `bench` check a `wss://` hub.
struct TLSClientOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "For wss://: trust the certificate authorities in this PEM file instead of the system's (a private CA, or the hub's own self-signed certificate).",
            valueName: "file"))
    var caFile: String?

    @Flag(help: "For wss://: accept any certificate, self-signed or not (tests only: encrypted but the hub is not verified).")
    var insecure = false

    /// Parses `--url` and applies these options; refuses them on a ws:// URL.
    func hubURL(_ text: String) throws -> HubURL {
        var url: HubURL
        do { url = try HubURL(parsing: text) } catch { throw ValidationError("--url: \(error)") }
        if !url.secure && (caFile != nil || insecure) {
            throw ValidationError("--ca-file and --insecure apply to wss:// URLs only (got \(text))")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("--ca-file \(caFile): no such readable file")
        }
        url.tls = ClientTLS(caFile: caFile, insecure: insecure)
        return url
    }
}
