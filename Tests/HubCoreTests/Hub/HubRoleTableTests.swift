import CameraCore
import Foundation
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// The roles table of docs/PROTOCOL.md, read from the file and checked cell by
/// cell against the hub (so the document can never again allow drivers
/// `limits` or `cancel` with `all`, which the hub refuses).
@Suite("docs/PROTOCOL.md roles table agrees with the hub")
struct HubRoleTableTests {
    struct Row {
        let label: String
        let message: String
        let allowed: [String: Bool]
    }

    /// A message of each row's kind that the hub accepts from a role allowed to send it.
    static func sample(for label: String) -> String? {
        guard let type = label.split(separator: "`").first.map(String.init) else { return nil }
        switch type {
        case "hello": return nil  // checked by joining
        case "viewport": return #"{"type":"viewport","width":800,"height":600}"#
        case "gestures": return #"{"type":"gestures","disable":["tilt"]}"#
        case "query": return #"{"type":"query","id":"q","what":"bounds"}"#
        case "ping": return #"{"type":"ping","t":1}"#
        case "subscribe": return #"{"type":"subscribe","events":["steady"]}"#
        case "set": return #"{"type":"set","camera":{"zoom":5}}"#
        case "ease": return #"{"type":"ease","id":"e","camera":{"zoom":5},"duration":1}"#
        case "fly": return #"{"type":"fly","id":"f","camera":{"lat":40,"lon":-74,"zoom":5}}"#
        case "animate": return #"{"type":"animate","id":"a","to":{"bearing":90},"duration":1}"#
        case "gesture": return #"{"type":"gesture","kind":"doubleTap","x":640,"y":360}"#
        case "track": return #"{"type":"track","mode":"followNorthUp","location":{"lat":1,"lon":2}}"#
        case "cancel": return label.contains(#""all": true"#) ? #"{"type":"cancel","all":true}"# : #"{"type":"cancel"}"#
        case "limits": return #"{"type":"limits","minZoom":1}"#
        case "route": return #"{"type":"route","points":[{"lat":52.5,"lon":13.4},{"lat":52.51,"lon":13.41}]}"#
        case "follow": return #"{"type":"follow","state":"away"}"#
        case "looking": return #"{"type":"looking","region":[[1,3],[2,3],[2,2],[1,2]]}"#
        case "fit": return #"{"type":"fit","mode":"cover"}"#
        case "summon": return #"{"type":"summon"}"#
        case "followPolicy": return #"{"type":"followPolicy","explore":false}"#
        case "pointer": return #"{"type":"pointer","lat":1,"lon":2}"#
        case "refresh": return #"{"type":"refresh","token":"a.b.c"}"#
        case "projection": return #"{"type":"projection","projection":"globe"}"#
        case "story": return #"{"type":"story","op":"set","steps":[{"camera":{"lat":1,"lon":2,"zoom":3}}]}"#
        case "step": return #"{"type":"step","to":"pause"}"#
        default: return ""  // a message type this test does not know: fails below
        }
    }

    /// The table under `### Roles`: header roles, then one row per message.
    static func table() throws -> [Row] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let section = try #require(text.range(of: "\n### Roles\n"), "PROTOCOL.md has a Roles section")
        var lines = text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("|") }
        lines = lines.prefix { $0.hasPrefix("|") }[...]
        func cells(_ line: Substring) -> [String] {
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let header = try #require(lines.first.map(cells))
        let roles = header.dropFirst().map { $0.replacingOccurrences(of: "`", with: "") }
        #expect(roles == ["follower", "driver", "presenter"])
        return try lines.dropFirst(2).map { line in
            let row = cells(line)
            let label = try #require(row.first)
            var allowed: [String: Bool] = [:]
            for (role, cell) in zip(roles, row.dropFirst()) {
                #expect(cell == "✓" || cell == "—", "cell '\(cell)' of \(label) is ✓ or —")
                allowed[role] = cell == "✓"
            }
            return Row(label: label, message: sample(for: label) ?? "", allowed: allowed)
        }
    }

    @Test func everyMessageTypeHasARowAndEveryRowAKnownMessage() throws {
        let rows = try Self.table()
        let documented = Set(rows.compactMap { $0.label.split(separator: "`").first.map(String.init) })
        #expect(documented == Set(ClientMessage.types))
        #expect(rows.contains { $0.label.contains(#""all": true"#) }, "cancel with all has its own row")
        for row in rows where !row.label.hasPrefix("`hello`") {
            #expect(!row.message.isEmpty, "no sample message for \(row.label)")
            #expect(row.allowed.count == 3)
        }
    }

    @Test func everyCellMatchesTheHub() throws {
        for row in try Self.table() {
            for role in Role.allCases {
                let allowed = try #require(row.allowed[role.rawValue])
                let bench = HubBench()
                if row.label.hasPrefix("`hello`") {
                    let joined = bench.join(role: role.rawValue)
                    #expect((joined.client != nil) == allowed, "hello as \(role)")
                    continue
                }
                let client = bench.join(role: role.rawValue)
                let before = try #require(bench.room())
                bench.send(row.message, from: client.key)
                let errors = bench.errors(client.key)
                if allowed {
                    // A refresh is the role's to send; this hub (no token secret) then refuses the token itself.
                    // So is `looking`, which the hub then refuses from a client that does not explore.
                    let expected = row.label.hasPrefix("`refresh`") ? ["token"] : row.label.hasPrefix("`looking`") ? ["conflict"] : []
                    #expect(errors.map { $0["code"]?.stringValue ?? "" } == expected, "\(row.label) from a \(role): \(errors)")
                } else {
                    #expect(errors.count == 1 && errors.first?["code"]?.stringValue == "forbidden", "\(row.label) from a \(role): \(errors)")
                    bench.runTicks(2)
                    #expect(bench.room()?.camera == before.camera && bench.room()?.seq == before.seq, "nothing changed")
                }
                let decoded = try ClientMessage.decode(row.message)
                #expect(role.may(decoded) == allowed, "Role.may agrees for \(row.label) from a \(role)")
            }
        }
    }
}
