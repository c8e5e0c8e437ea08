"""Real processes for cluster scripts: a redis-server and `camhub serve` hubs on free loopback ports.

Shared by scripts/cluster_chaos.py and scripts/soak.py. Every wait here is bounded (10 s for Redis,
20 s for a hub); a process that does not come up raises RuntimeError naming what it waited for.
"""

import json
import os
import signal
import socket
import subprocess
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(port, path, timeout=2):
    """The body of GET path on 127.0.0.1:port (bytes), or None when the hub does not answer."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        return data.split(b"\r\n\r\n", 1)[1]
    except (OSError, IndexError):
        return None


class Redis:
    """A redis-server on a free port, kept across restarts. With `persistent`, an append-only file
    in `folder` (fsync every second; written out on SIGTERM), so a stop and start keeps its keys."""

    def __init__(self, folder, persistent=False):
        self.port = free_port()
        self.folder = folder
        self.persistent = persistent
        self.process = None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    def start(self):
        log = open(os.path.join(self.folder, "redis.log"), "ab")
        persistence = ["--appendonly", "yes", "--appendfsync", "everysec", "--dir", self.folder] if self.persistent else ["--appendonly", "no"]
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", ""] + persistence,
            stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not answer PING within 10 s")

    def kill(self):
        self.process.kill()
        self.process.wait()

    def stop(self, timeout=10):
        """SIGTERM: Redis writes its append-only file and exits (killed if it takes over `timeout` s)."""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()


class Hub:
    """One hub slot: a `camhub serve` process, replaced by a new one (on a new port) after a kill.
    `extra` is added to its arguments; its log (JSON lines) is `hub<index>.log` in `folder`."""

    def __init__(self, index, camhub, redis, folder, extra=()):
        self.index, self.camhub, self.redis, self.folder = index, camhub, redis, folder
        self.extra = list(extra)
        self.process = None
        self.port = None
        self.stopped = False

    @property
    def log_path(self):
        return os.path.join(self.folder, f"hub{self.index}.log")

    def start(self):
        out = os.path.join(self.folder, f"hub{self.index}.out")
        with open(out, "w"):
            pass
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [self.camhub, "serve", "--host", "127.0.0.1", "--port", "0", "--redis", self.redis.url, "--log-format", "json"] + self.extra,
            stdout=open(out, "ab"), stderr=log, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with open(out) as f:
                for line in f:
                    if "listening on http://127.0.0.1:" in line:
                        self.port = int(line.split("listening on http://127.0.0.1:")[1].split("/")[0])
                        return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"hub {self.index} did not say its port within 20 s (see {self.log_path})")

    def signal(self, number):
        self.process.send_signal(number)

    def kill(self):
        self.process.kill()
        self.process.wait()

    def health(self):
        """/healthz as a dict, or None when the hub does not answer."""
        body = http_get(self.port, "/healthz")
        try:
            return json.loads(body) if body is not None else None
        except ValueError:
            return None
