import Testing

@testable import HubCore

/// Large audiences: a join must not cost one message per member.
@Suite("Hub: audience")
struct HubAudienceTests {
    func bench(listed: Int) -> HubBench {
        HubBench { $0.listedFollowers = listed }
    }

    @Test func followersBeyondTheListedOnesAreCountedNotAnnounced() {
        let bench = bench(listed: 3)
        let driver = bench.join(role: "driver")
        let followers = (0..<6).map { _ in bench.join(role: "follower") }
        #expect(bench.events(driver.key, "joined").count == 3, "only the first three followers are announced")
        let late = bench.join(role: "follower")
        let welcome = bench.welcome(late.key)
        #expect(welcome?["roster"]?.arrayValue?.count == 4, "the driver and the three listed followers")
        #expect(welcome?["clients"]?.numberValue == 8)
        #expect(welcome?["followers"]?.numberValue == 7)
        bench.disconnect(followers[5].key)
        bench.disconnect(followers[0].key)
        #expect(bench.events(driver.key, "left").count == 1, "only the listed follower's leaving is announced")
    }

    @Test func driversAndPresentersAreAlwaysAnnounced() {
        let bench = bench(listed: 0)
        let watcher = bench.join(role: "driver")
        _ = bench.join(role: "driver")
        _ = bench.join(role: "presenter")
        _ = bench.join(role: "follower")
        #expect(bench.events(watcher.key, "joined").map { $0["role"]?.stringValue } == ["driver", "presenter"])
        #expect(bench.events(watcher.key, "joined").count == 2, "the unlisted follower is only counted")
    }

    @Test func audienceEventsAreCoalescedToOneASecondWithTheCurrentCounts() {
        let bench = bench(listed: 0)
        let driver = bench.join(role: "driver")
        bench.runTicks(1)
        for _ in 0..<20 { _ = bench.join(role: "follower") }
        bench.run(seconds: 0.5)
        for _ in 0..<5 { _ = bench.join(role: "follower") }
        bench.run(seconds: 2)
        let audience = bench.events(driver.key, "audience")
        #expect(audience.count == 2)
        #expect(audience.last?["clients"]?.numberValue == 26)
        #expect(audience.last?["followers"]?.numberValue == 25)
        bench.run(seconds: 3)
        #expect(bench.events(driver.key, "audience").count == 2, "nothing changed: no more events")
    }
}
