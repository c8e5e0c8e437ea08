import Foundation
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// Mutating calls cannot sit inside `#expect` directly.
func take(_ throttle: inout FollowerThrottle, roomSeq: UInt64, now: Double) -> Bool {
    throttle.take(roomSeq: roomSeq, now: now)
}

func admit(
    _ limiter: inout CommandRateLimiter, now: Double, policy: CommandRateLimiter.Policy = .standard
) -> CommandRateLimiter.Verdict {
    limiter.admit(now: now, policy: policy)
}
