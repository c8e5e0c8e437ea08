import DequeModule

/// The two send lanes of one server connection. Value type owned by the
/// connection on its loop thread.
///
/// - Control lane: ordered FIFO for messages that must not be dropped
///   (welcome, errors, events). Bounded by `maxMessages` and `maxBytes`;
///   an enqueue past either bound fails, and the server then closes the
///   connection with 1008 instead of growing without limit.
/// - Latest lane: one slot. A new frame replaces a frame not yet written,
///   so a slow reader only ever holds its newest frame.
///
/// `next()` drains control first, then the latest slot (control has
/// priority; the lanes are not ordered relative to each other).
///
/// An idle connection's lanes hold no heap memory: the control lane's
/// storage is let go whenever it drains (a follower gets a control message
/// now and then, its frames go through the latest slot), and the bounds are
/// the server's (passed to `enqueueControl`), not a copy per connection.
struct OutboundSlots {
    /// A ring buffer: one reference, no head index, and no storage at all while empty.
    private var control = Deque<SharedFrame>()
    private(set) var controlBytes = 0
    private(set) var latest: SharedFrame?
    private(set) var framesReplaced = 0

    var controlCount: Int { control.count }
    var isEmpty: Bool { control.isEmpty && latest == nil }
    var hasControl: Bool { !control.isEmpty }

    /// Appends to the control lane; false if a bound of `limits` would be exceeded.
    mutating func enqueueControl(_ frame: SharedFrame, limits: SendQueueLimits) -> Bool {
        guard control.count + 1 <= limits.maxMessages,
            controlBytes + frame.count <= limits.maxBytes
        else { return false }
        control.append(frame)
        controlBytes += frame.count
        return true
    }

    /// Puts `frame` in the latest slot, replacing any unwritten frame.
    mutating func setLatest(_ frame: SharedFrame) {
        if latest != nil { framesReplaced += 1 }
        latest = frame
    }

    /// Puts `frame` in the latest slot unless a frame is there already (one
    /// given after `frame`, which is then the older: counted as replaced).
    mutating func setLatestUnlessNewer(_ frame: SharedFrame) {
        if latest != nil {
            framesReplaced += 1
        } else {
            latest = frame
        }
    }

    /// The next frame to write: control first, then the latest slot.
    mutating func next() -> SharedFrame? {
        if let frame = popControl() { return frame }
        defer { latest = nil }
        return latest
    }

    /// The next control frame only (used while a close waits for the flush).
    mutating func popControl() -> SharedFrame? {
        guard let frame = control.popFirst() else { return nil }
        controlBytes -= frame.count
        if control.isEmpty { control = Deque() }  // drained: let the storage go
        return frame
    }

    mutating func removeAll() {
        control = Deque()
        controlBytes = 0
        latest = nil
    }
}
