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

/// A room's follow-mode state besides its members: the presenter's policy,
/// the mover's view and the pointer. Heap-stored (`Room.followBox`) once one is set.
struct FollowRoomState: Hashable, Sendable {
    var policy = FollowPolicy.open
    var view: RoomView?
    /// The pointer shown now (nil: nobody points).
    var pointer: RoomPointer?
    /// What the frame of the room's current `seq` says of the pointer.
    var framePointer = FramePointer.none
}

/// Heap storage for a room's `FollowRoomState`. Immutable: a change makes a
/// new box, so rooms copied by value never share one.
final class FollowRoomBox: Sendable {
    let state: FollowRoomState
    init(state: FollowRoomState) { self.state = state }
}
