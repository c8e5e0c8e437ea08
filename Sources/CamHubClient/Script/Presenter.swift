import CamHubKit
import CamHubProtocol
import CameraCore
import CameraMotion

/// What a running presenter script reports as it goes (for progress output).
public enum PresenterEvent: Sendable {
    case stepStarted(ScriptStep, iteration: Int)
    /// A step that takes time (wait, waitFor, stroke): `elapsed` of `total` seconds (`total` nil: unknown).
    case progress(ScriptStep, elapsed: Double, total: Double?)
    /// The step is over: "sent", "finished after 3.52 s", "timed out after 120 s", …
    case stepDone(ScriptStep, note: String)
    /// An `animation` message for one of our animations (`step`: the step that started it).
    case animation(AnimationMessage, step: Int?, seconds: Double?)
    case hubError(ProtocolError, step: Int?)
    /// The hub answered `unavailable` (no reachable owner right now): the
    /// command goes again `after` seconds from now, as attempt `attempt` of `UnavailableRetries.maxAttempts`.
    case retrying(ref: String, step: Int?, attempt: Int, after: Double)
    /// The script is over; waiting for this many animations still running.
    case waitingForAnimations(Int)
}

/// How one animation of the script ended.
public struct Completion: Sendable, Equatable {
    public var step: Int
    public var id: String
    /// `finished`, `superseded`, `cancelled`, or `refused` (the hub answered the command with an error).
    public var status: String
    public var by: String?
    /// Seconds from sending the command to the end.
    public var seconds: Double
    public var lost: [String]
    public var clamped: [String]
    public var reason: String?
    public var camera: Camera?
}

/// What a presenter run did.
public struct PresentReport: Sendable {
    public var iterations = 0
    public var stepsRun = 0
    public var completions: [Completion] = []
    public var errors: [(step: Int?, failure: ProtocolError)] = []
    /// waitFor steps that timed out, and similar problems on our side.
    public var problems: [String] = []
    /// The last frame the presenter received (its camera is the room's).
    public var lastFrame: HubFrame?
    public var seconds: Double = 0
    public var interrupted = false
    /// Commands sent again after the hub answered `unavailable`.
    public var retried = 0
    /// The connection ended before the script did.
    public var disconnected: String?
    /// How it ended (for telling a hub restart from a refusal).
    public var lastClose: ConnectionClose?

    public func count(_ status: String) -> Int { completions.filter { $0.status == status }.count }
    public var succeeded: Bool { errors.isEmpty && problems.isEmpty && disconnected == nil }

    /// The connection ended because the hub went away, restarted or the connection dropped
    /// (1001, 1012, 1006): the script was cut short, not refused.
    public var hubWentAway: Bool {
        lastClose.map { CloseCode.draining.contains($0.code) || $0.code == CloseCode.dropped } ?? false
    }
}

/// "closed 1001", "connection dropped", … for people.
public func describe(_ close: ConnectionClose) -> String {
    close.code == CloseCode.dropped ? "connection dropped" : "closed \(close.code)"
}

/// The duration MapLibre's `flyTo` (and the hub) derives from speed and
/// path length: van Wijk & Nuij's S / V. Only for progress bars.
enum FlightEstimate {
    static func duration(from camera: Camera, command: FlyCommand, viewport: Viewport) -> Double? {
        let to = command.camera
        let lat1 = to.latitude ?? camera.latitude
        var lon1 = to.longitude ?? camera.longitude
        while lon1 - camera.longitude > 180 { lon1 -= 360 }
        while lon1 - camera.longitude < -180 { lon1 += 360 }
        let zoom1 = to.zoom ?? camera.zoom
        let size = WebMercator.worldSize(zoom: camera.zoom)
        let dx = (WebMercator.unitX(longitude: lon1) - WebMercator.unitX(longitude: camera.longitude)) * size
        let dy = (WebMercator.unitY(latitude: min(max(lat1, -85.05), 85.05)) - WebMercator.unitY(latitude: camera.latitude)) * size
        let distance = (dx * dx + dy * dy).squareRoot()
        if let duration = command.duration { return duration }
        // Neither centre nor zoom changes: the hub eases over 0.5 s (MapLibre's default).
        guard
            let path = FlightPath(
                startZoom: camera.zoom, endZoom: zoom1, distance: distance, viewport: viewport,
                rho: command.curve, minZoom: command.minZoom)
        else { return 0.5 }
        return path.duration(speed: command.speed)
    }
}
