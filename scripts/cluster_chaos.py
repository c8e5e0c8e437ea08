#!/usr/bin/env python3
"""Chaos for a cluster of hubs: faults injected at random while clients work, invariants checked all along.

    python3 scripts/cluster_chaos.py [--duration 60] [--seed N] [--camhub .build/debug/camhub]

Starts a real redis-server and three `camhub serve --redis` hubs on loopback, then one
presenter (on hub 0) easing the camera east step by step, a driver animating the bearing
and a follower (30 frames/s) on every hub. It runs rounds until --duration seconds have
passed. Each round injects one fault, picked at random:

- kill:    kill -9 a hub, start it again (on a new port; its clients reconnect there);
- stall:   SIGSTOP the room's owner past its lease (1.5 s), then SIGCONT it;
- redis:   kill redis-server, start it again, empty (no persistence);
- drop:    cut one client's connection without a close frame (it reconnects);

then heals it, stops every command and waits for the cluster to settle. Checked:

- seq:     on every connection, each frame's `seq` is above the one before;
- epoch:   on every connection, the lease epoch of the frames never goes back, and no frame
           of an epoch was made after the first frame of a newer one (a stale owner's);
- answer:  every command that asks for an answer (`ease`, `animate` with an id) gets its `animation`
           or an `error` (`unavailable` when no hub could run it) within 10 s, unless its
           connection ended first;
- settle:  after each fault, once no command is sent and nothing moves, every follower on
           every hub shows the same camera (within 20 s: a lease, a reconnect, a failover).

Prints a summary (faults, frames, commands and how they were answered, epochs, the slowest
settle) and every violation; exits 1 if there was one. Bounded: --duration plus at most one
round (20 s) and the start-up.
"""

import argparse
import asyncio
import json
import random
import signal
import sys
import tempfile
import time

import websockets

import hubproc
from hubproc import Redis

ROOM = "chaos"
SETTLE_SECONDS = 20
ANSWER_SECONDS = 10


class Hub(hubproc.Hub):
    def owns_room(self):
        health = self.health() if not self.stopped else None
        return any(r.get("name") == ROOM and r.get("owned") for r in (health or {}).get("rooms", []))


class Checks:
    """What every client saw, and the invariants over it."""

    def __init__(self):
        self.violations = []
        self.frames = 0
        self.epoch_frames = []  # (epoch, frame time ms)
        self.sent = {}  # (client, ref) -> (monotonic time sent, connection number)
        self.answers = {}  # answer kind -> count
        self.lost_with_connection = 0
        self.on_first_violation = None

    def violate(self, what):
        if len(self.violations) < 100:
            self.violations.append(what)
        print(f"chaos: VIOLATION {what}", flush=True)
        if len(self.violations) == 1 and self.on_first_violation:
            self.on_first_violation()

    def frame(self, client, conn, message):
        self.frames += 1
        seq, epoch = message.get("seq", 0), message.get("epoch", 0)
        if conn.last_seq is not None and seq <= conn.last_seq:
            self.violate(f"{client.name}: seq went from {conn.last_seq} to {seq} on one connection")
        if epoch < conn.last_epoch:
            self.violate(f"{client.name}: epoch went back from {conn.last_epoch} to {epoch} on one connection")
        conn.last_seq, conn.last_epoch = seq, max(conn.last_epoch, epoch)
        if epoch:
            self.epoch_frames.append((epoch, message["time"]))

    def answered(self, client, ref, kind):
        if self.sent.pop((client.name, ref), None) is not None:
            self.answers[kind] = self.answers.get(kind, 0) + 1

    def connection_ended(self, client, number):
        for key, (_, conn) in list(self.sent.items()):
            if key[0] == client.name and conn == number:
                del self.sent[key]
                self.lost_with_connection += 1

    def unanswered(self, now):
        for (name, ref), (at, _) in list(self.sent.items()):
            if now - at > ANSWER_SECONDS:
                del self.sent[(name, ref)]
                self.violate(f"{name}: {ref} had no answer within {ANSWER_SECONDS} s")

    def stale_frames(self):
        """A frame of epoch e made after the first frame of a newer epoch came from an owner that had lost the room."""
        first = {}
        for epoch, at in self.epoch_frames:
            first[epoch] = min(at, first.get(epoch, at))
        newer_first = {}
        best = float("inf")
        for epoch in sorted(first, reverse=True):
            newer_first[epoch] = best
            best = min(best, first[epoch])
        stale = [(e, t) for e, t in self.epoch_frames if t > newer_first[e]]
        for epoch, at in stale[:10]:
            self.violate(f"a frame of epoch {epoch} made at {at:.0f} ms, after a newer epoch's first frame ({newer_first[epoch]:.0f} ms)")
        return len(stale)


class Connection:
    def __init__(self, number):
        self.number = number
        self.last_seq = None
        self.last_epoch = 0


class Client:
    """One client that reconnects to its hub slot (with backoff) until the run ends."""

    def __init__(self, chaos, hub, role, name):
        self.chaos, self.hub, self.role, self.name = chaos, hub, role, name
        self.socket = None
        self.connections = 0
        self.camera = None  # what this client shows: the welcome's camera, then each frame's
        self.moving = False
        self.joined = False

    async def run(self):
        while not self.chaos.over:
            self.connections += 1
            conn = Connection(self.connections)
            try:
                url = f"ws://127.0.0.1:{self.hub.port}/hub"
                async with websockets.connect(url, subprotocols=["camhub.v1"], open_timeout=3, close_timeout=1) as ws:
                    self.socket = ws
                    hello = {"type": "hello", "room": ROOM, "role": self.role, "name": self.name}
                    if self.role == "follower":
                        hello["rate"] = 30
                    await ws.send(json.dumps(hello))
                    async for text in ws:
                        self.received(conn, json.loads(text))
            except (OSError, asyncio.TimeoutError, websockets.WebSocketException):
                pass
            self.socket, self.joined = None, False
            self.chaos.checks.connection_ended(self, conn.number)
            await asyncio.sleep(random.uniform(0.2, 0.8))

    def received(self, conn, message):
        kind = message.get("type")
        checks = self.chaos.checks
        if kind == "welcome":
            self.camera, self.moving, self.joined = message["camera"], False, True
        elif kind == "frame":
            checks.frame(self, conn, message)
            self.camera, self.moving = message["camera"], message["moving"]
        elif kind == "animation" and message.get("id"):
            checks.answered(self, message["id"], f"animation {message['status']}")
        elif kind == "error" and message.get("ref"):
            checks.answered(self, message["ref"], f"error {message['code']}")

    async def send(self, message):
        ws = self.socket
        if ws is None or not self.joined:
            return
        try:
            await ws.send(json.dumps(message))
            if "id" in message:
                self.chaos.checks.sent[(self.name, message["id"])] = (time.monotonic(), self.connections)
        except websockets.WebSocketException:
            pass

    def drop(self):
        if self.socket is not None:
            self.socket.transport.abort()


class Chaos:
    def __init__(self, args, folder):
        self.args, self.folder = args, folder
        self.redis = Redis(folder)
        self.hubs = [Hub(i, args.camhub, self.redis, folder) for i in range(3)]
        self.checks = Checks()
        self.checks.on_first_violation = self.dump_health
        self.over = False
        self.quiet = False
        self.faults = {}
        self.settle_seconds = []
        self.clients = [Client(self, self.hubs[0], "presenter", "presenter")]
        for hub in self.hubs:
            self.clients.append(Client(self, hub, "driver", f"driver{hub.index}"))
            self.clients.append(Client(self, hub, "follower", f"follower{hub.index}"))

    def dump_health(self):
        """What each hub says of itself, for finding out why (printed once, at the first violation)."""
        for hub in self.hubs:
            health = None if hub.stopped else hub.health()
            rooms = (health or {}).get("rooms")
            print(f"chaos: hub {hub.index} on {hub.port}: redis {(health or {}).get('redis')}, rooms {rooms}", flush=True)

    async def traffic(self):
        """The presenter eases east step by step, each driver animates the bearing; paused while the cluster settles."""
        step = 0
        while not self.over:
            await asyncio.sleep(0.4)
            if self.quiet:
                continue
            step += 1
            if step % 3 == 0:
                await self.clients[0].send(
                    {"type": "ease", "id": f"p{step}", "camera": {"lon": (step * 0.5) % 340 - 170, "zoom": 3 + step % 4}, "duration": 1})
            for client in self.clients[1:]:
                if client.role == "driver" and random.random() < 0.5:
                    await client.send({"type": "animate", "id": f"{client.name}-{step}", "to": {"bearing": random.uniform(0, 359)}, "duration": 0.3})
            self.checks.unanswered(time.monotonic())

    async def fault(self):
        kind = random.choice(["kill", "stall", "redis", "drop"])
        self.faults[kind] = self.faults.get(kind, 0) + 1
        if kind == "kill":
            hub = random.choice(self.hubs)
            print(f"chaos: kill -9 hub {hub.index}", flush=True)
            hub.kill()
            await asyncio.sleep(random.uniform(0.5, 1.5))
            await asyncio.to_thread(hub.start)
        elif kind == "stall":
            owners = [hub for hub in self.hubs if await asyncio.to_thread(hub.owns_room)]
            hub = owners[0] if owners else random.choice(self.hubs)
            seconds = random.uniform(2.5, 4)
            print(f"chaos: SIGSTOP hub {hub.index} ({'owner' if owners else 'no owner found'}) for {seconds:.1f} s", flush=True)
            hub.stopped = True
            hub.signal(signal.SIGSTOP)
            await asyncio.sleep(seconds)
            hub.signal(signal.SIGCONT)
            hub.stopped = False
        elif kind == "redis":
            print("chaos: restart redis-server", flush=True)
            self.redis.kill()
            await asyncio.sleep(random.uniform(0.5, 1.5))
            await asyncio.to_thread(self.redis.start)
        else:
            client = random.choice(self.clients)
            print(f"chaos: drop {client.name}'s connection", flush=True)
            client.drop()

    async def settle(self):
        """No command, and then every follower shows the same camera at rest, within SETTLE_SECONDS."""
        self.quiet = True
        started = time.monotonic()
        followers = [c for c in self.clients if c.role == "follower"]

        def key(camera):
            return tuple(round(camera[k], 9) for k in ("lat", "lon", "zoom", "bearing", "tilt")) if camera else None

        while time.monotonic() - started < SETTLE_SECONDS:
            await asyncio.sleep(0.1)
            shown = {key(c.camera) for c in followers}
            if all(c.joined and not c.moving for c in followers) and len(shown) == 1 and None not in shown:
                await asyncio.sleep(1)  # a quiet second: still the same everywhere?
                if {key(c.camera) for c in followers} == shown and all(not c.moving for c in followers):
                    self.settle_seconds.append(time.monotonic() - started)
                    self.quiet = False
                    return
        cameras = {c.name: (c.joined, c.moving, key(c.camera)) for c in followers}
        self.checks.violate(f"followers did not settle on one camera within {SETTLE_SECONDS} s: {cameras}")
        self.quiet = False

    async def run(self):
        self.redis.start()
        for hub in self.hubs:
            await asyncio.to_thread(hub.start)
        tasks = [asyncio.create_task(c.run()) for c in self.clients]
        tasks.append(asyncio.create_task(self.traffic()))
        start = time.monotonic()
        await asyncio.sleep(2)
        rounds = 0
        while time.monotonic() - start < self.args.duration:
            rounds += 1
            await asyncio.sleep(random.uniform(1, 3))  # traffic before the fault
            await self.fault()
            await asyncio.sleep(random.uniform(0.5, 2))  # and while it heals
            await self.settle()
        self.quiet = True
        deadline = time.monotonic() + ANSWER_SECONDS + 1
        while self.checks.sent and time.monotonic() < deadline:  # the last answers
            await asyncio.sleep(0.1)
        self.checks.unanswered(time.monotonic() + ANSWER_SECONDS + 1)
        self.over = True
        for client in self.clients:
            client.drop()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return rounds, time.monotonic() - start

    def stop(self):
        for hub in self.hubs:
            if hub.process and hub.process.poll() is None:
                hub.signal(signal.SIGCONT)
                hub.kill()
        if self.redis.process and self.redis.process.poll() is None:
            self.redis.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=60, help="seconds of faults (default 60)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock; printed)")
    parser.add_argument("--camhub", default=".build/debug/camhub", help="the camhub binary")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else int(time.time())
    random.seed(seed)
    print(f"chaos: seed {seed}, {args.duration:.0f} s", flush=True)
    folder = tempfile.mkdtemp(prefix="camhub-chaos.")
    chaos = Chaos(args, folder)
    try:
        rounds, seconds = asyncio.run(chaos.run())
    finally:
        chaos.stop()
    checks = chaos.checks
    stale = checks.stale_frames()
    summary = {
        "seed": seed, "seconds": round(seconds, 1), "rounds": rounds, "faults": chaos.faults,
        "frames": checks.frames, "epochs": len({e for e, _ in checks.epoch_frames}), "staleFrames": stale,
        "answers": checks.answers, "lostWithConnection": checks.lost_with_connection,
        "slowestSettleSeconds": round(max(chaos.settle_seconds, default=0), 2),
        "violations": len(checks.violations), "logs": folder,
    }
    print("chaos: " + json.dumps(summary), flush=True)
    if checks.violations:
        for v in checks.violations:
            print(f"chaos: violation: {v}")
        sys.exit(1)


if __name__ == "__main__":
    main()
