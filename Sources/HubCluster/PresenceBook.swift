import CamHubProtocol
import HubCore

/// What the engine knows of the other hubs: when each was last heard from
/// (its heartbeat, its presence, a command it forwarded), and in which rooms
/// it has members; and what this hub last announced per room. Plain state on
/// the hub's loop thread. With it, the presence pass costs nothing for rooms
/// where nothing changed and no other hub has members: presence is announced
/// on change only, and liveness is one heartbeat per hub, not per room.
struct PresenceBook {
    /// Seconds without hearing from a hub after which its members count as gone (it died).
    var silence: Double
    private(set) var heardFrom: [String: Double] = [:]
    /// Other hubs → the rooms where they announced members.
    private var roomsOf: [String: Set<RoomName>] = [:]
    /// What this hub last announced per room.
    private var announced: [RoomName: HubPresence] = [:]

    init(silence: Double) { self.silence = silence }

    mutating func heard(_ hub: String, at now: Double) { heardFrom[hub] = now }

    /// `hub` announced members in `room` (an empty announcement: none left).
    mutating func announced(by hub: String, in room: RoomName, empty: Bool) {
        if empty {
            roomsOf[hub]?.remove(room)
        } else {
            roomsOf[hub, default: []].insert(room)
        }
    }

    func isSilent(_ hub: String, at now: Double) -> Bool { now - (heardFrom[hub] ?? -.infinity) > silence }

    /// Whether `hub` was heard from in the last `seconds`.
    func heard(_ hub: String, within seconds: Double, at now: Double) -> Bool { now - (heardFrom[hub] ?? -.infinity) <= seconds }

    /// Whether `hub` announced members in `room` (and not that they all left).
    func hasMembers(_ hub: String, in room: RoomName) -> Bool { roomsOf[hub]?.contains(room) ?? false }

    /// Takes out the hubs silent for `silence` seconds, each with the rooms where it had members.
    mutating func takeSilentHubs(at now: Double) -> [(hub: String, rooms: Set<RoomName>)] {
        let silent = heardFrom.keys.filter { isSilent($0, at: now) }
        return silent.map { hub in
            heardFrom[hub] = nil
            return (hub, roomsOf.removeValue(forKey: hub) ?? [])
        }
    }

    /// Whether `presence` differs from what this hub last announced for `room` (and records it).
    mutating func changes(_ room: RoomName, to presence: HubPresence) -> Bool {
        guard announced[room] != presence else { return false }
        announced[room] = presence
        return true
    }

    /// `room` left this hub.
    mutating func forget(_ room: RoomName) { announced[room] = nil }
}
