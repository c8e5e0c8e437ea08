#!/usr/bin/env bash
# Runs CI as CI runs it, N times in a row: each run is a fresh clone of this
# repository's HEAD in a new folder, `CI=true bash .ci/run` with no standard input,
# its own .build (nothing is reused between runs). A suite that passes here every
# time under load is one whose landing does not depend on the machine's mood.
#
#   scripts/ci_repeat.sh N              # N runs on the machine as it is
#   scripts/ci_repeat.sh N --busy-core  # N runs while stress-ng keeps one core busy
#                                       # (Debian stress-ng, installed when missing)
#
# Every run is bounded by CI's own limit (90 min, CI_REPEAT_LIMIT=SECONDS to change),
# and the busy core stops with the run it loads. Logs and a summary (date, duration,
# exit status, the suites' closing lines) go to CI_REPEAT_DIR
# (default /tmp/camhub-ci-repeat-<date>); the summary is printed at the end.
# Exits non-zero when any run failed.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:?usage: scripts/ci_repeat.sh N [--busy-core]}
busy=${2:-}
case "$runs" in '' | *[!0-9]*) echo "ci_repeat: N must be a whole number, not '$runs'" >&2; exit 2 ;; esac
case "$busy" in '' | --busy-core) ;; *) echo "ci_repeat: unknown option '$busy' (--busy-core)" >&2; exit 2 ;; esac
limit=${CI_REPEAT_LIMIT:-5400}
out=${CI_REPEAT_DIR:-/tmp/camhub-ci-repeat-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
repo=$PWD
head=$(git rev-parse --short HEAD)

if [ -n "$busy" ] && ! command -v stress-ng >/dev/null; then
  echo "ci_repeat: installing stress-ng"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq stress-ng >/dev/null
fi

summary=$out/summary.txt
printf 'commit %s, %s runs%s, on %s (%s cores)\n' "$head" "$runs" "${busy:+ with one core kept busy (stress-ng --cpu 1)}" \
  "$(hostname)" "$(nproc)" | tee "$summary"
failed=0
for i in $(seq 1 "$runs"); do
  clone=$out/run-$i
  rm -rf "$clone"
  git clone --quiet --no-hardlinks "$repo" "$clone"
  git -C "$clone" checkout --quiet "$head"
  stress_pid=
  if [ -n "$busy" ]; then
    stress-ng --cpu 1 --cpu-method all --timeout "${limit}s" --quiet &
    stress_pid=$!
  fi
  started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  t0=$SECONDS
  status=0
  (cd "$clone" && CI=true timeout --kill-after=30 "$limit" bash .ci/run </dev/null >"$out/run-$i.log" 2>&1) || status=$?
  took=$((SECONDS - t0))
  if [ -n "$stress_pid" ]; then kill "$stress_pid" 2>/dev/null || true; wait "$stress_pid" 2>/dev/null || true; fi
  [ "$status" -eq 0 ] || failed=$((failed + 1))
  # The closing lines of the suites: Swift Testing, XCTest, node, pytest, Autobahn.
  closing=$(grep -E 'Test run with [0-9]+ tests? .*(passed|failed)|Executed [0-9]+ tests|^# (pass|fail) |^=* ?[0-9]+ (passed|failed).* in [0-9.]+s|^autobahn: ([0-9]+ cases|no unexpected)|^ci:   ' \
    "$out/run-$i.log" | sed 's/^/    /' || true)
  printf 'run %s: started %s, %d min %02d s, exit %s\n%s\n' "$i" "$started" $((took / 60)) $((took % 60)) "$status" "$closing" \
    | tee -a "$summary"
  # Keep the log, drop the clone's build (gigabytes); a failed run's clone stays for a look.
  [ "$status" -ne 0 ] || rm -rf "$clone"
done
printf '%s of %s runs passed (logs in %s)\n' $((runs - failed)) "$runs" "$out" | tee -a "$summary"
[ "$failed" -eq 0 ]
