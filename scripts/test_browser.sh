#!/usr/bin/env bash
# Browser tests: the viewer page (web/index.html) in headless Chromium against
# the real hub (`camhub serve`), with Selenium and Python hub clients.
# Installs what is missing (Debian chromium + chromium-driver, the PyPI packages
# in Tests/browser/requirements.txt, MapLibre into web/vendor/), builds the hub
# unless CAMHUB names one, then runs pytest. Exits non-zero on any failure.
#
# Usage: scripts/test_browser.sh [pytest args…]      e.g. -k drag, -x
# Environment: CAMHUB (hub binary; default .build/debug/camhub, built here),
#              CHROMIUM, CHROMEDRIVER (default /usr/bin/chromium, /usr/bin/chromedriver)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v "${CHROMIUM:-chromium}" >/dev/null || ! command -v "${CHROMEDRIVER:-chromedriver}" >/dev/null; then
  echo "test_browser: installing chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import selenium, websockets, pytest, trio, urllib3, websocket' 2>/dev/null \
   || [ "$("$PYTHON" -c 'import selenium; print(selenium.__version__)')" != "4.52.0" ]; then
  echo "test_browser: installing Python packages"
  "$PYTHON" -m pip install --quiet -r Tests/browser/requirements.txt
  "$PYTHON" -m pip install --quiet --no-deps selenium==4.52.0
fi

scripts/install_web_vendor.sh >/dev/null
python3 scripts/make_tiles.py   # the offline basemap (once; nothing to do when built)

if [ -z "${CAMHUB:-}" ]; then
  swift build --product camhub
  export CAMHUB="$PWD/.build/debug/camhub"
fi
[ -x "$CAMHUB" ] || { echo "test_browser: hub binary $CAMHUB not found"; exit 1; }

export SE_OFFLINE=true   # Selenium Manager must never download a driver or browser
exec "$PYTHON" -m pytest Tests/browser -c Tests/browser/pytest.ini --rootdir Tests/browser -q -p no:cacheprovider "$@"
