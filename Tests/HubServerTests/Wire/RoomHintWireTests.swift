import CamHubProtocol
import Foundation
import SocketTestSupport
import Testing

@testable import HubServer

/// Connections that name their room in the URL (`/hub?room=NAME`, as the
/// client libraries do) are served by the room's loop from the start.
extension HubServerTests {
    @Suite struct RoomHint {
        static func connectionsPerLoop(_ hub: RunningHub) throws -> [Int] {
            try hub.health()["connectionsPerLoop"]?.arrayValue?.compactMap(\.numberValue).map { Int($0) } ?? []
        }

        @Test func followersNamingTheirRoomInTheURLAreAllOnTheRoomsLoop() throws {
            let hub = try RunningHub { $0.loops = 2 }
            let clients = try HubClients(port: hub.port)
            for loop in 0..<2 {
                let name = RoomLoops.rooms(on: loop, of: 2, count: 1)[0]
                let followers = (0..<6).map { _ in clients.join(name, role: "follower", path: "/hub?room=\(name)") }
                var expected = [0, 0]
                expected[loop] = 6
                #expect(try Self.connectionsPerLoop(hub) == expected, "\(name)'s six followers are on its loop \(loop)")
                let driver = clients.join(name, role: "driver", path: "/hub?room=\(name)")
                driver.send(#"{"type":"set","camera":{"zoom":7}}"#)
                for follower in followers {
                    #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 7 }, "and get its frames")
                }
                for connection in followers + [driver] { clients.client.close(connection.id) }
                #expect(waitUntil { (try? Self.connectionsPerLoop(hub)) == [0, 0] })
            }
        }

        @Test func aURLNamingAnotherRoomThanTheHelloStillJoinsTheHellosRoom() throws {
            let hub = try RunningHub { $0.loops = 2 }
            let clients = try HubClients(port: hub.port)
            let (here, there) = (RoomLoops.rooms(on: 0, of: 2, count: 1)[0], RoomLoops.rooms(on: 1, of: 2, count: 1)[0])
            let follower = clients.join(there, role: "follower", path: "/hub?room=\(here)")
            #expect(follower.client != nil, "welcomed into \(there)")
            let driver = clients.join(there, role: "driver")
            driver.send(#"{"type":"set","camera":{"zoom":4}}"#)
            #expect(waitUntil { follower.frames.last?.json["camera"]?["zoom"]?.numberValue == 4 }, "frames of \(there) across the loops")
        }

        /// A socket that says nothing for longer than the wait for its
        /// request (one second) is placed without one and still served.
        @Test func aClientSilentPastTheRequestWaitIsStillServed() throws {
            let hub = try RunningHub { $0.loops = 2 }
            let socket = try RawClientSocket(port: hub.port)
            Thread.sleep(forTimeInterval: 1.3)
            let answer = try socket.upgrade(path: "/hub?room=late")
            #expect(answer.hasPrefix("HTTP/1.1 101"), "upgraded: \(answer.prefix(40))")
        }
    }
}

/// A plain TCP client that connects now and sends its upgrade request when told.
final class RawClientSocket {
    let fd: Int32

    init(port: Int) throws { fd = try loopbackSocket(port: port) }

    deinit { close(fd) }

    /// Sends a WebSocket upgrade for `path` and returns the first bytes of the answer (within 10 s).
    func upgrade(path: String) throws -> String {
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: camhub.v1\r\n\r\n"
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw SubprocessFailure("send failed: errno \(errno)")
        }
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 10_000) == 1 else { throw SubprocessFailure("no answer within 10 s") }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
    }
}
