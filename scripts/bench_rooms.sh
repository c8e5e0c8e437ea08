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
run() { # rooms moving name threads
  echo "== $1 rooms, $2 moving, $4 client threads"
  scripts/bench_run.sh "$1" 30 20 "$out/$3.json" --rooms "$1" --moving "$2" --idle 10 \
    --connect-rate 1000 --threads "$4" > "$out/$3.txt" 2>&1
  echo "   exit $?; $(grep -E '^(frames|hub at rest)' "$out/$3.txt" | tr '\n' ' ')"
  sleep 3
}
for n in ${ROOMS:-1000 5000 10000}; do
  # Both runs of a pair use the bench's client threads for n followers (1 per
  # 2,500, at most 4): with its default, the moving rooms alone (n/20 followers)
  # had one thread, and the hub's sends then woke one reader instead of several,
  # which cost the hub less kernel time than the same frames did in the n-room run.
  threads=$(( (n + 2499) / 2500 )); [ "$threads" -gt 4 ] && threads=4
  run "$n" 5% "$prefix$n-moving5" "$threads"
  if [ "${ALONE:-1}" != 0 ]; then run "$(( n / 20 ))" 100% "$prefix$(( n / 20 ))-alone" "$threads"; fi
done
python3 scripts/bench_rooms_table.py "$out/$prefix"*.json
