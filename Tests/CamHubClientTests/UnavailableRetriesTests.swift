import CamHubProtocol
import CameraCore
import Testing

@testable import CamHubClient

struct UnavailableRetriesTests {
    static let zoom = ClientMessage.set(CameraUpdate(zoom: 6))

    @Test func aCommandAnsweredUnavailableGoesAgainAfterABackoffThatDoubles() {
        var retries = UnavailableRetries()
        retries.sent(Self.zoom)
        var delays: [Double] = []
        for _ in 1...UnavailableRetries.maxAttempts {
            let retry = retries.unavailable(ref: "set", at: 100, jitter: 0)
            #expect(retry?.message == Self.zoom)
            delays.append((retry?.at ?? 0) - 100)
        }
        #expect(delays == [0.25, 0.5, 1, 2, 4])
        #expect(retries.unavailable(ref: "set", at: 100, jitter: 0) == nil, "five attempts, then the error stands")
    }

    @Test func aRetryIsSentOnlyWhenItIsDue() {
        var retries = UnavailableRetries()
        let fly = ClientMessage.fly(FlyCommand(id: "fly-1", camera: CameraUpdate(zoom: 3)))
        retries.sent(fly)
        _ = retries.unavailable(ref: "fly-1", at: 10, jitter: 0)
        #expect(retries.take(at: 10.2).isEmpty)
        #expect(retries.take(at: 10.25).map(\.message) == [fly])
        #expect(retries.due.isEmpty && retries.sent == 1)
    }

    @Test func aNewCommandWithTheSameRefStartsItsCountAgainAndAnUnknownRefIsNotRetried() {
        var retries = UnavailableRetries()
        #expect(retries.unavailable(ref: "set", at: 0) == nil, "not a command this client sent")
        retries.sent(Self.zoom)
        for _ in 1...UnavailableRetries.maxAttempts { _ = retries.unavailable(ref: "set", at: 0) }
        retries.sent(.set(CameraUpdate(zoom: 7)))
        #expect(retries.unavailable(ref: "set", at: 0, jitter: 0)?.attempt == 1)
    }
}
