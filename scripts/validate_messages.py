#!/usr/bin/env python3
"""Validates protocol v1 messages against docs/asyncapi.yaml with `jsonschema`.

Each message is matched to the one component message of its direction whose
payload `const`s it carries (`type`, and `event` or `what` where one type has
variants), then validated against that payload schema (JSON Schema draft-07,
AsyncAPI's schema format). A failure prints the message, what is wrong, where
in the message (instance path) and where in the schema (the rule's JSON
pointer in docs/asyncapi.yaml, with every `$ref` followed), and the run exits 1.

Usage:
  validate_messages.py --sender hub    FILE.jsonl…   messages the hub sent, one JSON text a line
  validate_messages.py --sender client FILE.jsonl…   messages a client sent
  validate_messages.py --examples docs/PROTOCOL.md   every ```json example (direction by section)
  validate_messages.py --self-check                  the examples inside docs/asyncapi.yaml
Options:
  --schema PATH      the AsyncAPI document (default docs/asyncapi.yaml)
  --require TYPE,…   fail unless these message types were each seen at least once
  --min N            fail when fewer than N messages were checked (default 1: an empty capture fails)
  --require-all      fail unless every message of the sender's operation was seen at least once
  --verdicts         print `valid` or `invalid: why` per message of the files and exit 0
                     (for tests that compare the schema's verdicts with the hub decoder's)

Why Python's jsonschema: see docs/ARCHITECTURE.md ("Protocol schema").
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

import yaml
from jsonschema import Draft7Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

ROOT = Path(__file__).resolve().parents[1]
DOC_URI = "urn:camhub:asyncapi"
OPERATIONS = {"hub": "send", "client": "receive"}


class Invalid(Exception):
    """A message that does not match the schema (the text says why)."""


def _strict_object(pairs):
    keys = [k for k, _ in pairs]
    dup = {k for k in keys if keys.count(k) > 1}
    if dup:
        raise ValueError(f"duplicate keys {sorted(dup)}")
    return dict(pairs)


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


DECODER = json.JSONDecoder(object_pairs_hook=_strict_object, parse_constant=_no_constant)


def parse(text: str):
    """Strict RFC 8259: no NaN/Infinity, no duplicate keys."""
    return json.loads(text, object_pairs_hook=_strict_object, parse_constant=_no_constant)


def resolve_pointer(doc, pointer: str):
    node = doc
    for part in pointer.lstrip("#/").split("/"):
        if part == "":
            continue
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


class Schema:
    def __init__(self, path: Path):
        self.path = path
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: faster
        self.doc = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
        if not str(self.doc.get("asyncapi", "")).startswith("3."):
            raise SystemExit(f"{path}: not an AsyncAPI 3 document (asyncapi: {self.doc.get('asyncapi')!r})")
        self.registry = Registry().with_resource(DOC_URI, Resource(contents=self.doc, specification=DRAFT7))
        # Every schema in the document must itself be valid draft-07.
        for name, schema in self.doc["components"]["schemas"].items():
            try:
                Draft7Validator.check_schema(schema)
            except Exception as e:  # jsonschema.SchemaError
                raise SystemExit(f"{path}: #/components/schemas/{name} is not a valid JSON Schema: {e}")
        self.messages = {sender: self._messages(action) for sender, action in OPERATIONS.items()}

    def _messages(self, action: str):
        """[(name, payload pointer, consts, validator)] of the operations with this action."""
        out = []
        for op in self.doc["operations"].values():
            if op["action"] != action:
                continue
            for ref in op["messages"]:
                channel_msg = resolve_pointer(self.doc, ref["$ref"])
                pointer = channel_msg["$ref"] if "$ref" in channel_msg else ref["$ref"]
                name = pointer.rsplit("/", 1)[1]
                message = resolve_pointer(self.doc, pointer)
                payload_pointer = message["payload"]["$ref"] if "$ref" in message["payload"] else pointer + "/payload"
                payload = resolve_pointer(self.doc, payload_pointer)
                consts = {k: v["const"] for k, v in payload.get("properties", {}).items()
                          if isinstance(v, dict) and "const" in v}
                if "type" not in consts:
                    raise SystemExit(f"{self.path}: {payload_pointer} has no const `type`")
                validator = Draft7Validator({"$ref": f"{DOC_URI}#{payload_pointer[1:]}"}, registry=self.registry)
                out.append((name, payload_pointer, consts, validator))
        return out

    def match(self, sender: str, message):
        """The (name, pointer, validator) for this message, or Invalid naming why none fits."""
        if not isinstance(message, dict):
            raise Invalid(f"not a JSON object (got {type(message).__name__})")
        if not isinstance(message.get("type"), str):
            raise Invalid("no string field `type`")
        candidates = [m for m in self.messages[sender] if m[2]["type"] == message["type"]]
        if not candidates:
            known = sorted({m[2]["type"] for m in self.messages[sender]})
            raise Invalid(f"type '{message['type']}' is not a {sender} message in the schema (known: {', '.join(known)})")
        fitting = [m for m in candidates if all(message.get(k) == v for k, v in m[2].items())]
        if not fitting:
            keys = sorted({k for m in candidates for k in m[2] if k != "type"})
            options = sorted(str(m[2].get(k)) for m in candidates for k in keys if k in m[2])
            raise Invalid(f"no '{message['type']}' message in the schema has {', '.join(f'{k}={message.get(k)!r}' for k in keys)}"
                          f" (known: {', '.join(options)})")
        fitting.sort(key=lambda m: -len(m[2]))
        return fitting[0]

    def rule_pointer(self, payload_pointer: str, error) -> str:
        """The JSON pointer in the document of the rule that failed, every `$ref` on the way followed
        (jsonschema's schema paths pass through references without naming them)."""
        pointer, node = payload_pointer, resolve_pointer(self.doc, payload_pointer)
        for part in error.absolute_schema_path:
            while isinstance(node, dict) and "$ref" in node and part != "$ref":
                pointer = node["$ref"]
                node = resolve_pointer(self.doc, pointer)
            if part == "$ref":
                continue
            pointer += f"/{part}"
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                break
        return pointer

    def check(self, sender: str, message) -> str:
        """The component message name; raises Invalid with every problem."""
        name, pointer, _, validator = self.match(sender, message)
        errors = sorted(validator.iter_errors(message), key=lambda e: list(e.absolute_path))
        if errors:
            lines = []
            for e in errors:
                lines.append(f"  {e.json_path}: {e.message}\n    schema: {self.path.name}{self.rule_pointer(pointer, e)}")
                for sub in (e.context or [])[:6]:
                    lines.append(f"      - {sub.json_path}: {sub.message}")
            raise Invalid(f"does not match {name} ({pointer}):\n" + "\n".join(lines))
        return name


def markdown_examples(path: Path):
    """(line, sender, text) for every JSON message in the ```json blocks of PROTOCOL.md.

    The direction is the section's ("## Client → hub" / "## Hub → client");
    a `<!-- sender: hub -->` or `<!-- sender: client -->` line right before a
    block overrides it. A block holds one JSON value or one per line; objects
    without `type` (fragments such as a bare camera) are skipped."""
    lines = path.read_text(encoding="utf-8").splitlines()
    section, override, i = None, None, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            section = "client" if "Client → hub" in line else "hub" if "Hub → client" in line else None
        m = re.match(r"<!-- sender: (hub|client) -->", line.strip())
        if m:
            override = m.group(1)
        if line.strip() == "```json":
            start, body = i + 1, []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            sender = override or section
            override = None
            text = "\n".join(body)
            values, pos = [], 0
            while True:
                while pos < len(text) and text[pos].isspace():
                    pos += 1
                if pos == len(text):
                    break
                try:
                    value, end = DECODER.raw_decode(text, pos)
                except ValueError as e:
                    raise SystemExit(f"{path}:{start + text.count(chr(10), 0, pos) + 1}: a ```json block that is not JSON: {e}")
                values.append((start + text.count("\n", 0, pos), value))
                pos = end
            for at, value in values:
                if isinstance(value, dict) and "type" in value:
                    if sender is None:
                        raise SystemExit(f"{path}:{at + 1}: a message outside the Client → hub / Hub → client sections"
                                         " (mark it with <!-- sender: hub --> or <!-- sender: client -->)")
                    yield at + 1, sender, value
        elif line.strip():
            if not line.strip().startswith("<!--"):
                override = None
        i += 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--schema", type=Path, default=ROOT / "docs" / "asyncapi.yaml")
    ap.add_argument("--sender", choices=sorted(OPERATIONS))
    ap.add_argument("--examples", type=Path)
    ap.add_argument("--self-check", action="store_true")
    ap.add_argument("--require", default="")
    ap.add_argument("--min", type=int, default=1)
    ap.add_argument("--verdicts", action="store_true")
    ap.add_argument("--require-all", action="store_true")
    ap.add_argument("files", nargs="*", type=Path)
    args = ap.parse_args(argv)
    schema = Schema(args.schema)

    items = []  # (where, sender, text or value)
    if args.files:
        if not args.sender:
            ap.error("--sender is required with files")
        for f in args.files:
            if not f.exists():
                print(f"validate_messages: {f}: no such capture file", file=sys.stderr)
                return 1
            for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
                if line.strip():
                    items.append((f"{f}:{n}", args.sender, line))
    if args.examples:
        items += [(f"{args.examples}:{n}", s, v) for n, s, v in markdown_examples(args.examples)]
    if args.self_check:
        for name, message in schema.doc["components"]["messages"].items():
            senders = [s for s, ms in schema.messages.items() if any(m[0] == name for m in ms)]
            for k, example in enumerate(message.get("examples", [])):
                items += [(f"{args.schema}#/components/messages/{name}/examples/{k}", s, example["payload"]) for s in senders]

    if args.verdicts:
        for _, sender, item in items:
            try:
                schema.check(sender, parse(item) if isinstance(item, str) else item)
                print("valid")
            except (ValueError, Invalid) as e:
                print("invalid: " + " ".join(str(e).split())[:300])
        return 0

    seen, failures = Counter(), 0
    for where, sender, item in items:
        try:
            value = parse(item) if isinstance(item, str) else item
        except ValueError as e:
            failures += 1
            print(f"{where}: not strict JSON ({e}): {item[:300]}", file=sys.stderr)
            continue
        try:
            name = schema.check(sender, value)
            seen[(sender, name)] += 1
        except Invalid as e:
            failures += 1
            text = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
            print(f"{where}: {sender} message {text[:500]}\n  {e}", file=sys.stderr)

    checked = sum(seen.values()) + failures
    missing = []
    for t in filter(None, args.require.split(",")):
        if not any(schema.doc["components"]["messages"][n]["name"] == t for (_, n) in seen):
            missing.append(t)
    counts = ", ".join(f"{n} {c}" for (_, n), c in sorted(seen.items(), key=lambda kv: kv[0][1]))
    print(f"validate_messages: {checked} messages checked against {args.schema.name}, {failures} invalid ({counts})")
    unseen = []
    if args.files:
        unseen = [m[0] for m in schema.messages[args.sender] if (args.sender, m[0]) not in seen]
        if unseen:
            print(f"validate_messages: {args.sender} messages of the schema not seen here: {', '.join(unseen)}",
                  file=sys.stderr if args.require_all else sys.stdout)
    if missing:
        print(f"validate_messages: no {', '.join(missing)} message was seen (required)", file=sys.stderr)
    if checked < args.min:
        print(f"validate_messages: only {checked} messages (at least {args.min} expected): was the capture written?",
              file=sys.stderr)
    return 1 if failures or missing or checked < args.min or (args.require_all and unseen) else 0


if __name__ == "__main__":
    sys.exit(main())
