import Testing

@testable import HubCore

/// Follow mode in the hub: each client's follow state, its counts, summons
/// and the presenter's lock (docs/PROTOCOL.md, "Follow mode").
@Suite("Hub: follow mode")
struct HubFollowTests {
    func follow(_ bench: HubBench, _ key: ConnectionKey, _ state: String) {
        bench.send(#"{"type":"follow","state":"\#(state)"}"#, from: key)
    }

    /// The counts of the newest `audience` event `key` got, after the coalescing interval.
    func counts(_ bench: HubBench, _ key: ConnectionKey) -> [Double?] {
        bench.run(seconds: 1.1)
        let last = bench.events(key, "audience").last
        return ["following", "exploring", "away"].map { last?[$0]?.numberValue }
    }

    @Test func everyoneJoinsFollowingAndTheWelcomeSaysSo() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let follower = bench.join(role: "follower", name: "Ann")
        let welcome = bench.welcome(follower.key)
        #expect(welcome?["roster"]?.arrayValue?.map { $0["follow"]?.stringValue } == ["following", "following"])
        #expect(welcome?["following"]?.numberValue == 1 && welcome?["exploring"]?.numberValue == 0 && welcome?["away"]?.numberValue == 0)
        #expect(welcome?["followPolicy"]?["explore"]?.boolValue == true)
        #expect(bench.events(presenter.key, "followChanged").isEmpty)
    }

    @Test func aFollowersStateChangeReachesPresentersAndDriversNotFollowers() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let driver = bench.join(role: "driver")
        let other = bench.join(role: "follower")
        let ann = bench.join(role: "follower", name: "Ann")
        follow(bench, ann.key, "exploring")
        for key in [presenter.key, driver.key] {
            let event = bench.events(key, "followChanged").last
            #expect(event?["client"]?.stringValue == ann.client && event?["name"]?.stringValue == "Ann")
            #expect(event?["state"]?.stringValue == "exploring")
        }
        #expect(bench.events(other.key, "followChanged").isEmpty, "not in a follower's default subscription")
        #expect(bench.errors(ann.key).isEmpty)
    }

    @Test func theAudienceEventCountsFollowersByState() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let followers = (0..<4).map { _ in bench.join(role: "follower").key }
        follow(bench, followers[0], "exploring")
        follow(bench, followers[1], "away")
        follow(bench, followers[2], "exploring")
        #expect(counts(bench, presenter.key) == [1, 2, 1])
        follow(bench, followers[2], "following")
        #expect(counts(bench, presenter.key) == [2, 1, 1])
    }

    @Test func aLateJoinerSeesTheStatesInItsWelcome() {
        let bench = HubBench()
        _ = bench.join(role: "presenter")
        let ann = bench.join(role: "follower", name: "Ann")
        follow(bench, ann.key, "away")
        let late = bench.join(role: "driver")
        let welcome = bench.welcome(late.key)
        let entry = welcome?["roster"]?.arrayValue?.first { $0["client"]?.stringValue == ann.client }
        #expect(entry?["follow"]?.stringValue == "away")
        #expect(welcome?["away"]?.numberValue == 1 && welcome?["following"]?.numberValue == 0)
    }

    @Test func theSameStateTwiceIsNotAnnouncedTwice() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        follow(bench, ann.key, "exploring")
        follow(bench, ann.key, "exploring")
        #expect(bench.events(presenter.key, "followChanged").count == 1)
    }

    @Test func aFollowerLeavingWhileExploringIsTakenOutOfItsCount() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        _ = bench.join(role: "follower")
        follow(bench, ann.key, "exploring")
        #expect(counts(bench, presenter.key) == [1, 1, 0])
        bench.disconnect(ann.key)
        #expect(counts(bench, presenter.key) == [1, 0, 0])
    }

    @Test func countedFollowersChangeOnlyTheCountsNotOneEventEach() {
        let bench = HubBench { $0.listedFollowers = 2 }
        let presenter = bench.join(role: "presenter")
        let followers = (0..<6).map { _ in bench.join(role: "follower").key }
        for key in followers { follow(bench, key, "exploring") }
        #expect(bench.events(presenter.key, "followChanged").count == 2, "only the two listed followers are announced")
        #expect(counts(bench, presenter.key) == [0, 6, 0])
        bench.disconnect(followers[5])  // a counted one, exploring
        #expect(counts(bench, presenter.key) == [0, 5, 0])
    }

    @Test func aPresenterChangeLeavesEveryonesStateAndTheNewPresenterHearsTheChanges() {
        let bench = HubBench()
        let first = bench.join(role: "presenter")
        let explorer = bench.join(role: "follower", name: "Eve")
        follow(bench, explorer.key, "exploring")
        let second = bench.join(role: "presenter")
        let welcome = bench.welcome(second.key)
        #expect(welcome?["roster"]?.arrayValue?.first { $0["client"]?.stringValue == explorer.client }?["follow"]?.stringValue == "exploring")
        #expect(welcome?["exploring"]?.numberValue == 1)
        follow(bench, explorer.key, "following")
        #expect(bench.events(second.key, "followChanged").last?["state"]?.stringValue == "following")
        #expect(bench.events(first.key, "followChanged").last?["state"]?.stringValue == "following", "the old presenter, now a driver, too")
        bench.send(#"{"type":"summon"}"#, from: first.key)
        #expect(bench.lastError(first.key)?["code"]?.stringValue == "forbidden", "only the presenter of now summons")
    }

    @Test func anUnknownStateIsRefusedNamingIt() {
        let bench = HubBench()
        let ann = bench.join(role: "follower")
        follow(bench, ann.key, "wandering")
        let error = bench.lastError(ann.key)
        #expect(error?["code"]?.stringValue == "bad_message")
        #expect(error?["message"]?.stringValue?.hasPrefix("state: unknown follow state 'wandering'") == true, "\(String(describing: error))")
        #expect(bench.answersPing(ann.key), "the connection stays usable")
    }

    // MARK: Summon

    @Test func summonReachesExploringAndAwayClientsAndTellsThePresenterHowMany() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "Pat")
        let explorer = bench.join(role: "follower")
        let away = bench.join(role: "follower")
        let following = bench.join(role: "follower")
        follow(bench, explorer.key, "exploring")
        follow(bench, away.key, "away")
        bench.send(#"{"type":"summon"}"#, from: presenter.key)
        for key in [explorer.key, away.key] {
            let summoned = bench.events(key, "summoned")
            #expect(summoned.count == 1)
            #expect(summoned.first?["by"]?["client"]?.stringValue == presenter.client && summoned.first?["by"]?["name"]?.stringValue == "Pat")
        }
        #expect(bench.events(following.key, "summoned").isEmpty, "a following client gets nothing")
        let result = bench.messages(presenter.key, type: "result").last
        #expect(result?["what"]?.stringValue == "summon" && result?["summoned"]?.numberValue == 2)
        #expect(result?["id"]?.stringValue == "summon")
    }

    @Test func onlyThePresenterMaySummon() {
        let bench = HubBench()
        _ = bench.join(role: "presenter")
        let driver = bench.join(role: "driver")
        let explorer = bench.join(role: "follower")
        follow(bench, explorer.key, "exploring")
        bench.send(#"{"type":"summon","id":"s1"}"#, from: driver.key)
        #expect(bench.lastError(driver.key)?["code"]?.stringValue == "forbidden")
        #expect(bench.lastError(driver.key)?["ref"]?.stringValue == "s1")
        #expect(bench.events(explorer.key, "summoned").isEmpty)
    }

    // MARK: Follow policy

    @Test func aLockedRoomRefusesExploringAndTheStateStaysFollowing() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        bench.send(#"{"type":"followPolicy","explore":false}"#, from: presenter.key)
        #expect(bench.events(ann.key, "followPolicyChanged").last?["explore"]?.boolValue == false)
        follow(bench, ann.key, "exploring")
        #expect(bench.lastError(ann.key)?["code"]?.stringValue == "policy")
        #expect(bench.lastError(ann.key)?["ref"]?.stringValue == "follow")
        #expect(counts(bench, presenter.key) == [1, 0, 0])
        #expect(bench.events(presenter.key, "followChanged").isEmpty)
        follow(bench, ann.key, "away")
        #expect(bench.events(presenter.key, "followChanged").last?["state"]?.stringValue == "away", "away stays allowed")
    }

    @Test func lockingSummonsThoseExploringAtThatMoment() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", name: "Pat")
        let explorer = bench.join(role: "follower")
        let away = bench.join(role: "follower")
        follow(bench, explorer.key, "exploring")
        follow(bench, away.key, "away")
        bench.send(#"{"type":"followPolicy","explore":false}"#, from: presenter.key)
        #expect(bench.events(explorer.key, "summoned").first?["by"]?["name"]?.stringValue == "Pat")
        #expect(bench.events(away.key, "summoned").isEmpty, "the lock calls back explorers, not the away")
    }

    @Test func unlockingAllowsExploringAgainAndLateJoinersSeeThePolicy() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        bench.send(#"{"type":"followPolicy","explore":false}"#, from: presenter.key)
        let late = bench.join(role: "follower")
        #expect(bench.welcome(late.key)?["followPolicy"]?["explore"]?.boolValue == false)
        bench.send(#"{"type":"followPolicy","explore":true}"#, from: presenter.key)
        #expect(bench.events(late.key, "followPolicyChanged").last?["explore"]?.boolValue == true)
        follow(bench, late.key, "exploring")
        #expect(bench.errors(late.key).isEmpty)
    }

    @Test func onlyThePresenterMayLockAndTheFieldIsRequired() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let driver = bench.join(role: "driver")
        bench.send(#"{"type":"followPolicy","explore":false}"#, from: driver.key)
        #expect(bench.lastError(driver.key)?["code"]?.stringValue == "forbidden")
        bench.send(#"{"type":"followPolicy"}"#, from: presenter.key)
        #expect(bench.lastError(presenter.key)?["message"]?.stringValue?.hasPrefix("explore: missing") == true)
        bench.send(#"{"type":"followPolicy","explore":"no"}"#, from: presenter.key)
        #expect(bench.lastError(presenter.key)?["message"]?.stringValue?.hasPrefix("explore: must be true or false") == true)
    }

    @Test func aNewPresenterFindsTheLockInPlace() {
        let bench = HubBench()
        let first = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        bench.send(#"{"type":"followPolicy","explore":false}"#, from: first.key)
        bench.disconnect(first.key)
        let second = bench.join(role: "presenter")
        #expect(bench.welcome(second.key)?["followPolicy"]?["explore"]?.boolValue == false)
        follow(bench, ann.key, "exploring")
        #expect(bench.lastError(ann.key)?["code"]?.stringValue == "policy")
    }

    // MARK: The mover's view

    @Test func theWelcomeHasNoViewBeforeAnyoneMovedTheCamera() {
        let bench = HubBench()
        let follower = bench.join(role: "follower")
        #expect(bench.welcome(follower.key)?["view"]?.isNull == true)
        #expect(bench.welcome(follower.key)?["fit"]?.stringValue == "same")
    }

    @Test func theRoomKeepsTheViewOfWhoeverMovedTheCameraAndSaysWhenItChanges() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", viewport: (1600, 900))
        let follower = bench.join(role: "follower")
        bench.send(#"{"type":"set","camera":{"zoom":5}}"#, from: presenter.key)
        let view = bench.events(follower.key, "viewChanged").last?["view"]
        #expect(view?["by"]?.stringValue == presenter.client && view?["width"]?.numberValue == 1600 && view?["height"]?.numberValue == 900)
        bench.send(#"{"type":"set","camera":{"zoom":6}}"#, from: presenter.key)
        #expect(bench.events(follower.key, "viewChanged").count == 1, "the same view again is no change")
        bench.send(#"{"type":"viewport","width":800,"height":600}"#, from: presenter.key)
        #expect(bench.events(follower.key, "viewChanged").last?["view"]?["width"]?.numberValue == 800, "the mover resized")
        let late = bench.join(role: "follower")
        #expect(bench.welcome(late.key)?["view"]?["height"]?.numberValue == 600)
    }

    @Test func anotherMoversViewReplacesItButAViewportChangeOfSomeoneElseDoesNot() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter", viewport: (1600, 900))
        let driver = bench.join(role: "driver", viewport: (390, 844))
        let follower = bench.join(role: "follower")
        bench.send(#"{"type":"set","camera":{"zoom":5}}"#, from: presenter.key)
        bench.send(#"{"type":"viewport","width":500,"height":500}"#, from: driver.key)
        #expect(bench.events(follower.key, "viewChanged").count == 1)
        bench.send(#"{"type":"ease","camera":{"zoom":7},"duration":1}"#, from: driver.key)
        let view = bench.events(follower.key, "viewChanged").last?["view"]
        #expect(view?["by"]?.stringValue == driver.client && view?["width"]?.numberValue == 500)
    }

    @Test func theViewCarriesThePaddingInForce() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let follower = bench.join(role: "follower")
        bench.send(#"{"type":"set","camera":{"padding":{"left":300}}}"#, from: presenter.key)
        #expect(bench.events(follower.key, "viewChanged").last?["view"]?["padding"]?["left"]?.numberValue == 300)
    }

    @Test func aTapMovesNothingSoItSetsNoView() {
        let bench = HubBench()
        let driver = bench.join(role: "driver")
        let follower = bench.join(role: "follower")
        bench.send(#"{"type":"gesture","kind":"tap","x":10,"y":10}"#, from: driver.key)
        #expect(bench.events(follower.key, "viewChanged").isEmpty)
    }

    @Test func fitIsKeptFromHelloAndItsMessageAndABadOneIsNamed() {
        let bench = HubBench()
        let key = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"follower","fit":"cover"}"#, from: key)
        #expect(bench.welcome(key)?["fit"]?.stringValue == "cover")
        bench.send(#"{"type":"fit","mode":"stretch"}"#, from: key)
        #expect(bench.lastError(key)?["message"]?.stringValue?.hasPrefix("mode: unknown fit 'stretch' (known: same, cover)") == true)
        bench.send(#"{"type":"fit","mode":"same"}"#, from: key)
        #expect(bench.errors(key).count == 1)
        let other = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"follower","fit":"zoom"}"#, from: other)
        #expect(bench.lastError(other)?["message"]?.stringValue?.hasPrefix("fit: unknown fit 'zoom'") == true)
    }

    // MARK: Pointer

    @Test func thePointerRidesTheNextFrameAndEveryFrameWhileShownThenNullOnceAfterHiding() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let follower = bench.join(role: "follower", rate: 60)
        bench.runTicks(2)
        bench.clear()
        bench.send(#"{"type":"pointer","lat":48.85,"lon":2.35}"#, from: presenter.key)
        bench.runTicks(2)
        let shown = bench.frames(follower.key)
        #expect(shown.count == 1, "a pointer moving while the camera rests makes one frame")
        #expect(shown.last?.json["pointer"]?["lat"]?.numberValue == 48.85 && shown.last?.json["pointer"]?["by"]?.stringValue == presenter.client)
        #expect(shown.last?.json["moving"]?.boolValue == false)
        bench.send(#"{"type":"set","camera":{"zoom":5}}"#, from: presenter.key)
        bench.runTicks(2)
        #expect(bench.frames(follower.key).last?.json["pointer"]?["lon"]?.numberValue == 2.35, "frames carry it while it is shown")
        bench.clear()
        bench.send(#"{"type":"pointer","lat":null}"#, from: presenter.key)
        bench.runTicks(2)
        #expect(bench.frames(follower.key).last?.json["pointer"]?.isNull == true, "null once after hiding")
        bench.send(#"{"type":"set","camera":{"zoom":6}}"#, from: presenter.key)
        bench.runTicks(2)
        #expect(bench.frames(follower.key).last?.json["pointer"] == nil, "then frames without it, as before anyone pointed")
    }

    @Test func pointerMovesAreCoalescedIntoTheRoomsFrames() {
        let bench = HubBench()
        let driver = bench.join(role: "driver")
        let follower = bench.join(role: "follower", rate: 10)
        bench.runTicks(12)
        bench.clear()
        for i in 0..<30 {
            bench.send(#"{"type":"pointer","lat":10,"lon":\#(i)}"#, from: driver.key)
            bench.runTicks(1)
        }
        bench.runTicks(12)
        let frames = bench.frames(follower.key)
        #expect(frames.count <= 8, "at the follower's rate, not one per move: \(frames.count)")
        #expect(frames.last?.json["pointer"]?["lon"]?.numberValue == 29, "the newest position")
    }

    @Test func thePointerGoesWhenItsClientLeaves() {
        let bench = HubBench()
        let driver = bench.join(role: "driver")
        let follower = bench.join(role: "follower", rate: 60)
        bench.send(#"{"type":"pointer","lat":1,"lon":2}"#, from: driver.key)
        bench.runTicks(2)
        bench.disconnect(driver.key)
        bench.runTicks(2)
        #expect(bench.frames(follower.key).last?.json["pointer"]?.isNull == true)
    }

    @Test func followersMayNotPointAndABadPointIsNamed() {
        let bench = HubBench()
        let driver = bench.join(role: "driver")
        let follower = bench.join(role: "follower")
        bench.send(#"{"type":"pointer","lat":1,"lon":2}"#, from: follower.key)
        #expect(bench.lastError(follower.key)?["code"]?.stringValue == "forbidden")
        bench.send(#"{"type":"pointer","lat":91,"lon":2}"#, from: driver.key)
        #expect(bench.lastError(driver.key)?["message"]?.stringValue?.hasPrefix("lat: must be within -90…90") == true)
        bench.send(#"{"type":"pointer","lon":2}"#, from: driver.key)
        #expect(bench.lastError(driver.key)?["message"]?.stringValue?.hasPrefix("lat: missing") == true)
        bench.send(#"{"type":"pointer","lat":1}"#, from: driver.key)
        #expect(bench.lastError(driver.key)?["message"]?.stringValue?.hasPrefix("lon: missing") == true)
    }
}
