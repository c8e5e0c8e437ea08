import CamHubProtocol
import Foundation
import HubCore

/// The name of one recording part as `RecordingFiles` writes it:
/// `<start>-<part>.jsonl.gz`, or `<start>-<part>.<n>.jsonl.gz` for the n-th
/// recording begun in the same second (`20261123T220000Z-001.jsonl.gz`).
public struct RecordingName: Hashable, Sendable {
    public static let suffix = ".jsonl.gz"
    public let file: String
    /// `20261123T220000Z`: the UTC second of the room's first entry.
    public let stamp: String
    public let part: Int
    /// 1, or n for the n-th recording begun in the same second.
    public let start: Int

    /// Nil unless `file` has exactly the shape above (so no `/`, `..` or other names pass).
    public init?(_ file: String) {
        guard file.hasSuffix(Self.suffix), file.utf8.count <= 64 else { return nil }
        let pieces = file.dropLast(Self.suffix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard pieces.count == 2 else { return nil }
        let stamp = pieces[0]
        let digits = Array(stamp.utf8)
        let isDigit = { (b: UInt8) in b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        guard digits.count == 16, digits[8] == UInt8(ascii: "T"), digits[15] == UInt8(ascii: "Z"),
            digits[0..<8].allSatisfy(isDigit), digits[9..<15].allSatisfy(isDigit)
        else { return nil }
        let numbers = pieces[1].split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 1 || numbers.count == 2,
            numbers.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 9 && $0.utf8.allSatisfy(isDigit) }),
            numbers[0].utf8.count >= 3, let part = Int(numbers[0]), part >= 1
        else { return nil }
        let start = numbers.count == 2 ? Int(numbers[1]) ?? 0 : 1
        guard start >= 1 else { return nil }
        self.file = file
        self.stamp = String(stamp)
        self.part = part
        self.start = start
    }

    /// The stamp in ISO 8601: `2026-11-23T22:00:00Z`.
    public var started: String {
        let s = Array(stamp)
        return "\(String(s[0..<4]))-\(String(s[4..<6]))-\(String(s[6..<8]))T\(String(s[9..<11])):\(String(s[11..<13])):\(String(s[13..<15]))Z"
    }

    /// Orders the parts of a room: by start, then by part.
    public static func inOrder(_ a: RecordingName, _ b: RecordingName) -> Bool {
        (a.stamp, a.start, a.part) < (b.stamp, b.start, b.part)
    }
}

/// The recordings under `camhub serve --record DIR`: `DIR/<room>/<name>`.
public enum RecordingCatalog {
    public struct Part: Hashable, Sendable {
        public var room: String
        public var name: RecordingName
        /// Compressed size on disk now (a part being written grows).
        public var bytes: Int
    }

    /// Every part of the rooms `include` accepts, by room then start then part.
    /// Folders and files that are not rooms and recording names are left out.
    public static func list(_ directory: String, include: (String) -> Bool) -> [Part] {
        let manager = FileManager.default
        let rooms = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
        var parts: [Part] = []
        for room in rooms.sorted() where isRoomName(room) && include(room) {
            let folder = directory + "/" + room
            for file in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] {
                guard let name = RecordingName(file),
                    let attributes = try? manager.attributesOfItem(atPath: folder + "/" + file),
                    attributes[.type] as? FileAttributeType == .typeRegular,
                    let size = attributes[.size] as? Int
                else { continue }
                parts.append(Part(room: room, name: name, bytes: size))
            }
        }
        return parts.sorted { $0.room != $1.room ? $0.room < $1.room : RecordingName.inOrder($0.name, $1.name) }
    }

    /// A room name as the hub accepts it (`RoomName`).
    public static func isRoomName(_ name: String) -> Bool { (try? RoomName(validating: name)) != nil }
}
