import CamHubProtocol
import CameraCore
import Gzip

/// The files a storyboard is imported from and exported to, told apart by
/// their media type (the server API's `Content-Type`) or, without one, by
/// their first bytes: a KML tour (`application/vnd.google-earth.kml+xml`),
/// a KMZ (`application/vnd.google-earth.kmz`: a zip whose first `.kml` is the
/// tour, `doc.kml` first), a storytelling config (JSON or `config.js`, told by
/// its `chapters`), or the hub's own steps (`application/json`: an array of
/// steps or `{"steps": […]}`, as `story set` takes them).
public enum StoryFile {
    public enum Format: String, CaseIterable, Sendable {
        case steps = "json"
        case kml
        case kmz
        case storytelling

        /// The media type the server API answers with.
        public var mediaType: String {
            switch self {
            case .steps, .storytelling: "application/json"
            case .kml: "application/vnd.google-earth.kml+xml"
            case .kmz: "application/vnd.google-earth.kmz"
            }
        }
    }

    /// The media types `read` takes (before any `;` parameter).
    public static let mediaTypes = [
        "application/json", "application/javascript", "text/javascript", "application/vnd.google-earth.kml+xml",
        "application/vnd.google-earth.kmz",
    ]

    /// The steps of `data`; `mediaType` (nil: sniffed) picks the format. Errors name the element, line or field.
    public static func read(_ data: [UInt8], mediaType: String? = nil) throws(StoryFormatError) -> [StoryStep] {
        let type = mediaType.map { $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? "" }
        switch type {
        case "application/vnd.google-earth.kml+xml"?: return try KMLTour.read(data)
        case "application/vnd.google-earth.kmz"?: return try KMLTour.read(try kml(inKMZ: data))
        case "application/json"?, "application/javascript"?, "text/javascript"?: return try readJSON(data)
        case nil: break
        case let other?:
            throw StoryFormatError("Content-Type \(other) is not a storyboard (\(mediaTypes.joined(separator: ", ")))")
        }
        if Zip.isZip(data) { return try KMLTour.read(try kml(inKMZ: data)) }
        if firstByte(data) == UInt8(ascii: "<") { return try KMLTour.read(data) }
        return try readJSON(data)
    }

    /// `steps` as a file of `format` (`name`: the story's name in it).
    public static func write(_ steps: [StoryStep], as format: Format, name: String) throws(StoryFormatError) -> [UInt8] {
        switch format {
        case .steps:
            var w = JSONWriter(capacity: 64 + 200 * steps.count)
            w.raw("{\"steps\":")
            w.steps(steps)
            w.raw("}\n")
            return w.bytes
        case .kml: return Array(KMLTour.write(steps, name: name).utf8)
        case .kmz:
            do {
                return try Zip.archive([Zip.Entry(name: "doc.kml", bytes: Array(KMLTour.write(steps, name: name).utf8))])
            } catch {
                throw StoryFormatError(error.description)
            }
        case .storytelling: return StorytellingConfig.write(steps, title: name)
        }
    }

    /// The `story` messages that make `steps` a room's storyboard: a `set` and, for a storyboard larger than one
    /// message, `insert`s, each within `HubProtocol.maxMessageBytes`.
    public static func messages(_ steps: [StoryStep]) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var chunk: [StoryStep] = []
        func message(_ steps: [StoryStep], first: Bool) -> [UInt8] {
            ClientMessage.story(StoryCommand(op: first ? .set(steps) : .insert(steps, at: nil))).encoded
        }
        for step in steps {
            chunk.append(step)
            if chunk.count > 1, message(chunk, first: messages.isEmpty).count > HubProtocol.maxMessageBytes {
                chunk.removeLast()
                messages.append(message(chunk, first: messages.isEmpty))
                chunk = [step]
            }
        }
        messages.append(message(chunk, first: messages.isEmpty))
        return messages
    }

    private static func firstByte(_ data: [UInt8]) -> UInt8? {
        var i = 0
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }  // a UTF-8 byte order mark
        while i < data.count, [9, 10, 13, 32].contains(data[i]) { i += 1 }
        return i < data.count ? data[i] : nil
    }

    private static func kml(inKMZ data: [UInt8]) throws(StoryFormatError) -> [UInt8] {
        let entries: [Zip.Entry]
        do { entries = try Zip.entries(data) } catch { throw StoryFormatError("kmz: \(error.description)") }
        let kmls = entries.filter { $0.name.lowercased().hasSuffix(".kml") }
        guard let doc = kmls.first(where: { $0.name.lowercased() == "doc.kml" }) ?? kmls.first else {
            throw StoryFormatError("kmz: no .kml file in the archive (\(entries.map(\.name).joined(separator: ", ")))")
        }
        return doc.bytes
    }

    private static func readJSON(_ data: [UInt8]) throws(StoryFormatError) -> [StoryStep] {
        if firstByte(data) == UInt8(ascii: "[") {
            return try steps(Array("{\"steps\":".utf8) + data + Array("}".utf8))
        }
        if let json = try? JSONParser.parse(data), json["steps"] != nil { return try steps(data) }
        if containsChapters(data) { return try StorytellingConfig.read(data) }
        throw StoryFormatError("json: neither steps (an array, or {\"steps\": […]}) nor a storytelling config (chapters)")
    }

    private static func containsChapters(_ data: [UInt8]) -> Bool {
        let word = Array("chapters".utf8)
        guard data.count >= word.count else { return false }
        return (0...(data.count - word.count)).contains { data[$0..<($0 + word.count)].elementsEqual(word) }
    }

    private static func steps(_ data: [UInt8]) throws(StoryFormatError) -> [StoryStep] {
        do { return try StoryState.decode(data).steps } catch { throw StoryFormatError(error.message) }
    }
}
