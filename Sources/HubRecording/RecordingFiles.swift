import Foundation
import Gzip
import HubCore

/// The open recording files of `camhub serve --record DIR`, one per room:
/// `DIR/<room>/<start>-<part>.jsonl.gz`, a new part once a file holds
/// `maxBytes` compressed bytes (checked as deflate emits them and at each
/// flush, so a part may exceed it by what one second adds). Owned by the recorder's writer task only.
final class RecordingFiles {
    let directory: String
    let maxBytes: Int
    private let report: @Sendable (String) -> Void
    private var rooms: [String: RoomFile] = [:]
    /// Rooms whose file could not be written: reported once, then skipped.
    private var broken: Set<String> = []

    private struct RoomFile {
        var writer: GzipFileWriter
        var part: Int
        /// Hub seconds and wall clock (ms) of the room's first entry: `t` counts from it.
        var startSeconds: Double
        var startEpochMilliseconds: Double
        var stamp: String
        var unflushed: Bool
    }

    init(directory: String, maxBytes: Int, report: @escaping @Sendable (String) -> Void) {
        self.directory = directory
        self.maxBytes = maxBytes
        self.report = report
    }

    func append(_ entry: RecordEntry) {
        let room = entry.room
        guard !broken.contains(room) else { return }
        do {
            var file = try rooms[room] ?? open(room, startedAt: entry.time)
            try file.writer.write(RecordingLine.encode(entry, t: entry.time.seconds - file.startSeconds))
            file.unflushed = true
            rooms[room] = file
            if file.writer.compressedBytes >= maxBytes { try rotate(file, of: room) }
        } catch {
            broken.insert(room)
            rooms[room] = nil
            report("room \(room): recording stopped: \(error)")
        }
    }

    /// Makes every entry so far readable from the files (called about once a second).
    func flush() {
        for (room, var file) in rooms where file.unflushed {
            do {
                try file.writer.flush()
                file.unflushed = false
                rooms[room] = file
                if file.writer.compressedBytes >= maxBytes { try rotate(file, of: room) }
            } catch {
                broken.insert(room)
                rooms[room] = nil
                report("room \(room): recording stopped: \(error)")
            }
        }
    }

    /// Ends every file (gzip trailer written).
    func finish() {
        for (room, file) in rooms {
            do { try file.writer.finish() } catch { report("room \(room): \(error)") }
        }
        rooms.removeAll()
    }

    private func open(_ room: String, startedAt time: HubTime) throws -> RoomFile {
        let folder = (directory as NSString).appendingPathComponent(room)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let stamp = Self.stamp(epochMilliseconds: time.epochMilliseconds)
        let writer = try newPart(room, stamp: stamp, part: 1, startedEpochMilliseconds: time.epochMilliseconds)
        return RoomFile(
            writer: writer, part: 1, startSeconds: time.seconds, startEpochMilliseconds: time.epochMilliseconds,
            stamp: stamp, unflushed: true)
    }

    /// Ends `room`'s `file` and goes on in its next part.
    private func rotate(_ file: RoomFile, of room: String) throws {
        var file = file
        try file.writer.finish()
        file.part += 1
        file.writer = try newPart(room, stamp: file.stamp, part: file.part, startedEpochMilliseconds: file.startEpochMilliseconds)
        rooms[room] = file
    }

    private func newPart(_ room: String, stamp: String, part: Int, startedEpochMilliseconds: Double) throws -> GzipFileWriter {
        var name = "\(stamp)-\(String(format: "%03d", part)).jsonl.gz"
        var path = (directory as NSString).appendingPathComponent(room + "/" + name)
        var suffix = 1
        while FileManager.default.fileExists(atPath: path) {  // two starts in one second
            suffix += 1
            name = "\(stamp)-\(String(format: "%03d", part)).\(suffix).jsonl.gz"
            path = (directory as NSString).appendingPathComponent(room + "/" + name)
        }
        let writer = try GzipFileWriter(path: path)
        try writer.write(RecordingLine.header(room: room, startedEpochMilliseconds: startedEpochMilliseconds, part: part))
        return writer
    }

    /// `20261123T224705Z`: the UTC second of `epochMilliseconds`.
    static func stamp(epochMilliseconds: Double) -> String {
        var seconds = time_t(epochMilliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
