import CameraCore
import Testing

@testable import HubCore

@Suite("Hub: joining, hello rules, tokens, rooms")
struct HubSessionTests {
    @Test func lateJoinerGetsTheWholeRoomStateInWelcome() {
        let bench = HubBench()
        let p = bench.join(role: "presenter", name: "ana")
        let d = bench.join(role: "driver", name: "bob")
        bench.send(#"{"type":"limits","minZoom":2,"maxTilt":45}"#, from: p.key)
        bench.send(#"{"type":"set","camera":{"lat":48.8566,"lon":2.3522,"zoom":12,"bearing":30,"tilt":20}}"#, from: d.key)
        bench.run(seconds: 0.5)
        bench.send(#"{"type":"ease","camera":{"zoom":14},"duration":2}"#, from: d.key)
        bench.run(seconds: 0.5)
        bench.wait(0.004)  // between two ticks, mid-ease

        let f = bench.join(role: "follower", name: "cy", rate: 10)
        let welcome = bench.welcome(f.key)
        let room = bench.room()!
        #expect(welcome?["client"]?.stringValue == "c3")
        #expect(welcome?["room"]?.stringValue == "demo")
        #expect(welcome?["role"]?.stringValue == "follower")
        #expect(welcome?["rate"]?.numberValue == 10)
        #expect(welcome?["tick"]?.numberValue == bench.tick)
        #expect(welcome?["time"]?.numberValue == bench.time.epochMilliseconds)
        #expect(welcome?["seq"]?.numberValue == Double(room.seq))
        #expect(welcome?["camera"] == wireCamera(room.camera))
        let zoom = welcome?["camera"]?["zoom"]?.numberValue ?? 0
        #expect(zoom > 12 && zoom < 14, "the camera mid-ease, not the start or the target")
        #expect(welcome?["camera"]?["lat"]?.numberValue == 48.8566)
        #expect(welcome?["camera"]?["lon"]?.numberValue == 2.3522)
        let limits = welcome?["limits"]
        #expect(limits?["minZoom"]?.numberValue == 2)
        #expect(limits?["maxZoom"]?.numberValue == 22)
        #expect(limits?["maxTilt"]?.numberValue == 45)
        #expect(limits?["bounds"]?.isNull == true)
        #expect(welcome?["presenter"]?.stringValue == "c1")
        let roster = welcome?["roster"]?.arrayValue ?? []
        #expect(roster.map { $0["client"]?.stringValue } == ["c1", "c2", "c3"])
        #expect(roster.map { $0["name"]?.stringValue } == ["ana", "bob", "cy"])
        #expect(roster.map { $0["role"]?.stringValue } == ["presenter", "driver", "follower"])
        #expect(welcome?["gestures"]?.arrayValue == [])

        bench.runTicks(12)
        let first = bench.frames(f.key).first
        #expect(first != nil && first!.seq > room.seq, "the next frame has a higher seq than welcome")
    }

    @Test func welcomeIsTheFirstMessageAJoinerGets() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"set","camera":{"zoom":5}}"#, from: d.key)
        bench.runTicks(1)
        bench.wait(0.15)  // `steady` is due, but no tick has reported it yet
        let f = bench.join(role: "follower")
        #expect(bench.messages(f.key).first?["type"]?.stringValue == "welcome")
        #expect(bench.events(d.key, "steady").count == 1, "members already in the room still hear it")
    }

    @Test func joinedIsAnnouncedToTheOthers() {
        let bench = HubBench()
        let a = bench.join(role: "driver")
        let b = bench.join(role: "follower", name: "bee")
        let joined = bench.events(a.key, "joined")
        #expect(joined.count == 1)
        #expect(joined.first?["client"]?.stringValue == b.client)
        #expect(joined.first?["name"]?.stringValue == "bee")
        #expect(joined.first?["role"]?.stringValue == "follower")
        #expect(bench.events(b.key, "joined").isEmpty, "not to the joiner itself")
        bench.disconnect(b.key)
        #expect(bench.events(a.key, "left").first?["client"]?.stringValue == b.client)
    }

    @Test func messagesBeforeHelloGetNotJoined() {
        let bench = HubBench()
        let key = bench.connect()
        bench.send(#"{"type":"set","camera":{"zoom":5}}"#, from: key)
        bench.send(#"{"type":"ping"}"#, from: key)
        let errors = bench.errors(key)
        #expect(errors.map { $0["code"]?.stringValue } == ["not_joined", "not_joined"])
        #expect(errors.map { $0["ref"]?.stringValue } == ["set", "ping"])
        #expect(!bench.isClosed(key))
        #expect(bench.room() == nil, "nothing was created")
        bench.send(#"{"type":"hello","room":"demo","role":"driver"}"#, from: key)
        #expect(bench.welcome(key) != nil, "the connection can still join")
    }

    @Test func secondHelloIsAConflictAndKeepsTheSession() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"hello","room":"other","role":"presenter"}"#, from: d.key)
        let error = bench.lastError(d.key)
        #expect(error?["code"]?.stringValue == "conflict")
        #expect(error?["ref"]?.stringValue == "hello")
        #expect(bench.messages(d.key, type: "welcome").count == 1)
        #expect(bench.hub.counts.clients == 1 && bench.hub.counts.rooms == 1)
        #expect(bench.answersPing(d.key))
        bench.send(#"{"type":"set","camera":{"zoom":5}}"#, from: d.key)
        #expect(bench.room()?.camera.zoom == 5, "still a driver in the first room")
    }

    @Test func badHelloLeavesTheConnectionOpenAndUnjoined() {
        let bench = HubBench()
        let key = bench.connect()
        bench.send(#"{"type":"hello","room":"no spaces","role":"driver"}"#, from: key)
        bench.send(#"{"type":"hello","room":"demo","role":"driver","rate":61}"#, from: key)
        let errors = bench.errors(key)
        #expect(errors.map { $0["code"]?.stringValue } == ["bad_message", "bad_message"])
        #expect(errors.first?["message"]?.stringValue?.hasPrefix("room:") == true)
        #expect(errors.last?["message"]?.stringValue?.hasPrefix("rate:") == true)
        #expect(!bench.isClosed(key))
        bench.send(#"{"type":"hello","room":"demo","role":"driver","rate":60}"#, from: key)
        #expect(bench.welcome(key)?["rate"]?.numberValue == 60)
    }

    @Test func pingIsAnsweredWithPong() {
        let bench = HubBench()
        let f = bench.join(role: "follower")
        bench.send(#"{"type":"ping","t":12345.6}"#, from: f.key)
        bench.send(#"{"type":"ping"}"#, from: f.key)
        let pongs = bench.messages(f.key, type: "pong")
        #expect(pongs.count == 2)
        #expect(pongs.first?["t"]?.numberValue == 12345.6)
        #expect(pongs.first?["time"]?.numberValue == bench.time.epochMilliseconds)
        #expect(pongs.last?["t"] == nil, "no t when the ping had none")
    }

    // MARK: Tokens

    static func withTokens(_ c: inout HubConfiguration) { c.tokens = TokenPolicy(roleTokens: RoleTokens(presenter: "P-secret", driver: "D-secret")) }

    @Test func wrongTokenGetsForbiddenThenClose1008() {
        let bench = HubBench(Self.withTokens)
        let (key, client) = bench.join(role: "presenter", token: "guess")
        #expect(client == nil)
        let outputs = bench.sink.outputs.filter { $0.connection == key }
        #expect(outputs.count == 2)
        guard outputs.count == 2, case .message(_, let bytes) = outputs[0], case .close(_, let code, _) = outputs[1] else {
            Issue.record("expected an error, then a close: \(outputs)")
            return
        }
        #expect(parsed(bytes)["code"]?.stringValue == "forbidden")
        #expect(parsed(bytes)["ref"]?.stringValue == "hello")
        #expect(parsed(bytes)["message"]?.stringValue?.hasPrefix("token:") == true)
        #expect(code == 1008)
        #expect(bench.hub.counts.connections == 0 && bench.hub.counts.clients == 0)
    }

    @Test func missingTokenGetsForbiddenThenClose1008() {
        let bench = HubBench(Self.withTokens)
        let (key, _) = bench.join(role: "driver")
        #expect(bench.lastError(key)?["code"]?.stringValue == "forbidden")
        #expect(bench.closes(key).map(\.code) == [1008])
    }

    @Test func rightTokensJoinAndFollowersNeedNone() {
        let bench = HubBench(Self.withTokens)
        let joins = [
            bench.join(role: "presenter", token: "P-secret"), bench.join(role: "driver", token: "D-secret"),
            bench.join(role: "driver", token: "P-secret"), bench.join(role: "follower"),
        ]
        #expect(joins.map(\.client) == ["c1", "c2", "c3", "c4"])
        #expect(joins.allSatisfy { !bench.isClosed($0.key) && bench.errors($0.key).isEmpty })
    }

    @Test func withoutTokensAnyRoleJoins() {
        let bench = HubBench()
        let joins = [bench.join(role: "presenter"), bench.join(role: "driver", token: "whatever"), bench.join(role: "follower")]
        #expect(joins.allSatisfy { $0.client != nil && bench.errors($0.key).isEmpty })
    }

    // MARK: Timeouts and room lifetime

    @Test func noHelloWithinTheTimeoutClosesWith1008() {
        let bench = HubBench { $0.helloTimeout = 10 }
        let silent = bench.connect()
        let joined = bench.join(role: "follower").key
        bench.wait(9.9)
        bench.tickOnce()
        #expect(!bench.isClosed(silent))
        bench.wait(0.1)
        bench.tickOnce()
        #expect(bench.errors(silent).count == 1)
        #expect(bench.closes(silent).map(\.code) == [1008])
        #expect(!bench.isClosed(joined), "a joined connection has no deadline")
        bench.wait(1)
        bench.tickOnce()
        #expect(bench.closes(silent).count == 1, "closed once")
        #expect(bench.hub.counts.connections == 1)
    }

    @Test func emptyRoomKeepsItsCameraForTheTTL() {
        let bench = HubBench { $0.roomTTL = 5 }
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"set","camera":{"zoom":7}}"#, from: d.key)
        bench.disconnect(d.key)
        bench.wait(4.9)
        bench.tickOnce()
        #expect(bench.room()?.clients == 0)
        let again = bench.join(role: "follower")
        #expect(bench.welcome(again.key)?["camera"]?["zoom"]?.numberValue == 7)
    }

    @Test func emptyRoomIsRemovedAfterTheTTL() {
        let bench = HubBench { $0.roomTTL = 5 }
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"set","camera":{"zoom":7}}"#, from: d.key)
        bench.runTicks(1)
        bench.disconnect(d.key)
        bench.run(seconds: 4.8)
        #expect(bench.hub.counts.rooms == 1)
        bench.run(seconds: 0.3)
        #expect(bench.hub.counts.rooms == 0)
        let again = bench.join(role: "follower")
        #expect(bench.welcome(again.key)?["camera"] == wireCamera(.world), "a fresh room")
        #expect(bench.welcome(again.key)?["seq"]?.numberValue == 0)
    }
}
