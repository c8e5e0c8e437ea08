import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

extension HubServerTests {
    @Test func lateJoinerGetsTheCurrentRoomStateInWelcome() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let presenter = clients.join(role: "presenter")
        presenter.send(#"{"type":"limits","maxTilt":50}"#)
        presenter.send(#"{"type":"set","camera":{"lat":48.8566,"lon":2.3522,"zoom":12,"bearing":30,"tilt":45}}"#)
        #expect(presenter.roundTrip())
        let follower = clients.join(role: "follower")
        let welcome = try #require(follower.messages("welcome").first?.json)
        let camera = welcome["camera"]
        #expect(camera?["lat"]?.numberValue == 48.8566 && camera?["lon"]?.numberValue == 2.3522)
        #expect(camera?["zoom"]?.numberValue == 12 && camera?["bearing"]?.numberValue == 30 && camera?["tilt"]?.numberValue == 45)
        #expect(camera == (try hub.camera(of: "demo")))
        #expect(welcome["limits"]?["maxTilt"]?.numberValue == 50)
        #expect(welcome["presenter"]?.stringValue == presenter.client)
        #expect(welcome["roster"]?.arrayValue?.compactMap { $0["client"]?.stringValue } == [presenter.client!, follower.client!])
        #expect((welcome["seq"]?.numberValue ?? 0) >= 1)
    }

    @Test func followerDrivingCommandsAreForbiddenAndTheConnectionStaysUsable() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let follower = clients.join(role: "follower")
        let commands = [
            #"{"type":"set","camera":{"zoom":5}}"#,
            #"{"type":"ease","camera":{"zoom":5}}"#,
            #"{"type":"fly","camera":{"lat":40,"lon":-74}}"#,
            #"{"type":"animate","to":{"bearing":90},"duration":1}"#,
            #"{"type":"cancel"}"#,
            #"{"type":"limits","minZoom":3}"#,
            #"{"type":"track","mode":"followNorthUp"}"#,
        ]
        for command in commands {
            follower.send(command)
            let error = follower.nextError("forbidden")
            #expect(error?["ref"]?.stringValue == (try JSONParser.parse(command))["type"]?.stringValue)
        }
        #expect(follower.roundTrip())
        follower.send(#"{"type":"query","id":"q","what":"bounds"}"#)
        #expect(follower.next("result")?["id"]?.stringValue == "q")
        #expect(follower.messages("error").count == commands.count)
        #expect(follower.frames.isEmpty, "nothing moved")
    }

    @Test func driverMovesTheCameraButMayNotChangeLimitsOrCancelAll() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let driver = clients.join(role: "driver")
        let follower = clients.join(role: "follower")
        driver.send(#"{"type":"set","camera":{"zoom":5}}"#)
        let frame = follower.next("frame")
        #expect(frame?["camera"]?["zoom"]?.numberValue == 5)
        #expect(frame?["by"]?.stringValue == driver.client)
        driver.send(#"{"type":"limits","maxZoom":4}"#)
        driver.nextError("forbidden")
        driver.send(#"{"type":"cancel","all":true}"#)
        driver.nextError("forbidden")
        #expect(driver.roundTrip())
    }

    @Test func presenterSetsLimitsCancelsAllAndANewPresenterTakesOver() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let first = clients.join(role: "presenter")
        let driver = clients.join(role: "driver")
        first.send(#"{"type":"limits","maxZoom":15}"#)
        #expect(driver.nextEvent("limitsChanged")?["limits"]?["maxZoom"]?.numberValue == 15)
        driver.send(#"{"type":"ease","id":"d1","camera":{"bearing":90},"duration":60}"#)  // cancelled long before its end
        #expect(driver.next("animation")?["status"]?.stringValue == "started")
        first.send(#"{"type":"cancel","all":true}"#)
        let cancelled = driver.next("animation")
        #expect(cancelled?["status"]?.stringValue == "cancelled" && cancelled?["by"]?.stringValue == first.client)

        let second = clients.join(role: "presenter")
        for connection in [first, driver, second] {
            #expect(
                waitUntil {
                    connection.messages("event").contains {
                        $0.json["event"]?.stringValue == "presenterChanged" && $0.json["client"]?.stringValue == second.client
                            && $0.json["demoted"]?.stringValue == first.client
                    }
                })
        }
        first.send(#"{"type":"limits","maxZoom":12}"#)
        first.nextError("forbidden")
        first.send(#"{"type":"set","camera":{"zoom":3}}"#)  // a driver now: still moves
        #expect(waitUntil { driver.frames.last?.json["camera"]?["zoom"]?.numberValue == 3 })
    }

    @Test func commandsBeforeHelloAndSecondHelloAreErrorsOnAUsableConnection() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let connection = clients.open()
        connection.send(#"{"type":"set","camera":{"zoom":5}}"#)
        #expect(connection.nextError("not_joined")?["ref"]?.stringValue == "set")
        connection.send(#"{"type":"hello","room":"demo","role":"driver"}"#)
        #expect(connection.next("welcome") != nil)
        connection.send(#"{"type":"hello","room":"demo","role":"driver"}"#)
        #expect(connection.nextError("conflict")?["ref"]?.stringValue == "hello")
        connection.send(#"{"type":"set","camera":{"zoom":5}}"#)
        #expect(connection.next("frame")?["camera"]?["zoom"]?.numberValue == 5)
        #expect(connection.closeEvent == nil)
    }

    @Test func wrongTokenGetsForbiddenThenClose1008() throws {
        let hub = try RunningHub { $0.hub.tokens = TokenPolicy(roleTokens: RoleTokens(presenter: "P-secret")) }
        let clients = try HubClients(port: hub.port)
        let connection = clients.open()
        connection.send(#"{"type":"hello","room":"demo","role":"presenter","token":"guess"}"#)
        #expect(connection.nextError("forbidden")?["ref"]?.stringValue == "hello")
        #expect(connection.waitForClose()?.code == .policyViolation)
        #expect(connection.messages.count == 1, "the error, then nothing but the close")
        let right = clients.join(role: "presenter", token: "P-secret")
        #expect(right.client != nil)
    }

    @Test func noHelloWithinTheTimeoutClosesWith1008() throws {
        // Seconds, not a fraction of one: the joined client's own hello must beat it on a loaded machine.
        let hub = try RunningHub { $0.hub.helloTimeout = 2 }
        let clients = try HubClients(port: hub.port)
        let start = ContinuousClock.now
        let silent = clients.open()
        let joined = clients.join(role: "follower")
        let close = silent.waitForClose(timeout: .seconds(20))
        #expect(close?.code == .policyViolation)
        #expect(ContinuousClock.now - start >= .milliseconds(1_900), "not before the timeout")
        #expect(silent.messages("error").count == 1)
        #expect(joined.roundTrip(), "a joined client is not timed out")
        #expect(joined.closeEvent == nil)
    }
}
