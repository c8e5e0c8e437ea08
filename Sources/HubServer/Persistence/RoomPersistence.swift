import Foundation
import HubCore
import Logging
import Synchronization
import WebSocketTransport

/// Keeps `RoomStore` in step with the hub: once a second (on the loop thread)
/// the rooms the hub marked as changed, whose state differs from what was last saved, are handed to a
/// writer queue, so a crash loses at most the last second; rooms the hub
/// removed (empty past their TTL) are deleted. What waits for the writer is
/// coalesced per room (`PendingRoomWrites`): a stalled disk makes the next
/// save larger, never the queue longer. `finish` writes the last state
/// and waits for it, once the loop has stopped. Not Sendable: the loop thread owns it (inside
/// `HubServer.State`), and the writer queue gets only the store, the logger, the pending writes and the flag.
final class RoomPersistence {
    let store: RoomStore
    private let logger: Logger
    private let queue = DispatchQueue(label: "camhub.room-store")
    /// What the store holds, as far as the loop thread knows (loop thread only).
    private var saved: [String: RoomState]
    /// Set by the writer queue when a write failed: the next flush writes every room.
    private let failed = HandoverFlag()
    /// Writes handed over and not yet taken by the writer, and whether a writer job is on its way.
    private let pending = Locked((writes: PendingRoomWrites(), writerScheduled: false))

    init(store: RoomStore, loaded: [RoomState], logger: Logger) {
        self.store = store
        self.logger = logger
        saved = Dictionary(loaded.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
    }

    /// Loop thread: hands the changes since the last flush to the writer.
    /// Reads only the rooms the hub marked as changed (`Hub.takeChangedRoomStates`),
    /// so a flush while every room rests costs O(1); after a failed write it
    /// writes every room once (O(rooms)).
    func flush(_ hub: inout Hub) {
        var changed: [RoomState] = []
        var removed: [String] = []
        if failed.take() {
            saved.removeAll()
            _ = hub.takeChangedRoomStates()
            let all = hub.roomStates
            changed = all
            for state in all { saved[state.name] = state }
        } else {
            let taken = hub.takeChangedRoomStates()
            for state in taken.changed where saved[state.name] != state {
                changed.append(state)
                saved[state.name] = state
            }
            for name in taken.removed where saved.removeValue(forKey: name) != nil { removed.append(name) }
        }
        guard !changed.isEmpty || !removed.isEmpty else { return }
        let schedule = pending.withLock { pending in
            pending.writes.merge(changed: changed, removed: removed)
            defer { pending.writerScheduled = true }
            return !pending.writerScheduled
        }
        if schedule { scheduleWriter() }
    }

    /// Rooms waiting for the writer (any thread).
    var depth: Int { pending.withLock { $0.writes.count } }

    /// Starts the writer job, which saves what waits, again until nothing does.
    private func scheduleWriter() {
        let store = self.store
        let logger = self.logger
        let failed = self.failed
        let pending = self.pending
        queue.async {
            while true {
                let (changed, removed) = pending.withLock { pending in
                    if pending.writes.isEmpty { pending.writerScheduled = false }
                    return pending.writes.take()
                }
                if changed.isEmpty && removed.isEmpty { return }
                do {
                    try store.save(changed, removing: removed)
                } catch {
                    failed.set()
                    logger.error("cannot save rooms", metadata: ["path": "\(store.path)", "error": "\(error)"])
                }
            }
        }
    }

    /// After the loop stopped (no other thread touches the hub): saves the
    /// final state and returns once it is written.
    func finish(_ hub: inout Hub) {
        flush(&hub)
        queue.sync {}
    }
}

/// A flag one thread sets and another takes (reads and clears).
final class HandoverFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    func take() -> Bool {
        value.withLock {
            let was = $0
            $0 = false
            return was
        }
    }
}
