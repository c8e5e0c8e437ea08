import CamHubProtocol
import HubCore

/// What the metrics read off a hub once a second, as a value: read off one
/// hub (`init(_:now:)`), and added up over several (`+`). Each read is O(1)
/// or O(busy rooms): running totals and the rooms visited lately, never a
/// walk over every room.
struct HubFigures: Equatable, Sendable {
    var rooms = 0
    var awakeRooms = 0
    /// Clients joined (the rooms' members, and other hubs' clients whose commands ran here).
    var members = 0
    /// The hub's ticks in the last whole second of its clock.
    var ticksPerSecond = 0
    /// Connections by role (`nil`: connected, not joined yet).
    var connectionsByRole: [Role?: Int] = [:]
    /// Ticks per second of the rooms visited lately, by name (busy rooms only).
    var busyRooms: [String: Int] = [:]

    init(_ hub: Hub, now: Double) {
        let counts = hub.counts
        rooms = counts.rooms
        members = counts.clients
        awakeRooms = hub.awakeRooms
        ticksPerSecond = hub.ticksPerSecond(at: now)
        connectionsByRole = hub.connectionsByRole
        busyRooms = hub.busyRoomTicksPerSecond(at: now)
    }

    /// Two hubs' figures as one: counts added, and the slower of the two clocks
    /// (each ticks its own rooms). A room is on one hub only.
    static func + (a: HubFigures, b: HubFigures) -> HubFigures {
        var sum = a
        sum.rooms += b.rooms
        sum.awakeRooms += b.awakeRooms
        sum.members += b.members
        sum.ticksPerSecond = min(a.ticksPerSecond, b.ticksPerSecond)
        sum.connectionsByRole.merge(b.connectionsByRole, uniquingKeysWith: +)
        sum.busyRooms.merge(b.busyRooms, uniquingKeysWith: +)
        return sum
    }
}
