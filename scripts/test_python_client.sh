#!/usr/bin/env bash
# The Python client (clients/python) installed with pip into a fresh virtual
# environment, then its tests against a real `camhub serve` (the debug build;
# CAMHUB=path for another). Every message the tests' clients send and receive is
# checked against docs/asyncapi.yaml (with the system python3's jsonschema).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/python-client-venv
src=.build/python-client-src   # built from a copy: pip writes build/ and *.egg-info beside the sources
rm -rf "$venv" "$src"
cp -r clients/python "$src"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "./$src" pytest
# From the tests' folder, so that `import camhub` is the installed package, not the source tree.
cd clients/python/tests
"../../../$venv/bin/python" -m pytest -q -p no:cacheprovider .
