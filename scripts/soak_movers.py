"""The clients that keep the soak's rooms moving: a presenter per room easing and flying in a loop, or
in some rooms a driver panning with gestures between eases. Each holds a signed token that expires
during the run and sends `refresh` on `tokenExpiring`; each reconnects to its hub slot (the hub's
current port: hub B comes back on a new one) with 0.3-0.8 s of backoff until the run is over.

Python `websockets` here: there are only as many movers as rooms, sending a message every
50 ms-2 s, so the library's cost is small; it reads every message the hub sends them.
"""

import asyncio
import json
import random
import time

import websockets

from soak_token import make_token

STEP_SECONDS = 2.0  # a presenter's next animation, each lasting ANIMATION_SECONDS: it never rests
ANIMATION_SECONDS = 3.0


class Mover:
    def __init__(self, hub, room, number, role, secret, ttl):
        self.hub, self.room, self.number, self.role, self.secret, self.ttl = hub, room, number, role, secret, ttl
        self.over = False
        self.socket = None
        self.welcomed_at = None  # monotonic time of the last welcome
        self.connections = 0
        self.counts = {}  # what the hub answered: "animation started", "error unavailable", "refreshed", …

    def count(self, what):
        self.counts[what] = self.counts.get(what, 0) + 1

    def token(self):
        return make_token(self.secret, self.room, self.role, self.ttl + random.uniform(-10, 10))

    async def run(self):
        while not self.over:
            self.connections += 1
            try:
                url = f"ws://127.0.0.1:{self.hub.port}/hub"
                async with websockets.connect(url, subprotocols=["camhub.v1"], open_timeout=3, close_timeout=1) as ws:
                    self.socket = ws
                    await ws.send(json.dumps({"type": "hello", "room": self.room, "role": self.role, "name": f"{self.role}{self.number}",
                                              "token": self.token(), "rate": 1, "encoding": "binary", "events": ["animation"]}))
                    mover = asyncio.create_task(self.move(ws))
                    try:
                        async for message in ws:
                            if isinstance(message, str):
                                await self.received(ws, json.loads(message))
                    finally:
                        mover.cancel()
            except (OSError, asyncio.TimeoutError, websockets.WebSocketException):
                pass
            self.socket, self.welcomed_at = None, None
            if not self.over:
                await asyncio.sleep(random.uniform(0.3, 0.8))

    async def received(self, ws, message):
        kind = message.get("type")
        if kind == "welcome":
            self.welcomed_at = time.monotonic()
        elif kind == "tokenExpiring":
            await ws.send(json.dumps({"type": "refresh", "token": self.token()}))
        elif kind == "tokenRefreshed":
            self.count("refreshed")
        elif kind == "animation":
            self.count(f"animation {message.get('status')}")
        elif kind == "gestureAck":
            self.count("gestureAck")
        elif kind == "error":
            self.count(f"error {message.get('code')}: {message.get('message', '')[:60]}")

    async def move(self, ws):
        while self.welcomed_at is None:
            await asyncio.sleep(0.05)
        step = self.number * 7
        while True:
            step += 1
            if self.role == "presenter":
                await ws.send(json.dumps(self.animation(step)))
                await asyncio.sleep(STEP_SECONDS)
            else:
                await self.pan(ws, step)
                await ws.send(json.dumps({"type": "ease", "camera": {"zoom": 3 + step % 4, "bearing": step * 29 % 360},
                                          "duration": ANIMATION_SECONDS - 1}))
                await asyncio.sleep(STEP_SECONDS)

    def animation(self, step):
        camera = {"lat": (step * 3.7) % 120 - 60, "lon": (step * 11.3) % 340 - 170, "zoom": 3 + step % 5}
        if step % 4 == 0:
            return {"type": "fly", "camera": camera, "duration": ANIMATION_SECONDS}
        return {"type": "ease", "camera": camera, "duration": ANIMATION_SECONDS}

    async def pan(self, ws, step):
        """A pan of 15 moves, 50 ms apart, each with a `seq` (answered by `gestureAck`)."""
        seq = step * 100
        await ws.send(json.dumps({"type": "gesture", "kind": "pan", "phase": "begin", "x": 640, "y": 360, "seq": seq}))
        for k in range(1, 16):
            await asyncio.sleep(0.05)
            await ws.send(json.dumps({"type": "gesture", "kind": "pan", "phase": "change", "x": 640 + 12 * k, "y": 360 + 3 * k, "seq": seq + k}))
        await ws.send(json.dumps({"type": "gesture", "kind": "pan", "phase": "end", "seq": seq + 16}))

    def stop(self):
        self.over = True
        if self.socket is not None:
            self.socket.transport.abort()
