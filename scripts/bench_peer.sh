#!/usr/bin/env bash
# The same bench client against a well-known peer on 127.0.0.1: PEER=picows (the
# default) is a picows broadcast server on asyncio (scripts/bench_peer_picows.py),
# PEER=uws a uWebSockets pub/sub server through socketify, its libuv loop run
# natively (scripts/bench_peer_uws.py). The peer's own log is OUT.peer.log.
#   scripts/bench_peer.sh FOLLOWERS RATE DURATION OUT.json [extra camhub bench options…]
#   PEER=uws scripts/bench_peer.sh FOLLOWERS RATE DURATION OUT.json --count-sends
set -euo pipefail
cd "$(dirname "$0")/.."
followers=${1:?followers}; rate=${2:?rate}; duration=${3:?seconds}; out=${4:?out.json}; shift 4
port=${PEER_PORT:-18282}
peer_kind=${PEER:-picows}
case "$peer_kind" in
  picows) python3 -c 'import picows' 2>/dev/null || pip install picows==2.3.1 ;;
  uws) python3 -c 'import socketify' 2>/dev/null || pip install socketify==0.0.31 ;;
  *) echo "bench_peer.sh: PEER must be picows or uws (got '$peer_kind')" >&2; exit 2 ;;
esac
bin=.build/release/camhub
[ -x "$bin" ] || swift build -c release --product camhub
mkdir -p "$(dirname "$out")"
python3 "scripts/bench_peer_$peer_kind.py" --port "$port" --rate "$rate" --max-seconds $(( duration + followers / 50 + 300 )) \
  > "${out%.json}.peer.log" 2>&1 &
peer=$!
trap 'kill "$peer" 2>/dev/null || true; wait "$peer" 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q listening "${out%.json}.peer.log" 2>/dev/null && break; sleep 0.1; done
kill -0 "$peer" 2>/dev/null || { cat "${out%.json}.peer.log" >&2; echo "bench_peer.sh: the $peer_kind peer did not start" >&2; exit 1; }
# --hub-pid must be the Python process itself (not a wrapper such as a pyenv shim): the peer prints its pid.
pypid=$(sed -n 's/.*listening.*, pid \([0-9]*\)$/\1/p' "${out%.json}.peer.log" | head -n 1)
hub_pid=${pypid:-$peer}
status=0
timeout $(( duration + followers / 50 + 240 )) "$bin" bench --url "ws://127.0.0.1:$port/hub" --followers "$followers" \
  --rate "$rate" --duration "$duration" --hub-pid "$hub_pid" --json "$out" "$@" || status=$?
kill "$peer" 2>/dev/null || true; wait "$peer" 2>/dev/null || true
grep -v listening "${out%.json}.peer.log" | tail -n 5 || true   # the peer's own summary, if it prints one
exit "$status"
