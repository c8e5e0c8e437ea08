#!/usr/bin/env python3
"""A well-known peer for `camhub bench`: a picows (Cython WebSocket library on
asyncio) broadcast server that speaks just enough of camhub protocol v1 for the
bench client: it answers `hello` with a `welcome` and sends every joined client a
moving camera `frame` at --rate Hz (the same JSON shape and size as the hub's),
one shared payload per tick. No rooms, roles, throttle, animations or join
announcements: the floor of what a WebSocket fan-out costs in a fast library.

    pip install picows==2.3.1
    python3 scripts/bench_peer_picows.py --port 18282 --rate 30 &
    .build/release/camhub bench --url ws://127.0.0.1:18282/hub --followers 1000 --hub-pid $!

Listens on 127.0.0.1 only. Stops on SIGINT/SIGTERM or after --max-seconds.
"""
import argparse
import asyncio
import json
import math
import os
import signal
import time

from picows import WSListener, WSMsgType, WSTransport, WSUpgradeRequest, WSUpgradeResponse, WSUpgradeResponseWithListener, ws_create_server

clients: set = set()
# The rest of a hub's welcome, as `camhub serve` writes it for a fresh room, so that a client
# reading welcomes strictly (the Swift client library does) takes the peer's.
WELCOME_ROOM = {"limits": {"minZoom": 0.0, "maxZoom": 22.0, "minTilt": 0.0, "maxTilt": 60.0, "maxTiltByZoom": [],
                           "bounds": None},
                "clients": 1, "followers": 0, "following": 0, "exploring": 0, "away": 0,
                "followPolicy": {"explore": True}, "events": [], "animations": [],
                "tracking": {"mode": "none", "location": None}, "route": [], "view": None, "fit": "same"}
next_client = 0


def camera_at(t: float) -> dict:
    return {"lat": 20.0 + 10 * math.sin(t / 7), "lon": ((t * 15) % 360) - 180, "zoom": 3.0,
            "bearing": (t * 45) % 360, "tilt": 30 + 10 * math.sin(t)}


def velocity_at(t: float) -> dict:
    """camera_at's slope per second, rounded to 1e-7 as the hub writes a moving frame's `velocity`."""
    return {"lat": round(10 / 7 * math.cos(t / 7), 7), "lon": 15.0, "zoom": 0.0, "bearing": 45.0, "tilt": round(10 * math.cos(t), 7)}


class Client(WSListener):
    def __init__(self):
        self.transport = None
        self.joined = False

    def on_ws_connected(self, transport: WSTransport):
        self.transport = transport

    def on_ws_frame(self, transport: WSTransport, frame):
        global next_client
        if frame.msg_type == WSMsgType.CLOSE:
            transport.send_close(frame.get_close_code())
            transport.disconnect()
            return
        if frame.msg_type != WSMsgType.TEXT:
            return
        msg = json.loads(frame.get_payload_as_utf8_text())
        if msg.get("type") == "hello" and not self.joined:
            next_client += 1
            now = time.time() * 1000
            welcome = {"type": "welcome", "client": f"c{next_client}", "room": msg.get("room", "bench"),
                       "role": msg.get("role", "follower"), "rate": RATE, "tick": RATE, "time": now, "seq": 0,
                       "camera": camera_at(time.monotonic()), "presenter": None, "roster": [], "gestures": [],
                       **WELCOME_ROOM}
            transport.send(WSMsgType.TEXT, json.dumps(welcome, separators=(",", ":")).encode())
            self.joined = True
            clients.add(transport)
        elif msg.get("type") == "ping":
            pong = {"type": "pong", "time": time.time() * 1000}
            if "t" in msg:
                pong["t"] = msg["t"]
            transport.send(WSMsgType.TEXT, json.dumps(pong, separators=(",", ":")).encode())

    def on_ws_disconnected(self, transport: WSTransport):
        clients.discard(transport)


def factory(request: WSUpgradeRequest):
    if request.path != b"/hub" and request.path != "/hub":
        return None
    response = WSUpgradeResponse.create_101_response(extra_headers={"Sec-WebSocket-Protocol": "camhub.v1"})
    return WSUpgradeResponseWithListener(response, Client())


async def broadcast(stop: asyncio.Event):
    seq = 0
    period = 1 / RATE
    due = time.monotonic()
    while not stop.is_set():
        due += period
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        else:
            due = time.monotonic()  # skip missed ticks, like the hub
        seq += 1
        frame = {"type": "frame", "seq": seq, "time": time.time() * 1000, "camera": camera_at(time.monotonic()),
                 "moving": True, "by": "c1", "velocity": velocity_at(time.monotonic())}
        payload = json.dumps(frame, separators=(",", ":")).encode()
        for t in list(clients):
            t.send(WSMsgType.TEXT, payload)


async def main(args):
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    loop.call_later(args.max_seconds, stop.set)
    server = await ws_create_server(factory, "127.0.0.1", args.port, backlog=4096)
    print(f"picows peer: listening on ws://127.0.0.1:{args.port}/hub, {RATE:g} Hz, pid {os.getpid()}", flush=True)
    await broadcast(stop)
    server.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=18282)
    parser.add_argument("--rate", type=float, default=30)
    parser.add_argument("--max-seconds", type=float, default=1800)
    args = parser.parse_args()
    RATE = args.rate
    asyncio.run(main(args))
