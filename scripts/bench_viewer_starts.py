#!/usr/bin/env python3
"""Where a follower's errors are, by time since a motion started: reads the dumps
of scripts/bench_viewer.py (--dump DIR) and prints, per dump, the own and painted
errors (px, against the 3 %-bounded delay d(t)) of the display frames whose hub time
(display time - d(t)) falls 0-50, 50-150, 150-400, 400-1000 and 1000-3000 ms after a
motion began (a resting frame followed by a moving one in the hub's 60 Hz path),
and the worst frames with their time since the start and the gap to the next frame.

Usage: scripts/bench_viewer_starts.py DIR/viewer-*.json
"""

from __future__ import annotations

import json
import sys

import numpy as np

BUCKETS = [(0, 50), (50, 150), (150, 400), (400, 1000), (1000, 3000)]


def report(path: str) -> None:
    d = json.load(open(path))
    frames = d["frames"]
    starts = [frames[i + 1]["time"] for i in range(len(frames) - 1) if not frames[i]["moving"] and frames[i + 1]["moving"]]
    display = [f["T"] - d["page_minus_hub"] for f in d["bench"]["frames"]]
    print(f"{path}: motions start at hub {[round(s - frames[0]['time']) for s in starts]} ms")
    for key in ("own", "painted"):
        s = d[key]
        t, e, dd = np.array(s["t"]), np.array(s["errors"]), np.array(s["d"])
        shown = t - dd
        since = np.array([min([x - st for st in starts if x >= st] or [np.inf]) for x in shown])
        cells = []
        for a, b in BUCKETS:
            m = (since >= a) & (since < b)
            cells.append(f"{a}-{b} ms: {e[m].max():.2f} max, {np.sqrt((e[m] ** 2).mean()):.2f} RMS (n {m.sum()})" if m.any() else f"{a}-{b} ms: -")
        print(f"  {key:8} all {np.sqrt((e ** 2).mean()):.2f} RMS · " + " · ".join(cells))
        for i in np.argsort(-e)[:3]:
            nxt = [x for x in display if x > t[i] + 0.5]
            gap = (nxt[0] - t[i]) if nxt else float("nan")
            print(f"    worst {e[i]:.2f} px, {since[i]:.0f} ms after a start, next display frame {gap:.0f} ms later")


def main():
    for path in sys.argv[1:]:
        report(path)


if __name__ == "__main__":
    main()
