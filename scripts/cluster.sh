#!/usr/bin/env bash
# scripts/cluster.sh N [--sentinel]: one room across N hubs, on loopback, behind one URL.
# Starts redis-server (no persistence), N `camhub serve --redis` hubs on ports
# 8081…808N and HAProxy on 8080 (deploy/haproxy.cfg with one server line per
# hub), then waits; Ctrl-C stops them all. Open http://127.0.0.1:8080/ in
# several tabs: each may land on another hub, and all show the same camera.
#
# --sentinel: a Redis master, a replica (REDIS_PORT + 1) and three Redis Sentinels
# (26390…26392) watching it as "camhub"; the hubs find the master through them
# (--redis redis+sentinel://…). Kill the master (the pid is printed) to see a failover.
#
# Environment: CAMHUB (the binary; default .build/release/camhub, built if
# missing), REDIS_PORT (6390), PORT (8080), FIRST_HUB_PORT (8081).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-2}
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "usage: scripts/cluster.sh N [--sentinel] (N hubs, 1 or more)" >&2; exit 2; }
sentinel=${2:-}
case "$sentinel" in '' | --sentinel) ;; *) echo "cluster: unknown option '$sentinel' (--sentinel)" >&2; exit 2 ;; esac
redis_port=${REDIS_PORT:-6390}
port=${PORT:-8080}
first=${FIRST_HUB_PORT:-8081}
camhub=${CAMHUB:-.build/release/camhub}
for tool in redis-server haproxy ${sentinel:+redis-sentinel}; do
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
redis_url="redis://127.0.0.1:$redis_port"
if [ -n "$sentinel" ]; then
  echo "cluster: the Redis master is pid ${pids[0]} on $redis_port"
  redis-server --bind 127.0.0.1 --port $((redis_port + 1)) --save "" --appendonly no --loglevel warning \
    --replicaof 127.0.0.1 "$redis_port" >"$run/replica.log" 2>&1 &
  pids+=($!)
  nodes=()
  for i in 0 1 2; do
    printf 'port %d\nbind 127.0.0.1\nsentinel monitor camhub 127.0.0.1 %d 2\nsentinel down-after-milliseconds camhub 1000\nsentinel failover-timeout camhub 5000\n' \
      $((26390 + i)) "$redis_port" >"$run/sentinel$i.conf"
    redis-sentinel "$run/sentinel$i.conf" >"$run/sentinel$i.log" 2>&1 &
    pids+=($!)
    nodes+=("127.0.0.1:$((26390 + i))")
  done
  redis_url="redis+sentinel://$(IFS=,; echo "${nodes[*]}")/camhub"
fi

servers=""
for i in $(seq "$n"); do
  hub_port=$((first + i - 1))
  "$camhub" serve --host 127.0.0.1 --port "$hub_port" --redis "$redis_url" >"$run/hub$i.log" 2>&1 &
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
