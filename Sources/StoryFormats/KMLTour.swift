import CamHubProtocol
import CameraCore
import Foundation

/// Google Earth tours (KML 2.2 with Google's gx extensions): a `gx:Tour`'s
/// `gx:Playlist` read into storyboard steps, and steps written back as one.
///
/// Reading, in playlist order: each `gx:FlyTo` is a step (`gx:flyToMode`
/// `bounce`, the default, is a flight; `smooth` an ease; `gx:duration`
/// seconds, 0 a jump), its `LookAt` or `Camera` the step's camera
/// (`KMLView`); `gx:Wait` adds its `gx:duration` to the last step's hold (a
/// FlyTo after a FlyTo holds 0 s: the tour goes on at once); `gx:TourControl`
/// `pause` makes the last step one where autoplay stops; a
/// `gx:AnimatedUpdate` that shows a Placemark's balloon
/// (`gx:balloonVisibility` 1) gives the last step that Placemark's `name`
/// and `description` as its title and notes (plain text). Sound cues are
/// left out. Writing does the same in reverse, so a tour read back gives the
/// same steps (but `fov`, which KML views have not).
public enum KMLTour {
    /// The first `gx:Tour` of a KML document, as steps.
    public static func read(_ data: [UInt8]) throws(StoryFormatError) -> [StoryStep] {
        let root = try TreeElement.parse(data)
        guard root.name == "kml" else { throw StoryFormatError("\(root.place): not a KML document (the root element is not kml)") }
        guard let tour = root.descendants("Tour").first else {
            throw StoryFormatError("kml: no gx:Tour (a tour is a gx:Playlist of gx:FlyTo, gx:Wait and gx:TourControl)")
        }
        guard let playlist = tour.child("Playlist") else { throw StoryFormatError("\(tour.place): no gx:Playlist") }
        var placemarks: [String: TreeElement] = [:]
        for p in root.descendants("Placemark") { if let id = p.attributes["id"] { placemarks[id] = p } }
        var steps: [StoryStep] = []
        for item in playlist.children {
            switch item.name {
            case "FlyTo":
                steps.append(try flyTo(item))
            case "Wait":
                guard !steps.isEmpty else { continue }  // a wait before the first flight: nothing to hold
                let wait = try item.number("duration") ?? 0
                guard wait >= 0 else { throw StoryFormatError("\(item.place): duration must not be negative (got \(wait))") }
                if let hold = steps[steps.count - 1].hold { steps[steps.count - 1].hold = min(hold + wait, StoryLimits.hold.upperBound) }
            case "TourControl":
                guard let mode = item.value("playMode"), mode == "pause" else {
                    throw StoryFormatError("\(item.place): playMode must be pause (got '\(item.value("playMode") ?? "")')")
                }
                if !steps.isEmpty { steps[steps.count - 1].hold = nil }
            case "AnimatedUpdate":
                guard !steps.isEmpty else { continue }
                for change in item.descendants("Placemark") where change.value("balloonVisibility") == "1" {
                    guard let id = change.attributes["targetId"], let placemark = placemarks[id] else { continue }
                    try caption(&steps[steps.count - 1], from: placemark)
                }
            default:
                continue  // gx:SoundCue and anything newer
            }
        }
        guard !steps.isEmpty else { throw StoryFormatError("\(playlist.place): no gx:FlyTo") }
        guard steps.count <= StoryLimits.steps else {
            throw StoryFormatError("\(playlist.place): \(steps.count) gx:FlyTo (a storyboard holds at most \(StoryLimits.steps) steps)")
        }
        return steps
    }

    private static func flyTo(_ item: TreeElement) throws(StoryFormatError) -> StoryStep {
        let duration = try item.number("duration") ?? 0
        guard StoryLimits.duration.contains(duration) else {
            throw StoryFormatError("\(item.place): gx:duration must be within 0…60 seconds (got \(duration))")
        }
        let mode = item.value("flyToMode") ?? "bounce"
        guard mode == "bounce" || mode == "smooth" else {
            throw StoryFormatError("\(item.place): gx:flyToMode must be bounce or smooth (got '\(mode)')")
        }
        let camera: Camera
        if let lookAt = item.child("LookAt") {
            camera = try KMLView.camera(lookAt: lookAt)
        } else if let eye = item.child("Camera") {
            camera = try KMLView.camera(eye: eye)
        } else {
            throw StoryFormatError("\(item.place): no LookAt or Camera")
        }
        var step = StoryStep(camera: camera, hold: 0)
        if duration == 0 {
            step.via = .jump
        } else {
            step.via = mode == "smooth" ? .ease : .fly
            step.duration = duration
        }
        return step
    }

    private static func caption(_ step: inout StoryStep, from placemark: TreeElement) throws(StoryFormatError) {
        if let name = placemark.value("name").map(plainText), !name.isEmpty {
            let line = name.replacingOccurrences(of: "\n", with: " ")
            guard line.unicodeScalars.count <= StoryLimits.titleLength else {
                throw StoryFormatError("\(placemark.place): name is longer than \(StoryLimits.titleLength) characters")
            }
            step.title = line
        }
        if let notes = placemark.value("description").map(plainText), !notes.isEmpty {
            guard notes.unicodeScalars.count <= StoryLimits.notesLength else {
                throw StoryFormatError("\(placemark.place): description is longer than \(StoryLimits.notesLength) characters as plain text")
            }
            step.notes = notes
        }
    }

    // MARK: writing

    /// A KML document with one `gx:Tour` of `steps` (and a Placemark per step that has a title or notes, whose balloon the tour shows).
    public static func write(_ steps: [StoryStep], name: String) -> String {
        var places = ""
        var list = ""
        for (i, step) in steps.enumerated() {
            let id = "step-\(i + 1)"
            let view = KMLView.element(for: step.camera, indent: "        ")
            let duration = step.via == .jump ? 0 : step.duration ?? (step.via == .ease ? EaseCommand.defaultDuration : 3)
            list += "      <gx:FlyTo>\n        <gx:duration>\(number(duration))</gx:duration>\n"
            list += "        <gx:flyToMode>\(step.via == .fly ? "bounce" : "smooth")</gx:flyToMode>\n\(view)      </gx:FlyTo>\n"
            if step.title != nil || step.notes != nil {
                places += "    <Placemark id=\"\(id)\">\n"
                if let title = step.title { places += "      <name>\(escaped(title))</name>\n" }
                if let notes = step.notes { places += "      <description>\(escaped(notes))</description>\n" }
                let target = step.camera.target
                places += "      <Point><coordinates>\(number(target.longitude)),\(number(target.latitude)),0</coordinates></Point>\n    </Placemark>\n"
                list += "      <gx:AnimatedUpdate>\n        <gx:duration>0</gx:duration>\n        <Update><targetHref/><Change>"
                list += "<Placemark targetId=\"\(id)\"><gx:balloonVisibility>1</gx:balloonVisibility></Placemark></Change></Update>\n"
                list += "      </gx:AnimatedUpdate>\n"
            }
            if i + 1 < steps.count {
                if let hold = step.hold {
                    if hold > 0 { list += "      <gx:Wait><gx:duration>\(number(hold))</gx:duration></gx:Wait>\n" }
                } else {
                    list += "      <gx:TourControl><gx:playMode>pause</gx:playMode></gx:TourControl>\n"
                }
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
              <Document>
                <name>\(escaped(name))</name>
            \(places)    <gx:Tour>
                  <name>\(escaped(name))</name>
                  <gx:Playlist>
            \(list)      </gx:Playlist>
                </gx:Tour>
              </Document>
            </kml>

            """
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The shortest decimal that reads back as `value`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
