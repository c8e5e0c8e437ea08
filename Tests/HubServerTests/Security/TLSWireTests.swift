import CamHubProtocol
import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing
import WebSocketTransport

extension HubServerTests {
    @Suite struct TLS {
        @Test func wssJoinsWhenTheClientTrustsTheHubsCertificate() throws {
            let certs = try TestCertificates()
            let hub = try RunningHub { $0.tls = ServerTLS(certificateFile: certs.certificate, privateKeyFile: certs.key) }
            let clients = try HubClients(port: hub.port, tls: ClientTLS(caFile: certs.certificate), serverName: "localhost")
            let follower = clients.join(role: "follower")
            #expect(follower.client != nil)
            let driver = clients.join(role: "driver")
            driver.send(#"{"type":"set","camera":{"zoom":7}}"#)
            #expect(follower.next("frame")?["camera"]?["zoom"]?.numberValue == 7, "frames flow over TLS")
        }

        @Test func aClientThatDoesNotTrustTheCertificateRefusesToConnect() throws {
            let certs = try TestCertificates()
            let hub = try RunningHub { $0.tls = ServerTLS(certificateFile: certs.certificate, privateKeyFile: certs.key) }
            for tls in [ClientTLS(caFile: certs.otherCA), ClientTLS()] {  // the wrong CA; the system's CAs
                let clients = try HubClients(port: hub.port, tls: tls, serverName: "localhost")
                let attempt = clients.attempt()
                #expect(waitUntil { clients.closeEvent(attempt.id) != nil })
                let event = clients.closeEvent(attempt.id)
                #expect(event?.wasOpen == false, "no WebSocket over an unverified certificate (\(tls))")
                #expect(!clients.isOpen(attempt.id))
            }
            // --insecure accepts the self-signed certificate: encrypted, not verified.
            let insecure = try HubClients(port: hub.port, tls: ClientTLS(insecure: true))
            #expect(insecure.join(role: "follower").client != nil)
            let health = try Subprocess.run("/usr/bin/curl", ["-sS", "--insecure", "https://127.0.0.1:\(hub.port)/healthz"], timeout: .seconds(10))
            #expect((try? JSONParser.parse(health.stdout))?["clients"]?.numberValue == 1, "only the insecure client joined: \(health.stdout)")
        }

        @Test func plainWebSocketsAndHTTPAreNotServedOnATLSPort() throws {
            let certs = try TestCertificates()
            let hub = try RunningHub { $0.tls = ServerTLS(certificateFile: certs.certificate, privateKeyFile: certs.key) }
            let plain = try HubClients(port: hub.port)
            let attempt = plain.attempt()
            #expect(waitUntil { plain.closeEvent(attempt.id) != nil })
            #expect(plain.closeEvent(attempt.id)?.wasOpen == false)
            // HTTPS answers (curl checks the certificate against the hub's own).
            let https = try Subprocess.run(
                "/usr/bin/curl",
                [
                    "-sS", "--cacert", certs.certificate,
                    "https://localhost:\(hub.port)/healthz",
                ], timeout: .seconds(10))
            #expect(https.status == 0, "\(https.stderr)")
            #expect((try? JSONParser.parse(https.stdout))?["rooms"] != nil)
        }
    }
}
