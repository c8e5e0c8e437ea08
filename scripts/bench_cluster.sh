#!/usr/bin/env bash
# One room's followers on one hub, or spread over HUBS hubs of a Redis cluster:
#   scripts/bench_cluster.sh HUBS FOLLOWERS RATE DURATION OUT.json [extra camhub bench options…]
# Starts redis-server (loopback, no persistence) and HUBS release hubs with --redis
# (HUBS=1: one hub without Redis, the in-memory engine), runs `camhub bench` with one
# --url per hub (presenter on the first), and adds to the report what the bench cannot
# see: every hub's CPU (user+system seconds over the run, from /proc) and Redis'
# commands per second (INFO stats over the run). Bounded by `timeout`; loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
hubs=${1:?hubs}; followers=${2:?followers}; rate=${3:?rate}; duration=${4:?seconds}; out=${5:?out.json}; shift 5
first=${BENCH_PORT:-18281}
redis_port=${BENCH_REDIS_PORT:-16391}
bin=.build/release/camhub
[ -x "$bin" ] || swift build -c release --product camhub
ulimit -n 65536 2>/dev/null || true
mkdir -p "$(dirname "$out")"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
redis_args=()
if [ "$hubs" -gt 1 ]; then
  redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no --loglevel warning >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis_args=(--redis "redis://127.0.0.1:$redis_port")
fi
urls=()
hub_pids=()
for i in $(seq "$hubs"); do
  port=$((first + i - 1))
  "$bin" serve --host 127.0.0.1 --port "$port" --tick 60 --web web "${redis_args[@]}" >"${out%.json}.hub$i.log" 2>&1 &
  pids+=($!); hub_pids+=($!)
  for _ in $(seq 50); do grep -q listening "${out%.json}.hub$i.log" 2>/dev/null && break; sleep 0.1; done
  urls+=(--url "ws://127.0.0.1:$port/hub")
done
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }  # clock ticks, user + system
ops() { [ "$hubs" -gt 1 ] && redis-cli -p "$redis_port" info stats | awk -F: '/^total_commands_processed/ {print $2+0}' || echo 0; }
declare -A before
for pid in "${hub_pids[@]}"; do before[$pid]=$(cpu "$pid"); done
ops_before=$(ops); started=$(date +%s.%N)
status=0
timeout $(( duration + followers / 100 + 180 )) "$bin" bench "${urls[@]}" --followers "$followers" --rate "$rate" \
  --duration "$duration" --hub-pid "${hub_pids[0]}" --json "$out" "$@" || status=$?
elapsed=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
hz=$(getconf CLK_TCK)
for i in "${!hub_pids[@]}"; do
  pid=${hub_pids[$i]}
  used=$(awk -v a="${before[$pid]}" -v b="$(cpu "$pid")" -v hz="$hz" 'BEGIN {printf "%.2f", (b - a) / hz}')
  echo "hub $((i + 1)) (pid $pid): $used CPU seconds over $elapsed s (connect, warm-up, window, drain)"
done
if [ "$hubs" -gt 1 ]; then
  echo "redis: $(awk -v a="$ops_before" -v b="$(ops)" -v t="$elapsed" 'BEGIN {printf "%.0f", (b - a) / t}') commands per second over the run"
fi
exit "$status"
