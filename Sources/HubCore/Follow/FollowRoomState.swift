import CamHubProtocol
import CameraCore

/// A room's follow-mode state besides its members: the presenter's policy,
/// the mover's view, the pointer, the map's projection and the explorers' regions. Heap-stored (`Room.followBox`) once one is set.
struct FollowRoomState: Hashable, Sendable {
    var policy = FollowPolicy.open
    var view: RoomView?
    /// The pointer shown now (nil: nobody points).
    var pointer: RoomPointer?
    /// What the frame of the room's current `seq` says of the pointer.
    var framePointer = FramePointer.none
    /// How the room's map draws the world (`projection`).
    var projection = MapProjection.mercator
    /// Where the room's exploring members look (`looking`, `viewports`).
    var looks = RoomLooks()
}

/// Heap storage for a room's `FollowRoomState`. Immutable: a change makes a
/// new box, so rooms copied by value never share one.
final class FollowRoomBox: Sendable {
    let state: FollowRoomState
    init(state: FollowRoomState) { self.state = state }
}
