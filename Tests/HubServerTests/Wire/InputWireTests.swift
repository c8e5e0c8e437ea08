import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing
import WebSocketTransport

extension HubServerTests {
    @Test func badInputGetsAnErrorNamingTheFieldAndTheConnectionStaysUsable() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let driver = clients.join(role: "driver")
        let cases: [(text: String, code: String, prefix: String)] = [
            ("this is not json", "bad_message", "invalid JSON"),
            (#"{"type":"teleport"}"#, "unknown_type", "type: unknown type 'teleport'"),
            (#"{"camera":{"zoom":3}}"#, "bad_message", "type: missing"),
            (#"{"type":"set"}"#, "bad_message", "camera: missing"),
            (#"{"type":"set","camera":{"zoom":"3"}}"#, "bad_message", "camera.zoom: must be a finite number"),
            (#"{"type":"set","camera":{"lat":95}}"#, "bad_message", "camera.lat:"),
            (#"{"type":"set","camera":{"zoom":1e999}}"#, "bad_message", "camera.zoom: must be a finite number (got inf)"),
            (#"{"type":"animate","to":{"zoom":3}}"#, "bad_message", "duration: missing"),
        ]
        for c in cases {
            driver.send(c.text)
            let error = driver.nextError(c.code)
            #expect(error?["message"]?.stringValue?.hasPrefix(c.prefix) == true, "\(c.text) → \(String(describing: error))")
        }
        driver.clients.client.send(.binary(Array(#"{"type":"ping"}"#.utf8)), to: driver.id)
        #expect(driver.nextError("bad_message")?["message"]?.stringValue?.hasPrefix("message: binary") == true)
        #expect(driver.roundTrip())
        #expect(driver.frames.isEmpty, "nothing moved")
        driver.send(#"{"type":"set","camera":{"zoom":7}}"#)
        #expect(driver.next("frame")?["camera"]?["zoom"]?.numberValue == 7, "a valid command still works")
        #expect(driver.closeEvent == nil)
    }

    @Test func messageOver8KiBIsClosedWith1009() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let driver = clients.join(role: "driver")
        let other = clients.join(role: "driver")  // drivers get `left` events by default
        driver.send(#"{"type":"ping","pad":""# + String(repeating: "x", count: HubProtocol.maxMessageBytes) + #""}"#)
        #expect(driver.waitForClose()?.code == .messageTooBig)
        #expect(
            waitUntil { other.messages("event").contains { $0.json["event"]?.stringValue == "left" } },
            "the hub saw the client leave")
    }

    @Test func invalidUTF8IsClosedWith1007() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let driver = clients.join(role: "driver")
        driver.sendBytes(Array(#"{"type":"ping","x":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))
        #expect(driver.waitForClose()?.code == .invalidPayload)
    }

    @Test func floodOfCommandsIsRateLimited() throws {
        let hub = try RunningHub()
        let clients = try HubClients(port: hub.port)
        let driver = clients.join(role: "driver")
        let start = ContinuousClock.now
        // Far more than the burst (240) and what refills (240 a second) while the hub reads them, however slowly.
        let flood = 2_000
        for i in 0..<flood { driver.send(#"{"type":"ping","t":\#(i)}"#) }
        let error = driver.nextError("rate_limited")
        #expect(error?["ref"]?.isNull == true)
        // Served again once the bucket refills; that pong comes after every answer to the flood.
        #expect(driver.roundTripOnceServed(), "served again once the bucket refills")
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        let pongs = driver.messages("pong").filter { ($0.json["t"]?.numberValue ?? -1) >= 0 }.count
        #expect(pongs >= 239 && pongs < flood, "\(pongs) pongs: the burst less the hello, then some dropped")
        #expect(Double(driver.messages("error").count) <= elapsed.rounded(.up), "at most one rate_limited per second")
        #expect(driver.closeEvent == nil)
    }
}
