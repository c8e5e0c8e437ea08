#!/usr/bin/env python3
"""Latency vs followers from `camhub bench --json` reports.

    python3 scripts/bench_plot.py docs/bench/*.json -o docs/bench/latency-vs-followers.png

Plots p50, p99 and p99.9 hub→follower latency (ms, log scale) against the number of
connected followers, one series per server (file names containing "peer" are the
picows peer) and frame rate, and marks each point's delivered %.
Needs matplotlib (`pip install matplotlib`).
"""
import argparse
import json
import sys
from collections import defaultdict


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="+", help="bench JSON reports")
    parser.add_argument("-o", "--output", default="latency-vs-followers.png")
    parser.add_argument("--title", default="CameraHub: hub→follower latency vs followers (2-core VM, hub and load generator together)")
    args = parser.parse_args()

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench_plot.py needs matplotlib: pip install matplotlib", file=sys.stderr)
        return 2

    by_rate = defaultdict(list)
    for path in args.reports:
        with open(path) as f:
            r = json.load(f)
        if r.get("connected", 0) == 0 or r["latencyMs"]["count"] == 0:
            continue
        server = "picows peer" if "peer" in path else "camhub"
        by_rate[(server, r["rate"])].append(r)

    fig, ax = plt.subplots(figsize=(8, 5), dpi=110)
    styles = {"p50": "-", "p99": "--", "p999": ":"}
    colors = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown"]
    for ((server, rate), reports), color in zip(sorted(by_rate.items()), colors):
        reports.sort(key=lambda r: r["connected"])
        xs = [r["connected"] for r in reports]
        for key, style in styles.items():
            ys = [max(r["latencyMs"][key], 0.01) for r in reports]
            label = f"{server} {rate:g} Hz {key.replace('p999', 'p99.9')}"
            ax.plot(xs, ys, style, marker="o", color=color, label=label)
        for r in reports:
            ax.annotate(f"{r['deliveredPercent']:.1f} %", (r["connected"], max(r["latencyMs"]["p999"], 0.01)),
                        textcoords="offset points", xytext=(0, 6), ha="center", fontsize=7, color=color)
    ax.axhline(50, color="grey", linewidth=0.8)
    ax.text(ax.get_xlim()[0], 52, " 50 ms (round-one p99 bar)", fontsize=7, color="grey", va="bottom")
    ax.set_yscale("log")
    ax.set_xlabel("connected followers (one room)")
    ax.set_ylabel("latency, ms (log)")
    ax.set_title(args.title, fontsize=9)
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(args.output)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
