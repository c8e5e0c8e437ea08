import Testing
import WebSocketTransport

@testable import CamHubClient

/// When `camhub follow` comes back after its connection ended, and how long it waits.
@Suite struct ReconnectTests {
    @Test func afterADrainTheFirstReturnIsSpreadOverAWindowThatGrowsWithTheAudience() {
        #expect([0, 10, 5_000, 50_000].map { Reconnect.drainWait(audience: $0, random: 1) } == [0.25, 0.25, 5, 10])
        #expect(Reconnect.drainWait(audience: 5_000, random: 0.5) == 2.5)
    }

    @Test func aRestartOrGoingAwayIsADrainAndADropIsNot() {
        func close(_ code: UInt16?, wasOpen: Bool = true) -> ClientCloseEvent {
            ClientCloseEvent(code: code.map { CloseCode($0) }, wasOpen: wasOpen, error: nil)
        }
        #expect(Reconnect.isDrain(close(1012)) && Reconnect.isDrain(close(1001)))
        #expect(Reconnect.isDrain(close(1002)), "libwebsockets' client reports the hub's 1012 as 1002")
        #expect(!Reconnect.isDrain(close(nil)) && !Reconnect.isDrain(close(1000)))
        #expect(!Reconnect.isDrain(close(1012, wasOpen: false)), "a socket that never opened was not drained")
    }
}
