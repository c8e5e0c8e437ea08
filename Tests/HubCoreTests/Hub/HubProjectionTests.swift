import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// The room's map projection: set by drivers and presenters, heard by
/// everyone, found by joiners in `welcome`.
@Suite struct HubProjectionTests {
    @Test func aDriverPutsTheRoomOnTheGlobeAndEveryoneHearsIt() throws {
        let bench = HubBench()
        let driver = bench.join(role: "driver")
        let follower = bench.join(role: "follower", name: "f")
        #expect(bench.welcome(follower.key)?["projection"]?.stringValue == "mercator")
        bench.send(#"{"type":"projection","projection":"globe"}"#, from: driver.key)
        let heard = try #require(bench.events(follower.key, "projectionChanged").last)
        #expect(heard["projection"]?.stringValue == "globe" && heard["by"]?.stringValue == driver.client)
        let late = bench.join(role: "follower", name: "late")
        #expect(bench.welcome(late.key)?["projection"]?.stringValue == "globe")
        #expect(bench.hub.roomStates.first?.projection == .globe, "kept with the room")
    }

    @Test func settingTheProjectionItAlreadyHasSaysNothing() {
        let bench = HubBench()
        let driver = bench.join(role: "driver")
        bench.send(#"{"type":"projection","projection":"mercator"}"#, from: driver.key)
        #expect(bench.events(driver.key, "projectionChanged").isEmpty)
    }

    @Test func aFollowerMayNotSetItAndABadValueIsRefusedNamingItAndChangingNothing() throws {
        let bench = HubBench()
        let driver = bench.join(role: "driver")
        let follower = bench.join(role: "follower", name: "f")
        bench.send(#"{"type":"projection","projection":"globe"}"#, from: follower.key)
        #expect(bench.lastError(follower.key)?["code"]?.stringValue == "forbidden")
        bench.send(#"{"type":"projection","projection":"polar"}"#, from: driver.key)
        let error = try #require(bench.lastError(driver.key))
        #expect(error["message"]?.stringValue == "projection: mercator or globe (got 'polar')" && error["ref"]?.stringValue == "projection")
        #expect(bench.hub.roomStates.first?.projection == .mercator)
        #expect(bench.answersPing(driver.key), "the connection stays usable")
    }
}
