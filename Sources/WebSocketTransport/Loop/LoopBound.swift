/// A value that lives on one loop thread and may be carried, but not
/// touched, anywhere else.
///
/// Closures handed to a loop (`execute`, timers, server handlers) must be
/// `@Sendable`, so state they share on that loop cannot be captured directly.
/// `LoopBound` is the one place that bridges the two: it is `Sendable` so it
/// can ride in those closures, and every access checks that it runs on the
/// owning loop's thread (a failed check stops the process: touching loop
/// state from elsewhere is a race, never a recoverable error). This is the
/// module's only `@unchecked Sendable` that guards state with a thread check
/// rather than a lock; the check is what makes it sound.
public final class LoopBound<Value>: @unchecked Sendable {
    /// The loop whose thread owns the value.
    public let loop: WebSocketLoop
    private var stored: Value

    /// Wraps `value`, owned by `loop` from now on. Creating it on another
    /// thread is fine (nothing reads it until the loop does).
    public init(_ value: Value, on loop: WebSocketLoop) {
        self.loop = loop
        stored = value
    }

    /// Loop thread only: the value, to read or change in place.
    public var value: Value {
        get {
            precondition(loop.isCurrentThread, "LoopBound read off its loop thread (\(loop.name))")
            return stored
        }
        _modify {
            precondition(loop.isCurrentThread, "LoopBound changed off its loop thread (\(loop.name))")
            yield &stored
        }
    }

    /// Any thread, once the loop has stopped for good (its thread joined):
    /// the value, for a last read such as saving state at shutdown.
    public func valueAfterLoopEnded() -> Value {
        precondition(loop.hasEnded, "LoopBound read after its loop ended, but the loop (\(loop.name)) is still running")
        return stored
    }
}
