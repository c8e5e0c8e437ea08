#!/usr/bin/env python3
"""Markdown table of many-rooms runs (`scripts/bench_rooms.sh`), the table in docs/BENCHMARKS.md.

    python3 scripts/bench_rooms_table.py docs/bench/rooms*.json

One row per report: rooms, how many moved, hub CPU with every room at rest and
per room per second, RSS per room (its presenter and follower), and while the
moving share moved: frames delivered, p99 latency, hub CPU.
"""
import json
import sys


def row(path: str, label: str) -> str:
    with open(path) as f:
        r = json.load(f)
    hub = r.get("hub", {})
    rooms = r.get("rooms") or 1
    moving = r.get("movingRooms", rooms)
    idle = hub.get("idleCores")
    per_room = None if idle is None else idle * 1e6 / rooms
    rss = hub.get("rssPerRoomBytes")
    cpu = hub.get("cpuCores")

    def num(v, digits=1, scale=1.0, suffix=""):
        return "–" if v is None else f"{v * scale:,.{digits}f}{suffix}"

    delivered = f"{r['deliveredPercent']:.2f} %" if r.get("expectedFrames") else "–"
    return "| " + " | ".join([
        label, f"{rooms:,}", f"{moving:,}",
        num(idle, 2, 100, " %"), num(per_room, 2),
        num(rss, 1, 1 / 1024),
        delivered, num(r["latencyMs"]["p99"], 1) if r.get("expectedFrames") else "–",
        num(cpu, 1, 100, " %"),
        num(r.get("machineBusyPercent"), 0, 1, " %"),
    ]) + " |"


def main(paths):
    print("| hub | rooms | moving | hub CPU, all at rest | µs per room per second at rest | RSS per room KiB | "
          "delivered (moving rooms) | p99 ms | hub CPU while moving | machine busy |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for p in paths:
        label = "before (106f15f)" if "/base" in p or "base-" in p else "camhub"
        print(row(p, label))


if __name__ == "__main__":
    main(sys.argv[1:])
