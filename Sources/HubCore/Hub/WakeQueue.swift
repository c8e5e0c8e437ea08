import CamHubProtocol
import HeapModule

/// Rooms at rest that asked to be woken at a time (a delayed animation, a
/// `steady` report, an `audience` event, an empty room's TTL), earliest first.
///
/// A min-heap: queuing and taking a room cost O(log n) and a tick that wakes
/// nobody costs O(1), so rooms at rest cost nothing per tick however many
/// there are. Entries are never removed early: a room that is re-queued or
/// woken by a command leaves its old entry behind, and `takeDue` skips
/// entries whose time no longer matches the room's `scheduledWake`.
struct WakeQueue {
    struct Entry: Comparable {
        let time: Double
        let room: RoomName
        static func < (a: Entry, b: Entry) -> Bool { a.time < b.time }
        static func == (a: Entry, b: Entry) -> Bool { a.time == b.time && a.room == b.room }
    }

    private var heap = Heap<Entry>()

    /// Entries held, stale ones included (for tests and `/healthz`).
    var count: Int { heap.count }

    mutating func insert(_ room: RoomName, at time: Double) {
        heap.insert(Entry(time: time, room: room))
    }

    /// Removes and returns every entry due at or before `now`, earliest first.
    mutating func takeDue(at now: Double) -> [Entry] {
        var due: [Entry] = []
        while let first = heap.min, first.time <= now {
            due.append(heap.removeMin())
        }
        return due
    }
}

/// Counts events per whole second of hub time, for "achieved ticks per second".
struct TickRate: Hashable, Sendable {
    private var second = -Double.infinity
    private var count = 0
    private var previous = 0

    /// Records one event at `time` (seconds, non-decreasing). True when it is the first of its second.
    @discardableResult
    mutating func record(at time: Double) -> Bool {
        let current = time.rounded(.down)
        let first = current != second
        if first {
            previous = current == second + 1 ? count : 0
            second = current
            count = 0
        }
        count += 1
        return first
    }

    /// Events in the last whole second before `time` (0 when none were recorded then).
    func perSecond(at time: Double) -> Int {
        let current = time.rounded(.down)
        if current == second { return previous }
        if current == second + 1 { return count }
        return 0
    }
}

/// The rooms visited in the last two whole seconds: each room is added once
/// per second it is visited in, and the sets turn over with the seconds.
struct RecentRooms {
    private var second = -Double.infinity
    private var current: Set<RoomName> = []
    private var previous: Set<RoomName> = []

    /// Notes `room` visited at `time` (seconds, non-decreasing).
    mutating func insert(_ room: RoomName, at time: Double) {
        let now = time.rounded(.down)
        if now != second {
            previous = now == second + 1 ? current : []
            current = []
            second = now
        }
        current.insert(room)
    }

    /// Every room visited in the whole second before `time`'s or in `time`'s
    /// own (maybe more, never fewer): empty once no room has been visited for
    /// two seconds, however many were visited before (a join burst of
    /// 10,000 rooms is not walked by every later metrics flush).
    func rooms(at time: Double) -> Set<RoomName> {
        let now = time.rounded(.down)
        if now == second { return previous.isEmpty ? current : current.union(previous) }
        if now == second + 1 { return current }
        return []
    }
}
