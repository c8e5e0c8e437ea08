"""What the soak samples of a hub: its process (/proc: RSS, open file descriptors, CPU) and its live
counts (/healthz, /metrics). Each read is bounded (the HTTP ones by a 2 s timeout); a figure that
cannot be read is None."""

import json
import os

from hubproc import http_get

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    """Resident set size in KiB (VmRSS), or None when the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def open_fds(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def cpu_seconds(pid):
    """User + system CPU seconds the process has used so far (its threads included)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    except (OSError, IndexError, ValueError):
        return None


def metrics(port):
    """/metrics as {"name{labels}": value} (comments and histograms' buckets left out), or {}."""
    body = http_get(port, "/metrics")
    figures = {}
    for line in (body or b"").decode(errors="replace").splitlines():
        if line.startswith("#") or "_bucket{" in line or " " not in line:
            continue
        name, value = line.rsplit(" ", 1)
        try:
            figures[name] = float(value)
        except ValueError:
            pass
    return figures


def live_counts(port):
    """The live counts the soak checks: connections, clients, rooms, the cluster's remote clients and
    sessions, rooms being prepared, and every queue's depth summed (None each when the hub is silent).
    The hub counts its sessions for other hubs' clients (whose commands it runs: `remoteSessions`) in
    its connections, clients and members; `ownConnections`, `ownClients`, `ownMembers` leave them
    out, so that they count this hub's own sockets' clients, which the soak expects back at the
    baseline although the rooms' owners changed (and the remote sessions with them)."""
    body = http_get(port, "/healthz")
    try:
        health = json.loads(body) if body is not None else {}
    except ValueError:
        health = {}
    redis = health.get("redis", {})
    figures = metrics(port)
    queues = [v for k, v in figures.items() if k.startswith("camhub_queue_depth{")]
    remote = redis.get("remoteSessions", 0)
    own = {f"own{k[0].upper()}{k[1:]}": (v - remote if v is not None else None)
           for k, v in (("connections", health.get("connections")), ("clients", health.get("clients")), ("members", figures.get("camhub_members")))}
    return {
        **own, "connections": health.get("connections"), "clients": health.get("clients"),
        "rooms": len(health["rooms"]) if "rooms" in health else None,
        "members": figures.get("camhub_members"),
        "remoteClients": redis.get("remoteClients"), "remoteSessions": redis.get("remoteSessions"),
        "preparing": redis.get("preparing"), "queued": sum(queues) if queues else None,
        "redis": redis.get("state"),
    }
