import Foundation
import WebSocketTransport

/// The viewer's default map style, from `camhub serve --style URL|FILE`.
public enum MapStyle: Sendable, Equatable {
    /// An http(s) URL the page loads itself.
    case url(String)
    /// A style file's bytes (checked to be a MapLibre style JSON object), served at `MapEndpoints.stylePath`.
    case file(path: String, bytes: [UInt8])

    /// A URL when `argument` starts with http:// or https://, else a file read now.
    /// Throws `MapStyleError` naming the file or URL and what is wrong.
    public static func load(_ argument: String) throws -> MapStyle {
        let lower = argument.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let url = URL(string: argument), url.host != nil else {
                throw MapStyleError(argument: argument, problem: "not a valid URL")
            }
            return .url(argument)
        }
        guard let data = FileManager.default.contents(atPath: argument) else {
            throw MapStyleError(argument: argument, problem: "no such readable file (give a style JSON file or an http(s) URL)")
        }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw MapStyleError(argument: argument, problem: "not JSON (\(error.localizedDescription))")
        }
        guard let style = object as? [String: Any] else {
            throw MapStyleError(argument: argument, problem: "not a style: the JSON is not an object")
        }
        guard (style["version"] as? NSNumber)?.intValue == 8 else {
            throw MapStyleError(argument: argument, problem: "not a MapLibre style: \"version\" must be 8")
        }
        guard style["sources"] is [String: Any], style["layers"] is [Any] else {
            throw MapStyleError(argument: argument, problem: "not a MapLibre style: it needs \"sources\" (an object) and \"layers\" (an array)")
        }
        return .file(path: argument, bytes: [UInt8](data))
    }

    /// The origin ("https://host:port") of a URL style, for the page's
    /// Content-Security-Policy; nil for a file.
    public var origin: String? {
        guard case .url(let text) = self, let url = URL(string: text), let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme.lowercased())://\(host.lowercased())" + (url.port.map { ":\($0)" } ?? "")
    }
}

/// Why `--style` cannot be used.
public struct MapStyleError: Error, CustomStringConvertible, Equatable {
    public let argument: String
    public let problem: String
    public var description: String { "--style \(argument): \(problem)" }
}
