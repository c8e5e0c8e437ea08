import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

extension HubServerTests {
    static let easeTarget = #"{"lat":48.8566,"lon":2.3522,"zoom":12,"bearing":30,"tilt":45}"#

    /// Exact comparison (parsed with HubCore's correctly rounding parser) with `easeTarget`.
    static func isEaseTarget(_ camera: JSONValue?) -> Bool {
        camera?["lat"]?.numberValue == 48.8566 && camera?["lon"]?.numberValue == 2.3522 && camera?["zoom"]?.numberValue == 12
            && camera?["bearing"]?.numberValue == 30 && camera?["tilt"]?.numberValue == 45 && camera?["anchor"] == nil
    }

    @Test func followerAtRate10GetsAFewFramesAndEndsOnTheExactFinalCamera() throws {
        let hub = try RunningHub()  // 60 Hz tick
        let clients = try HubClients(port: hub.port)
        let driver = clients.join(role: "driver")
        let follower = clients.join(role: "follower", rate: 10)
        let welcomeSeq = try #require(follower.messages("welcome").first?.json["seq"]?.numberValue)
        driver.send(#"{"type":"ease","id":"e","camera":\#(Self.easeTarget),"duration":1}"#)
        #expect(driver.next("animation")?["status"]?.stringValue == "started")
        let finished = try #require(driver.next("animation"))
        #expect(finished["status"]?.stringValue == "finished")
        #expect(waitUntil { follower.frames.last?.json["moving"]?.boolValue == false })
        let frames = follower.frames
        // On the hub's clock: 1/rate is 0.1 s; a second leaves room for a tick that a loaded machine ran late.
        let restTime = frames.last?.json["time"]?.numberValue ?? .infinity
        let finishedTime = finished["time"]?.numberValue ?? 0
        #expect(restTime - finishedTime <= 1000, "the rest frame follows the end within 1/rate: \(restTime - finishedTime) ms")

        // At most `rate` a second (how few a loaded machine manages is not asserted: at least one while moving).
        #expect(frames.count >= 2 && frames.count <= 12, "\(frames.count) frames at rate 10 during a 1 s ease")
        #expect(frames.contains { $0.json["moving"]?.boolValue == true }, "frames while it moves, then its rest")
        let seqs = frames.compactMap { $0.json["seq"]?.numberValue }
        #expect(seqs.first.map { $0 > welcomeSeq } == true)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "only when seq advanced: \(seqs)")
        #expect(frames.filter { $0.json["moving"]?.boolValue == false }.count == 1)
        let last = try #require(frames.last)
        #expect(last.json["moving"]?.boolValue == false)
        #expect(Self.isEaseTarget(last.json["camera"]), "\(last.text)")
        #expect(last.json["camera"] == (try hub.camera(of: "demo")), "the hub's final state, exactly")

        // A still camera sends nothing more: the next frame is the one the next change makes.
        driver.send(#"{"type":"set","camera":{"zoom":3}}"#)
        #expect(waitUntil { follower.frames.contains { $0.json["camera"]?["zoom"]?.numberValue == 3 } })
        let next = follower.frames.dropFirst(frames.count).first
        #expect(next?.json["camera"]?["zoom"]?.numberValue == 3, "nothing between the rest frame and the next change: \(String(describing: next?.text))")
    }

    @Test func twoDriversConflictAndTheNewestWins() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let first = clients.join(role: "driver")
        let second = clients.join(role: "driver")
        first.send(#"{"type":"ease","id":"a","camera":{"zoom":10},"duration":60}"#)  // superseded long before its end
        #expect(first.next("animation")?["status"]?.stringValue == "started")
        second.send(#"{"type":"ease","id":"b","camera":{"zoom":4},"duration":0.3}"#)
        let superseded = first.next("animation")
        #expect(superseded?["id"]?.stringValue == "a")
        #expect(superseded?["status"]?.stringValue == "superseded")
        #expect(superseded?["by"]?.stringValue == second.client)
        #expect(superseded?["lost"]?.arrayValue == [.string("zoom")])
        #expect(second.next("animation")?["status"]?.stringValue == "started")
        #expect(second.next("animation")?["status"]?.stringValue == "finished")
        #expect(waitUntil { second.frames.last?.json["moving"]?.boolValue == false })
        #expect(second.frames.last?.json["camera"]?["zoom"]?.numberValue == 4)
        #expect(second.messages("error").isEmpty)
    }

    @Test func driverConflictsWithThePresentersAnimation() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let presenter = clients.join(role: "presenter")
        let driver = clients.join(role: "driver")
        presenter.send(#"{"type":"ease","id":"p","camera":{"zoom":10},"duration":60}"#)  // runs all through the test
        #expect(presenter.next("animation")?["status"]?.stringValue == "started")
        driver.send(#"{"type":"set","camera":{"zoom":2}}"#)
        let error = driver.nextError("conflict")
        let message = error?["message"]?.stringValue ?? ""
        #expect(message.contains("zoom") && message.contains(presenter.client!), "names property and holder: \(message)")
        #expect(error?["ref"]?.stringValue == "set")
        // Bearing is held by no one, but a set would end the presenter's
        // high-level ease as a whole (one at a time), which a driver may not…
        driver.send(#"{"type":"set","camera":{"bearing":45}}"#)
        #expect(driver.nextError("conflict")?["message"]?.stringValue?.contains("'p'") == true)
        // …while a low-level animator may take the free property.
        driver.send(#"{"type":"animate","to":{"bearing":45},"duration":0}"#)
        #expect(driver.roundTrip())
        #expect(driver.messages("error").count == 2)
        #expect(presenter.messages("animation").count == 1, "the presenter's animation runs on")
        #expect(waitUntil { (try? hub.camera(of: "demo"))?["bearing"]?.numberValue == 45 })
    }

    @Test func queryRoundTripUsesTheSendersViewport() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let follower = clients.join(role: "follower")
        follower.send(#"{"type":"viewport","width":800,"height":600}"#)
        // The default camera looks at 20°N 0°E: that point is at the centre of any viewport.
        follower.send(#"{"type":"query","id":"q1","what":"project","points":[{"lat":20,"lon":0}]}"#)
        let result = try #require(follower.next("result"))
        #expect(result["id"]?.stringValue == "q1" && result["what"]?.stringValue == "project")
        let point = result["points"]?.arrayValue?.first
        #expect(abs((point?["x"]?.numberValue ?? 0) - 400) < 1e-6 && abs((point?["y"]?.numberValue ?? 0) - 300) < 1e-6)
        follower.send(#"{"type":"query","id":"q2","what":"unproject","points":[{"x":400,"y":300}]}"#)
        let back = try #require(follower.next("result"))
        let geo = back["points"]?.arrayValue?.first
        #expect(abs((geo?["lat"]?.numberValue ?? 0) - 20) < 1e-9 && abs(geo?["lon"]?.numberValue ?? 1) < 1e-9)
        follower.send(#"{"type":"query","id":"q3","what":"bounds"}"#)
        let bounds = try #require(follower.next("result"))
        #expect(bounds["bounds"]?["north"]?.numberValue != nil && bounds["quad"]?.arrayValue?.count == 4)
        follower.send(#"{"type":"query","id":"q4","what":"fit","bounds":{"south":48.8,"west":2.2,"north":48.9,"east":2.4},"padding":20}"#)
        let fit = try #require(follower.next("result"))
        #expect((fit["camera"]?["zoom"]?.numberValue ?? 0) > 8)
    }
}
