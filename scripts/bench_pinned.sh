#!/usr/bin/env bash
# One fan-out point with the busy follower client (scripts/busy_follower/busy_follower.c),
# the server and the client each pinned to a CPU of its own:
#   scripts/bench_pinned.sh FOLLOWERS RATE SECONDS OUT.json [--server camhub|uws|picows] [--encoding binary|json|mixed] [client options…]
#   scripts/bench_pinned.sh 2000 30 15 out/pinned-camhub-2000.json
#   scripts/bench_pinned.sh 2000 30 15 out/pinned-uws-2000.json --server uws --encoding json
#
# camhub: `camhub serve --loops 1` on a free loopback port under `taskset -c SERVER_CPU`,
# kept moving by `camhub present --loop` with the spin script
# (scripts/busy_follower/spin_script.py, the motion of `camhub bench --presenter spin`).
# uws, picows: scripts/bench_peer_uws.py (uWebSockets through socketify) or
# scripts/bench_peer_picows.py (JSON frames only) under the same taskset; each moves its own camera at RATE Hz. The client, compiled here with `cc -O2`, pins
# itself to CLIENT_CPU (the presenter runs there too), connects FOLLOWERS followers, settles
# 2 s and measures SECONDS s; it reads the server's /proc/PID/stat (and, for camhub, the tick count in its /metrics) at the window's two ends,
# so the server's CPU is over exactly the window. OUT.json is the client's report
# (busy_follower.c, print_report) with the server's CPU % and µs of server CPU per
# delivered frame, plus what ran; the server's and presenter's logs go beside it.
#
# Environment: CAMHUB (default .build/release/camhub), SERVER_CPU (0), CLIENT_CPU (1),
# HUB_TICK (60, as scripts/bench_run.sh; the client expects a seq step of HUB_TICK / RATE),
# HUB_ARGS (more `camhub serve` options), CC (cc), LOOPS (camhub's `--loops`: 1 when pinned, the
# hub's own default when PIN=no), PIN (yes; `PIN=no` is the default setup a user runs: nothing
# pinned, the server, presenter and client free to share every CPU, and the client sleeping in
# `epoll_wait` (`--sleep`) instead of spinning on a core of its own). Extra arguments go to the client
# (e.g. --sleep, --settle 5, --batch 64). Exit status: the client's (0: every follower
# joined and stayed connected).
set -euo pipefail
cd "$(dirname "$0")/.."
followers=${1:?followers}; rate=${2:?rate}; seconds=${3:?seconds}; out=${4:?out.json}; shift 4
server=camhub; encoding=binary; extra=(); ticks=()
while [ $# -gt 0 ]; do
  case "$1" in
    --server) server=${2:?--server camhub|uws|picows}; shift 2 ;;
    --encoding) encoding=${2:?--encoding binary|json|mixed}; shift 2 ;;
    *) extra+=("$1"); shift ;;
  esac
done
case "$server" in camhub|uws|picows) ;; *) echo "bench_pinned.sh: --server is camhub, uws or picows (got '$server')" >&2; exit 2 ;; esac
if [ "$server" = picows ] && [ "$encoding" != json ]; then
  echo "bench_pinned.sh: the picows peer sends JSON frames only: add --encoding json" >&2; exit 2
fi
camhub=${CAMHUB:-.build/release/camhub}
server_cpu=${SERVER_CPU:-0}
client_cpu=${CLIENT_CPU:-1}
tick=${HUB_TICK:-60}
pin=${PIN:-yes}
case "$pin" in yes|no) ;; *) echo "bench_pinned.sh: PIN is yes or no (got '$pin')" >&2; exit 2 ;; esac
# on CPU: the prefix that runs a process on that CPU (nothing when PIN=no)
on() { if [ "$pin" = yes ]; then echo "taskset -c $1"; fi; }
if [ "$pin" = yes ]; then
  loops=${LOOPS:-1}; client_pin=(--cpu "$client_cpu")
else
  loops=${LOOPS:-}; client_pin=(--sleep); server_cpu=-1; client_cpu=-1
fi
loop_args=(); [ -n "$loops" ] && loop_args=(--loops "$loops")

# The client: rebuilt when its source is newer.
client=.build/busy_follower/busy_follower
mkdir -p "$(dirname "$client")" "$(dirname "$out")"
if [ ! -x "$client" ] || [ scripts/busy_follower/busy_follower.c -nt "$client" ]; then
  "${CC:-cc}" -O2 -o "$client" scripts/busy_follower/busy_follower.c
fi
# 10,000 followers are 10,000 sockets on each side (the client raises its own limit too).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]+"${pids[@]}"}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]+"${pids[@]}"}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
server_log=${out%.json}.server.log
limit=$(awk -v s="$seconds" -v n="$followers" 'BEGIN { printf "%d", s + n / 500 + 90 }')   # the client's phases end well before

wait_for() {  # wait_for FILE PATTERN SECONDS: 0 once FILE has a line matching PATTERN
  local i
  for i in $(seq $(( $3 * 10 ))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

if [ "$server" = camhub ]; then
  [ -x "$camhub" ] || { echo "bench_pinned.sh: no camhub at $camhub (swift build -c release --product camhub, or CAMHUB=path)" >&2; exit 1; }
  # shellcheck disable=SC2086
  $(on "$server_cpu") "$camhub" serve --host 127.0.0.1 --port 0 "${loop_args[@]+"${loop_args[@]}"}" --tick "$tick" --web web ${HUB_ARGS:-} \
    > "$server_log" 2>&1 &
  server_pid=$!   # taskset, when used, execs the hub: this is its pid
  pids+=("$server_pid")
  wait_for "$server_log" "listening on" 10 || { cat "$server_log" >&2; echo "bench_pinned.sh: the hub did not start" >&2; exit 1; }
  port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$server_log" | head -n 1)
  python3 scripts/busy_follower/spin_script.py > "$tmp/spin.json"
  $(on "$client_cpu") "$camhub" present --url "ws://127.0.0.1:$port/hub" --room bench --script "$tmp/spin.json" \
    --loop --plain > "${out%.json}.presenter.log" 2>&1 &
  pids=("$!" "${pids[@]}")   # stopped before the hub
  wait_for "${out%.json}.presenter.log" "spin-1" 10 || {
    cat "${out%.json}.presenter.log" >&2; echo "bench_pinned.sh: the presenter did not start" >&2; exit 1; }
  # A follower asking for RATE of a hub ticking at HUB_TICK gets every (HUB_TICK / RATE)th seq.
  step=$(python3 -c "t, r = float('$tick'), float('$rate'); print(int(t / r) if (t / r).is_integer() else 0)")
  if [ "$step" = 0 ]; then
    echo "bench_pinned.sh: HUB_TICK $tick is not a multiple of RATE $rate: seq_missing is not meaningful" >&2
    step=1
  fi
  command="$camhub serve ${loop_args[*]+"${loop_args[*]}"} --tick $tick ${HUB_ARGS:-}"
  # The hub's clock: its ticks counted in /metrics, read as the window begins and ends.
  ticks=(--ticks-metric camhub_tick_duration_seconds_count)
else
  if [ "$server" = uws ]; then
    python3 -c 'import socketify' 2>/dev/null || pip install socketify==0.0.31
  else
    python3 -c 'import picows' 2>/dev/null || pip install picows==2.3.1
  fi
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  $(on "$server_cpu") python3 "scripts/bench_peer_$server.py" --port "$port" --rate "$rate" --max-seconds "$limit" \
    > "$server_log" 2>&1 &
  pids+=("$!")
  wait_for "$server_log" "listening" 10 || { cat "$server_log" >&2; echo "bench_pinned.sh: the $server peer did not start" >&2; exit 1; }
  # The Python process itself (not a wrapper such as a pyenv shim): the peer prints its pid.
  server_pid=$(sed -n 's/.*listening.*, pid \([0-9]*\)$/\1/p' "$server_log" | head -n 1)
  step=1   # one seq per tick, every tick to every follower
  command="python3 scripts/bench_peer_$server.py --rate $rate"
  tick=$rate
fi

status=0
timeout "$limit" "$client" --port "$port" --followers "$followers" --rate "$rate" --seconds "$seconds" \
  --encoding "$encoding" "${client_pin[@]}" --server-pid "$server_pid" --seq-step "$step" \
  "${ticks[@]+"${ticks[@]}"}" "${extra[@]+"${extra[@]}"}" > "$tmp/client.json" || status=$?
kill -0 "$server_pid" 2>/dev/null || echo "bench_pinned.sh: the server exited during the run (see $server_log)" >&2
[ -s "$tmp/client.json" ] || { echo "bench_pinned.sh: the client wrote no report (exit status $status)" >&2; exit 1; }

python3 - "$tmp/client.json" "$out" "$server" "$command" "$tick" "$server_cpu" "$client_cpu" "$status" <<'EOF'
import json, os, sys
client_json, out, server, command, tick, server_cpu, client_cpu, status = sys.argv[1:]
client = json.load(open(client_json))
report = {"harness": "scripts/bench_pinned.sh", "server": server, "server_command": command,
          "server_tick": float(tick), "server_cpu_pinned": int(server_cpu), "client_cpu_pinned": int(client_cpu),
          "client_exit_status": int(status)}
report.update(client)
# What the rest of the machine used over the window (whole machine, all CPUs): near 0 on an idle machine.
if client.get("machine_busy_percent") is not None and client.get("server_cpu_percent") is not None:
    ours = (client["client_cpu_percent"] + client["server_cpu_percent"]) / (os.cpu_count() or 1)
    report["other_load_percent"] = round(max(0.0, client["machine_busy_percent"] - ours), 1)
with open(out, "w") as f:
    json.dump(report, f, indent=2)
    f.write("\n")
def num(v, fmt):
    return "-" if v is None else format(v, fmt)
r = report
print(f"{server} {r['encoding']} {r['connected']}/{r['followers']} followers x {num(r['rate'], 'g')} Hz, "
      f"{num(r['window_seconds'], '.1f')} s: {r['frames']} frames of {num(r['expected'], '.0f')} "
      f"({num(r['delivered_fraction'] and 100 * r['delivered_fraction'], '.2f')} %), "
      f"p50/p99/max {num(r['latency_p50_ms'], '.2f')}/{num(r['latency_p99_ms'], '.2f')}/{num(r['latency_max_ms'], '.2f')} ms, "
      f"seq missing {r['seq_missing']}, late ticks {r['late_ticks']}; server {num(r.get('server_cpu_percent'), '.1f')} % CPU, "
      f"{num(r.get('server_us_per_frame'), '.2f')} us/frame, {num(r.get('server_ticks_per_second'), '.1f')} ticks/s; client {num(r['client_cpu_percent'], '.0f')} % CPU "
      f"(busy {num(r['client_busy_percent'], '.1f')} %); machine {num(r['machine_busy_percent'], '.0f')} % busy, "
      f"{num(r.get('other_load_percent'), '.0f')} % by other processes -> {out}")
EOF
exit "$status"
