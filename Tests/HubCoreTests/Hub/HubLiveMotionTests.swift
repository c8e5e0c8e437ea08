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
        let animations = try #require(welcome["animations"]?.array)
        #expect(animations.count == 3)
        let fly = try #require(animations.first)
        #expect(fly["id"]?.string == "f1" && fly["by"]?.string == p.client && fly["kind"]?.string == "fly")
        #expect(fly["status"]?.string == "running")
        #expect(fly["properties"]?.array == [.string("center"), .string("zoom")])
        #expect(abs((fly["started"]?.number ?? 0) - flyStart) < 0.01, "wall clock ms of the start")
        #expect(fly["duration"]?.number == 6 && fly["after"]?.isNull == true)
        let spin = animations[1]
        #expect(spin["id"]?.string == "spin" && spin["by"]?.string == d.client && spin["kind"]?.string == "animate")
        #expect(spin["status"]?.string == "delayed" && spin["started"]?.isNull == true && abs((spin["starts"]?.number ?? 0) - spinDue) < 0.01)
        #expect(spin["duration"]?.number == 2 && spin["properties"]?.array == [.string("bearing")])
        let then = animations[2]
        #expect(then["status"]?.string == "waiting" && then["after"]?.string == "spin" && then["properties"]?.array == [.string("tilt")])
        #expect(welcome["tracking"]?["mode"]?.string == "none" && welcome["tracking"]?["location"]?.isNull == true)

        // Once everything ended, a new joiner sees an empty list.
        bench.run(seconds: 8)
        let late = bench.join(role: "follower")
        #expect(bench.welcome(late.key)?["animations"]?.array?.isEmpty == true)
    }

    @Test func welcomeCarriesTheTrackingModeAndItsLastFix() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"track","mode":"followDirection","location":{"lat":52.52,"lon":13.405,"heading":87}}"#, from: d.key)
        bench.run(seconds: 0.5)
        bench.send(#"{"type":"track","location":{"lat":52.53,"lon":13.41,"heading":-10}}"#, from: d.key)
        let f = bench.join(role: "follower")
        let tracking = try #require(bench.welcome(f.key)?["tracking"])
        #expect(tracking["mode"]?.string == "followDirection")
        #expect(tracking["location"]?["lat"]?.number == 52.53 && tracking["location"]?["lon"]?.number == 13.41)
        #expect(tracking["location"]?["heading"]?.number == 350)
        #expect(bench.welcome(f.key)?["animations"]?.array?.isEmpty == true, "tracking is not an animation")
        bench.send(#"{"type":"track","mode":"none"}"#, from: d.key)
        let g = bench.join(role: "follower")
        #expect(bench.welcome(g.key)?["tracking"]?["mode"]?.string == "none")
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
        let seen = bench.animations(watcher).map { ($0["owner"]?.string ?? "?", $0["id"]?.string ?? "?", $0["status"]?.string ?? "?") }
        #expect(
            seen.filter { $0.2 == "started" }.map { "\($0.0)/\($0.1)" } == ["\(p.client!)/e1", "\(d.client!)/e1"],
            "the same id from two clients is told apart by owner: \(seen)")
        #expect(seen.filter { $0.2 == "finished" }.count == 2)
        // The default of a driver is its own animations only.
        #expect(bench.animations(d.key).allSatisfy { $0["owner"]?.string == d.client })
        #expect(bench.animations(d.key).count == 2)
        #expect(bench.animations(p.key).allSatisfy { $0["owner"]?.string == p.client })
        #expect(bench.welcome(d.key)?["events"]?.array?.contains(.string("roomAnimations")) == false)
    }

    @Test func anOwnerWatchingTheRoomGetsItsOwnReportsOnceAndCanStopWatching() {
        let bench = HubBench()
        let d = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"driver","events":["animation","roomAnimations"]}"#, from: d)
        let other = bench.join(role: "driver")
        bench.send(#"{"type":"animate","id":"mine","to":{"zoom":3},"duration":0.2}"#, from: d)
        bench.send(#"{"type":"animate","id":"theirs","to":{"tilt":10},"duration":0.2}"#, from: other.key)
        bench.run(seconds: 0.5)
        let ids = bench.animations(d).map { "\($0["id"]?.string ?? "")/\($0["status"]?.string ?? "")" }
        #expect(ids.sorted() == ["mine/finished", "mine/started", "theirs/finished", "theirs/started"], "\(ids)")
        bench.clear()
        bench.send(#"{"type":"subscribe","events":["animation"]}"#, from: d)
        bench.send(#"{"type":"animate","id":"theirs2","to":{"tilt":20},"duration":0.2}"#, from: other.key)
        bench.send(#"{"type":"animate","id":"mine2","to":{"zoom":4},"duration":0.2}"#, from: d)
        bench.run(seconds: 0.5)
        #expect(bench.animations(d).map { $0["id"]?.string } == ["mine2", "mine2"])
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
        #expect(last?["id"]?.string == "long" && last?["status"]?.string == "cancelled" && last?["reason"]?.string == "ownerLeft")
        #expect(last?["owner"]?.string == d.client)
    }
}
