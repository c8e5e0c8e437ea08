#!/usr/bin/env python3
"""A WebSocket peer (Python `websockets`, an independent implementation) that
sends the busy follower client what a hub rarely does, for
scripts/test_busy_follower.sh:

- a `welcome` of 70,000 bytes (a 64-bit length), `event`s of 300 bytes (16-bit);
- a ping with a payload, whose pong it awaits;
- every third frame as a fragmented message (three fragments);
- frames at --rate Hz in the encoding each hello asks for (the hub's binary layout,
  docs/PROTOCOL.md, or its JSON), each connection with its own seq;
- a close (4000 "bye") to the fourth connection, 0.2 s after its welcome, whose
  close reply it records.

`websockets` refuses unmasked client frames, so a hello that arrives proves the
client masks. It prints `listening PORT` once ready, then runs until --expect
connections have come and gone (or --max-seconds), and writes what it saw as
JSON to --summary: pongs received, the close code the closed client sent back,
hellos.
"""
import argparse
import asyncio
import json
import struct
import time

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

summary = {"connections": 0, "hellos": [], "pongs": 0, "close_reply": None, "errors": []}


def binary_frame(seq: int, t: float) -> bytes:
    """A moving binary frame with its velocity, by "c1" (docs/PROTOCOL.md, Binary frames)."""
    return (struct.pack("<BBQd", 1, 0x01 | 0x04, seq, t) + struct.pack("<5d", 20.0, 10.0, 3.0, 45.0, 30.0)
            + struct.pack("<5f", 0.1, 15.0, 0.0, 45.0, 0.0) + struct.pack("<H", 2) + b"c1")


def json_frame(seq: int, t: float) -> str:
    return json.dumps({"type": "frame", "seq": seq, "time": t,
                       "camera": {"lat": 20.0, "lon": 10.0, "zoom": 3.0, "bearing": 45.0, "tilt": 30.0},
                       "moving": True, "by": "c1"}, separators=(",", ":"))


def fragments(message, parts: int = 3):
    step = max(1, len(message) // parts)
    return [message[i:i + step] for i in range(0, len(message), step)]


async def handler(ws, rate: float):
    summary["connections"] += 1
    index = summary["connections"]
    try:
        hello = json.loads(await ws.recv())
        summary["hellos"].append(hello)
        binary = hello.get("encoding") == "binary"
        await ws.send(json.dumps({"type": "welcome", "client": f"c{index}", "room": hello.get("room"),
                                  "pad": "x" * 70000}, separators=(",", ":")))
        await asyncio.wait_for(await ws.ping(b"abc"), 5)
        summary["pongs"] += 1
        period = 1 / rate
        due = time.monotonic()
        seq = 0
        started = time.monotonic()
        while True:
            if index == 4 and time.monotonic() - started >= 0.2:
                await ws.close(4000, "bye")
                close = ws.protocol.close_rcvd
                summary["close_reply"] = None if close is None else close.code
                return
            seq += 1
            now_ms = time.time() * 1000
            frame = binary_frame(seq, now_ms) if binary else json_frame(seq, now_ms)
            await ws.send(fragments(frame) if seq % 3 == 0 else frame)
            if seq % 5 == 0:
                await ws.send(json.dumps({"type": "event", "name": "audience", "pad": "y" * 300}))
            due += period
            await asyncio.sleep(max(0.0, due - time.monotonic()))
    except ConnectionClosed:
        pass
    except Exception as e:  # the test reads the summary
        summary["errors"].append(f"connection {index}: {e!r}")


async def main(args):
    done = asyncio.Event()
    finished = 0

    async def counted(ws):
        nonlocal finished
        try:
            await handler(ws, args.rate)
        finally:
            finished += 1
            if finished >= args.expect:
                done.set()

    async with serve(counted, "127.0.0.1", 0, subprotocols=["camhub.v1"], compression=None, ping_interval=None,
                     max_size=1 << 16) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"listening {port}", flush=True)
        try:
            await asyncio.wait_for(done.wait(), args.max_seconds)
        except asyncio.TimeoutError:
            summary["errors"].append("timed out")
    with open(args.summary, "w") as f:
        json.dump(summary, f)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=float, default=30)
    parser.add_argument("--expect", type=int, default=4, help="connections to serve before exiting")
    parser.add_argument("--max-seconds", type=float, default=20)
    parser.add_argument("--summary", required=True)
    main_args = parser.parse_args()
    asyncio.run(main(main_args))
