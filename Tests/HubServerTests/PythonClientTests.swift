import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing

/// True when `python3` can import the `websockets` package (checked once, bounded).
let pythonWebsocketsAvailable: Bool = {
    guard let result = try? runPython(["-c", "import websockets"], timeout: .seconds(30)) else { return false }
    return result.status == 0
}()

/// Runs python3 with `arguments`; kills it after `timeout`. Returns its exit status and output.
func runPython(_ arguments: [String], timeout: Duration) throws -> Subprocess.Result {
    try Subprocess.run(
        "/usr/bin/env", ["python3"] + arguments, timeout: timeout,
        environment: ["PYTHONDONTWRITEBYTECODE": "1"])
}

extension HubServerTests {
    /// An independent client: Python's `websockets` drives an ease and reads
    /// frames until the camera rests; `json.loads` rounds correctly, so the
    /// final camera must equal the target exactly there too.
    static let pythonDriver = #"""
        import asyncio, json, sys
        from websockets.asyncio.client import connect

        TARGET = {"lat": 48.8566, "lon": 2.3522, "zoom": 12, "bearing": 30, "tilt": 45}

        async def main(port):
            async with connect(f"ws://127.0.0.1:{port}/hub", subprotocols=["camhub.v1"],
                               proxy=None, compression=None, open_timeout=15) as ws:
                assert ws.subprotocol == "camhub.v1", ws.subprotocol
                await ws.send(json.dumps({"type": "hello", "room": "py", "role": "driver", "name": "py", "rate": 10}))
                welcome = json.loads(await asyncio.wait_for(ws.recv(), 15))
                assert welcome["type"] == "welcome", welcome
                await ws.send(json.dumps({"type": "ease", "id": "e1", "camera": TARGET, "duration": 0.5}))
                frames = 0
                for _ in range(1000):
                    text = await asyncio.wait_for(ws.recv(), 15)
                    message = json.loads(text)
                    if message["type"] == "error":
                        raise SystemExit("hub error: " + text)
                    if message["type"] == "frame":
                        frames += 1
                        if not message["moving"]:
                            print(json.dumps({"client": welcome["client"], "frames": frames, "final": text,
                                              "exact": message["camera"] == TARGET}))
                            return
                raise SystemExit("no resting frame")

        asyncio.run(asyncio.wait_for(main(int(sys.argv[1])), 40))
        """#

    @Test(
        .enabled(
            if: pythonWebsocketsAvailable,
            "skipped: python3 with the 'websockets' package is not available (pip install websockets)"))
    func pythonWebsocketsClientDrivesAnEaseToTheExactTarget() throws {
        let hub = try RunningHub()
        let result = try runPython(["-c", Self.pythonDriver, String(hub.port)], timeout: .seconds(50))
        #expect(result.status == 0, "python failed: \(result.stderr)")
        let report = try JSONParser.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(report["exact"]?.boolValue == true, "\(result.stdout)")
        #expect(report["client"]?.stringValue == "c1")
        let frames = report["frames"]?.numberValue ?? 0
        #expect(frames >= 2 && frames <= 8, "rate 10 during a 0.5 s ease: \(frames) frames")
        let final = try JSONParser.parse(try #require(report["final"]?.stringValue))
        #expect(Self.isEaseTarget(final["camera"]))
        #expect(final["camera"] == (try hub.camera(of: "py")))
    }
}

extension HubServerTests {
    /// Python's `websockets` tries each refused handshake and prints what it
    /// parsed of the hub's answer: status, reason phrase, type and body.
    static let pythonRefusals = #"""
        import asyncio, json, sys
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus

        async def attempt(port, path, subprotocols):
            try:
                async with connect(f"ws://127.0.0.1:{port}{path}", subprotocols=subprotocols,
                                   proxy=None, compression=None, open_timeout=15):
                    return {"opened": True}
            except InvalidStatus as e:
                r = e.response
                return {"status": r.status_code, "reason": r.reason_phrase,
                        "type": r.headers.get("Content-Type"), "body": r.body.decode()}

        async def main(port):
            results = [await attempt(port, "/hub", ["camhub.v2"]),
                       await attempt(port, "/hub", None),
                       await attempt(port, "/ws", ["camhub.v1"]),
                       await attempt(port, "/hub", ["camhub.v1"])]
            print(json.dumps(results))

        asyncio.run(asyncio.wait_for(main(int(sys.argv[1])), 40))
        """#

    @Test(
        .enabled(
            if: pythonWebsocketsAvailable,
            "skipped: python3 with the 'websockets' package is not available (pip install websockets)"))
    func pythonWebsocketsReadsWhyAHandshakeWasRefused() throws {
        let hub = try RunningHub()
        let result = try runPython(["-c", Self.pythonRefusals, String(hub.port)], timeout: .seconds(50))
        #expect(result.status == 0, "python failed: \(result.stderr)")
        let answers = try #require(try JSONParser.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).arrayValue)
        try #require(answers.count == 4)
        let text = "text/plain; charset=utf-8"
        #expect(
            answers[0]
                == .object([
                    "status": .number(400), "reason": .string("Bad Request"), "type": .string(text),
                    "body": .string("subprotocol camhub.v1 required (offered: camhub.v2)\n"),
                ]))
        #expect(
            answers[1]
                == .object([
                    "status": .number(400), "reason": .string("Bad Request"), "type": .string(text),
                    "body": .string("subprotocol camhub.v1 required (offered: none)\n"),
                ]))
        #expect(
            answers[2]
                == .object([
                    "status": .number(404), "reason": .string("Not Found"), "type": .string(text),
                    "body": .string("no WebSocket endpoint at /ws; try /hub (subprotocol camhub.v1)\n"),
                ]))
        #expect(answers[3] == .object(["opened": .bool(true)]))
    }
}
