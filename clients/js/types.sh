#!/usr/bin/env bash
# Generates the package's TypeScript declarations (types/) from the JSDoc of src/
# with tsc (Debian's node-typescript). `types.sh --check` regenerates them into
# a temporary folder and fails when they differ from types/ (someone changed the
# JSDoc without regenerating), checks the sources against their own JSDoc
# (tsc --checkJs --noEmit, tsconfig.json), and test/types/usage.js against the
# declarations (strict).
set -euo pipefail
cd "$(dirname "$0")"
generate() {
  rm -rf "$1"
  tsc --allowJs --declaration --emitDeclarationOnly --target es2022 --module es2022 --moduleResolution node \
    --lib es2022,dom --skipLibCheck --outDir "$1" src/index.js
}
if [ "${1:-}" = "--check" ]; then
  fresh=$(mktemp -d)
  trap 'rm -rf "$fresh"' EXIT
  generate "$fresh/types"
  diff -r types "$fresh/types" || { echo "types/ is stale: run clients/js/types.sh"; exit 1; }
  tsc -p tsconfig.json
  tsc -p test/types/tsconfig.json
  echo "types: up to date; src/ and test/types/usage.js check"
else
  generate types
fi
