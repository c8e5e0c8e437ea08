import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

extension HubServerTests {
    static let easeTarget = #"{"lat":48.8566,"lon":2.3522,"zoom":12,"bearing":30,"tilt":45}"#

    /// Exact comparison (parsed with HubCore's correctly rounding parser) with `easeTarget`.
    static func isEaseTarget(_ camera: JSONValue?) -> Bool {
        camera?["lat"]?.number == 48.8566 && camera?["lon"]?.number == 2.3522 && camera?["zoom"]?.number == 12
            && camera?["bearing"]?.number == 30 && camera?["tilt"]?.number == 45 && camera?["anchor"] == nil
    }

    @Test func followerAtRate10GetsAFewFramesAndEndsOnTheExactFinalCamera() throws {
        let hub = try RunningHub()  // 60 Hz tick
        let clients = try HubClients(port: hub.port)
        let driver = clients.join(role: "driver")
        let follower = clients.join(role: "follower", rate: 10)
        let welcomeSeq = try #require(follower.messages("welcome").first?.json["seq"]?.number)
        driver.send(#"{"type":"ease","id":"e","camera":\#(Self.easeTarget),"duration":1}"#)
        #expect(driver.next("animation")?["status"]?.string == "started")
        #expect(driver.next("animation", timeout: .seconds(3))?["status"]?.string == "finished")
        let finished = ContinuousClock.now
        #expect(waitUntil(.seconds(2)) { follower.frames.last?.json["moving"]?.bool == false })
        let restArrived = follower.frames.last?.at ?? .now
        #expect(restArrived - finished < .milliseconds(500), "the rest frame follows within 1/rate (plus delivery)")
        usleep(300_000)  // a still camera sends nothing more

        let frames = follower.frames
        #expect(frames.count >= 3 && frames.count <= 12, "\(frames.count) frames at rate 10 during a 1 s ease")
        let seqs = frames.compactMap { $0.json["seq"]?.number }
        #expect(seqs.first.map { $0 > welcomeSeq } == true)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "only when seq advanced: \(seqs)")
        #expect(frames.filter { $0.json["moving"]?.bool == false }.count == 1)
        let last = try #require(frames.last)
        #expect(last.json["moving"]?.bool == false)
        #expect(Self.isEaseTarget(last.json["camera"]), "\(last.text)")
        #expect(last.json["camera"] == (try hub.camera(of: "demo")), "the hub's final state, exactly")
    }

    @Test func twoDriversConflictAndTheNewestWins() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let first = clients.join(role: "driver")
        let second = clients.join(role: "driver")
        first.send(#"{"type":"ease","id":"a","camera":{"zoom":10},"duration":3}"#)
        #expect(first.next("animation")?["status"]?.string == "started")
        second.send(#"{"type":"ease","id":"b","camera":{"zoom":4},"duration":0.3}"#)
        let superseded = first.next("animation")
        #expect(superseded?["id"]?.string == "a")
        #expect(superseded?["status"]?.string == "superseded")
        #expect(superseded?["by"]?.string == second.client)
        #expect(superseded?["lost"]?.array == [.string("zoom")])
        #expect(second.next("animation")?["status"]?.string == "started")
        #expect(second.next("animation")?["status"]?.string == "finished")
        #expect(waitUntil { second.frames.last?.json["moving"]?.bool == false })
        #expect(second.frames.last?.json["camera"]?["zoom"]?.number == 4)
        #expect(second.messages("error").isEmpty)
    }

    @Test func driverConflictsWithThePresentersAnimation() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let presenter = clients.join(role: "presenter")
        let driver = clients.join(role: "driver")
        presenter.send(#"{"type":"ease","id":"p","camera":{"zoom":10},"duration":3}"#)
        #expect(presenter.next("animation")?["status"]?.string == "started")
        driver.send(#"{"type":"set","camera":{"zoom":2}}"#)
        let error = driver.nextError("conflict")
        let message = error?["message"]?.string ?? ""
        #expect(message.contains("zoom") && message.contains(presenter.client!), "names property and holder: \(message)")
        #expect(error?["ref"]?.string == "set")
        // Bearing is held by no one, but a set would end the presenter's
        // high-level ease as a whole (one at a time), which a driver may not…
        driver.send(#"{"type":"set","camera":{"bearing":45}}"#)
        #expect(driver.nextError("conflict")?["message"]?.string?.contains("'p'") == true)
        // …while a low-level animator may take the free property.
        driver.send(#"{"type":"animate","to":{"bearing":45},"duration":0}"#)
        #expect(driver.roundTrip())
        #expect(driver.messages("error").count == 2)
        #expect(presenter.messages("animation").count == 1, "the presenter's animation runs on")
        #expect(waitUntil { (try? hub.camera(of: "demo"))?["bearing"]?.number == 45 })
    }

    @Test func queryRoundTripUsesTheSendersViewport() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let follower = clients.join(role: "follower")
        follower.send(#"{"type":"viewport","width":800,"height":600}"#)
        // The default camera looks at 20°N 0°E: that point is at the centre of any viewport.
        follower.send(#"{"type":"query","id":"q1","what":"project","points":[{"lat":20,"lon":0}]}"#)
        let result = try #require(follower.next("result"))
        #expect(result["id"]?.string == "q1" && result["what"]?.string == "project")
        let point = result["points"]?.array?.first
        #expect(abs((point?["x"]?.number ?? 0) - 400) < 1e-6 && abs((point?["y"]?.number ?? 0) - 300) < 1e-6)
        follower.send(#"{"type":"query","id":"q2","what":"unproject","points":[{"x":400,"y":300}]}"#)
        let back = try #require(follower.next("result"))
        let geo = back["points"]?.array?.first
        #expect(abs((geo?["lat"]?.number ?? 0) - 20) < 1e-9 && abs(geo?["lon"]?.number ?? 1) < 1e-9)
        follower.send(#"{"type":"query","id":"q3","what":"bounds"}"#)
        let bounds = try #require(follower.next("result"))
        #expect(bounds["bounds"]?["north"]?.number != nil && bounds["quad"]?.array?.count == 4)
        follower.send(#"{"type":"query","id":"q4","what":"fit","bounds":{"south":48.8,"west":2.2,"north":48.9,"east":2.4},"padding":20}"#)
        let fit = try #require(follower.next("result"))
        #expect((fit["camera"]?["zoom"]?.number ?? 0) > 8)
    }
}
