#!/usr/bin/env python3
"""The table and plot of scripts/bench_curve.sh's reports.

    python3 scripts/bench_curve_table.py OUT_DIR

Reads OUT_DIR/<server>-<followers>-r<round>.json (scripts/bench_pinned.sh reports), writes
OUT_DIR/curve.md: per server and follower count the median over rounds of delivered %, p50/p99
latency (ms), server CPU % and µs of server CPU per delivered frame, the ratio of that to
uWebSockets' at the same count, and the load generator's CPU; and OUT_DIR/curve.png (needs
matplotlib): µs per frame and p99 against followers, one line per server, a point that delivered
less than 99.5 % of its frames marked with its share.
"""
import json
import pathlib
import re
import statistics
import sys

NAMES = {
    "camhub-loops1": "camhub, 1 loop",
    "camhub-default": "camhub, default loops",
    "camhub-default-unhinted": "camhub, default loops, no room in URL",
    "uws": "uWebSockets",
}


def load(out: pathlib.Path):
    points = {}
    for path in sorted(out.glob("*.json")):
        m = re.fullmatch(r"(camhub-loops1|camhub-default-unhinted|camhub-default|uws)-(\d+)-r(\d+)", path.stem)
        if not m:
            continue
        points.setdefault((m.group(1), int(m.group(2))), []).append(json.loads(path.read_text()))
    return points


def median(reports, key):
    values = [r[key] for r in reports if r.get(key) is not None]
    return statistics.median(values) if values else None


def main() -> int:
    out = pathlib.Path(sys.argv[1])
    points = load(out)
    if not points:
        print(f"bench_curve_table.py: no reports in {out}", file=sys.stderr)
        return 1
    counts = sorted({n for _, n in points})
    rows = ["| followers | server | runs | delivered | p50 / p99 ms | server CPU | µs/frame | × uWS | client CPU |",
            "|---|---|---|---|---|---|---|---|---|"]
    curve = {}
    for n in counts:
        peer = median(points.get(("uws", n), []), "server_us_per_frame")
        for server in NAMES:
            reports = points.get((server, n))
            if not reports:
                continue
            us = median(reports, "server_us_per_frame")
            delivered = median(reports, "delivered_fraction")
            curve.setdefault(server, []).append((n, us, median(reports, "latency_p99_ms"), delivered))
            ratio = f"{us / peer:.2f}" if us and peer else "–"
            rows.append(f"| {n:,} | {NAMES[server]} | {len(reports)} | {100 * delivered:.2f} % | "
                        f"{median(reports, 'latency_p50_ms'):.1f} / {median(reports, 'latency_p99_ms'):.1f} | "
                        f"{median(reports, 'server_cpu_percent'):.1f} % | {us:.2f} | {ratio} | "
                        f"{median(reports, 'client_cpu_percent'):.0f} % |")
    (out / "curve.md").write_text("\n".join(rows) + "\n")
    print("\n".join(rows))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench_curve_table.py: no matplotlib, no plot (pip install matplotlib)", file=sys.stderr)
        return 0
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for server, series in curve.items():
        xs = [n for n, _, _, _ in series]
        left.plot(xs, [us for _, us, _, _ in series], marker="o", label=NAMES[server])
        right.plot(xs, [p99 for _, _, p99, _ in series], marker="o", label=NAMES[server])
        for n, us, p99, delivered in series:  # a point that did not deliver every frame says how many it did
            if delivered < 0.995:
                for ax, y in ((left, us), (right, p99)):
                    ax.annotate(f"{100 * delivered:.0f} % delivered", (n, y), textcoords="offset points", xytext=(-60, 8), fontsize=8)
    left.set(xlabel="followers (one room, 30 Hz)", ylabel="µs of server CPU per delivered frame", ylim=(0, None))
    right.set(xlabel="followers (one room, 30 Hz)", ylabel="p99 latency, ms", yscale="log")
    for ax in (left, right):
        ax.set_xscale("log")
        ax.set_xticks(counts, [f"{n:,}" for n in counts])
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.suptitle("Default setup: nothing pinned, server and load generator on one 2-core machine")
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
