import Foundation

/// How a client shows the room's camera on a screen of another size than the
/// view of whoever moved it (`hello.fit`, `{"type":"fit"}`). A rendering rule
/// each client applies to the frames it gets; the hub sends everyone the same
/// frame.
public enum FitMode: String, Hashable, Sendable, CaseIterable {
    /// The room's camera as it is: the same zoom on every screen (a smaller
    /// screen shows less than the presenter sees).
    case same
    /// At least what the mover's view shows: the zoom changes by
    /// log2(min(own width / view width, own height / view height)), same
    /// centre, bearing and tilt, clamped to the room's zoom limits.
    case cover

    /// The camera to show on a screen of `own` size for the room's `camera`,
    /// whose mover's view is `view` (nil: nobody moved it yet, shown as it is).
    public func camera(for camera: Camera, view: Viewport?, own: Viewport, limits: CameraLimits) -> Camera {
        guard self == .cover, let view else { return camera }
        let scale = min(own.width / view.width, own.height / view.height)
        guard scale.isFinite, scale > 0 else { return camera }
        var fitted = camera
        fitted.zoom = min(max(camera.zoom + log2(scale), limits.minZoom), limits.maxZoom)
        return fitted
    }
}
