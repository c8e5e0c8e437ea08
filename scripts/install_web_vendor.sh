#!/usr/bin/env bash
# Installs MapLibre GL JS into web/vendor/maplibre/ (git-ignored) from the PyPI
# wheel maplibre==0.3.6, which bundles MapLibre GL JS 5.3.0 as
# maplibre/srcjs/maplibre-gl.js and maplibre/srcjs/maplibre-gl.css.
# Idempotent: exits 0 at once when both files are already there.
# Usage: scripts/install_web_vendor.sh [--force]
set -euo pipefail

WHEEL_SPEC="maplibre==0.3.6"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/web/vendor/maplibre"
FILES=(maplibre-gl.js maplibre-gl.css)

have_all() {
  for f in "${FILES[@]}"; do
    [[ -s "$DEST/$f" ]] || return 1
  done
}

if [[ "${1:-}" != "--force" ]] && have_all; then
  echo "install_web_vendor: MapLibre GL JS already in web/vendor/maplibre/ ($(cat "$DEST/VERSION" 2>/dev/null || echo 'version unknown')); nothing to do"
  exit 0
fi

PYTHON="${PYTHON:-python3}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

echo "install_web_vendor: downloading the $WHEEL_SPEC wheel (no dependencies)"
"$PYTHON" -m pip download --quiet --no-deps --only-binary=:all: --dest "$TMP" "$WHEEL_SPEC"
WHEEL="$(ls "$TMP"/maplibre-*.whl | head -n 1)"

mkdir -p "$DEST"
"$PYTHON" - "$WHEEL" "$DEST" "${FILES[@]}" <<'PY'
import os, re, sys, zipfile
wheel, dest, names = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(wheel) as z:
    for name in names:
        member = "maplibre/srcjs/" + name
        data = z.read(member)  # KeyError if the wheel's layout changed
        tmp = os.path.join(dest, name + ".part")
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, os.path.join(dest, name))
        print(f"install_web_vendor: extracted {member} -> web/vendor/maplibre/{name} ({len(data)} bytes)")
    js = z.read("maplibre/srcjs/maplibre-gl.js").decode("utf-8", "replace")
    m = re.search(r"maplibre-gl-js/blob/v([0-9][0-9.]*)/", js[:2000])
    version = m.group(1) if m else "unknown"
with open(os.path.join(dest, "VERSION"), "w") as f:
    f.write(f"MapLibre GL JS {version} from {os.path.basename(wheel)}\n")
print(f"install_web_vendor: MapLibre GL JS {version} installed")
PY
