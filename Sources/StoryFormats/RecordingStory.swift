import CamHubProtocol
import CameraCore
import HubRecording

/// A recording turned into a storyboard: one step per animation that
/// finished, in order. The step's camera is the one the animation finished
/// on; its way is the command's (`fly`; `ease` and `animate` ease) and its
/// duration the time from the command to the end (at most 60 s); it holds until
/// the next step's command came (at most an hour; the last step has no hold).
public enum RecordingStory {
    public static func steps(of recording: Recording) throws(StoryFormatError) -> [StoryStep] {
        var started: [String: (t: Double, type: String)] = [:]  // "owner id" → its command
        var found: [(start: Double, end: Double, step: StoryStep)] = []
        for entry in recording.entries {
            switch entry.kind {
            case .command(let client, _, _, let message):
                guard let json = try? JSONParser.parse(Array(message.utf8)), let type = json["type"]?.stringValue,
                    ["fly", "ease", "animate", "step"].contains(type), let id = json["id"]?.stringValue
                else { continue }
                started["\(client) \(id)"] = (entry.t, type)
            case .animationEnded(let id, let owner, let status, let camera):
                guard status == "finished", found.count < StoryLimits.steps, let command = started["\(owner) \(id)"] else { continue }
                guard let c = wireCamera(camera) else { throw StoryFormatError("recording at \(entry.t) s: animation \(id) ended on no camera") }
                var step = StoryStep(camera: c, via: command.type == "fly" ? .fly : .ease)
                step.duration = min(max(entry.t - command.t, 0), StoryLimits.duration.upperBound)
                found.append((command.t, entry.t, step))
            }
        }
        guard !found.isEmpty else { throw StoryFormatError("the recording has no finished animation with an id (a step per finished fly, ease or animate)") }
        var steps = found.map(\.step)
        for i in 0..<(steps.count - 1) {
            steps[i].hold = min(max(found[i + 1].start - found[i].end, 0), StoryLimits.hold.upperBound)
        }
        return steps
    }

    private static func wireCamera(_ v: JSONValue) -> Camera? {
        guard let lat = v["lat"]?.numberValue, let lon = v["lon"]?.numberValue, let zoom = v["zoom"]?.numberValue else { return nil }
        return Camera(
            latitude: lat, longitude: lon, zoom: zoom, tilt: v["tilt"]?.numberValue ?? 0, bearing: v["bearing"]?.numberValue ?? 0,
            roll: v["roll"]?.numberValue ?? 0, elevation: v["elevation"]?.numberValue ?? 0, fov: v["fov"]?.numberValue ?? Camera.defaultFov)
    }
}
