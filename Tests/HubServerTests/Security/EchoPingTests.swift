import Foundation
import HubServer
import SocketTestSupport
import Testing

extension HubServerTests {
    /// Pings on `/echo`, from an independent client (Python's `websockets`,
    /// which matches each pong to its ping by payload). libwebsockets answers
    /// pings itself and holds one pending pong per connection (see
    /// docs/PROTOCOL.md, "/echo and the RFC 6455 record").
    @Suite struct EchoPing {
        /// Prints one JSON line: the pong payloads in the order their pings were
        /// answered, then whether an echo still round-trips.
        static let script = #"""
            import asyncio, json, sys
            from websockets.asyncio.client import connect

            async def main(port, burst):
                async with connect(f"ws://127.0.0.1:{port}/echo", proxy=None, compression=None,
                                   open_timeout=15, ping_interval=None) as ws:
                    answered = []
                    if burst:
                        waiters = [await ws.ping(f"payload-{i}") for i in range(10)]
                        await asyncio.wait_for(waiters[0], 15)  # a pong for it or a later one
                        answered.append("payload-0")
                    else:
                        for i in range(10):
                            waiter = await ws.ping(f"payload-{i}")
                            await asyncio.wait_for(waiter, 15)
                            answered.append(f"payload-{i}")
                    await ws.send("after the pings")
                    echo = await asyncio.wait_for(ws.recv(), 15)
                    print(json.dumps({"answered": answered, "echo": echo}))

            asyncio.run(asyncio.wait_for(main(int(sys.argv[1]), sys.argv[2] == "burst"), 40))
            """#

        func run(burst: Bool) throws -> [String: Any] {
            let hub = try RunningHub { $0.echo = true }
            let result = try runPython(
                ["-c", Self.script, String(hub.port), burst ? "burst" : "one-by-one"],
                timeout: .seconds(50))
            try #require(result.status == 0, "python failed: \(result.stderr)")
            let line = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }

        @Test(.enabled(if: pythonWebsocketsAvailable, "skipped: python3 with 'websockets' is not available"))
        func tenPingsEachAwaitedGetTenPongsInOrderWithTheirPayloads() throws {
            let report = try run(burst: false)
            #expect(report["answered"] as? [String] == (0..<10).map { "payload-\($0)" })
            #expect(report["echo"] as? String == "after the pings")
        }

        @Test(.enabled(if: pythonWebsocketsAvailable, "skipped: python3 with 'websockets' is not available"))
        func aBurstOfTenPingsIsAnsweredAndTheConnectionStaysUsable() throws {
            let report = try run(burst: true)
            #expect(report["answered"] as? [String] == ["payload-0"])
            #expect(report["echo"] as? String == "after the pings")
        }
    }
}
