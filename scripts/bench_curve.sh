#!/usr/bin/env bash
# CPU per delivered frame against followers, in the default setup a user runs (nothing pinned,
# the busy follower client sleeping in epoll_wait on the same machine), one room at 30 Hz, for:
# camhub with one loop; camhub with its default loops (one per CPU), the followers naming their
# room in the URL (`/hub?room=bench`, as the client libraries do), so each is served by the room's
# loop; the same without the room in the URL (placed over the loops in turn); and uWebSockets.
# Every server gets the same client and URL (the peer ignores the query).
#   scripts/bench_curve.sh OUT_DIR [ROUNDS] [SECONDS] [FOLLOWER COUNTS…]
#   scripts/bench_curve.sh docs/bench/curve 2 15 1000 2000 5000 10000
# Each round runs every count, and at each count the servers one after another in an order
# that rotates by round, so a slow drift of the machine does not favour one of them. Each point is
# `PIN=no scripts/bench_pinned.sh` with binary frames for both (the same bytes; see there); its report is OUT_DIR/<server>-<followers>-r<round>.json.
# Then scripts/bench_curve_table.py writes OUT_DIR/curve.md (the table, medians over rounds) and
# OUT_DIR/curve.png (µs per frame and p99 against followers).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?out dir}; rounds=${2:-2}; seconds=${3:-15}; shift $(( $# < 3 ? $# : 3 ))
counts=("$@"); [ ${#counts[@]} -gt 0 ] || counts=(1000 2000 5000 10000)
mkdir -p "$out"
hinted=/hub?room=bench; plain=/hub
# name, camhub's --loops (empty: its default), the URL's path
servers=("camhub-loops1 1 $hinted" "camhub-default - $hinted" "camhub-default-unhinted - $plain" "uws - $hinted")
for round in $(seq "$rounds"); do
  for n in "${counts[@]}"; do
    for i in $(seq 0 $(( ${#servers[@]} - 1 ))); do
      IFS=' ' read -r series loops path <<< "${servers[$(( (i + round - 1) % ${#servers[@]} ))]}"
      name="$series-$n-r$round"
      if [ "$series" = uws ]; then
        PIN=no scripts/bench_pinned.sh "$n" 30 "$seconds" "$out/$name.json" --server uws --path "$path" || echo "bench_curve.sh: $name: exit $?" >&2
      else
        [ "$loops" = - ] && loops=""
        PIN=no LOOPS=$loops scripts/bench_pinned.sh "$n" 30 "$seconds" "$out/$name.json" --path "$path" || echo "bench_curve.sh: $name: exit $?" >&2
      fi
      sleep 2
    done
  done
done
python3 scripts/bench_curve_table.py "$out"
