#!/usr/bin/env bash
# The same bench client against a well-known peer: a picows broadcast server
# (scripts/bench_peer_picows.py) on 127.0.0.1.
#   scripts/bench_peer.sh FOLLOWERS RATE DURATION OUT.json
set -euo pipefail
cd "$(dirname "$0")/.."
followers=${1:?followers}; rate=${2:?rate}; duration=${3:?seconds}; out=${4:?out.json}
port=${PEER_PORT:-18282}
python3 -c 'import picows' 2>/dev/null || pip install picows==2.3.1
bin=.build/release/camhub
[ -x "$bin" ] || swift build -c release --product camhub
mkdir -p "$(dirname "$out")"
python3 scripts/bench_peer_picows.py --port "$port" --rate "$rate" --max-seconds $(( duration + followers / 50 + 300 )) \
  > "${out%.json}.peer.log" 2>&1 &
peer=$!
trap 'kill "$peer" 2>/dev/null || true; wait "$peer" 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q listening "${out%.json}.peer.log" 2>/dev/null && break; sleep 0.1; done
status=0
timeout $(( duration + followers / 50 + 240 )) "$bin" bench --url "ws://127.0.0.1:$port/hub" --followers "$followers" \
  --rate "$rate" --duration "$duration" --hub-pid "$peer" --json "$out" || status=$?
exit "$status"
