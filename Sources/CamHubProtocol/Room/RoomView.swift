import CameraCore

/// What the client whose command last moved a room's camera sees: its
/// viewport and the camera padding then in force (`welcome.view`,
/// `viewChanged`). Followers on other screens fit it (`FitMode.cover`), and
/// an exploring viewer outlines it.
public struct RoomView: Hashable, Sendable {
    /// The client that moved the camera.
    public var by: String
    /// Its viewport (px).
    public var viewport: Viewport
    /// The room camera's padding when it moved it (px).
    public var padding: EdgeInsets

    public init(by: String, viewport: Viewport, padding: EdgeInsets = .zero) {
        self.by = by
        self.viewport = viewport
        self.padding = padding
    }

    /// The same area on screen (viewport and padding), whoever set it: a
    /// change of mover alone is no change of view.
    public func showsTheSameArea(as other: RoomView?) -> Bool {
        guard let other else { return false }
        return viewport == other.viewport && padding == other.padding
    }
}
