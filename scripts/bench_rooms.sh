#!/usr/bin/env bash
# The many-rooms figures of docs/BENCHMARKS.md: N rooms, each with one presenter
# and one follower at 30 Hz, first 10 s with every room at rest (hub CPU per
# room), then 5 % of the rooms moving for a 20 s window; and the same number
# of moving rooms alone, to show that the resting ones add nothing.
#   scripts/bench_rooms.sh [OUTDIR] [PREFIX]    (default docs/bench, "rooms")
# Environment: ROOMS="1000 5000 10000" (the room counts), ALONE=0 skips the
# moving-rooms-alone runs, BENCH_HUB=path/to/other/camhub measures another
# build's hub with this build's bench (a before/after comparison).
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
  echo "   exit $?; $(grep -E '^(frames|hub at rest)' "$out/$3.txt" | tr '\n' ' ')"
  sleep 3
}
for n in ${ROOMS:-1000 5000 10000}; do
  run "$n" 5% "$prefix$n-moving5"
  if [ "${ALONE:-1}" != 0 ]; then run "$(( n / 20 ))" 100% "$prefix$(( n / 20 ))-alone"; fi
done
python3 scripts/bench_rooms_table.py "$out/$prefix"*.json
