import CamHubProtocol
import CameraCore
import HubCore

/// What a follower shows of the room's camera on its own screen: the frames'
/// camera under its fit mode (`FitMode`), with the room's view of whoever
/// moved the camera and its zoom limits as the hub last said them (welcome,
/// then `viewChanged` and `limitsChanged`).
public struct FollowFit: Sendable {
    public var mode: FitMode
    /// This client's screen (px).
    public var own: Viewport
    /// The mover's viewport (nil: nobody moved the camera yet).
    public private(set) var view: Viewport?
    public private(set) var minZoom = CameraLimits.defaultMinZoom
    public private(set) var maxZoom = CameraLimits.defaultMaxZoom

    public init(mode: FitMode, own: Viewport) {
        self.mode = mode
        self.own = own
    }

    /// Takes what a welcome (its text) or an event says of the view and the limits.
    public mutating func note(_ json: JSONValue) {
        switch (json["type"]?.stringValue, json["event"]?.stringValue) {
        case ("welcome", _):
            noteView(json["view"])
            noteLimits(json["limits"])
        case ("event", "viewChanged"): noteView(json["view"])
        case ("event", "limitsChanged"): noteLimits(json["limits"])
        default: break
        }
    }

    private mutating func noteView(_ value: JSONValue?) {
        guard let width = value?["width"]?.numberValue, let height = value?["height"]?.numberValue else {
            view = nil
            return
        }
        view = Viewport(width: width, height: height)
    }

    private mutating func noteLimits(_ value: JSONValue?) {
        if let min = value?["minZoom"]?.numberValue { minZoom = min }
        if let max = value?["maxZoom"]?.numberValue { maxZoom = max }
    }

    /// The camera this client shows for a frame's `camera`.
    public func shown(_ camera: Camera) -> Camera {
        guard mode == .cover, let limits = try? CameraLimits(minZoom: minZoom, maxZoom: maxZoom) else { return camera }
        let fitted = mode.camera(
            for: Camera(latitude: camera.latitude, longitude: camera.longitude, zoom: camera.zoom), view: view, own: own, limits: limits)
        var out = camera
        out.zoom = fitted.zoom
        return out
    }
}
