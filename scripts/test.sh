#!/usr/bin/env bash
# Runs every test: Swift (unit and integration), the web viewer's JavaScript tests, the Python client's,
# the benchmark's busy follower client's, then the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each part says how long it took ("test: swift test took 240 s").
took() { echo "test: $1 took $(($SECONDS - $2)) s"; }
t=$SECONDS; scripts/setup.sh; took setup $t
# The Swift suite drives the hub with Python's websockets too (an independent client).
python3 -c 'import websockets' 2>/dev/null || python3 -m pip install --quiet websockets==17.4
t=$SECONDS; swift build --build-tests; took "swift build" $t
# Every message the hub sends to the Swift integration tests' clients, and every
# message the viewer's node tests send, is recorded and then checked against
# docs/asyncapi.yaml (the browser tests check theirs in-process, per test); the
# server API's exchanges against docs/openapi.yaml.
wire=.build/wire
mkdir -p "$wire"
: > "$wire/hub-sent.jsonl"
: > "$wire/viewer-sent.jsonl"
: > "$wire/api-exchanges.jsonl"
t=$SECONDS
CAMHUB_HUB_MESSAGES="$PWD/$wire/hub-sent.jsonl" CAMHUB_API_EXCHANGES="$PWD/$wire/api-exchanges.jsonl" swift test
took "swift test" $t
# The server API's requests and answers in those tests, against docs/openapi.yaml.
python3 scripts/validate_api.py --require-all --min 10 "$wire/api-exchanges.jsonl"
python3 scripts/validate_messages.py --sender hub --min 1000 \
  --require welcome,frame,animation,event,result,gestures,error,pong "$wire/hub-sent.jsonl"
if [ -d web/tests ]; then
  t=$SECONDS
  # The viewer's tests and the JavaScript client library's (these against a real hub, hence the
  # WebSocket node 20 keeps behind a flag); then the library's type declarations.
  CAMHUB_VIEWER_MESSAGES="$PWD/$wire/viewer-sent.jsonl" node --experimental-websocket --no-warnings \
    --import ./web/tests/support/wire_capture.mjs --test web/tests/ clients/js/test/
  clients/js/types.sh --check
  took node $t
  python3 scripts/validate_messages.py --sender client --require hello,ping "$wire/viewer-sent.jsonl"
fi
python3 scripts/validate_messages.py --self-check --examples docs/PROTOCOL.md
# The app library alone, as an app builds it: nothing of the hub's C in its build (a few minutes).
t=$SECONDS; scripts/test_kit_alone.sh; took "kit alone" $t
# The Python client, pip-installed into a fresh venv, against a real hub.
t=$SECONDS; scripts/test_python_client.sh; took "python client" $t
# The benchmark's busy follower client (C) against a real hub: its parser self-test, then
# 50 followers in both encodings for 3 s (about 8 s in all).
t=$SECONDS; scripts/test_busy_follower.sh; took "busy follower" $t
# The viewer page in headless Chromium against the real hub (installs chromium,
# chromium-driver and the Python packages when missing). SKIP_BROWSER_TESTS=1 skips.
if [ -z "${SKIP_BROWSER_TESTS:-}" ]; then
  t=$SECONDS; scripts/test_browser.sh; took browser $t
fi
