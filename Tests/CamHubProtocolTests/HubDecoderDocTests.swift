import Foundation
import Testing

@testable import CamHubProtocol

/// Every hub → client example of docs/PROTOCOL.md decodes, as a typed message
/// (none as `.unknown`), with the type it says.
@Suite("docs/PROTOCOL.md's hub messages decode")
struct HubDecoderDocTests {
    static func document() throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The JSON messages of the ```json blocks the hub sends, with their line:
    /// the blocks of the "## Hub → client" section, and those marked
    /// `<!-- sender: hub -->` elsewhere (as scripts/validate_messages.py reads
    /// them). A block holds one message, which may span lines, or one a line.
    static func blockExamples(_ text: String) -> [(line: Int, text: String)] {
        var out: [(line: Int, text: String)] = []
        var hubSection = false
        var marked = false
        var inHubBlock = false
        var pending = ""
        var pendingLine = 0
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if inHubBlock {
                if trimmed == "```" {
                    // What is left did not parse: keep it, for the test to report.
                    if !pending.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { out.append((pendingLine, pending)) }
                    inHubBlock = false
                    continue
                }
                if pending.isEmpty { pendingLine = i + 1 }
                pending += line + "\n"
                if let json = try? JSONParser.parse(pending) {
                    // Fragments without a type (a bare camera) are no messages.
                    if json["type"] != nil { out.append((pendingLine, pending)) }
                    pending = ""
                }
                continue
            }
            if line.hasPrefix("## ") { hubSection = line.contains("Hub → client") }
            if trimmed == "```json" {
                inHubBlock = hubSection || marked
                pending = ""
            }
            marked = trimmed == "<!-- sender: hub -->" || (marked && (trimmed.isEmpty || trimmed.hasPrefix("<!--")))
        }
        return out
    }

    /// Messages quoted inline (`{"type":"tokenRefreshed",…}`) whose type only
    /// the hub sends and that are whole JSON (not elided with `…`).
    static func inlineExamples(_ text: String) -> [(line: Int, text: String)] {
        let hubOnly: Set = ["welcome", "frame", "animation", "event", "gestureAck", "result", "error", "pong", "tokenExpiring", "tokenRefreshed"]
        var out: [(line: Int, text: String)] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (k, span) in line.split(separator: "`", omittingEmptySubsequences: false).enumerated() where k % 2 == 1 {
                guard span.hasPrefix("{"), let json = try? JSONParser.parse(String(span)) else { continue }
                if let type = json["type"]?.stringValue, hubOnly.contains(type) { out.append((i + 1, String(span))) }
            }
        }
        return out
    }

    @Test func everyHubExampleDecodesAsItsType() throws {
        let text = try Self.document()
        let examples = Self.blockExamples(text) + Self.inlineExamples(text)
        #expect(examples.count >= 20, "found only \(examples.count) examples")
        for example in examples {
            do {
                let message = try HubToClient.decode(example.text)
                #expect(message.type == (try JSONParser.parse(example.text))["type"]?.stringValue, "PROTOCOL.md:\(example.line)")
                switch message {
                case .unknown, .unknownEvent: Issue.record("PROTOCOL.md:\(example.line): decodes as \(message)")
                default: break
                }
            } catch {
                Issue.record("PROTOCOL.md:\(example.line): \(error)")
            }
        }
    }

    @Test func theExamplesCoverEveryMessageType() throws {
        let text = try Self.document()
        var types = Set<String>()
        for example in Self.blockExamples(text) + Self.inlineExamples(text) {
            if let message = try? HubToClient.decode(example.text) {
                switch message {
                case .summonResult: types.insert("summonResult")
                default: types.insert(message.type)
                }
            }
        }
        #expect(
            types == [
                "welcome", "frame", "animation", "event", "gestureAck", "result", "summonResult", "gestures", "error", "pong", "tokenExpiring",
                "tokenRefreshed",
            ])
    }
}
