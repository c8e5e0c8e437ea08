#!/usr/bin/env bash
# The figures of docs/BENCHMARKS.md: each point on a fresh release hub.
#   scripts/bench_all.sh [OUTDIR]        (default docs/bench)
# Each point takes about a minute (connect, warm up, window); 10,000 followers
# need ~20,000 open files and the load generator's CPU on top of the hub's.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/bench}
mkdir -p "$out"
swift build -c release --product camhub
run() { # followers rate seconds name [camhub bench options…]
  echo "== $1 followers × $2 Hz, $3 s ${*:5}"
  scripts/bench_run.sh "$1" "$2" "$3" "$out/$4.json" "${@:5}" > "$out/$4.txt" 2>&1
  echo "   exit $?; $(grep -E '^frames:' "$out/$4.txt")"
  sleep 5
}
run 1000 30 30 f1000-r30
run 2000 30 30 f2000-r30
run 2500 30 30 f2500-r30
run 3000 30 30 f3000-r30
run 2000 60 30 f2000-r60
run 5000 30 30 f5000-r30
run 10000 30 30 f10000-r30
CAMHUB_EVENT_LOOP=poll run 5000 30 30 poll-f5000-r30
run 2000 30 30 rooms20-f2000-r30 --rooms 20
run 2000 30 30 rooms200-f2000-r30 --rooms 200
run 3000 30 30 rooms300-f3000-r30 --rooms 300
python3 scripts/bench_plot.py "$out"/f*.json -o "$out/latency-vs-followers.png" || true
