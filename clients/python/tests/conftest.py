"""A real hub per test (`camhub serve` on 127.0.0.1, port 0), and every message the
client sent and received in the test checked against docs/asyncapi.yaml afterwards."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

import camhub

ROOT = Path(__file__).resolve().parents[3]
LISTENING = re.compile(r"listening on http://127\.0\.0\.1:(\d+)")


class Hub:
    """`camhub serve` on 127.0.0.1 (port 0, or `port` to come back on the same one)."""

    def __init__(self, port: int = 0, timeout: float = 20, args: tuple[str, ...] = ()):
        binary = Path(os.environ.get("CAMHUB", ROOT / ".build" / "debug" / "camhub"))
        if not binary.exists():
            raise RuntimeError(f"hub binary {binary} not found: run `swift build` (or set CAMHUB)")
        self.proc = subprocess.Popen([str(binary), "serve", "--host", "127.0.0.1", "--port", str(port), "--web", str(ROOT / "web"), *args],
                                     cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.output: list[str] = []
        found = threading.Event()
        self.port = 0

        def pump():
            for line in self.proc.stdout:
                self.output.append(line.rstrip("\n"))
                m = LISTENING.search(line)
                if m and not found.is_set():
                    self.port = int(m.group(1))
                    found.set()

        threading.Thread(target=pump, daemon=True).start()
        if not found.wait(timeout):
            self.stop()
            raise RuntimeError("hub did not start:\n" + "\n".join(self.output))
        self.url = f"ws://127.0.0.1:{self.port}/hub"

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@pytest.fixture
def hub():
    h = Hub()
    yield h
    h.stop()


@pytest.fixture
def wire():
    """`on_wire` for the clients of a test; their messages are validated when it ends."""
    sent: list[str] = []
    received: list[str] = []

    def tap(direction: str, data) -> None:
        # A binary frame is checked as what it decodes to (the schema describes the frame's fields).
        text = json.dumps(camhub.decode_frame(data)) if isinstance(data, bytes) else data
        (sent if direction == "sent" else received).append(text)

    yield tap
    with tempfile.TemporaryDirectory() as tmp:
        for sender, lines in (("client", sent), ("hub", received)):
            if not lines:
                continue
            path = Path(tmp) / f"{sender}.jsonl"
            path.write_text("\n".join(lines) + "\n")
            run = subprocess.run([sys.executable if _has_schema_tools() else "python3", str(ROOT / "scripts" / "validate_messages.py"),
                                  "--sender", sender, str(path)], capture_output=True, text=True, timeout=60)
            assert run.returncode == 0, f"messages the {sender} sent do not match docs/asyncapi.yaml:\n{run.stdout}{run.stderr}"


def _has_schema_tools() -> bool:
    try:
        import jsonschema  # noqa: F401
        import yaml  # noqa: F401
    except ImportError:
        return False
    return True


def wait_until(predicate, timeout: float = 10, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
