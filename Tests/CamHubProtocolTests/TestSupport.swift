import CamHubProtocol
import Foundation
import Testing

/// The error decoding `text` raises, or nil when it decodes.
func decodeError(_ text: String, tick: Double = 30) -> ProtocolError? {
    do {
        _ = try ClientMessage.decode(text, tick: tick)
        return nil
    } catch {
        return error
    }
}

/// Decodes `text`, recording an issue when it fails.
func decoded(_ text: String, tick: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) -> ClientMessage? {
    do {
        return try ClientMessage.decode(text, tick: tick)
    } catch {
        Issue.record("\(text) failed: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Parses hub output with Foundation, as a client would.
func foundationObject(_ bytes: [UInt8]) throws -> [String: Any] {
    let any = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
    guard let object = any as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
    return object
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
