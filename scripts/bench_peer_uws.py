#!/usr/bin/env python3
"""A well-known peer for `camhub bench`: a uWebSockets broadcast server, through
socketify (Python bindings over uWebSockets + libuv), with socketify's libuv loop
run natively: the main thread sits in `uv_run(UV_RUN_DEFAULT)` and Python runs
only in uWS's callbacks and in one libuv timer. (socketify 0.0.31's `App.run()`
does not do that: it runs an asyncio loop that polls libuv with
`uv_run(UV_RUN_NOWAIT)` from `call_soon`, i.e. libuv polled from asyncio, so this
script calls `app.loop.uv_loop.run()` instead.)

It speaks exactly what scripts/bench_peer_picows.py speaks: it answers `hello`
with a `welcome` of the same shape and sends every joined client a moving camera
`frame` at --rate Hz (the same JSON shape and size as the hub's, or with
`"encoding":"binary"` in the hello the hub's binary frame layout, docs/PROTOCOL.md),
one shared payload per tick and encoding; app-level `ping` gets a `pong`. Fan-out uses uWS's pub/sub,
its idiomatic fast path: each joined client is `ws.subscribe("frames")`d and
every tick does one `app.publish("frames", payload)`; uWS's topic tree hands the
one payload to every subscriber's socket (what a socket has pending goes out in
one write). No rooms, roles, throttle, animations or join announcements: the
floor of what a WebSocket fan-out costs in a fast library.

    pip install socketify==0.0.31
    python3 scripts/bench_peer_uws.py --port 18282 --rate 30 &   # prints its pid
    .build/release/camhub bench --url ws://127.0.0.1:18282/hub --followers 1000 --hub-pid PID

Listens on 127.0.0.1 only (exclusively: no SO_REUSEPORT, so a second peer on
the same port fails instead of sharing it); the subprotocol `camhub.v1` is
accepted when offered. Per socket: no compression, no idle timeout, no automatic
pings (the bench's followers only listen), 64 KiB of backpressure (beyond that
uWS drops what is published to that socket without telling the publisher; the
buffered bytes in the report below show how close sockets came). Stops on
SIGINT/SIGTERM or after --max-seconds.

What uWS exposes about its own sends is little. On exit (and every --stats
seconds, if given) the peer prints the ticks run and achieved per second, the
joined clients, the messages handed to uWS (one per subscriber per publish),
publishes that returned false, and the bytes still buffered in user space (uWS's
per-socket backpressure, summed). uWS does not count its `send()` calls; count
them from outside, e.g. `perf stat -e syscalls:sys_enter_sendto -p PID -- sleep 10`.
"""
import argparse
import json
import math
import os
import signal
import struct
import sys
import time

from socketify import App, AppListenOptions, OpCode
from socketify.native import ffi, lib
import cffi

# socketify's timers have a fixed repeat; to keep an exact schedule the tick
# re-arms its timer itself with three calls of libuv's public API, on the same
# libuv.so.1 that socketify's native library is linked against.
uvffi = cffi.FFI()
uvffi.cdef("void uv_update_time(void *loop); void uv_timer_set_repeat(void *timer, uint64_t repeat);"
           "int uv_timer_again(void *timer);")
uv = uvffi.dlopen("libuv.so.1")


def libuv_pointer(p):
    return uvffi.cast("void *", int(ffi.cast("uintptr_t", p)))

TOPIC = "frames"
BINARY_TOPIC = "frames-binary"
RATE = 30.0

next_client = 0
# The rest of a hub's welcome, as `camhub serve` writes it for a fresh room, so that a client
# reading welcomes strictly (the Swift client library does) takes the peer's.
WELCOME_ROOM = {"limits": {"minZoom": 0.0, "maxZoom": 22.0, "minTilt": 0.0, "maxTilt": 60.0, "maxTiltByZoom": [],
                           "bounds": None},
                "clients": 1, "followers": 0, "following": 0, "exploring": 0, "away": 0,
                "followPolicy": {"explore": True}, "events": [], "animations": [],
                "tracking": {"mode": "none", "location": None}, "route": [], "view": None, "fit": "same"}
joined: set = set()  # raw uws_websocket_t* addresses of clients that said hello
binary_joined: set = set()  # those of them that asked for binary frames
stats = {"ticks": 0, "messages": 0, "failed_publishes": 0, "peak_joined": 0}


def camera_at(t: float) -> dict:
    return {"lat": 20.0 + 10 * math.sin(t / 7), "lon": ((t * 15) % 360) - 180, "zoom": 3.0,
            "bearing": (t * 45) % 360, "tilt": 30 + 10 * math.sin(t)}


def velocity_at(t: float) -> dict:
    """camera_at's slope per second, rounded to 1e-7 as the hub writes a moving frame's `velocity`."""
    return {"lat": round(10 / 7 * math.cos(t / 7), 7), "lon": 15.0, "zoom": 0.0, "bearing": 45.0, "tilt": round(10 * math.cos(t), 7)}


def binary_frame(seq: int, time_ms: float, camera: dict, velocity: dict) -> bytes:
    """The hub's binary frame (docs/PROTOCOL.md, Binary frames): moving, with its velocity, by "c1"."""
    order = ("lat", "lon", "zoom", "bearing", "tilt")
    return (struct.pack("<BBQd", 1, 0x01 | 0x04, seq, time_ms) + struct.pack("<5d", *(camera[k] for k in order))
            + struct.pack("<5f", *(velocity[k] for k in order)) + struct.pack("<H", 2) + b"c1")


def key_of(ws) -> int:
    return int(ffi.cast("uintptr_t", ws.ws))


def upgrade(res, req, context):
    offered = req.get_header("sec-websocket-protocol") or ""
    protocol = "camhub.v1" if "camhub.v1" in [p.strip() for p in offered.split(",")] else ""
    res.upgrade(req.get_header("sec-websocket-key"), protocol,
                req.get_header("sec-websocket-extensions") or "", context)


def message(ws, data, opcode):
    global next_client
    if opcode != OpCode.TEXT:
        return
    try:
        msg = json.loads(data)
    except ValueError:
        return
    if not isinstance(msg, dict):
        return
    kind = msg.get("type")
    if kind == "hello" and key_of(ws) not in joined:
        next_client += 1
        now = time.time() * 1000
        welcome = {"type": "welcome", "client": f"c{next_client}", "room": msg.get("room", "bench"),
                   "role": msg.get("role", "follower"), "rate": RATE, "tick": RATE, "time": now, "seq": 0,
                   "camera": camera_at(time.monotonic()), "presenter": None, "roster": [], "gestures": [],
                   **WELCOME_ROOM}
        ws.send(json.dumps(welcome, separators=(",", ":")).encode(), OpCode.TEXT)
        if msg.get("encoding") == "binary":
            ws.subscribe(BINARY_TOPIC)
            binary_joined.add(key_of(ws))
        else:
            ws.subscribe(TOPIC)
        joined.add(key_of(ws))
        stats["peak_joined"] = max(stats["peak_joined"], len(joined))
    elif kind == "ping":
        pong = {"type": "pong", "time": time.time() * 1000}
        if "t" in msg:
            pong["t"] = msg["t"]
        ws.send(json.dumps(pong, separators=(",", ":")).encode(), OpCode.TEXT)


def close(ws, code, data):
    joined.discard(key_of(ws))
    binary_joined.discard(key_of(ws))


def buffered_bytes() -> tuple:
    """Sum and count of uWS's per-socket backpressure over the joined clients."""
    total = behind = 0
    for p in joined:
        n = lib.uws_ws_get_buffered_amount(0, ffi.cast("uws_websocket_t *", p))
        total += n
        behind += n > 0
    return total, behind


def report(label: str, started: float):
    elapsed = max(time.monotonic() - started, 1e-9)
    total, behind = buffered_bytes()
    print(f"uws peer {label}: {stats['ticks']} ticks in {elapsed:.1f} s ({stats['ticks'] / elapsed:.2f}/s), "
          f"{len(joined)} joined (peak {stats['peak_joined']}), {stats['messages']} messages published to uWS, "
          f"{stats['failed_publishes']} publishes returned false, {total} bytes buffered in {behind} sockets",
          flush=True)


def main(args):
    app = App()
    app.ws("/hub", {
        "compression": 0,
        "max_payload_length": 64 * 1024,
        "idle_timeout": 0,
        "max_backpressure": 64 * 1024,
        "close_on_backpressure_limit": False,
        "send_pings_automatically": False,
        "upgrade": upgrade,
        "message": message,
        "close": close,
    })
    app.any("/*", lambda res, req: res.write_status(404).end("not found"))

    listening = []
    app.listen(AppListenOptions(port=args.port, host="127.0.0.1", options=1),  # 1: LIBUS_LISTEN_EXCLUSIVE_PORT (no SO_REUSEPORT)
               lambda config: listening.append(config))
    if not listening:
        print(f"uws peer: cannot listen on 127.0.0.1:{args.port}", file=sys.stderr, flush=True)
        os._exit(1)

    uv_loop = app.loop.uv_loop
    native_loop = libuv_pointer(uv_loop.get_native_loop())
    period = 1 / RATE
    started = time.monotonic()
    deadline = started + args.max_seconds
    state = {"seq": 0, "due": started + period, "stop": False,
             "next_stats": started + args.stats if args.stats > 0 else math.inf}

    def stop(*_):
        state["stop"] = True

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)  # runs at the next Python callback: the tick, at most 1/rate away

    def tick(_):
        now = time.monotonic()
        if state["stop"] or now >= deadline:
            report("stopping", started)
            if getattr(app, "socket", ffi.NULL) != ffi.NULL:
                lib.us_listen_socket_close(app.SSL, app.socket)
                app.socket = ffi.NULL
            lib.socketify_loop_stop(uv_loop._loop)
            return
        state["seq"] += 1
        frame = {"type": "frame", "seq": state["seq"], "time": time.time() * 1000, "camera": camera_at(now),
                 "moving": True, "by": "c1", "velocity": velocity_at(now)}
        text_joined = len(joined) - len(binary_joined)
        if text_joined:
            if app.publish(TOPIC, json.dumps(frame, separators=(",", ":")).encode(), OpCode.TEXT):
                stats["messages"] += text_joined
            else:
                stats["failed_publishes"] += 1
        if binary_joined:
            payload = binary_frame(frame["seq"], frame["time"], frame["camera"], frame["velocity"])
            if app.publish(BINARY_TOPIC, payload, OpCode.BINARY):
                stats["messages"] += len(binary_joined)
            else:
                stats["failed_publishes"] += 1
        stats["ticks"] += 1
        # An absolute schedule (due, due + period, …), like the picows peer: a tick
        # that comes late is followed by a shorter wait; a whole period behind, the
        # next tick runs at once and the schedule restarts from now (missed ticks
        # are skipped, like the hub). The timer is re-armed from the loop's
        # refreshed clock with the wait to the next due time (whole milliseconds).
        state["due"] += period
        if state["due"] <= now:
            state["due"] = now
        wait_ms = max(1, round((state["due"] - time.monotonic()) * 1000))
        uv.uv_update_time(native_loop)
        uv.uv_timer_set_repeat(native_timer, wait_ms)
        uv.uv_timer_again(native_timer)
        if now >= state["next_stats"]:
            state["next_stats"] = now + args.stats
            report("running", started)

    timer = uv_loop.create_timer(round(period * 1000), round(period * 1000), tick, None)
    native_timer = libuv_pointer(timer._ptr.uv_timer_ptr)
    print(f"uws peer: listening on ws://127.0.0.1:{args.port}/hub, {RATE:g} Hz "
          f"(socketify, uWS pub/sub, libuv loop run natively), pid {os.getpid()}", flush=True)
    uv_loop.run()  # uv_run(UV_RUN_DEFAULT) until the tick stops it
    sys.stdout.flush()
    os._exit(0)  # open client sockets are the kernel's to close; skip socketify's teardown


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=18282)
    parser.add_argument("--rate", type=float, default=30)
    parser.add_argument("--max-seconds", type=float, default=1800)
    parser.add_argument("--stats", type=float, default=0, help="print a status line every S seconds (0: only on exit)")
    args = parser.parse_args()
    RATE = args.rate
    main(args)
