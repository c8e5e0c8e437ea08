import Foundation

/// Polls `condition` every 2 ms until it holds or `timeout` passes; returns whether it held.
@discardableResult
public func waitUntil(_ timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
}
