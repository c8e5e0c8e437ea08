#!/usr/bin/env bash
# The busy follower client (scripts/busy_follower/busy_follower.c) against a real hub
# (the debug build; CAMHUB=path for another), in about 10 s:
#  1. its self-test: the frame parser on a crafted stream fed whole, in chunks of
#     every size from 1 to 40 bytes and byte by byte (7-, 16- and 64-bit lengths,
#     fragments with a ping between them, ping → masked pong, close → masked close),
#     the handshake digest (RFC 6455's example), the window and the histogram;
#  2. against a port where nothing listens: no follower connects, exit status 1;
#  3. against scripts/busy_follower/wire_peer.py (Python websockets, which refuses
#     unmasked client frames): a 64-bit-length welcome, fragmented frames, 16-bit
#     events, a ping (its pong awaited by the peer) and a close 4000 to one of four
#     followers (its close reply recorded), in both encodings;
#  4. a hub ticking at 30 Hz kept moving by the spin presenter, 50 followers (half
#     binary frames, half JSON) asking for 30 Hz, a 3 s window. A hub ticking at the
#     rate sends every follower every frame, so each follower must count the same
#     frames (both encodings alike), with no seq gap, no error, finite latency, and
#     count 50 × 30 × 3 = 4,500 frames within 3 % once the ticks the hub sent late
#     are added back (`late_ticks`, from the hub-clock intervals between frames: a
#     hub on a loaded machine skips ticks, and every follower then misses the same
#     frames), and at least half of them; and the hub's ticks over the window, read
#     off its /metrics at the window's ends, match the frames each follower counted;
#  5. libwebsockets alone (scripts/lws_idle/lws_idle.c) reports its memory once 50 followers joined.
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

python3 -c 'import websockets' 2>/dev/null || python3 -m pip install --quiet websockets==17.4
python3 scripts/busy_follower/wire_peer.py --rate 30 --expect 4 --summary "$tmp/peer.json" > "$tmp/peer.log" 2>&1 &
pids+=("$!")
for _ in $(seq 100); do grep -qs "^listening" "$tmp/peer.log" && break; sleep 0.1; done
peer_port=$(sed -n 's/^listening \([0-9]*\)$/\1/p' "$tmp/peer.log")
[ -n "$peer_port" ] || { cat "$tmp/peer.log" >&2; fail "the websockets peer did not start"; }
status=0
timeout 30 "$tmp/busy_follower" --port "$peer_port" --followers 4 --rate 30 --seconds 1 --settle 0.5 --encoding mixed \
  --sleep --quiet > "$tmp/peer-run.json" || status=$?
for _ in $(seq 100); do [ -s "$tmp/peer.json" ] && break; sleep 0.1; done
python3 - "$tmp/peer-run.json" "$status" "$tmp/peer.json" <<'EOF' || fail "the run against the websockets peer"
import json, sys
r, status, peer = json.load(open(sys.argv[1])), int(sys.argv[2]), json.load(open(sys.argv[3]))
def check(ok, what):
    if not ok:
        sys.exit(f"test_busy_follower.sh: {what}: client {json.dumps(r)} peer {json.dumps(peer)[:600]}")
check(status == 1 and r["connected"] == 3 and r["disconnected"] == 1 and r["failed"] == 0, "three stay, one is closed")
check(r["server_closes"] == 1 and "4000 bye" in r["first_error"], "the close is seen with its code and reason")
check(peer["close_reply"] == 4000, "the client answers the close with its code")
check(peer["pongs"] == 4, "every ping is answered with a pong of its payload")
check(peer["errors"] == [], "the peer saw no error")
hellos = peer["hellos"]
check(len(hellos) == 4 and all(h["role"] == "follower" and h["room"] == "bench" and h["rate"] == 30 for h in hellos)
      and sum(h.get("encoding") == "binary" for h in hellos) == 2, "four masked hellos, two asking for binary frames")
check(r["protocol_errors"] == 0 and r["unparsed"] == 0 and r["seq_gaps"] == 0 and r["seq_missing"] == 0,
      "fragments and long messages parsed")
check(r["frames_binary"] > 0 and r["frames_json"] > 0 and r["other_messages"] > 0, "frames of both encodings and events")
check(24 <= r["per_follower_min"] <= r["per_follower_max"] <= 31, "about 30 frames per follower in 1 s")
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
  --server-pid "$hub" --ticks-metric camhub_tick_duration_seconds_count --quiet > "$tmp/run.json" || status=$?
python3 - "$tmp/run.json" "$status" <<'EOF' || { cat "$tmp/presenter.log" >&2; fail "the run against the hub"; }
import json, math, sys
r = json.load(open(sys.argv[1]))
status = int(sys.argv[2])
print("test_busy_follower.sh: %(connected)d followers, %(frames)d frames (binary %(frames_binary)d, json %(frames_json)d), "
      "per follower %(per_follower_min)d-%(per_follower_max)d, seq gaps %(seq_gaps)d, late ticks %(late_ticks)d, "
      "latency p50/p99/max %(latency_p50_ms)s/%(latency_p99_ms)s/%(latency_max_ms)s ms" % r)
def check(ok, what):
    if not ok:
        sys.exit(f"test_busy_follower.sh: {what}: {json.dumps(r)}")
check(status == 0, f"exit status {status}")
check(r["connected"] == 50 and r["failed"] == 0 and r["disconnected"] == 0, "every follower joined and stayed")
check(r["server_errors"] == 0 and r["server_closes"] == 0 and r["protocol_errors"] == 0 and r["unparsed"] == 0,
      "no error, close or unreadable message")
check(r["seq_gaps"] == 0 and r["seq_missing"] == 0 and r["seq_backwards"] == 0,
      "no seq gap (the hub ticks at the rate: a gap is a lost frame)")
check(r["per_follower_min"] == r["per_follower_max"], "every follower counted the same frames")
check(r["frames_binary"] == r["frames_json"] == r["frames"] // 2, "binary and JSON followers counted the same frames")
expected = 50 * 30 * 3
check(r["expected"] == expected and r["frames"] >= expected / 2, "at least half the 4,500 frames")
check(abs(expected - r["frames"] - r["late_ticks"]) <= 0.03 * expected,
      "frames and the ticks the hub sent late within 3 % of 4,500")
for key in ("latency_p50_ms", "latency_p99_ms", "latency_max_ms"):
    check(isinstance(r[key], (int, float)) and math.isfinite(r[key]) and 0 <= r[key] < 5000, f"{key} finite")
check(r["latency_p50_ms"] <= r["latency_p99_ms"] <= r["latency_max_ms"], "latency quantiles in order")
check(r["server_cpu_percent"] is not None and r["server_us_per_frame"] is not None, "the hub's CPU was read")
# Each tick of a 30 Hz hub is a frame to a follower asking for 30 Hz: the ticks read off
# /metrics at the window's ends and the frames a follower counted in it agree.
ticks = r["server_ticks_per_second"]
check(ticks is not None and abs(ticks * r["window_seconds"] - r["per_follower_max"]) <= 9,
      "the hub's ticks over the window (its /metrics) match the frames each follower counted")
EOF

# 5. libwebsockets alone (scripts/lws_idle/lws_idle.c, what scripts/bench_idle_memory.sh compares
#    the hub with): 50 followers join it and it reports its memory once they are all in.
"$cc" -O2 -Wall -Wextra -Werror -o "$tmp/lws_idle" scripts/lws_idle/lws_idle.c -lwebsockets -lev
"$tmp/lws_idle" --port 0 --expect 50 > "$tmp/lws_idle.out" 2>&1 &
pids+=("$!")
for _ in $(seq 50); do grep -q "^listening on" "$tmp/lws_idle.out" && break; sleep 0.1; done
port=$(sed -n 's/^listening on //p' "$tmp/lws_idle.out")
[ -n "$port" ] || fail "lws_idle did not start: $(cat "$tmp/lws_idle.out")"
"$tmp/busy_follower" --port "$port" --followers 50 --seconds 2 --settle 0 --quiet --sleep > /dev/null || true
grep -q '^{"connections":50,' "$tmp/lws_idle.out" || fail "lws_idle reported no memory for 50 connections: $(cat "$tmp/lws_idle.out")"
echo "test_busy_follower.sh: lws_idle: $(tail -n 1 "$tmp/lws_idle.out")"
echo "test_busy_follower.sh: ok"
