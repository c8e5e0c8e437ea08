import CamHubProtocol
import CameraCore
import Foundation

/// Mapbox's storytelling template (`config.js`, or its object as JSON): each
/// of `chapters` is a step: `location` {`center` [lon, lat], `zoom`, `pitch`,
/// `bearing`} its camera, `mapAnimation` (`flyTo`, the default; `easeTo`;
/// `jumpTo`) how to get there, `title` its title and `description` its notes
/// (plain text: the template's HTML tags dropped). Chapters marked `hidden`
/// are steps too. The template scrolls rather than plays, so no step holds
/// (autoplay stops at each). Written back: a config with one chapter per step
/// (`id` `step-N`) and the story's `title`.
public enum StorytellingConfig {
    public static func read(_ data: [UInt8]) throws(StoryFormatError) -> [StoryStep] {
        let config = try JSLiteral.parse(data)
        guard case .array(let chapters)? = config["chapters"] else {
            throw StoryFormatError("config: no chapters (an array of {id, title, description, location, mapAnimation})")
        }
        guard !chapters.isEmpty else { throw StoryFormatError("config: chapters is empty") }
        guard chapters.count <= StoryLimits.steps else {
            throw StoryFormatError("config: \(chapters.count) chapters (a storyboard holds at most \(StoryLimits.steps) steps)")
        }
        var steps: [StoryStep] = []
        for (i, chapter) in chapters.enumerated() {
            let name = "chapters[\(i)]" + (chapter["id"]?.stringValue.map { " (\($0))" } ?? "")
            steps.append(try step(chapter, name: name))
        }
        return steps
    }

    private static func step(_ chapter: JSONValue, name: String) throws(StoryFormatError) -> StoryStep {
        guard case .object = chapter else { throw StoryFormatError("\(name): must be an object") }
        guard let location = chapter["location"], case .object = location else { throw StoryFormatError("\(name): location missing") }
        guard case .array(let center)? = location["center"], center.count == 2, let lon = center[0].numberValue,
            let lat = center[1].numberValue
        else { throw StoryFormatError("\(name): location.center must be [longitude, latitude]") }
        guard abs(lat) <= 90 else { throw StoryFormatError("\(name): location.center latitude must be within -90…90 (got \(lat))") }
        func number(_ key: String, _ fallback: Double) throws(StoryFormatError) -> Double {
            guard let value = location[key], value != .null else { return fallback }
            guard let v = value.numberValue, v.isFinite else { throw StoryFormatError("\(name): location.\(key) must be a number") }
            return v
        }
        guard let zoom = location["zoom"]?.numberValue else { throw StoryFormatError("\(name): location.zoom missing") }
        let camera = Camera(
            latitude: lat, longitude: lon, zoom: zoom, tilt: min(max(try number("pitch", 0), 0), 85), bearing: try number("bearing", 0))
        var step = StoryStep(camera: camera)
        switch chapter["mapAnimation"]?.stringValue ?? "flyTo" {
        case "flyTo": step.via = .fly
        case "easeTo": step.via = .ease
        case "jumpTo": step.via = .jump
        case let other: throw StoryFormatError("\(name): mapAnimation must be flyTo, easeTo or jumpTo (got '\(other)')")
        }
        if let title = chapter["title"]?.stringValue.map(plainText), !title.isEmpty {
            let line = title.replacingOccurrences(of: "\n", with: " ")
            guard line.unicodeScalars.count <= StoryLimits.titleLength else {
                throw StoryFormatError("\(name): title is longer than \(StoryLimits.titleLength) characters")
            }
            step.title = line
        }
        if let notes = chapter["description"]?.stringValue.map(plainText), !notes.isEmpty {
            guard notes.unicodeScalars.count <= StoryLimits.notesLength else {
                throw StoryFormatError("\(name): description is longer than \(StoryLimits.notesLength) characters as plain text")
            }
            step.notes = notes
        }
        return step
    }

    /// A storytelling config (JSON) of `steps`.
    public static func write(_ steps: [StoryStep], title: String) -> [UInt8] {
        var w = JSONWriter(capacity: 256 + 256 * steps.count)
        w.raw("{\n  \"title\": ")
        w.string(title)
        w.raw(",\n  \"chapters\": [")
        for (i, step) in steps.enumerated() {
            let c = step.camera
            w.raw(i == 0 ? "\n    {\"id\": " : ",\n    {\"id\": ")
            w.string("step-\(i + 1)")
            w.raw(", \"title\": ")
            w.string(step.title ?? "")
            w.raw(", \"description\": ")
            w.string(step.notes ?? "")
            w.raw(", \"location\": {\"center\": [")
            w.plainNumber(c.longitude)
            w.raw(", ")
            w.plainNumber(c.latitude)
            w.raw("], \"zoom\": ")
            w.plainNumber(c.zoom)
            w.raw(", \"pitch\": ")
            w.plainNumber(c.tilt)
            w.raw(", \"bearing\": ")
            w.plainNumber(c.bearing)
            w.raw("}, \"mapAnimation\": ")
            w.string(step.via == .fly ? "flyTo" : step.via == .ease ? "easeTo" : "jumpTo")
            w.raw("}")
        }
        w.raw("\n  ]\n}\n")
        return w.bytes
    }
}
