#!/usr/bin/env bash
# One benchmark point against a fresh release hub on 127.0.0.1:
#   scripts/bench_run.sh FOLLOWERS RATE DURATION OUT.json [extra camhub bench options…]
# Starts `camhub serve` (release), runs `camhub bench`, stops the hub (by its pid).
# Everything stays on loopback; the run is bounded by the bench's own deadlines
# and a `timeout` around it.
set -euo pipefail
cd "$(dirname "$0")/.."
followers=${1:?followers}; rate=${2:?rate}; duration=${3:?seconds}; out=${4:?out.json}; shift 4
port=${BENCH_PORT:-18181}
bin=.build/release/camhub
[ -x "$bin" ] || swift build -c release --product camhub
# The hub to measure (default: this build's); BENCH_HUB=path runs another build's
# `camhub serve` against this build's `camhub bench` (a before/after comparison).
# HUB_ARGS adds options to `camhub serve` (e.g. HUB_ARGS="--loops 1").
hub_bin=${BENCH_HUB:-$bin}
# 10,000 rooms with a presenter and a follower each are 20,000 sockets per side.
ulimit -n 65536 2>/dev/null || true
mkdir -p "$(dirname "$out")"
# shellcheck disable=SC2086
"$hub_bin" serve --host 127.0.0.1 --port "$port" --tick 60 --web web ${HUB_ARGS:-} > "${out%.json}.hub.log" 2>&1 &
hub=$!
trap 'kill "$hub" 2>/dev/null || true; wait "$hub" 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q listening "${out%.json}.hub.log" 2>/dev/null && break; sleep 0.1; done
limit=$(( duration + followers / 100 + 180 ))
status=0
timeout "$limit" "$bin" bench --url "ws://127.0.0.1:$port/hub" --followers "$followers" --rate "$rate" \
  --duration "$duration" --hub-pid "$hub" --json "$out" "$@" || status=$?
exit "$status"
