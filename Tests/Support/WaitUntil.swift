import Foundation

/// Polls `condition` every 2 ms until it holds or `timeout` passes; returns whether it held.
/// The timeout is only a safety net (the wait ends as soon as the condition holds), so it is
/// generous: a loaded two-core machine may starve the threads the condition waits on for a while.
@discardableResult
public func waitUntil(_ timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
}
