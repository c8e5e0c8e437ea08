import CameraCore
import Testing

@testable import HubCore

/// Live animations through `Hub.receive`: a late joiner learns the room's
/// motion in `welcome` (animations, tracking), and `roomAnimations` brings
/// every animation report of the room, not only one's own.
@Suite("Hub: late joiners learn the room's motion")
struct HubLiveMotionTests {
    @Test func aFollowerJoiningMidFlySeesTheFlightAndTheQueueInWelcome() throws {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"fly","id":"f1","camera":{"lat":40.7128,"lon":-74.006,"zoom":11},"duration":6}"#, from: p.key)
        let flyStart = bench.time.epochMilliseconds
        bench.send(#"{"type":"animate","id":"spin","to":{"bearing":90},"duration":2,"delay":3}"#, from: d.key)
        let spinDue = bench.time.epochMilliseconds + 3000
        bench.send(#"{"type":"animate","id":"then","to":{"tilt":20},"duration":1,"after":"spin"}"#, from: d.key)
        bench.run(seconds: 1)
        let f = bench.join(role: "follower")
        let welcome = try #require(bench.welcome(f.key))
        let animations = try #require(welcome["animations"]?.arrayValue)
        #expect(animations.count == 3)
        let fly = try #require(animations.first)
        #expect(fly["id"]?.stringValue == "f1" && fly["by"]?.stringValue == p.client && fly["kind"]?.stringValue == "fly")
        #expect(fly["status"]?.stringValue == "running")
        #expect(fly["properties"]?.arrayValue == [.string("center"), .string("zoom")])
        #expect(abs((fly["started"]?.numberValue ?? 0) - flyStart) < 0.01, "wall clock ms of the start")
        #expect(fly["duration"]?.numberValue == 6 && fly["after"]?.isNull == true)
        let spin = animations[1]
        #expect(spin["id"]?.stringValue == "spin" && spin["by"]?.stringValue == d.client && spin["kind"]?.stringValue == "animate")
        #expect(spin["status"]?.stringValue == "delayed" && spin["started"]?.isNull == true && abs((spin["starts"]?.numberValue ?? 0) - spinDue) < 0.01)
        #expect(spin["duration"]?.numberValue == 2 && spin["properties"]?.arrayValue == [.string("bearing")])
        let then = animations[2]
        #expect(then["status"]?.stringValue == "waiting" && then["after"]?.stringValue == "spin" && then["properties"]?.arrayValue == [.string("tilt")])
        #expect(welcome["tracking"]?["mode"]?.stringValue == "none" && welcome["tracking"]?["location"]?.isNull == true)

        // Once everything ended, a new joiner sees an empty list.
        bench.run(seconds: 8)
        let late = bench.join(role: "follower")
        #expect(bench.welcome(late.key)?["animations"]?.arrayValue?.isEmpty == true)
    }

    @Test func welcomeCarriesTheTrackingModeAndItsLastFix() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"track","mode":"followDirection","location":{"lat":52.52,"lon":13.405,"heading":87}}"#, from: d.key)
        bench.run(seconds: 0.5)
        bench.send(#"{"type":"track","location":{"lat":52.53,"lon":13.41,"heading":-10}}"#, from: d.key)
        let f = bench.join(role: "follower")
        let tracking = try #require(bench.welcome(f.key)?["tracking"])
        #expect(tracking["mode"]?.stringValue == "followDirection")
        #expect(tracking["location"]?["lat"]?.numberValue == 52.53 && tracking["location"]?["lon"]?.numberValue == 13.41)
        #expect(tracking["location"]?["heading"]?.numberValue == 350)
        #expect(bench.welcome(f.key)?["animations"]?.arrayValue?.isEmpty == true, "tracking is not an animation")
        bench.send(#"{"type":"track","mode":"none"}"#, from: d.key)
        let g = bench.join(role: "follower")
        #expect(bench.welcome(g.key)?["tracking"]?["mode"]?.stringValue == "none")
        #expect(bench.welcome(g.key)?["tracking"]?["location"]?.isNull == true)
    }

    @Test func roomAnimationsBringsEveryAnimationOfTheRoomWithItsOwner() throws {
        let bench = HubBench()
        let p = bench.join(role: "presenter")
        let d = bench.join(role: "driver")
        let watcher = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"follower","events":["roomAnimations"]}"#, from: watcher)
        bench.send(#"{"type":"ease","id":"e1","camera":{"zoom":5},"duration":0.5}"#, from: p.key)
        bench.send(#"{"type":"animate","id":"e1","to":{"bearing":30},"duration":0.5}"#, from: d.key)
        bench.run(seconds: 1)
        let seen = bench.animations(watcher).map { ($0["owner"]?.stringValue ?? "?", $0["id"]?.stringValue ?? "?", $0["status"]?.stringValue ?? "?") }
        #expect(
            seen.filter { $0.2 == "started" }.map { "\($0.0)/\($0.1)" } == ["\(p.client!)/e1", "\(d.client!)/e1"],
            "the same id from two clients is told apart by owner: \(seen)")
        #expect(seen.filter { $0.2 == "finished" }.count == 2)
        // The default of a driver is its own animations only.
        #expect(bench.animations(d.key).allSatisfy { $0["owner"]?.stringValue == d.client })
        #expect(bench.animations(d.key).count == 2)
        #expect(bench.animations(p.key).allSatisfy { $0["owner"]?.stringValue == p.client })
        #expect(bench.welcome(d.key)?["events"]?.arrayValue?.contains(.string("roomAnimations")) == false)
    }

    @Test func anOwnerWatchingTheRoomGetsItsOwnReportsOnceAndCanStopWatching() {
        let bench = HubBench()
        let d = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"driver","events":["animation","roomAnimations"]}"#, from: d)
        let other = bench.join(role: "driver")
        bench.send(#"{"type":"animate","id":"mine","to":{"zoom":3},"duration":0.2}"#, from: d)
        bench.send(#"{"type":"animate","id":"theirs","to":{"tilt":10},"duration":0.2}"#, from: other.key)
        bench.run(seconds: 0.5)
        let ids = bench.animations(d).map { "\($0["id"]?.stringValue ?? "")/\($0["status"]?.stringValue ?? "")" }
        #expect(ids.sorted() == ["mine/finished", "mine/started", "theirs/finished", "theirs/started"], "\(ids)")
        bench.clear()
        bench.send(#"{"type":"subscribe","events":["animation"]}"#, from: d)
        bench.send(#"{"type":"animate","id":"theirs2","to":{"tilt":20},"duration":0.2}"#, from: other.key)
        bench.send(#"{"type":"animate","id":"mine2","to":{"zoom":4},"duration":0.2}"#, from: d)
        bench.run(seconds: 0.5)
        #expect(bench.animations(d).map { $0["id"]?.stringValue } == ["mine2", "mine2"])
    }

    @Test func aWatcherSeesAnimationsEndWhenTheirOwnerLeaves() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        let watcher = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"follower","events":["roomAnimations"]}"#, from: watcher)
        bench.send(#"{"type":"animate","id":"long","to":{"zoom":8},"duration":5}"#, from: d.key)
        bench.run(seconds: 0.5)
        bench.disconnect(d.key)
        let last = bench.animations(watcher).last
        #expect(last?["id"]?.stringValue == "long" && last?["status"]?.stringValue == "cancelled" && last?["reason"]?.stringValue == "ownerLeft")
        #expect(last?["owner"]?.stringValue == d.client)
    }
}
