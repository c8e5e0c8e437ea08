#!/usr/bin/env python3
"""Validates the server API's exchanges against docs/openapi.yaml with `jsonschema`.

Each line of the input is one exchange the Swift integration tests made
(`WireCapture.recordAPI`): {"method", "path", "query", "status", "request", "response"}.
For each, the path is matched to one of the document's paths, the status must be one
the operation lists, a request body sent with a 2xx answer must match the operation's
request schema, and a response body must match the schema of its status. The schemas
refer to docs/asyncapi.yaml for the protocol's objects (camera, commands, reports).
A failure prints the exchange and what is wrong, and the run exits 1.

Usage:
  validate_api.py FILE.jsonl…            exchanges to check
Options:
  --min N            fail when fewer than N exchanges were checked (default 1)
  --require-all      fail unless every operation of the document was exercised
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7, DRAFT202012

ROOT = Path(__file__).resolve().parents[1]
OPENAPI_URI = "file:///camhub/docs/openapi.yaml"
ASYNCAPI_URI = "file:///camhub/docs/asyncapi.yaml"


def load(openapi: Path, asyncapi: Path):
    api = yaml.safe_load(openapi.read_text())
    registry = Registry().with_resources([
        (OPENAPI_URI, Resource(contents=api, specification=DRAFT202012)),
        (ASYNCAPI_URI, Resource(contents=yaml.safe_load(asyncapi.read_text()), specification=DRAFT7)),
    ])
    return api, registry


def validator(registry, pointer: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"{OPENAPI_URI}#{pointer}"}, registry=registry)


def escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def operation_of(api, method: str, path: str):
    """The (template, operation) `path` matches under the first server's base path."""
    base = re.sub(r"^https?://[^/]+", "", api["servers"][0]["url"])
    if not path.startswith(base):
        return None, None
    rest = path[len(base):]
    for template, item in api["paths"].items():
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
        if re.match(pattern, rest):
            return template, item.get(method.lower())
    return None, None


def check(api, registry, exchange) -> list[str]:
    method, path, status = exchange["method"], exchange["path"], str(exchange["status"])
    template, op = operation_of(api, method, path)
    if template is None:
        return [f"{method} {path}: no such path in docs/openapi.yaml"] if status != "404" else []
    if op is None:
        return [] if status in ("404", "405") else [f"{method} {path}: no {method} operation for {template}"]
    problems = []
    responses = op["responses"]
    if status not in responses:
        problems.append(f"{method} {path}: status {status} is not listed for this operation")
        return problems
    pointer = f"/paths/{escape(template)}/{method.lower()}"
    if exchange["request"] and status.startswith("2") and "requestBody" in op:
        body = json.loads(exchange["request"])
        for e in validator(registry, f"{pointer}/requestBody/content/application~1json/schema").iter_errors(body):
            problems.append(f"{method} {path}: request {list(e.absolute_path)}: {e.message}")
    if exchange["response"]:
        content = responses[status]
        ref = content.get("$ref")
        target = f"/components/responses/{ref.rsplit('/', 1)[1]}" if ref else f"{pointer}/responses/{status}"
        resolved = api["components"]["responses"][ref.rsplit("/", 1)[1]] if ref else content
        if "content" in resolved:
            body = json.loads(exchange["response"])
            schema = f"{target}/content/application~1json/schema"
            for e in validator(registry, schema).iter_errors(body):
                problems.append(f"{method} {path} → {status}: response {list(e.absolute_path)}: {e.message}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--min", type=int, default=1)
    parser.add_argument("--require-all", action="store_true")
    args = parser.parse_args()
    api, registry = load(ROOT / "docs/openapi.yaml", ROOT / "docs/asyncapi.yaml")
    checked, failures, seen = 0, 0, set()
    for file in args.files:
        for line in file.read_text().splitlines():
            if not line.strip():
                continue
            exchange = json.loads(line)
            checked += 1
            template, _ = operation_of(api, exchange["method"], exchange["path"])
            if template:
                seen.add((exchange["method"].lower(), template))
            for problem in check(api, registry, exchange):
                failures += 1
                print(f"invalid: {problem}\n  exchange: {line[:400]}")
    if checked < args.min:
        print(f"only {checked} exchanges checked (expected at least {args.min})")
        return 1
    if args.require_all:
        missing = [(m, t) for t, item in api["paths"].items() for m in item if m in ("get", "post", "delete", "put")
                   if (m, t) not in seen]
        if missing:
            print("operations never exercised: " + ", ".join(f"{m.upper()} {t}" for m, t in missing))
            return 1
    print(f"validate_api: {checked} exchanges checked against docs/openapi.yaml, {failures} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
