import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// The audience's view in the hub: explorers say what they look at
/// (`looking`), presenters and drivers hear it as `views` (docs/PROTOCOL.md,
/// "Follow mode"), followers never do.
@Suite("Hub: the audience's view")
struct HubViewsTests {
    static let paris = #"{"lat":48.85,"lon":2.35,"zoom":13}"#

    func explore(_ bench: HubBench, _ key: ConnectionKey, camera: String = paris) {
        bench.send(#"{"type":"follow","state":"exploring"}"#, from: key)
        look(bench, key, camera: camera)
    }

    func look(_ bench: HubBench, _ key: ConnectionKey, camera: String) {
        bench.send(#"{"type":"looking","camera":\#(camera)}"#, from: key)
    }

    /// The lists of the `views` events `key` got, after a quarter second of ticks.
    func views(_ bench: HubBench, _ key: ConnectionKey) -> [[JSONValue]] {
        bench.run(seconds: 0.3)
        return bench.events(key, "views").map { $0["views"]?.arrayValue ?? [] }
    }

    @Test func anExplorersViewReachesPresentersAndDriversWithItsNameCameraAndViewport() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let driver = bench.join(role: "driver")
        let ann = bench.join(role: "follower", name: "Ann", viewport: (800, 600))
        explore(bench, ann.key)
        for key in [presenter.key, driver.key] {
            let view = views(bench, key).last?.first
            #expect(view?["client"]?.stringValue == ann.client && view?["name"]?.stringValue == "Ann")
            #expect(view?["state"]?.stringValue == "exploring")
            #expect(view?["camera"]?["lat"]?.numberValue == 48.85 && view?["camera"]?["zoom"]?.numberValue == 13)
            #expect(view?["width"]?.numberValue == 800 && view?["height"]?.numberValue == 600)
        }
        #expect(bench.errors(ann.key).isEmpty)
    }

    @Test func theCornersAreTheGroundUnderTheExplorersViewportCorners() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower", viewport: (800, 600))
        explore(bench, ann.key, camera: #"{"lat":48.85,"lon":2.35,"zoom":13,"bearing":30,"tilt":40}"#)
        let corners = try #require(views(bench, presenter.key).last?.first?["corners"]?.arrayValue)
        let camera = Camera(latitude: 48.85, longitude: 2.35, zoom: 13, tilt: 40, bearing: 30)
        let view = ViewTransform(camera: camera, viewport: Viewport(width: 800, height: 600))
        let expected = [ViewPoint(x: 0, y: 0), ViewPoint(x: 800, y: 0), ViewPoint(x: 800, y: 600), ViewPoint(x: 0, y: 600)]
        try #require(corners.count == 4)
        for (corner, point) in zip(corners, expected) {
            let geo = GeoCoordinate(latitude: try #require(corner["lat"]?.numberValue), longitude: try #require(corner["lon"]?.numberValue))
            let seen = try #require(view.geoToView(geo))
            #expect(abs(seen.x - point.x) < 1e-6 && abs(seen.y - point.y) < 1e-6, "\(seen) is \(point)")
        }
    }

    @Test func aCornerInTheSkyIsClampedBelowTheHorizon() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower", viewport: (1280, 720))
        bench.send(#"{"type":"limits","maxTilt":85}"#, from: presenter.key)
        explore(bench, ann.key, camera: #"{"lat":48.85,"lon":2.35,"zoom":16,"tilt":85}"#)
        let corners = try #require(views(bench, presenter.key).last?.first?["corners"]?.arrayValue)
        let camera = Camera(latitude: 48.85, longitude: 2.35, zoom: 16, tilt: 85)
        let horizonY = try #require(ViewTransform(camera: camera, viewport: Viewport(width: 1280, height: 720)).horizonY)
        let view = ViewTransform(camera: camera, viewport: Viewport(width: 1280, height: 720))
        let topLeft = GeoCoordinate(latitude: try #require(corners[0]["lat"]?.numberValue), longitude: try #require(corners[0]["lon"]?.numberValue))
        let seen = try #require(view.geoToView(topLeft))
        #expect(horizonY > 0, "the sky is in the picture at 85°")
        #expect(seen.y > horizonY + 1, "the top corner is ground below the horizon (\(seen.y) vs \(horizonY))")
    }

    @Test func followersNeverGetViews() {
        let bench = HubBench()
        _ = bench.join(role: "presenter")
        let other = bench.join(role: "follower")
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        #expect(views(bench, other.key).isEmpty)
        #expect(views(bench, ann.key).isEmpty)
    }

    @Test func aFollowerSubscribingToViewsIsRefusedNamingIt() {
        let bench = HubBench()
        let ann = bench.join(role: "follower")
        bench.send(#"{"type":"subscribe","events":["steady","views"]}"#, from: ann.key)
        let error = bench.lastError(ann.key)
        #expect(error?["code"]?.stringValue == "forbidden" && error?["ref"]?.stringValue == "subscribe")
        #expect(error?["message"]?.stringValue?.hasPrefix("events: a follower may not subscribe to views") == true)
    }

    @Test func aFollowerAskingForViewsInItsHelloIsNotAdmitted() {
        let bench = HubBench()
        let key = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"follower","events":["views"]}"#, from: key)
        #expect(bench.welcome(key) == nil)
        #expect(bench.lastError(key)?["code"]?.stringValue == "forbidden" && bench.lastError(key)?["ref"]?.stringValue == "hello")
    }

    @Test func lookingFromAClientThatDoesNotExploreIsAConflict() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        look(bench, ann.key, camera: Self.paris)
        #expect(bench.lastError(ann.key)?["code"]?.stringValue == "conflict" && bench.lastError(ann.key)?["ref"]?.stringValue == "looking")
        #expect(views(bench, presenter.key).isEmpty)
    }

    @Test func lookingWithoutAZoomIsRefusedNamingIt() {
        let bench = HubBench()
        let ann = bench.join(role: "follower")
        bench.send(#"{"type":"follow","state":"exploring"}"#, from: ann.key)
        look(bench, ann.key, camera: #"{"lat":48.85,"lon":2.35}"#)
        #expect(bench.lastError(ann.key)?["message"]?.stringValue?.hasPrefix("camera.zoom: missing") == true)
    }

    @Test func theViewGoesWhenTheExplorerFollowsAgain() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        #expect(views(bench, presenter.key).last?.count == 1)
        bench.send(#"{"type":"follow","state":"following"}"#, from: ann.key)
        #expect(views(bench, presenter.key).last?.isEmpty == true)
    }

    @Test func theViewGoesWhenTheExplorerGoesAway() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        bench.send(#"{"type":"follow","state":"away"}"#, from: ann.key)
        #expect(views(bench, presenter.key).last?.isEmpty == true)
    }

    @Test func theViewGoesWhenTheExplorerLeaves() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        #expect(views(bench, presenter.key).last?.count == 1)
        bench.disconnect(ann.key)
        #expect(views(bench, presenter.key).last?.isEmpty == true)
    }

    @Test func viewsAreCoalescedToOneEventAQuarterSecond() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        bench.runTicks(1)
        bench.clear()
        look(bench, ann.key, camera: #"{"lat":48.86,"lon":2.35,"zoom":13}"#)
        bench.runTicks(1)
        look(bench, ann.key, camera: #"{"lat":48.87,"lon":2.35,"zoom":13}"#)
        bench.runTicks(1)
        let events = views(bench, presenter.key)
        #expect(events.count == 1, "one event for the two changes")
        #expect(events.last?.first?["camera"]?["lat"]?.numberValue == 48.87, "the newest view")
    }

    @Test func lookingFasterThanAllowedIsDroppedAndReportedOnce() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        bench.send(#"{"type":"follow","state":"exploring"}"#, from: ann.key)
        for i in 0..<10 { look(bench, ann.key, camera: #"{"lat":\#(40 + Double(i)),"lon":2,"zoom":5}"#) }
        let limited = bench.errors(ann.key).filter { $0["code"]?.stringValue == "rate_limited" }
        #expect(limited.count == 1 && limited.first?["ref"]?.stringValue == "looking")
        #expect(views(bench, presenter.key).last?.first?["camera"]?["lat"]?.numberValue == 42, "the burst of 3 was taken, the rest dropped")
    }

    @Test func aCountedFollowersViewIsNotKept() {
        let bench = HubBench { $0.listedFollowers = 1 }
        let presenter = bench.join(role: "presenter")
        let listed = bench.join(role: "follower")
        let counted = bench.join(role: "follower")
        explore(bench, counted.key)
        #expect(bench.errors(counted.key).isEmpty)
        #expect(views(bench, presenter.key).isEmpty)
        explore(bench, listed.key)
        #expect(views(bench, presenter.key).last?.map { $0["client"]?.stringValue } == [listed.client])
    }

    @Test func aPresenterJoiningLaterGetsTheViewsInItsNextEvent() {
        let bench = HubBench()
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        bench.run(seconds: 1)
        let late = bench.join(role: "presenter")
        #expect(views(bench, late.key).last?.map { $0["client"]?.stringValue } == [ann.client])
    }

    @Test func anExplorersNewViewportReachesThePresenter() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower", viewport: (800, 600))
        explore(bench, ann.key)
        bench.run(seconds: 0.5)
        bench.send(#"{"type":"viewport","width":400,"height":300}"#, from: ann.key)
        #expect(views(bench, presenter.key).last?.first?["width"]?.numberValue == 400)
    }

    @Test func summonWithAClientCallsBackThatOneOnly() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        let bob = bench.join(role: "follower")
        explore(bench, ann.key)
        explore(bench, bob.key)
        bench.send(#"{"type":"summon","id":"one","client":"\#(ann.client ?? "")"}"#, from: presenter.key)
        #expect(bench.messages(presenter.key, type: "result").last?["summoned"]?.numberValue == 1)
        #expect(bench.events(ann.key, "summoned").count == 1)
        #expect(bench.events(bob.key, "summoned").isEmpty)
    }

    @Test func summonWithAClientThatFollowsReachesNobody() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        bench.send(#"{"type":"summon","id":"one","client":"\#(ann.client ?? "")"}"#, from: presenter.key)
        #expect(bench.messages(presenter.key, type: "result").last?["summoned"]?.numberValue == 0)
        #expect(bench.events(ann.key, "summoned").isEmpty)
    }
}
