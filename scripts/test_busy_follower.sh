#!/usr/bin/env bash
# The busy follower client (scripts/busy_follower/busy_follower.c) against a real hub
# (the debug build; CAMHUB=path for another), in about 8 s:
#  1. its self-test: the frame parser on a crafted stream fed whole, in chunks of
#     every size from 1 to 40 bytes and byte by byte (7-, 16- and 64-bit lengths,
#     fragments with a ping between them, ping → masked pong, close → masked close),
#     the handshake digest (RFC 6455's example), the window and the histogram;
#  2. against a port where nothing listens: no follower connects, exit status 1;
#  3. a hub ticking at 30 Hz kept moving by the spin presenter, 50 followers (half
#     binary frames, half JSON) asking for 30 Hz, a 3 s window. A hub ticking at the
#     rate sends every follower every frame, so each follower must count the same
#     frames (both encodings alike), with no seq gap, no error, finite latency, and
#     50 × 30 × 3 = 4,500 frames within -5 % / +2 %: a hub on a loaded machine may
#     skip a tick (every follower then misses the same frame), and a first frame
#     late by more than half a period may add one per follower.
set -euo pipefail
cd "$(dirname "$0")/.."
camhub=${CAMHUB:-.build/debug/camhub}
[ -x "$camhub" ] || { echo "test_busy_follower.sh: no hub at $camhub (swift build, or CAMHUB=path)" >&2; exit 1; }
cc=${CC:-$(command -v cc || command -v clang)}
tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]+"${pids[@]}"}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]+"${pids[@]}"}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "test_busy_follower.sh: FAIL: $*" >&2; exit 1; }

"$cc" -O2 -std=c11 -Wall -Wextra -Werror -o "$tmp/busy_follower" scripts/busy_follower/busy_follower.c
"$tmp/busy_follower" --self-test

closed=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if "$tmp/busy_follower" --port "$closed" --followers 3 --seconds 0.2 --settle 0 --connect-timeout 3 --quiet \
  > "$tmp/refused.json"; then
  fail "exit status 0 with nothing listening"
fi
python3 - "$tmp/refused.json" <<'EOF' || fail "the report with nothing listening"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["connected"] == 0 and r["failed"] == 3 and r["frames"] == 0, r
assert "connect" in r["first_error"], r["first_error"]
EOF

"$camhub" serve --host 127.0.0.1 --port 0 --loops 1 --tick 30 --web web > "$tmp/hub.log" 2>&1 &
hub=$!
pids+=("$hub")
for _ in $(seq 100); do grep -qs "listening on" "$tmp/hub.log" && break; sleep 0.1; done
port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$tmp/hub.log" | head -n 1)
[ -n "$port" ] || { cat "$tmp/hub.log" >&2; fail "the hub did not start"; }
python3 scripts/busy_follower/spin_script.py --segments 60 > "$tmp/spin.json"
"$camhub" present --url "ws://127.0.0.1:$port/hub" --room bench --script "$tmp/spin.json" --loop --plain \
  > "$tmp/presenter.log" 2>&1 &
pids=("$!" "${pids[@]}")
for _ in $(seq 100); do grep -qs "spin-1" "$tmp/presenter.log" && break; sleep 0.1; done

status=0
timeout 60 "$tmp/busy_follower" --port "$port" --followers 50 --rate 30 --seconds 3 --settle 1 --encoding mixed \
  --server-pid "$hub" --quiet > "$tmp/run.json" || status=$?
python3 - "$tmp/run.json" "$status" <<'EOF' || { cat "$tmp/presenter.log" >&2; fail "the run against the hub"; }
import json, math, sys
r = json.load(open(sys.argv[1]))
status = int(sys.argv[2])
print("test_busy_follower.sh: %(connected)d followers, %(frames)d frames (binary %(frames_binary)d, json %(frames_json)d), "
      "per follower %(per_follower_min)d-%(per_follower_max)d, seq gaps %(seq_gaps)d, "
      "latency p50/p99/max %(latency_p50_ms)s/%(latency_p99_ms)s/%(latency_max_ms)s ms" % r)
def check(ok, what):
    if not ok:
        sys.exit(f"test_busy_follower.sh: {what}: {json.dumps(r)}")
check(status == 0, f"exit status {status}")
check(r["connected"] == 50 and r["failed"] == 0 and r["disconnected"] == 0, "every follower joined and stayed")
check(r["server_errors"] == 0 and r["server_closes"] == 0 and r["protocol_errors"] == 0 and r["unparsed"] == 0,
      "no error, close or unreadable message")
check(r["seq_gaps"] == 0 and r["seq_backwards"] == 0, "no seq gap (the hub ticks at the rate: a gap is a lost frame)")
check(r["per_follower_min"] == r["per_follower_max"], "every follower counted the same frames")
check(r["frames_binary"] == r["frames_json"] == r["frames"] // 2, "binary and JSON followers counted the same frames")
expected = 50 * 30 * 3
check(r["expected"] == expected and 0.95 * expected <= r["frames"] <= 1.02 * expected, "frames within -5 %/+2 % of 4,500")
for key in ("latency_p50_ms", "latency_p99_ms", "latency_max_ms"):
    check(isinstance(r[key], (int, float)) and math.isfinite(r[key]) and 0 <= r[key] < 5000, f"{key} finite")
check(r["latency_p50_ms"] <= r["latency_p99_ms"] <= r["latency_max_ms"], "latency quantiles in order")
check(r["server_cpu_percent"] is not None and r["server_us_per_frame"] is not None, "the hub's CPU was read")
EOF
echo "test_busy_follower.sh: ok"
