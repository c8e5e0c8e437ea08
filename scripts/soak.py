#!/usr/bin/env python3
"""A soak of the hub: hours of a day's traffic compressed into --duration seconds, then checks that
nothing grew or stayed behind.

    python3 scripts/soak.py [--duration 1800] [--followers 2000] [--rooms 50] [--churn 100]
                            [--hub PATH] [--workers 2] [--out soak] [--rate 5]

What runs: a real redis-server (append-only file, so a restart keeps its keys) and two
`camhub serve --redis` hubs with signed tokens (--token-secret-file); hub A is the one measured.
Every room is kept moving: in four of five a presenter eases and flies (a new 3 s animation every
2 s), in the fifth a driver pans with gestures (`seq`, answered by `gestureAck`) between eases;
movers alternate between hub A and hub B, so each hub owns about half the rooms. --followers steady
followers on hub A spread over the rooms (binary frames at --rate Hz, no events) and --churn short
followers a second (1-9 s each, so as many leave: ~5 x churn of them live at once) run in --workers
processes (scripts/soak_worker.py). Every token expires after ~120 s: every client must `refresh` on
`tokenExpiring` or be closed 4001 (a drop, which fails the run).

The timeline, from t = 0 when the churn starts (the counts' baseline is read just before):
warm-up until W = min(120, max(30, duration / 6)) s; at 0.4 x duration Redis is stopped (SIGTERM)
and started again on its port 1 s later; at 0.7 x duration hub B is killed (SIGKILL) and started
again 1 s later; at duration the churn stops. A fault's window runs from its start until it has
recovered (Redis: hub A says its link is up; hub B: it answers /healthz and all its movers were
welcomed again) plus FAULT_GRACE s; recovery must come within RECOVERY_SECONDS.

Sampled every 10 s (the CSV): hub A's RSS, open fds, live counts (scripts/soak_sample.py), and the
CPU of hub A, hub B, Redis and the generator. Checked (scripts/soak_checks.py):
- rss:      the median of the last 3 loaded samples is at most 5 % above the first after warm-up;
- settle:   within SETTLE_SECONDS of the churn's end, fds, connections, clients, rooms, members,
            queued items and rooms being prepared are back at the baseline (connections, clients
            and members less the sessions for hub B's clients, which change with the rooms' owners);
- remote:   hub A's sessions for hub B's clients are at most hub B's movers;
- logs:     no error-level line in either hub's log (soak_checks.ALLOWED_ERROR_LINES, empty);
- gaps:     no steady follower without a frame for over 2 s after the warm-up, outside fault windows;
- drops:    no steady follower's connection ended; every steady follower joined;
- churn:    every churn follower outside a fault window was welcomed;
- recovery: each fault recovered within RECOVERY_SECONDS.
Writes OUT.json (the report) and OUT.csv (the samples); exits 0 only when every check passed,
else 1 with each failed check and its numbers printed. Bounded: start-up (at most ~3 min for the
followers to join), --duration, the settle and the shut-down (~1 min).
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import tempfile
import time

from soak_run import Soak


def default_hub():
    for path in (".build/release/camhub", ".build/debug/camhub"):
        if os.path.exists(path):
            return path
    return ".build/release/camhub"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=1800, help="seconds of load (default 1800)")
    parser.add_argument("--followers", type=int, default=2000, help="steady followers on hub A (default 2000)")
    parser.add_argument("--rooms", type=int, default=50, help="rooms, all kept moving (default 50)")
    parser.add_argument("--churn", type=float, default=100, help="short followers connecting (and as many leaving) per second (default 100)")
    parser.add_argument("--rate", type=int, default=5, help="frames per second each follower asks (default 5)")
    parser.add_argument("--workers", type=int, default=2, help="follower processes (default 2)")
    parser.add_argument("--hub", default=default_hub(), help="the camhub binary (default .build/release/camhub, else .build/debug/camhub)")
    parser.add_argument("--out", default="soak", help="writes OUT.json and OUT.csv (default soak)")
    args = parser.parse_args()
    for name in ("duration", "followers", "rooms", "churn", "rate", "workers"):
        if getattr(args, name) <= 0:
            parser.error(f"--{name} must be positive (got {getattr(args, name)})")
    if args.duration < 60:
        parser.error(f"--duration must be at least 60 s: a warm-up of 30 s and two faults (got {args.duration:g})")
    if not os.access(args.hub, os.X_OK):
        parser.error(f"--hub {args.hub}: no such executable (build it: swift build -c release --product camhub)")
    folder = tempfile.mkdtemp(prefix="camhub-soak.")
    print(f"soak: {args.duration:.0f} s, {args.followers} followers in {args.rooms} rooms, churn {args.churn:g}/s, "
          f"hub {args.hub}, logs in {folder}", flush=True)
    started = time.time()
    soak = Soak(args, folder)
    try:
        report = asyncio.run(soak.run())
    finally:
        soak.stop()
    report["wallSeconds"] = round(time.time() - started, 1)
    with open(args.out + ".json", "w") as f:
        json.dump(report, f, indent=1)
    soak.write_csv(args.out + ".csv")
    failed = [name for name, check in report["checks"].items() if not check["passed"]]
    print("soak: " + json.dumps({k: report[k] for k in ("summary", "generator")}), flush=True)
    for name in failed:
        print(f"soak: FAILED {name}: {json.dumps(report['checks'][name])}", flush=True)
    print(f"soak: {'every check passed' if not failed else f'{len(failed)} check(s) failed'}; report {args.out}.json, samples {args.out}.csv")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    multiprocessing.set_start_method("spawn")
    main()
