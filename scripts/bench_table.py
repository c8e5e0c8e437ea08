#!/usr/bin/env python3
"""Markdown table of `camhub bench --json` reports (the table in docs/BENCHMARKS.md).

    python3 scripts/bench_table.py docs/bench/f*.json docs/bench/peer-*.json
"""
import json
import sys


def row(path: str) -> str:
    with open(path) as f:
        r = json.load(f)
    hub = r.get("hub", {})
    lat = r["latencyMs"]
    server = "picows peer" if "peer" in path else ("camhub (lws poll loop)" if "poll-" in path else "camhub")
    if (r.get("rooms") or 1) > 1:
        server += f", {r['rooms']} rooms"

    def num(v, digits=1, scale=1.0):
        return "–" if v is None else f"{v * scale:.{digits}f}"

    ref = r.get("referenceFrames", 0) / r["expectedPerFollower"] * 100 if r.get("expectedPerFollower") else None
    rss = hub.get("rssPerConnectionBytes")
    return "| " + " | ".join([
        server,
        f"{r['followersRequested']:,}",
        f"{r['rate']:g}",
        f"{r['connected']:,}",
        f"{r['deliveredPercent']:.2f} %",
        num(ref, 1) + " %",
        num(lat["p50"], 1), num(lat["p99"], 1), num(lat["p999"], 1), num(lat["max"], 1),
        num(hub.get("cpuCores"), 0, 100) + " %",
        num(hub.get("cpuPerFrameMicros"), 1),
        num(rss, 1, 1 / 1024) if rss is not None else "–",
        num(r.get("loadGeneratorCores"), 0, 100) + " %",
        num(r.get("machineBusyPercent"), 0) + " %",
        f"{r['connectSeconds']:.0f} s",
    ]) + " |"


def main() -> int:
    print("| server | followers | Hz | connected | delivered | reference | p50 ms | p99 ms | p99.9 ms | max ms "
          "| hub CPU (1 core = 100 %) | hub µs / frame | RSS / conn KiB | load gen CPU | machine busy | connect |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in sys.argv[1:]:
        print(row(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
