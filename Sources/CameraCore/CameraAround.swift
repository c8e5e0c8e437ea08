extension Camera {
    /// `changed` (this camera with a new zoom, bearing or tilt) moved so that
    /// the geo point under `point` in this camera stays under `point`: zoom,
    /// rotate or tilt around a view point (double tap, pinch, scroll).
    ///
    /// When `point` is at or above the horizon in either camera, `changed` is
    /// returned as it is (it then turns around its own target). Not clamped.
    public func keeping(_ point: ViewPoint, fixedIn viewport: Viewport, whileChangingTo changed: Camera) -> Camera {
        guard let geo = ViewTransform(camera: self, viewport: viewport).viewToGeo(point),
            let moved = ViewTransform(camera: changed, viewport: viewport).camera(placing: geo, at: point)
        else { return changed }
        return moved
    }
}
