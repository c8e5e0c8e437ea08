#!/usr/bin/env bash
# Runs every test: Swift (unit and integration), the web viewer's JavaScript tests, then the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
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
