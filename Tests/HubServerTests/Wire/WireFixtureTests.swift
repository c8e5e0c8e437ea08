import CamHubProtocol
import Foundation
import Testing

/// The encoders' bytes against a recorded copy (Tests/Vectors/wire_messages.txt):
/// every hub message of the schema test as JSON text, every frame among them
/// as a binary frame (hex), and every accepted client message of the schema
/// corpus as the client encoder writes it. A change to any byte a client or
/// hub reads fails here; when the change is meant, record the file again with
/// `CAMHUB_RECORD_WIRE_FIXTURES=1 swift test --filter WireFixtureTests` and
/// review its diff.
@Suite("The encoders write the recorded bytes")
struct WireFixtureTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Vectors/wire_messages.txt").path

    static func lines() throws -> [String] {
        var out: [String] = []
        let hub = try EncoderSchemaTests.messages()
        out += hub.map { "hub " + String(decoding: $0, as: UTF8.self) }
        for bytes in hub {
            guard case .frame(let frame) = try HubToClient.decode(bytes) else { continue }
            out.append("binary " + frame.binary.map { String($0, radix: 16).leftPadded(to: 2) }.joined())
        }
        out += SchemaAgreementTests.corpus.compactMap { try? ClientMessage.decode($0) }.map { "client " + $0.json }
        return out
    }

    @Test func theEncodersWriteTheRecordedBytes() throws {
        let now = try Self.lines()
        if ProcessInfo.processInfo.environment["CAMHUB_RECORD_WIRE_FIXTURES"] == "1" {
            try (now.joined(separator: "\n") + "\n").write(toFile: Self.path, atomically: true, encoding: .utf8)
        }
        let recorded = try String(contentsOfFile: Self.path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(now.count == recorded.count, "\(now.count) messages now, \(recorded.count) recorded")
        for (i, (a, b)) in zip(now, recorded).enumerated() where a != b {
            Issue.record("line \(i + 1) differs:\n  now:      \(a)\n  recorded: \(b)")
        }
        #expect(now.contains { $0.hasPrefix("binary ") } && now.contains { $0.hasPrefix("client ") })
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
