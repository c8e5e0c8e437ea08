import CamHubProtocol
import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing
import WebSocketTransport

/// Several event loops sharing the hub's port (`--loops`): the kernel spreads
/// connections over them; the room's loop runs it; it behaves as on one loop.
extension HubServerTests {
    @Suite struct Loops {
        /// Joins `count` clients of `role` and checks, through `/healthz`, that
        /// connections landed on every loop (the kernel hashes each connection's
        /// ports, so 12 or more connections miss a loop with odds below 1 in 2,000).
        func joinOverEveryLoop(_ hub: RunningHub, _ clients: HubClients, role: String, count: Int) throws -> [Connection] {
            let joined = (0..<count).map { _ in clients.join(role: role) }
            let health = try hub.health()
            let perLoop = health["connectionsPerLoop"]?.arrayValue?.compactMap(\.numberValue) ?? []
            #expect(health["loops"]?.numberValue == 2)
            #expect(perLoop.count == 2 && perLoop.allSatisfy { $0 > 0 }, "connections per loop: \(perLoop)")
            return joined
        }

        @Test func followersOnEveryLoopEndOnTheExactFinalCamera() throws {
            let hub = try RunningHub { $0.loops = 2 }
            let clients = try HubClients(port: hub.port)
            let followers = try joinOverEveryLoop(hub, clients, role: "follower", count: 16)
            let driver = clients.join(role: "driver")
            driver.send(#"{"type":"ease","id":"e","camera":\#(HubServerTests.easeTarget),"duration":0.5}"#)
            #expect(driver.next("animation")?["status"]?.stringValue == "started")
            #expect(driver.next("animation")?["status"]?.stringValue == "finished")
            let hubCamera = try hub.camera(of: "demo")
            for follower in followers {
                #expect(waitUntil { follower.frames.last?.json["moving"]?.boolValue == false })
                let frames = follower.frames
                #expect(frames.contains { $0.json["moving"]?.boolValue == true }, "frames while the camera moved: \(frames.count)")
                #expect(frames.last?.json["camera"] == hubCamera, "the hub's final camera, exactly")
                let seqs = frames.compactMap { $0.json["seq"]?.numberValue }
                #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "in order: \(seqs)")
            }
        }

        @Test func answersGoOnlyToTheClientThatAskedWhicheverLoopItIsOn() throws {
            let hub = try RunningHub { $0.loops = 2 }
            let clients = try HubClients(port: hub.port)
            let drivers = try joinOverEveryLoop(hub, clients, role: "driver", count: 12)
            for (i, driver) in drivers.enumerated() {
                driver.send(#"{"type":"query","id":"q\#(i)","what":"bounds"}"#)
            }
            for (i, driver) in drivers.enumerated() {
                let result = driver.next("result")
                #expect(result?["id"]?.stringValue == "q\(i)")
                #expect(driver.messages("result").count == 1, "only its own answer")
            }
        }

        @Test func aCloseOnAnyLoopLeavesTheRoster() throws {
            let hub = try RunningHub { $0.loops = 2 }
            let clients = try HubClients(port: hub.port)
            let presenter = clients.join(role: "presenter")
            let followers = try joinOverEveryLoop(hub, clients, role: "follower", count: 12)
            #expect(waitUntil { (try? hub.health()["clients"]?.numberValue) == 13 })
            for follower in followers { clients.client.close(follower.id) }
            #expect(waitUntil { (try? hub.health()["clients"]?.numberValue) == 1 }, "every leave reached the hub")
            #expect(presenter.roundTrip(), "the presenter is unaffected")
        }

        @Test func theHubWideCapCountsEveryLoop() throws {
            let hub = try RunningHub {
                $0.loops = 2
                $0.limits = ConnectionLimits(maxConnections: 12)
            }
            let clients = try HubClients(port: hub.port)
            let joined = try joinOverEveryLoop(hub, clients, role: "follower", count: 12)
            let refused = clients.attempt()
            #expect(waitUntil { clients.closeEvent(refused.id) != nil })
            #expect(clients.closeEvent(refused.id)?.httpStatus == 503)
            #expect(joined.allSatisfy { $0.roundTrip() }, "the connected clients keep working")
        }

        @Test func tlsConnectionsAreServedOnEveryLoop() throws {
            let certs = try TestCertificates()
            let hub = try RunningHub {
                $0.loops = 2
                $0.tls = ServerTLS(certificateFile: certs.certificate, privateKeyFile: certs.key)
            }
            let clients = try HubClients(port: hub.port, tls: ClientTLS(caFile: certs.certificate), serverName: "localhost")
            let followers = (0..<6).map { _ in clients.join(role: "follower") }
            #expect(followers.allSatisfy { $0.client != nil }, "every wss:// client joined")
            let driver = clients.join(role: "driver")
            driver.send(#"{"type":"set","camera":{"zoom":7}}"#)
            for follower in followers {
                #expect(follower.next("frame")?["camera"]?["zoom"]?.numberValue == 7, "frames flow over TLS")
            }
            let health = try Subprocess.run("/usr/bin/curl", ["-sS", "--insecure", "https://127.0.0.1:\(hub.port)/healthz"], timeout: .seconds(10))
            let perLoop = (try? JSONParser.parse(health.stdout))?["connectionsPerLoop"]?.arrayValue?.compactMap(\.numberValue) ?? []
            #expect(perLoop.count == 2 && perLoop.allSatisfy { $0 > 0 }, "connections per loop: \(perLoop)")
        }

        @Test func healthAndMetricsAnswerFromEveryLoop() throws {
            let hub = try RunningHub { $0.loops = 2 }
            for _ in 0..<12 {  // each request is a new connection: both loops serve some
                #expect(try hub.health()["status"]?.stringValue == "ok")
                let metrics = try RawHTTP.request(port: hub.port, path: "/metrics")
                #expect(metrics.status == 200)
            }
        }
    }
}
