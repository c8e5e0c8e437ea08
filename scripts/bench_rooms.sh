#!/usr/bin/env bash
# The many-rooms figures of docs/BENCHMARKS.md: N rooms, each with one presenter
# and one follower at 30 Hz, first 10 s with every room at rest (hub CPU per
# room), then 5 % of the rooms moving for a 20 s window; and the same number
# of moving rooms alone, to show that the resting ones add nothing.
#   scripts/bench_rooms.sh [OUTDIR] [PREFIX]    (default docs/bench, "rooms")
# BENCH_HUB=path/to/other/camhub measures another build's hub with this bench.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/bench}
prefix=${2:-rooms}
mkdir -p "$out"
swift build -c release --product camhub
run() { # rooms moving name
  echo "== $1 rooms, $2 moving"
  scripts/bench_run.sh "$1" 30 20 "$out/$3.json" --rooms "$1" --moving "$2" --idle 10 \
    --connect-rate 1000 > "$out/$3.txt" 2>&1
  echo "   exit $?; $(grep -E '^(frames|hub at rest):' "$out/$3.txt" | tr '\n' ' ')"
  sleep 3
}
for n in 1000 5000 10000; do
  run "$n" 5% "$prefix$n-moving5"
  run "$(( n / 20 ))" 100% "$prefix$(( n / 20 ))-alone"
done
