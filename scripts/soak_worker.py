"""One load-generator process of the soak: a share of the steady followers and of the churn.

soak.py starts several (multiprocessing, one asyncio loop each) so that the generator is not one
Python thread on a 2-core machine. Control comes as multiprocessing Events (`churn` on, `stop`
churn, `finish`); the worker puts ("ready", index) on `results` once its steady followers have
joined (or 120 s passed), ("churned", index) once its churn has ended, then ("result", dict).

Steady followers stay for the whole run and reconnect (after 0.5 s) if their connection ends;
each such end is a drop. Churn followers join a random room, stay 1-9 s (uniform: ~5 s, so
`churn` per second join and as many leave once it runs), and close with 1000.
"""

import asyncio
import os
import random
import resource
import time

from soak_follower import Track, connect
from soak_token import make_token

JOIN_CONCURRENCY = 100  # steady followers connecting at once
READY_SECONDS = 120
CHURN_LIFETIME = (1.0, 9.0)


class Worker:
    def __init__(self, index, port, steady_rooms, rooms, churn_per_second, rate, secret, ttl, control, results):
        self.index, self.port, self.steady_rooms, self.rooms = index, port, steady_rooms, rooms
        self.churn_per_second, self.rate, self.secret, self.ttl = churn_per_second, rate, secret, ttl
        self.control, self.results = control, results
        self.stats = {}
        self.tracks = [Track() for _ in steady_rooms]
        self.live = {}  # slot -> its Follower now
        self.joined = set()
        self.drops, self.join_failures = [], []
        self.churn = {"started": 0, "joined": 0, "closed": 0, "failures": []}
        self.finishing = False
        self.parent = os.getppid()

    def hello(self, room):
        return {"type": "hello", "room": room, "role": "follower", "rate": self.rate, "encoding": "binary", "events": [],
                "token": self.token(room)}

    def token(self, room):
        return make_token(self.secret, room, "follower", self.ttl + random.uniform(-10, 10))

    async def steady(self, slot, room, gate):
        while not self.finishing:
            try:
                async with gate:
                    follower = await connect(self.port, self.hello(room), lambda: self.token(room), self.stats, self.tracks[slot])
            except (OSError, asyncio.TimeoutError, ConnectionError) as error:
                self.join_failures.append((time.monotonic(), f"{room}: {error!r}"[:160]))
                await asyncio.sleep(0.5)
                continue
            self.joined.add(slot)
            self.live[slot] = follower
            code = await follower.ended
            self.live.pop(slot, None)
            if not self.finishing:
                self.drops.append((time.monotonic(), f"{room}: close code {code}"))
                await asyncio.sleep(0.5)

    async def one_churn(self):
        room = random.choice(self.rooms)
        started = time.monotonic()
        self.churn["started"] += 1
        try:
            follower = await connect(self.port, self.hello(room), lambda: self.token(room), self.stats, Track())
        except (OSError, asyncio.TimeoutError, ConnectionError) as error:
            self.churn["failures"].append((started, f"{room}: {error!r}"[:160]))
            return
        self.churn["joined"] += 1
        await asyncio.sleep(random.uniform(*CHURN_LIFETIME))
        follower.close()
        try:
            await asyncio.wait_for(asyncio.shield(follower.ended), 5)
            self.churn["closed"] += 1
        except asyncio.TimeoutError:
            follower.transport.abort()

    async def run_churn(self):
        """`churn_per_second` new followers a second, started 10 times a second on an absolute schedule."""
        tasks, owed, tick = set(), 0.0, time.monotonic()
        while not self.control["stop"].is_set():
            self.orphaned()
            owed += self.churn_per_second / 10
            while owed >= 1:
                owed -= 1
                task = asyncio.create_task(self.one_churn())
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            tick += 0.1
            await asyncio.sleep(max(0.0, tick - time.monotonic()))
        if tasks:  # each ends within its lifetime and two 5 s timeouts
            await asyncio.wait(tasks, timeout=CHURN_LIFETIME[1] + 11)

    def orphaned(self):
        """The soak's process is gone (killed before it could stop this one): stop too."""
        if os.getppid() != self.parent:
            raise SystemExit("soak_worker: the soak process is gone")

    async def wait_event(self, name, poll=0.1):
        """Until soak.py sets the event; bounded by the soak's own life (it sets each within its run)."""
        while not self.control[name].is_set():
            self.orphaned()
            await asyncio.sleep(poll)

    async def run(self):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        gate = asyncio.Semaphore(JOIN_CONCURRENCY)
        steady = [asyncio.create_task(self.steady(slot, room, gate)) for slot, room in enumerate(self.steady_rooms)]
        deadline = time.monotonic() + READY_SECONDS
        while len(self.joined) < len(self.steady_rooms) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        self.ready_at = time.monotonic()
        self.results.put(("ready", self.index))
        await self.wait_event("churn")
        await self.run_churn()
        self.results.put(("churned", self.index))
        await self.wait_event("finish")
        return await self.finish(steady)

    async def finish(self, steady):
        now = time.monotonic()
        self.finishing = True
        for follower in list(self.live.values()):
            follower.close()
        await asyncio.wait(steady, timeout=10)
        for task in steady:
            task.cancel()
        gaps = [gap for track in self.tracks for gap in track.gaps]
        gaps += [gap for track in self.tracks if (gap := track.open_gap(now))]
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {
            "index": self.index, "steady": len(self.steady_rooms), "steadyJoined": len(self.joined),
            "frames": [track.frames for track in self.tracks], "gaps": gaps, "drops": self.drops,
            "joinFailures": self.join_failures, "churn": self.churn, "stats": self.stats,
            "cpuSeconds": round(usage.ru_utime + usage.ru_stime, 2), "readyAt": self.ready_at, "finishedAt": now,
        }


def worker_main(*args):
    """The process's entry point: runs a Worker and puts its result on its `results` queue."""
    worker = Worker(*args)
    result = asyncio.run(worker.run())
    worker.results.put(("result", result))
