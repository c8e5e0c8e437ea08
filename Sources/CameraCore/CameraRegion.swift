extension Camera {
    /// What this camera shows in `viewport` on a map drawn in `projection`:
    /// the globe's region (`GlobeView`) below `GlobeView.flatFromZoom` on the
    /// globe, the flat map's (`ViewTransform`) otherwise. Corners that show sky
    /// are clamped below the horizon (`VisibleRegion.quad`). Pure.
    public func visibleRegion(in viewport: Viewport, projection: MapProjection) -> VisibleRegion {
        if projection == .globe && GlobeView.isGlobe(zoom: zoom) {
            return GlobeView(camera: self, viewport: viewport).visibleRegion
        }
        return ViewTransform(camera: self, viewport: viewport).visibleRegion
    }
}
