import CamHubProtocol
import CameraCore
import CameraMotion

/// A room's storyboard on the hub that runs its camera: the steps and where
/// the room is (`story`), and what autoplay is waiting for. Heap-stored
/// (`Room.storyBox`) once the room has a storyboard.
struct StoryRoomState: Hashable, Sendable {
    var story = StoryState()
    /// The current step's move while it runs: its animation's owner and id
    /// (nil: none, or a jump, which ends as it starts).
    var move: StoryMove?
    /// When autoplay goes on to the next step (hub seconds); nil: not waiting for that.
    var holdUntil: Double?
    /// Who runs autoplay: the steps it starts are this client's animations,
    /// made in its viewport (the one who sent `play` or stepped last).
    var player: Owner?
    var playerViewport = Hello.defaultViewport
    /// Goes up by one at every change of `story` (the cluster publishes a frame when it moved).
    var revision: UInt64 = 0

    /// What a joining client hears (nil: the room has no storyboard and never stepped).
    var summary: StorySummary? { story == StoryState() ? nil : story.summary }
}

/// The animation a step started.
struct StoryMove: Hashable, Sendable {
    var owner: String
    var id: String
}

/// Heap storage for a room's `StoryRoomState`. Immutable: a change makes a
/// new box, so rooms copied by value never share one.
final class StoryRoomBox: Sendable {
    let state: StoryRoomState
    init(state: StoryRoomState) { self.state = state }
}
