import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// The audience's view in the hub: explorers share their visible region
/// (`looking`), presenters and drivers hear it as `viewports`
/// (docs/PROTOCOL.md, "Follow mode"), followers never do.
@Suite("Hub: the audience's view")
struct HubViewportsTests {
    static let paris = "[[2.3,48.9],[2.4,48.9],[2.4,48.8],[2.3,48.8]]"

    func explore(_ bench: HubBench, _ key: ConnectionKey, region: String = paris) {
        bench.send(#"{"type":"follow","state":"exploring"}"#, from: key)
        look(bench, key, region: region)
    }

    func look(_ bench: HubBench, _ key: ConnectionKey, region: String) {
        bench.send(#"{"type":"looking","region":\#(region)}"#, from: key)
    }

    typealias Member = (key: ConnectionKey, client: String?)

    /// A room with a presenter and two followers exploring Paris, Ann and Bob (joined in that order).
    func presenterAndTwoExplorers() -> (HubBench, presenter: Member, ann: Member, bob: Member) {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        let bob = bench.join(role: "follower")
        explore(bench, ann.key)
        explore(bench, bob.key)
        return (bench, presenter, ann, bob)
    }

    /// The `viewports` events `key` got, after `seconds` of ticks.
    func viewports(_ bench: HubBench, _ key: ConnectionKey, after seconds: Double = 1.1) -> [JSONValue] {
        bench.run(seconds: seconds)
        return bench.events(key, "viewports")
    }

    /// The `clients` lists of those events.
    func lists(_ bench: HubBench, _ key: ConnectionKey, after seconds: Double = 1.1) -> [[JSONValue]] {
        viewports(bench, key, after: seconds).map { $0["clients"]?.arrayValue ?? [] }
    }

    @Test func anExplorersRegionReachesPresentersAndDriversWithItsNameAndState() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let driver = bench.join(role: "driver")
        let ann = bench.join(role: "follower", name: "Ann")
        explore(bench, ann.key)
        for key in [presenter.key, driver.key] {
            let event = viewports(bench, key).last
            let entry = event?["clients"]?.arrayValue?.first
            #expect(entry?["client"]?.stringValue == ann.client && entry?["name"]?.stringValue == "Ann")
            #expect(entry?["state"]?.stringValue == "exploring" && event?["others"]?.numberValue == 0)
            #expect(
                entry?["region"]?.arrayValue?.map { $0.arrayValue?.compactMap(\.numberValue) ?? [] } == [
                    [2.3, 48.9], [2.4, 48.9], [2.4, 48.8], [2.3, 48.8],
                ])
        }
        #expect(bench.errors(ann.key).isEmpty)
    }

    @Test func aLongitudeBeyond180IsWrapped() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        explore(bench, ann.key, region: "[[179.5,10],[180.5,10],[180.5,9],[179.5,9]]")
        let region = lists(bench, presenter.key).last?.first?["region"]?.arrayValue
        #expect(region?.map { $0[0]?.numberValue } == [179.5, -179.5, -179.5, 179.5])
    }

    @Test(arguments: [
        ("[[2.3,48.9],[2.4,48.9],[2.4,48.8]]", "region: must be four [lon, lat] corners of the visible region, or null (stop sharing) (got 3 corners)"),
        ("[[2.3,91],[2.4,48.9],[2.4,48.8],[2.3,48.8]]", "region[0][1]: latitude must be within [-90, 90] (got 91)"),
        (#"[[2.3,48.9],[2.4,48.9],[2.4],[2.3,48.8]]"#, "region[2]: must be [lon, lat] (got an array)"),
        (#"[[2.3,48.9],[2.4,48.9],[2.4,"x"],[2.3,48.8]]"#, "region[2][1]: must be a finite number (got a string)"),
        (#"{"lat":1}"#, "region: must be four [lon, lat] corners of the visible region, or null (stop sharing) (got an object)"),
    ])
    func aBadRegionIsRefusedNamingIt(region: String, message: String) {
        let bench = HubBench()
        let ann = bench.join(role: "follower")
        explore(bench, ann.key, region: region)
        let error = bench.lastError(ann.key)
        #expect(error?["code"]?.stringValue == "bad_message" && error?["ref"]?.stringValue == "looking")
        #expect(error?["message"]?.stringValue == message)
    }

    @Test func lookingWithoutARegionIsRefusedNamingIt() {
        let bench = HubBench()
        let ann = bench.join(role: "follower")
        bench.send(#"{"type":"follow","state":"exploring"}"#, from: ann.key)
        bench.send(#"{"type":"looking"}"#, from: ann.key)
        #expect(bench.lastError(ann.key)?["message"]?.stringValue?.hasPrefix("region: missing") == true)
    }

    @Test func aNullRegionTakesTheOutlineAway() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        #expect(lists(bench, presenter.key).last?.count == 1)
        look(bench, ann.key, region: "null")
        #expect(lists(bench, presenter.key).last?.isEmpty == true)
        #expect(bench.errors(ann.key).isEmpty)
    }

    @Test func followersNeverGetViewports() {
        let bench = HubBench()
        _ = bench.join(role: "presenter")
        let other = bench.join(role: "follower")
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        #expect(viewports(bench, other.key).isEmpty)
        #expect(viewports(bench, ann.key).isEmpty)
    }

    @Test func aFollowerSubscribingToViewportsIsRefusedNamingIt() {
        let bench = HubBench()
        let ann = bench.join(role: "follower")
        bench.send(#"{"type":"subscribe","events":["steady","viewports"]}"#, from: ann.key)
        let error = bench.lastError(ann.key)
        #expect(error?["code"]?.stringValue == "forbidden" && error?["ref"]?.stringValue == "subscribe")
        #expect(error?["message"]?.stringValue?.hasPrefix("events: a follower may not subscribe to viewports") == true)
    }

    @Test func aFollowerAskingForViewportsInItsHelloIsNotAdmitted() {
        let bench = HubBench()
        let key = bench.connect()
        bench.send(#"{"type":"hello","room":"demo","role":"follower","events":["viewports"]}"#, from: key)
        #expect(bench.welcome(key) == nil)
        #expect(bench.lastError(key)?["code"]?.stringValue == "forbidden" && bench.lastError(key)?["ref"]?.stringValue == "hello")
    }

    @Test func lookingFromAClientThatDoesNotExploreIsAConflict() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        look(bench, ann.key, region: Self.paris)
        #expect(bench.lastError(ann.key)?["code"]?.stringValue == "conflict" && bench.lastError(ann.key)?["ref"]?.stringValue == "looking")
        #expect(viewports(bench, presenter.key).isEmpty)
    }

    @Test func theRegionGoesWhenTheExplorerFollowsAgain() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        #expect(lists(bench, presenter.key).last?.count == 1)
        bench.send(#"{"type":"follow","state":"following"}"#, from: ann.key)
        #expect(lists(bench, presenter.key).last?.isEmpty == true)
    }

    @Test func theRegionGoesWhenTheExplorerLeaves() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        #expect(lists(bench, presenter.key).last?.count == 1)
        bench.disconnect(ann.key)
        #expect(lists(bench, presenter.key).last?.isEmpty == true)
    }

    @Test func viewportsComeAtMostOnceASecondWithTheNewestRegions() {
        let (bench, presenter, ann, bob) = presenterAndTwoExplorers()
        for i in 0..<8 {
            let lat = 10 + Double(i)
            look(bench, i.isMultiple(of: 2) ? ann.key : bob.key, region: "[[1,\(lat)],[2,\(lat)],[2,\(lat - 1)],[1,\(lat - 1)]]")
            bench.run(seconds: 0.5)
        }
        let times = bench.events(presenter.key, "viewports").compactMap { $0["time"]?.numberValue }
        #expect(times.count >= 3, "changes every half second: an event each second")
        for (a, b) in zip(times, times.dropFirst()) { #expect(b - a >= 999, "\(b - a) ms apart") }
        let last = lists(bench, presenter.key).last
        #expect(last?.compactMap { $0["region"]?[0]?[1]?.numberValue } == [16, 17], "the newest region of each")
    }

    @Test func atMostFiftyRegionsGoOutTheRestCountedInOthers() {
        let bench = HubBench { $0.listedFollowers = 60 }
        let presenter = bench.join(role: "presenter")
        var explorers: [String?] = []
        for _ in 0..<53 {
            let member = bench.join(role: "follower")
            explorers.append(member.client)
            explore(bench, member.key)
            bench.run(seconds: 0.5)
        }
        let event = viewports(bench, presenter.key).last
        let listed = event?["clients"]?.arrayValue?.map { $0["client"]?.stringValue }
        #expect(listed?.count == 50 && event?["others"]?.numberValue == 3)
        #expect(listed == Array(explorers.prefix(50)), "in roster order")
    }

    @Test func lookingFasterThanAllowedIsDroppedAndReportedOnce() {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        bench.send(#"{"type":"follow","state":"exploring"}"#, from: ann.key)
        for i in 0..<10 { look(bench, ann.key, region: "[[1,\(40 + i)],[2,\(40 + i)],[2,\(39 + i)],[1,\(39 + i)]]") }
        let limited = bench.errors(ann.key).filter { $0["code"]?.stringValue == "rate_limited" }
        #expect(limited.count == 1 && limited.first?["ref"]?.stringValue == "looking")
        #expect(lists(bench, presenter.key).last?.first?["region"]?[0]?[1]?.numberValue == 42, "the burst of 3 was taken, the rest dropped")
    }

    @Test func aCountedFollowersRegionIsNotKept() {
        let bench = HubBench { $0.listedFollowers = 1 }
        let presenter = bench.join(role: "presenter")
        let listed = bench.join(role: "follower")
        let counted = bench.join(role: "follower")
        explore(bench, counted.key)
        #expect(bench.errors(counted.key).isEmpty)
        #expect(viewports(bench, presenter.key).isEmpty)
        explore(bench, listed.key)
        #expect(lists(bench, presenter.key).last?.map { $0["client"]?.stringValue } == [listed.client])
    }

    @Test func aPresenterJoiningLaterGetsTheRegionsInItsNextEvent() {
        let bench = HubBench()
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        bench.run(seconds: 1.5)
        let late = bench.join(role: "presenter")
        #expect(lists(bench, late.key).last?.map { $0["client"]?.stringValue } == [ann.client])
    }

    /// Another hub's presence with `count` explorers (`r0.b`, `r1.b`, …), the first 50 regions shared.
    func otherHubsExplorers(_ count: Int) -> HubPresence {
        let entries = (0..<count).map { RosterEntry(client: "r\($0).b", name: "R\($0)", role: .follower, follow: .exploring) }
        let corner = GeoCoordinate(latitude: 40, longitude: -3)
        let looks = entries.prefix(RoomViewports.maxListed).map { SharedLook(client: $0.client, region: Array(repeating: corner, count: 4)) }
        var audience = Audience(clients: count, followers: count)
        audience.follow[.exploring] = count
        return HubPresence(entries: entries, audience: audience, looks: Array(looks), lookCount: count)
    }

    @Test func anotherHubsExplorersComeAfterThisHubsAndTheRestAreCountedInOthers() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let ann = bench.join(role: "follower")
        explore(bench, ann.key)
        let room = try RoomName(validating: "demo")
        bench.hub.applyRemotePresence(otherHubsExplorers(51), from: "b", in: room, at: bench.time, sink: bench.sink)
        let event = viewports(bench, presenter.key).last
        let listed = event?["clients"]?.arrayValue?.map { $0["client"]?.stringValue } ?? []
        #expect(listed.count == 50 && listed.first == ann.client && listed.dropFirst().allSatisfy { $0?.hasSuffix(".b") == true })
        #expect(event?["others"]?.numberValue == 2, "52 explorers, 50 listed")
    }

    @Test func anotherHubsExplorersGoWhenThatHubIsForgotten() throws {
        let bench = HubBench()
        let presenter = bench.join(role: "presenter")
        let room = try RoomName(validating: "demo")
        bench.hub.applyRemotePresence(otherHubsExplorers(2), from: "b", in: room, at: bench.time, sink: bench.sink)
        #expect(lists(bench, presenter.key).last?.count == 2)
        bench.hub.dropRemotePresence(of: "b", in: room, at: bench.time, sink: bench.sink)
        let last = viewports(bench, presenter.key).last
        #expect(last?["clients"]?.arrayValue?.isEmpty == true && last?["others"]?.numberValue == 0)
    }

    @Test func anExplorersLookIsInThePresenceThisHubAnnounces() throws {
        let bench = HubBench()
        bench.hub.broker = RecordingBroker()
        let ann = bench.join(role: "follower")
        let room = try RoomName(validating: "demo")
        _ = bench.hub.takePresenceChanges()
        explore(bench, ann.key)
        #expect(bench.hub.takePresenceChanges() == [room])
        let presence = bench.hub.localPresence(of: room)
        #expect(presence?.looks.map(\.client) == [ann.client].compactMap { $0 } && presence?.lookCount == 1)
        #expect(presence?.looks.first?.region.map(\.longitude) == [2.3, 2.4, 2.4, 2.3])
        bench.send(#"{"type":"looking","region":null}"#, from: ann.key)
        #expect(bench.hub.takePresenceChanges() == [room] && bench.hub.localPresence(of: room)?.lookCount == 0)
    }

    @Test func summonWithAClientCallsBackThatOneOnly() {
        let (bench, presenter, ann, bob) = presenterAndTwoExplorers()
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
