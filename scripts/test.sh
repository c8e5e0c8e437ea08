#!/usr/bin/env bash
# Runs every test: Swift (unit and integration), then the web viewer's JavaScript tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test
if [ -d web/tests ]; then
  node --test web/tests/
fi
