import CamHubProtocol
import CameraCore
import Foundation
import Gzip
import HubCore

/// A recording read back (`camhub replay`): one room's entries from one or
/// more files (the parts of one recording, in order).
public struct Recording: Sendable {
    public var room: String
    public var entries: [Entry]
    /// True when a file ended mid-stream (the hub was killed): the entries up to the cut are here.
    public var truncated: Bool

    public struct Entry: Sendable {
        /// Seconds since the room's first entry.
        public var t: Double
        public var kind: Kind
    }

    public enum Kind: Sendable {
        /// An accepted command: its sender, role, the sender's viewport and the message text as it arrived.
        case command(client: String, role: String, viewport: Viewport?, message: String)
        /// An animation's end with the room's camera then (the JSON object, numbers exact).
        case animationEnded(id: String, owner: String, status: String, camera: JSONValue)
    }

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// Reads `paths` (gzip, or plain JSON lines) in order. Every error names the file and line.
    public static func read(_ paths: [String]) throws(Failure) -> Recording {
        var recording = Recording(room: "", entries: [], truncated: false)
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "\(path): cannot read the file") }
            var bytes = [UInt8](data)
            if Gzip.isGzip(bytes) {
                do {
                    let result = try Gzip.decompress(bytes)
                    bytes = result.bytes
                    recording.truncated = recording.truncated || result.truncated
                } catch { throw Failure(description: "\(path): \(error)") }
            }
            var lineNumber = 0
            for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                lineNumber += 1
                if line.isEmpty { continue }
                do {
                    try recording.add(JSONParser.parse(Array(line)), path: path, line: lineNumber)
                } catch let error as Failure {
                    throw error
                } catch {
                    // A last line cut by a crash is dropped; anywhere else it is an error.
                    if recording.truncated && line.endIndex == bytes.endIndex { break }
                    throw Failure(description: "\(path):\(lineNumber): \(error)")
                }
            }
        }
        guard !recording.room.isEmpty else { throw Failure(description: "\(paths.joined(separator: ", ")): no recording header (is this a camhub recording?)") }
        return recording
    }

    private mutating func add(_ value: JSONValue, path: String, line: Int) throws(Failure) {
        func fail(_ what: String) -> Failure { Failure(description: "\(path):\(line): \(what)") }
        guard case .object(let o) = value, case .string(let type)? = o["type"] else { throw fail("not an object with a type") }
        if type == "recording" {
            guard case .number(let version)? = o["version"], version == Double(RecordingLine.version) else {
                throw fail("recording version \(o["version"].map { "\($0)" } ?? "missing") is not 1")
            }
            guard case .string(let room)? = o["room"] else { throw fail("header has no room") }
            if !self.room.isEmpty && self.room != room { throw fail("room \(room) differs from the first file's \(self.room)") }
            self.room = room
            return
        }
        guard !room.isEmpty else { throw fail("an entry before the recording header") }
        guard case .number(let t)? = o["t"], t.isFinite, t >= 0 else { throw fail("t must be seconds ≥ 0") }
        func text(_ key: String) throws(Failure) -> String {
            guard case .string(let s)? = o[key] else { throw fail("\(key) must be a string") }
            return s
        }
        switch type {
        case "command":
            var viewport: Viewport?
            if case .object(let v)? = o["viewport"], case .number(let w)? = v["width"], case .number(let h)? = v["height"] {
                viewport = Viewport(width: w, height: h)
            }
            entries.append(
                Entry(
                    t: t,
                    kind: .command(
                        client: try text("client"), role: try text("role"), viewport: viewport,
                        message: try text("message"))))
        case "animationEnded":
            guard let camera = o["camera"], case .object = camera else { throw fail("camera must be an object") }
            entries.append(
                Entry(
                    t: t,
                    kind: .animationEnded(
                        id: try text("id"), owner: try text("owner"), status: try text("status"),
                        camera: camera)))
        default:
            throw fail("unknown entry type \(type)")
        }
    }

    /// The camera of the last animation to end (the recording's final camera when it ended at rest).
    public var finalCamera: JSONValue? {
        for entry in entries.reversed() { if case .animationEnded(_, _, _, let camera) = entry.kind { return camera } }
        return nil
    }
}
