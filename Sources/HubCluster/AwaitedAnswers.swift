import HubCore

/// A mirror's commands forwarded to the room's owner that the owner has not
/// yet acknowledged (`ClusterMessage.handled`). One that stays unacknowledged
/// for `timeout` seconds is given up: its client gets `unavailable`, so no
/// command is lost without a word. Plain state on the hub's loop thread.
struct AwaitedAnswers {
    struct Entry {
        var client: String
        var ref: String?
        /// Hub seconds at the first engine tick that saw it (nil: not seen by a tick yet).
        var since: Double?
    }

    /// Seconds an owner has to acknowledge a command. Checked on each engine
    /// tick (every `ClusterEngine.renewInterval`), stamped on the first: a
    /// client hears `unavailable` within `timeout` plus two tick intervals.
    var timeout: Double
    private(set) var entries: [UInt64: Entry] = [:]
    private var lastID: UInt64 = 0

    init(timeout: Double) { self.timeout = timeout }

    /// Numbers a forwarded command and waits for its acknowledgement.
    mutating func add(client: String, ref: String?) -> UInt64 {
        lastID += 1
        entries[lastID] = Entry(client: client, ref: ref)
        return lastID
    }

    /// The owner ran command `id`.
    mutating func acknowledged(_ id: UInt64) { entries[id] = nil }

    /// Stamps the new entries with `now` and takes out those waiting `timeout` or longer.
    mutating func expire(at now: Double) -> [Entry] {
        var expired: [Entry] = []
        for (id, entry) in entries {
            guard let since = entry.since else {
                entries[id]?.since = now
                continue
            }
            if now - since >= timeout {
                expired.append(entry)
                entries[id] = nil
            }
        }
        return expired
    }
}
