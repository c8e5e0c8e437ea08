#!/usr/bin/env bash
# Runs every test: Swift (unit and integration), the web viewer's JavaScript tests, then the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The Swift suite drives the hub with Python's websockets too (an independent client).
python3 -c 'import websockets' 2>/dev/null || python3 -m pip install --quiet websockets==17.4
swift build --build-tests
swift test
if [ -d web/tests ]; then
  node --test web/tests/
fi
# The viewer page in headless Chromium against the real hub (installs chromium,
# chromium-driver and the Python packages when missing). SKIP_BROWSER_TESTS=1 skips.
if [ -z "${SKIP_BROWSER_TESTS:-}" ]; then
  scripts/test_browser.sh
fi
