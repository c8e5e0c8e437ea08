#!/usr/bin/env bash
# scripts/cluster.sh N: one room across N hubs, on loopback, behind one URL.
# Starts redis-server (no persistence), N `camhub serve --redis` hubs on ports
# 8081…808N and HAProxy on 8080 (deploy/haproxy.cfg with one server line per
# hub), then waits; Ctrl-C stops them all. Open http://127.0.0.1:8080/ in
# several tabs: each may land on another hub, and all show the same camera.
#
# Environment: CAMHUB (the binary; default .build/release/camhub, built if
# missing), REDIS_PORT (6390), PORT (8080), FIRST_HUB_PORT (8081).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-2}
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "usage: scripts/cluster.sh N (N hubs, 1 or more)" >&2; exit 2; }
redis_port=${REDIS_PORT:-6390}
port=${PORT:-8080}
first=${FIRST_HUB_PORT:-8081}
camhub=${CAMHUB:-.build/release/camhub}
for tool in redis-server haproxy; do
  command -v "$tool" >/dev/null || { echo "cluster: $tool is missing; run scripts/setup.sh" >&2; exit 1; }
done
[ -x "$camhub" ] || swift build -c release --product camhub

run=$(mktemp -d /tmp/camhub-cluster.XXXXXX)
pids=()
stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$run"
}
trap stop INT TERM EXIT

redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no --loglevel warning >"$run/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
redis-cli -p "$redis_port" ping >/dev/null || { echo "cluster: redis-server did not start (see $run/redis.log)" >&2; exit 1; }

servers=""
for i in $(seq "$n"); do
  hub_port=$((first + i - 1))
  "$camhub" serve --host 127.0.0.1 --port "$hub_port" --redis "redis://127.0.0.1:$redis_port" >"$run/hub$i.log" 2>&1 &
  pids+=($!)
  servers+="    server hub$i 127.0.0.1:$hub_port check"$'\n'
done
# deploy/haproxy.cfg with this run's port and one server line per hub.
maxconn=$(( $(ulimit -n) / 2 - 100 ))
grep -v '^    server ' deploy/haproxy.cfg | sed -e "s/bind 127.0.0.1:8080/bind 127.0.0.1:$port/" \
  -e "s/^    maxconn .*/    maxconn $maxconn/" >"$run/haproxy.cfg"
printf '%s' "$servers" >>"$run/haproxy.cfg"
haproxy -f "$run/haproxy.cfg" -db >"$run/haproxy.log" 2>&1 &
pids+=($!)

for i in $(seq "$n"); do
  hub_port=$((first + i - 1))
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$hub_port/healthz" >/dev/null && break; sleep 0.1; done
done
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { echo "cluster: HAProxy does not answer on $port:" >&2; cat "$run/haproxy.log" >&2; exit 1; }
echo "cluster: Redis 127.0.0.1:$redis_port, $n hubs on $first…$((first + n - 1)), HAProxy on http://127.0.0.1:$port/ (logs in $run); Ctrl-C stops"
wait -n "${pids[@]}" || true
echo "cluster: a process exited; stopping the rest" >&2
