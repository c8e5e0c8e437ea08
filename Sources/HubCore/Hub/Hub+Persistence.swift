import CamHubProtocol
import CameraCore
import CameraMotion

/// What of a room outlives the hub process (`camhub serve --data`): the
/// camera, the limits, the tracking mode and `seq`.
public struct RoomState: Hashable, Sendable {
    public var name: String
    public var camera: Camera
    public var limits: CameraLimits
    /// The mode when saved. A restored room does not track: tracking belongs to
    /// the client feeding locations, which must send `track` again.
    public var trackingMode: TrackingMode
    public var seq: UInt64
    /// How the room's map draws the world.
    public var projection: MapProjection
    /// The room's storyboard and the step it is on (nil: none); restored paused.
    public var story: StoryState?

    public init(
        name: String, camera: Camera, limits: CameraLimits, trackingMode: TrackingMode, seq: UInt64, projection: MapProjection = .mercator
    ) {
        self.name = name
        self.projection = projection
        self.camera = camera
        self.limits = limits
        self.trackingMode = trackingMode
        self.seq = seq
    }
}

extension Hub {
    /// Rooms from before a restart: each is recreated with its camera, limits
    /// and `seq` when its first client joins (until then it costs nothing).
    /// Names that are not valid room names are ignored.
    public mutating func restore(_ states: [RoomState]) {
        for state in states {
            guard let name = try? RoomName(validating: state.name), !rooms.contains(name) else { continue }
            restorable[name] = state
        }
    }

    /// Every room's state now, live rooms and those restored but not joined yet
    /// (sorted by name). O(rooms): meant for once a second.
    public var roomStates: [RoomState] {
        var states = restorable
        for room in rooms.values {
            states[room.name] = RoomState(
                name: room.name.value, camera: room.manager.camera, limits: room.manager.limits,
                trackingMode: room.manager.trackingMode, seq: room.seq, projection: room.projection)
            states[room.name]?.story = room.story
        }
        return states.values.sorted { $0.name < $1.name }
    }

    /// The rooms that may have changed since the last call, and those gone
    /// (expired) since: O(rooms changed), so O(1) while every room is at rest.
    /// Drains the set; a restored room not joined yet is never in it.
    public mutating func takeChangedRoomStates() -> (changed: [RoomState], removed: [String]) {
        guard !changedRooms.isEmpty else { return ([], []) }
        var changed: [RoomState] = []
        var removed: [String] = []
        for name in changedRooms {
            if let room = rooms[name] {
                changed.append(
                    RoomState(
                        name: name.value, camera: room.manager.camera, limits: room.manager.limits,
                        trackingMode: room.manager.trackingMode, seq: room.seq, projection: room.projection))
                changed[changed.count - 1].story = room.story
            } else if restorable[name] == nil {
                removed.append(name.value)
            }
        }
        roomStatesBuilt += changed.count
        changedRooms.removeAll(keepingCapacity: true)
        return (changed, removed)
    }

    /// A room for `name`'s first join: as it was before the restart if it was
    /// kept, else with the configured camera and limits.
    mutating func newRoom(_ name: RoomName, at now: Double) -> Room {
        guard let state = restorable.removeValue(forKey: name) else {
            return Room(
                name: name, camera: configuration.defaultCamera, limits: configuration.defaultLimits,
                listedFollowers: configuration.listedFollowers, now: now)
        }
        var room = Room(
            name: name, camera: state.camera, limits: state.limits,
            listedFollowers: configuration.listedFollowers, now: now)
        room.seq = state.seq
        room.projection = state.projection
        if var story = state.story {
            story.playing = false
            room.storyRoom = StoryRoomState(story: story)
        }
        return room
    }
}
