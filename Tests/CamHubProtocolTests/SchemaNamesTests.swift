import Foundation
import Testing

@testable import CamHubProtocol

/// docs/asyncapi.yaml against the hub's own lists of names: a message type,
/// event, error code or enum value added to the hub without its schema fails
/// here, even before any test makes the hub send it. (The messages themselves
/// are validated against the schemas by scripts/validate_messages.py, which
/// scripts/test.sh runs over everything the hub sent in the integration tests.)
@Suite("docs/asyncapi.yaml names every message and value the hub knows")
struct SchemaNamesTests {
    static func document() throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/asyncapi.yaml")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The first `enum: […]` list (it may span lines) of the component schema `name`.
    static func enumeration(of name: String, in text: String) throws -> [String] {
        let schema = try #require(text.range(of: "\n    \(name):\n"), "asyncapi.yaml has no schema \(name)")
        let open = try #require(text.range(of: "enum: [", range: schema.upperBound..<text.endIndex), "\(name) has no enum")
        let close = try #require(text.range(of: "]", range: open.upperBound..<text.endIndex))
        return text[open.upperBound..<close.lowerBound].split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test func everyClientMessageTypeHasAPayloadSchema() throws {
        let text = try Self.document()
        for type in ClientMessage.types {
            #expect(text.contains("type: {const: \(type)}"), "no payload schema with type \(type)")
        }
    }

    @Test func everyEventHasItsOwnMessage() throws {
        let text = try Self.document()
        let events = EventSubscriptions.named.map(\.name).filter { $0 != "animation" && $0 != "roomAnimations" }
        for name in events {
            #expect(text.contains("event: {const: \(name)}"), "no event message for \(name)")
        }
    }

    @Test func subscriptionNamesMatch() throws {
        #expect(try Self.enumeration(of: "EventName", in: Self.document()) == EventSubscriptions.named.map(\.name))
    }

    @Test func errorCodesMatch() throws {
        #expect(try Self.enumeration(of: "Error", in: Self.document()) == ProtocolError.Code.allCases.map(\.rawValue))
    }

    @Test func gestureKindsAndPhasesMatch() throws {
        let text = try Self.document()
        #expect(try Self.enumeration(of: "GestureKind", in: text) == GestureMessage.Kind.allCases.map(\.rawValue))
        #expect(try Self.enumeration(of: "GesturePhase", in: text) == GestureMessage.Phase.allCases.map(\.rawValue))
    }

    @Test func trackingModesAndRolesMatch() throws {
        let text = try Self.document()
        #expect(try Self.enumeration(of: "TrackingMode", in: text) == TrackMessage.Mode.allCases.map(\.rawValue))
        #expect(try Set(Self.enumeration(of: "Role", in: text)) == Set(Role.allCases.map(\.rawValue)))
    }
}
