#!/usr/bin/env bash
# Fuzzes the hub with libFuzzer and AddressSanitizer (not part of `make test`).
#   scripts/fuzz.sh decoder [SECONDS] [libFuzzer options…]   the protocol v1 decoder: every
#       input gives a message or a ProtocolError with a message; no crash, trap or leak
#   scripts/fuzz.sh hub [SECONDS] [libFuzzer options…]       the hub logic fed message sequences
#       from a presenter, a driver and a follower: no crash, only finite JSON out, a valid camera
# Default 60 s. FUZZ_CONFIG=debug builds without optimisation (about a minute faster from
# scratch, fewer inputs a second: CI's short smoke run uses it); release is the default.
# Seeds are made from every client message example in docs/PROTOCOL.md;
# each target's corpus grows in .build-fuzz/corpus-TARGET (git-ignored), and a
# crashing input is written to the current folder as crash-… by libFuzzer.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?decoder or hub}; seconds=${2:-60}; shift $(( $# < 2 ? $# : 2 ))
case "$target" in decoder|hub) ;; *) echo "fuzz.sh: unknown target $target (decoder or hub)"; exit 2;; esac
export CAMHUB_FUZZ=1
config=${FUZZ_CONFIG:-release}
swift build --build-path .build-fuzz -c "$config" --product "camhub-fuzz-$target" \
  -Xswiftc -sanitize=fuzzer,address >/dev/null
corpus=.build-fuzz/corpus-$target
mkdir -p "$corpus"
if [ -z "$(ls -A "$corpus")" ]; then
  python3 - "$corpus" "$target" <<'PY'
import pathlib, random, sys
out, target = pathlib.Path(sys.argv[1]), sys.argv[2]
text = pathlib.Path("docs/PROTOCOL.md").read_text()
examples = sorted({l.strip() for l in text.splitlines()
                   if l.strip().startswith('{"type":') and '"hello"' not in l})
examples += ['{"type":"gesture","kind":"pan","phase":"begin","x":10,"y":20,"t":0}',
             '{"type":"gesture","kind":"pan","phase":"change","x":300,"y":200,"t":40}',
             '{"type":"gesture","kind":"pan","phase":"end","x":600,"y":380,"t":80}']
if target == "decoder":
    seeds = examples + ['[]', '"\\ud800"', '{"a":' * 40, '{"type":"set","camera":{"zoom":1e308}}']
else:
    # one byte per line: sender = byte % 3 (presenter, driver, follower), time step = (byte / 3) % 16 × 50 ms
    rnd = random.Random(7)
    seeds = ["\n".join(chr(48 + 3 * rnd.randrange(8) + s) + e for e in examples for s in (rnd.randrange(3),))
             for _ in range(4)]
    seeds += [chr(49) + e for e in examples]
for i, s in enumerate(seeds):
    (out / f"seed-{i:03d}").write_text(s)
print(f"fuzz.sh: {len(seeds)} seeds in {out}")
PY
fi
exec ".build-fuzz/$config/camhub-fuzz-$target" "$corpus" -max_total_time="$seconds" -max_len=16384 \
  -dict=scripts/fuzz_json.dict -print_final_stats=1 "$@"
