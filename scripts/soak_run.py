"""The soak's run (scripts/soak.py says what it does and checks): the processes, the timeline of
load and faults, the samples, and the report."""

import asyncio
import csv
import multiprocessing
import os
import queue
import resource
import secrets
import time

import soak_checks
from hubproc import Hub, Redis
from soak_movers import Mover
from soak_report import build_report
from soak_sample import cpu_seconds, live_counts, open_fds, rss_kib
from soak_worker import worker_main

TOKEN_TTL = 120  # seconds (± 10): tokenExpiring comes a minute before, so each client refreshes every ~60 s
SAMPLE_SECONDS = 10
FAULT_GRACE = 5  # after a fault recovered: the movers' next animation (every 2 s) and a frame (5 Hz)
RECOVERY_SECONDS = 30
SETTLE_SECONDS = 30
STALL_SECONDS = 2.0
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Soak:
    def __init__(self, args, folder):
        self.args, self.folder = args, folder
        self.secret = secrets.token_hex(32).encode()
        secret_path = os.path.join(folder, "token-secret")
        with open(secret_path, "wb") as f:
            f.write(self.secret)
        self.redis = Redis(folder, persistent=True)
        extra = ["--token-secret-file", secret_path, "--web", os.path.join(REPO, "web")]
        self.hubs = [Hub(0, args.hub, self.redis, folder, extra), Hub(1, args.hub, self.redis, folder, extra)]
        self.rooms = [f"soak{i:03d}" for i in range(args.rooms)]
        self.movers = [Mover(self.hubs[i % 2], room, i, "driver" if i % 5 == 4 else "presenter", self.secret, TOKEN_TTL)
                       for i, room in enumerate(self.rooms)]
        self.samples, self.faults, self.workers = [], [], []
        self.stalls = []  # (monotonic start, seconds): this process's loop did not run (the machine paused?)
        self.t0 = None

    # ---------------------------------------------------------------- the run

    async def run(self):
        self.redis.start()
        for hub in self.hubs:
            await asyncio.to_thread(hub.start)
        movers = [asyncio.create_task(m.run()) for m in self.movers]
        if await self.until(lambda: all(m.welcomed_at for m in self.movers), 30) is None:
            raise RuntimeError("the movers were not all welcomed within 30 s")
        control, results = self.start_workers()
        await self.collect(results, "ready", 180)
        await asyncio.sleep(5)
        baseline = await self.counts()
        self.t0 = time.monotonic()
        control["churn"].set()
        sampler = asyncio.create_task(self.sampler())
        watch = asyncio.create_task(self.watch_stalls())
        await self.timeline()
        control["stop"].set()
        await self.collect(results, "churned", 40)
        end = await self.settle(baseline)
        control["finish"].set()
        outcomes = await self.collect(results, "result", 60)
        sampler.cancel()
        watch.cancel()
        for mover in self.movers:
            mover.stop()
        await asyncio.gather(*movers, return_exceptions=True)
        return self.report(baseline, end, outcomes)

    def start_workers(self):
        context = multiprocessing.get_context("spawn")
        control = {name: context.Event() for name in ("churn", "stop", "finish")}
        results = context.Queue()
        n = self.args.workers
        for w in range(n):
            steady = [self.rooms[k % len(self.rooms)] for k in range(w, self.args.followers, n)]
            process = context.Process(target=worker_main, daemon=True, args=(
                w, self.hubs[0].port, steady, self.rooms, self.args.churn / n, self.args.rate, self.secret, TOKEN_TTL, control, results))
            process.start()
            self.workers.append(process)
        return control, results

    async def collect(self, results, kind, seconds):
        """Each worker's message of `kind` (their payloads, by worker), within `seconds`."""
        got, deadline = {}, time.monotonic() + seconds
        while len(got) < len(self.workers):
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"workers {sorted(set(range(len(self.workers))) - set(got))} sent no '{kind}' within {seconds} s")
            try:
                message = await asyncio.to_thread(results.get, True, min(left, 1.0))
            except queue.Empty:
                continue
            if message[0] == kind:
                got[message[1]["index"] if kind == "result" else message[1]] = message[1]
        return [got[i] for i in sorted(got)]

    async def until(self, predicate, seconds):
        """The monotonic time `predicate()` (run in a thread: it may ask a hub) first held, polled every
        0.2 s for at most `seconds`; None if it never did."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if await asyncio.to_thread(predicate):
                return time.monotonic()
            await asyncio.sleep(0.2)
        return None

    async def at(self, t):
        await asyncio.sleep(max(0.0, self.t0 + t - time.monotonic()))

    async def timeline(self):
        duration = self.args.duration
        await self.at(0.4 * duration)
        await self.fault("redis restart", self.restart_redis, self.redis_linked)
        await self.at(0.7 * duration)
        restarted = [0.0]
        await self.fault("hub B kill -9", lambda: self.restart_hub_b(restarted), lambda: self.hub_b_back(restarted[0]))
        await self.at(duration)

    async def fault(self, name, inject, recovered):
        started = time.monotonic()
        print(f"soak: t={started - self.t0:.0f} s: {name}", flush=True)
        await inject()
        back = await self.until(recovered, RECOVERY_SECONDS)
        end = (back if back is not None else started + RECOVERY_SECONDS) + FAULT_GRACE
        self.faults.append({"fault": name, "start": started, "recovered": back, "windowEnd": end})
        print(f"soak: {name}: " + (f"recovered after {back - started:.1f} s" if back else f"NOT recovered within {RECOVERY_SECONDS} s"), flush=True)

    async def restart_redis(self):
        await asyncio.to_thread(self.redis.stop)
        await asyncio.sleep(1)
        await asyncio.to_thread(self.redis.start)

    def redis_linked(self):
        return all((hub.health() or {}).get("redis", {}).get("state") == "up" for hub in self.hubs)

    async def restart_hub_b(self, restarted):
        self.hubs[1].kill()
        await asyncio.sleep(1)
        await asyncio.to_thread(self.hubs[1].start)
        restarted[0] = time.monotonic()

    def hub_b_back(self, restarted):
        mine = [m for m in self.movers if m.hub is self.hubs[1]]
        health = self.hubs[1].health() or {}
        return health.get("status") == "ok" and all(m.welcomed_at and m.welcomed_at > restarted for m in mine)

    # ---------------------------------------------------------------- samples

    async def counts(self):
        hub = self.hubs[0]
        figures = await asyncio.to_thread(live_counts, hub.port)
        return {"fds": open_fds(hub.process.pid), **figures}

    async def sampler(self):
        n = 0
        while True:
            await self.at(n * SAMPLE_SECONDS)
            sample = {"t": round(time.monotonic() - self.t0, 1), "rssKiB": rss_kib(self.hubs[0].process.pid), **await self.counts()}
            sample["cpu"] = {
                "hubA": cpu_seconds(self.hubs[0].process.pid), "hubB": cpu_seconds(self.hubs[1].process.pid),
                "redis": cpu_seconds(self.redis.process.pid),
                "generator": sum(cpu_seconds(p) or 0 for p in [os.getpid()] + [w.pid for w in self.workers])}
            self.samples.append(sample)
            n += 1

    async def watch_stalls(self):
        """Ticks every 0.25 s; a tick more than STALL_SECONDS late means that nothing of this process ran
        meanwhile: a paused or starved machine, which makes every figure of that span meaningless."""
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.25)
            now = time.monotonic()
            if now - last - 0.25 > STALL_SECONDS:
                self.stalls.append((last, now - last))
                print(f"soak: t={last - self.t0:.0f} s: this process did not run for {now - last:.1f} s", flush=True)
            last = now

    async def settle(self, baseline):
        """Hub A's counts once back at the baseline, or the last read after SETTLE_SECONDS."""
        started = time.monotonic()
        while True:
            end = await self.counts()
            end["seconds"] = round(time.monotonic() - started, 1)
            if all(end.get(k) == baseline.get(k) for k in soak_checks.SETTLED_KEYS) or end["seconds"] >= SETTLE_SECONDS:
                end["rssKiB"] = rss_kib(self.hubs[0].process.pid)
                return end
            await asyncio.sleep(1)

    def write_csv(self, path):
        keys = ["t", "rssKiB", "fds", "connections", "ownConnections", "clients", "rooms", "members", "remoteClients", "remoteSessions",
                "preparing", "queued", "redis"]
        cpus = ["hubA", "hubB", "redis", "generator"]
        with open(path, "w", newline="") as f:
            out = csv.writer(f)
            out.writerow(keys + [f"cpu{c[0].upper()}{c[1:]}Percent" for c in cpus])
            previous = None
            for s in self.samples:
                row = [s.get(k) for k in keys]
                for c in cpus:
                    a, b = (previous or {}).get("cpu", {}).get(c), s["cpu"][c]
                    dt = s["t"] - previous["t"] if previous else 0
                    row.append(round(100 * (b - a) / dt, 1) if dt > 0 and a is not None and b is not None and b >= a else "")
                out.writerow(row)
                previous = s

    # ---------------------------------------------------------------- the report

    def report(self, baseline, end, outcomes):
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return build_report(self, baseline, end, outcomes, usage.ru_utime + usage.ru_stime)

    def stop(self):
        for process in self.workers:
            if process.is_alive():
                process.kill()
        for hub in self.hubs:
            if hub.process and hub.process.poll() is None:
                hub.kill()
        if self.redis.process and self.redis.process.poll() is None:
            self.redis.kill()
