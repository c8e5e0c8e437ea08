#!/usr/bin/env python3
"""The fan-out comparison table of docs/BENCHMARKS.md from `camhub bench --json`
reports named fanout-<server>-<followers>.json, e.g. fanout-camhub-l1-10000.json,
fanout-camhub-default-10000.json, fanout-uws-10000.json, fanout-picows-10000.json.
The ratio column is µs of server CPU per delivered frame over uWebSockets' at the same
follower count, from the same set of reports (one run). Sends per message come from the
reports themselves (`camhub bench --count-sends`) or, with --sends-from DIR, from the
reports of the same name in DIR: counting syscalls adds to the servers' CPU, so it is
done in a run of its own.

    python3 scripts/bench_fanout_table.py docs/bench/s9/cpu/fanout-*.json --sends-from docs/bench/s9/sends
"""
import json
import os
import re
import sys

NAMES = {"camhub-l1": "camhub `--loops 1`", "camhub-default": "camhub (default `--loops`)",
         "uws": "uWebSockets", "picows": "picows"}
ORDER = list(NAMES)


def load(path: str):
    m = re.search(r"fanout-(.+)-(\d+)\.json$", path)
    if not m:
        raise SystemExit(f"{path}: not named fanout-<server>-<followers>.json")
    with open(path) as f:
        return m.group(1), int(m.group(2)), json.load(f)


def num(v, digits=1, scale=1.0, unit=""):
    return "–" if v is None else f"{v * scale:.{digits}f}{unit}"


def sends_per_message(path: str, report: dict, sends_from):
    if sends_from:
        other = os.path.join(sends_from, os.path.basename(path))
        if not os.path.exists(other):
            return None
        with open(other) as f:
            return json.load(f).get("hub", {}).get("sendsPerMessage")
    return report.get("hub", {}).get("sendsPerMessage")


def main() -> int:
    args = sys.argv[1:]
    sends_from = None
    if "--sends-from" in args:
        i = args.index("--sends-from")
        sends_from = args[i + 1]
        del args[i:i + 2]
    reports = [(p, *load(p)) for p in args]
    uws = {n: r["hub"].get("cpuPerFrameMicros") for _, s, n, r in reports if s == "uws"}
    print("| server | followers × 30 Hz | delivered | p50 / p99 ms | server CPU | µs CPU per delivered frame "
          "| ratio to uWS | sends per message | idle RSS per connection | hub ticks/s | load generator | machine busy |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path, server, n, r in sorted(reports, key=lambda t: (t[2], ORDER.index(t[1]) if t[1] in ORDER else 99)):
        hub = r.get("hub", {})
        per_frame = hub.get("cpuPerFrameMicros")
        ratio = per_frame / uws[n] if per_frame and uws.get(n) else None
        rss = hub.get("rssPerConnectionBytes")
        lat = r["latencyMs"]
        print("| " + " | ".join([
            NAMES.get(server, server), f"{n:,}", f"{r['deliveredPercent']:.2f} %",
            f"{lat['p50']:.1f} / {lat['p99']:.1f}", num(hub.get("cpuCores"), 1, 100, " %"), num(per_frame, 2),
            num(ratio, 2), num(sends_per_message(path, r, sends_from), 3), num(rss, 2, 1 / 1024, " KiB"),
            num(hub.get("ticksPerSecond"), 1), num(r.get("loadGeneratorCores"), 0, 100, " %"),
            num(r.get("machineBusyPercent"), 0, 1, " %"),
        ]) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
