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

/// As `waitUntil`, for async code: polls `condition` every 2 ms (a task sleep, no thread
/// blocked) until it holds or `seconds` pass; returns whether it held.
@discardableResult
public func waitUntilAsync(seconds: Double = 10, _ condition: @Sendable () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return await condition()
}
