import Foundation
import HubCore
import HubServer
import SocketTestSupport
import Testing
import WebSocketTransport

extension HubServerTests {
    /// Connection caps at the upgrade: HTTP 503 naming the cap; nobody connected is affected.
    @Suite struct Limits {
        /// Opens a connection and waits until it is open or refused.
        func settle(_ clients: HubClients) -> (connection: Connection, event: ClientCloseEvent?) {
            let c = clients.attempt()
            waitUntil { clients.isOpen(c.id) || clients.closeEvent(c.id) != nil }
            return (c, clients.closeEvent(c.id))
        }

        @Test func theHubWideCapRefusesWith503AndTheReason() throws {
            let hub = try RunningHub { $0.limits = ConnectionLimits(maxConnections: 3) }
            let clients = try HubClients(port: hub.port)
            let joined = (0..<3).map { _ in clients.join(role: "follower") }
            let refused = settle(clients)
            #expect(refused.event?.httpStatus == 503)
            #expect(
                refused.event?.error?.contains("server full: 3 WebSocket connections open (its --max-connections)") == true,
                "\(String(describing: refused.event))")
            #expect(joined.allSatisfy { $0.roundTrip() }, "the connected clients keep working")
            clients.client.close(joined[0].id)
            #expect(waitUntil { clients.closeEvent(joined[0].id) != nil })
            #expect(clients.join(role: "follower").client != nil, "a freed place is taken again")
        }

        @Test func thePerAddressCapCountsOpenConnectionsOfOneAddress() throws {
            let hub = try RunningHub { $0.limits = ConnectionLimits(maxConnectionsPerAddress: 2, exemptLoopback: false) }
            let clients = try HubClients(port: hub.port)
            let joined = [clients.join(role: "follower"), clients.join(role: "driver")]
            let refused = settle(clients)
            #expect(refused.event?.httpStatus == 503)
            #expect(
                refused.event?.error?.contains("too many connections from 127.0.0.1: 2 open, at most 2 (its --max-connections-per-ip)") == true,
                "\(String(describing: refused.event))")
            #expect(joined.allSatisfy { $0.roundTrip() })
        }

        @Test func theNewConnectionRatePerAddressRefillsWithTime() throws {
            // One a second: a token comes back only after a whole second, far longer than the hub
            // takes to answer four handshakes sent in one go, even on a loaded machine.
            let hub = try RunningHub { $0.limits = ConnectionLimits(newConnectionsPerSecondPerAddress: 1, exemptLoopback: false) }
            let clients = try HubClients(port: hub.port)
            let four = (0..<4).map { _ in clients.attempt() }
            #expect(waitUntil { four.allSatisfy { clients.isOpen($0.id) || clients.closeEvent($0.id) != nil } })
            #expect(four.filter { clients.isOpen($0.id) }.count == 1)
            let refused = four.compactMap { clients.isOpen($0.id) ? nil : clients.closeEvent($0.id) }
            #expect(refused.count == 3 && refused.allSatisfy { $0.httpStatus == 503 })
            #expect(
                refused.first?.error?.contains("too many new connections from 127.0.0.1: at most 1 per second") == true,
                "\(refused)")
            usleep(1_100_000)  // the behaviour is about time: after more than a second (a longer wait only refills more), a token is back
            let later = settle(clients)
            #expect(clients.isOpen(later.connection.id))
        }

        @Test func loopbackIsExemptFromThePerAddressCapsByDefault() throws {
            let hub = try RunningHub()  // defaults: 100 per address, 20 new per second
            let clients = try HubClients(port: hub.port)
            let opened = (0..<150).map { _ in clients.attempt() }
            #expect(waitUntil(.seconds(20)) { opened.allSatisfy { clients.isOpen($0.id) || clients.closeEvent($0.id) != nil } })
            #expect(opened.filter { clients.isOpen($0.id) }.count == 150)
        }
    }
}
