import DequeModule

/// The two send lanes of one server connection. Value type owned by the
/// connection on its loop thread.
///
/// - Control lane: ordered FIFO for messages that must not be dropped
///   (welcome, errors, events). Bounded by `maxMessages` and `maxBytes`;
///   an enqueue past either bound fails, and the server then closes the
///   connection with 1008 instead of growing without limit.
/// - Frame lane: the newest frame (`latest`) and, while the server's loop is
///   behind its followers (not their sockets), the few older frames it still
///   owes, oldest first (`addFrame`): they go out together, in one send
///   (`takeFrames`, `ServerCore.drainOwedFrames`). A frame past `keeping`
///   replaces the oldest, and a socket that does not drain holds its newest
///   frame only (`setLatest`), so a slow reader never holds a backlog.
///
/// `next()` drains control first, then the frame lane oldest first (control
/// has priority; the lanes are not ordered relative to each other).
///
/// An idle connection's lanes hold no heap memory: the control lane's
/// storage is let go whenever it drains (a follower gets a control message
/// now and then, its frames go through the frame lane), and the bounds are
/// the server's (passed to `enqueueControl`), not a copy per connection.
struct OutboundSlots {
    /// A ring buffer: one reference, no head index, and no storage at all while empty.
    private var control = Deque<SharedFrame>()
    private(set) var controlBytes = 0
    /// The frame lane, oldest first.
    private var lane = FrameLane.empty
    private(set) var framesReplaced = 0

    /// The frames of the frame lane: one case per count that matters, so that
    /// an idle connection's lane is as small as one optional frame (no heap
    /// memory; a connection's state must stay within its malloc size class).
    private enum FrameLane {
        case empty
        case one(SharedFrame)
        /// Two or more, oldest first (only while the loop is behind).
        case several([SharedFrame])

        init(_ frames: [SharedFrame]) {
            switch frames.count {
            case 0: self = .empty
            case 1: self = .one(frames[0])
            default: self = .several(frames)
            }
        }

        var frames: [SharedFrame] {
            switch self {
            case .empty: []
            case .one(let frame): [frame]
            case .several(let frames): frames
            }
        }
    }

    /// The newest frame of the frame lane.
    var latest: SharedFrame? {
        switch lane {
        case .empty: nil
        case .one(let frame): frame
        case .several(let frames): frames.last
        }
    }

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

    /// Frames in the frame lane (0 to the `keeping` it was given).
    var frameCount: Int {
        switch lane {
        case .empty: 0
        case .one: 1
        case .several(let frames): frames.count
        }
    }

    /// Puts `frame` in the lane, replacing every unwritten frame (a socket that
    /// does not drain gets its newest frame only). Returns how many it replaced.
    @discardableResult
    mutating func setLatest(_ frame: SharedFrame) -> Int {
        let replaced = frameCount
        framesReplaced += replaced
        lane = .one(frame)
        return replaced
    }

    /// Adds `frame` as the newest, keeping the older unwritten ones, at most
    /// `keeping` frames in all (the oldest go). Returns how many went.
    mutating func addFrame(_ frame: SharedFrame, keeping: Int) -> Int {
        if case .empty = lane {
            lane = .one(frame)
            return 0
        }
        return keepNewest(lane.frames + [frame], keeping: keeping)
    }

    /// Takes the whole frame lane: the older frames (oldest first) and the newest.
    mutating func takeFrames() -> (earlier: [SharedFrame], newest: SharedFrame)? {
        defer { lane = .empty }
        switch lane {
        case .empty: return nil
        case .one(let frame): return ([], frame)
        case .several(var frames):
            let newest = frames.removeLast()
            return (frames, newest)
        }
    }

    /// Gives back frames taken by `takeFrames` that could not be written, ahead
    /// of any added since, keeping the newest `keeping`. Returns how many went.
    mutating func putBack(earlier: [SharedFrame], newest: SharedFrame, keeping: Int) -> Int {
        keepNewest(earlier + [newest] + lane.frames, keeping: keeping)
    }

    private mutating func keepNewest(_ frames: [SharedFrame], keeping: Int) -> Int {
        let excess = max(0, frames.count - max(1, keeping))
        framesReplaced += excess
        lane = FrameLane(Array(frames.dropFirst(excess)))
        return excess
    }

    /// The next frame to write: control first, then the frame lane, oldest first.
    mutating func next() -> SharedFrame? {
        if let frame = popControl() { return frame }
        switch lane {
        case .empty: return nil
        case .one(let frame):
            lane = .empty
            return frame
        case .several(let frames):
            lane = FrameLane(Array(frames.dropFirst()))
            return frames[0]
        }
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
        lane = .empty
    }
}
