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
struct OutboundSlots {
    typealias Limits = SendQueueLimits

    let limits: Limits
    private var control: [SharedFrame] = []
    private var head = 0
    private(set) var controlBytes = 0
    private(set) var latest: SharedFrame?
    private(set) var framesReplaced = 0

    init(limits: Limits) { self.limits = limits }

    var controlCount: Int { control.count - head }
    var isEmpty: Bool { controlCount == 0 && latest == nil }
    var hasControl: Bool { controlCount > 0 }

    /// Appends to the control lane; false if a bound would be exceeded.
    mutating func enqueueControl(_ frame: SharedFrame) -> Bool {
        guard controlCount + 1 <= limits.maxMessages,
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

    /// The next frame to write: control first, then the latest slot.
    mutating func next() -> SharedFrame? {
        if let frame = popControl() { return frame }
        defer { latest = nil }
        return latest
    }

    /// The next control frame only (used while a close waits for the flush).
    mutating func popControl() -> SharedFrame? {
        guard head < control.count else { return nil }
        let frame = control[head]
        head += 1
        controlBytes -= frame.count
        if head == control.count {
            control.removeAll(keepingCapacity: control.count <= 64)
            head = 0
        } else if head >= 64 && head * 2 >= control.count {
            control.removeFirst(head)
            head = 0
        }
        return frame
    }

    mutating func removeAll() {
        control.removeAll()
        head = 0
        controlBytes = 0
        latest = nil
    }
}
