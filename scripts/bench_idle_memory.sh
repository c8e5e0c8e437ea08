#!/usr/bin/env bash
# RSS per idle follower, the hub against libwebsockets alone, measured the same way:
#   scripts/bench_idle_memory.sh [FOLLOWERS] [ROUNDS]        (default 10000 3)
# Servers, one after the other in each round: scripts/lws_idle/lws_idle.c (libwebsockets with
# camhub's context and protocol options, answering each hello with a bare welcome), `camhub serve
# --loops 1`, and `camhub serve` with its default loops. For each, the busy follower client
# (scripts/busy_follower/busy_follower.c, sleep mode) joins FOLLOWERS followers to one room that
# no one moves (at most 128 handshakes in flight, the client's default) and holds them; the
# figure is (VmRSS 2 s after the last one joined − VmRSS before the first connected) / FOLLOWERS.
# Environment: CAMHUB (default .build/release/camhub), CC (cc). One line per run on stdout, then
# the medians.
set -euo pipefail
cd "$(dirname "$0")/.."
followers=${1:-10000}; rounds=${2:-3}
camhub=${CAMHUB:-.build/release/camhub}
mkdir -p .build/busy_follower .build/lws_idle
client=.build/busy_follower/busy_follower
lws=.build/lws_idle/lws_idle
[ -x "$client" ] && [ ! scripts/busy_follower/busy_follower.c -nt "$client" ] || "${CC:-cc}" -O2 -o "$client" scripts/busy_follower/busy_follower.c
[ -x "$lws" ] && [ ! scripts/lws_idle/lws_idle.c -nt "$lws" ] || "${CC:-cc}" -O2 -o "$lws" scripts/lws_idle/lws_idle.c -lwebsockets -lev
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
tmp=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT

rss() { awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$1/status"; }

# run NAME COMMAND…: starts the server (it prints its port), joins the followers, prints bytes per follower.
run() {
  local name=$1; shift
  "$@" > "$tmp/server.log" 2>&1 &
  local pid=$! port="" i
  for i in $(seq 100); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p; s|^listening on \([0-9]*\)$|\1|p' "$tmp/server.log" | head -n 1)
    [ -n "$port" ] && break; sleep 0.1
  done
  [ -n "$port" ] || { cat "$tmp/server.log" >&2; echo "bench_idle_memory.sh: $name did not start" >&2; exit 1; }
  sleep 1
  local before; before=$(rss "$pid")
  timeout 120 "$client" --port "$port" --followers "$followers" --rate 30 --seconds 30 --sleep > /dev/null 2> "$tmp/client.log" &
  local client_pid=$!
  for i in $(seq 600); do grep -q "^busy_follower: [0-9]* joined, [0-9]* failed (" "$tmp/client.log" && break; sleep 0.1; done
  grep -q "$followers joined, 0 failed" "$tmp/client.log" || { cat "$tmp/client.log" >&2; echo "bench_idle_memory.sh: $name: not every follower joined" >&2; exit 1; }
  sleep 2
  local after; after=$(rss "$pid")
  kill "$client_pid" 2>/dev/null; wait "$client_pid" 2>/dev/null || true
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "$name $(( (after - before) / followers ))"
}

for round in $(seq "$rounds"); do
  run lws-alone "$lws" --port 0
  run camhub-loops1 "$camhub" serve --host 127.0.0.1 --port 0 --loops 1 --web web
  run camhub-default "$camhub" serve --host 127.0.0.1 --port 0 --web web
done | tee "$tmp/runs"
awk '{ v[$1] = v[$1] " " $2 } END { for (k in v) print k ":" v[k] }' "$tmp/runs" | sort | while read -r name values; do
  median=$(echo "$values" | tr ' ' '\n' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  echo "median $name $median B per follower (runs:$values)"
done
