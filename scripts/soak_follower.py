"""The soak's followers: a lean WebSocket follower on asyncio's Protocol (scripts/soak_worker.py runs
them in worker processes).

Why not the `websockets` library here: a follower only says hello, refreshes its token and reads
binary frames, and at 2,000+ followers x 5 frames/s the library's per-message machinery (a
Frame object, a queue, a task wake-up per message) costs several times what parsing the bytes in
`data_received` does; the soak's generator shares 2 cores with the two hubs and Redis. The frames
are read straight from the bytes: RFC 6455 framing (7/16/64-bit lengths, several frames per read,
frames split across reads), pings answered, a close answered; the handshake checks the 101.

Times are `time.monotonic()` (CLOCK_MONOTONIC, the same in every process of the machine), so the
main process can lay each follower's gaps against its fault windows.
"""

import asyncio
import base64
import json
import os
import struct
import time

GAP_SECONDS = 2.0  # a follower without a frame for longer has a gap (recorded, checked by soak.py)


def _frame(opcode, payload):
    """One masked client frame (FIN set)."""
    key = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    else:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    repeated = (key * (n // 4 + 1))[:n]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(n, "big") if n else b""
    return head + key + masked


class Track:
    """What one follower slot saw, across its connections: frames, the last one's time, gaps."""

    def __init__(self):
        self.frames = 0
        self.last_frame = None
        self.gaps = []  # (from, to) monotonic seconds, each longer than GAP_SECONDS

    def open_gap(self, now):
        """The gap still running at `now`, if longer than GAP_SECONDS."""
        if self.last_frame is not None and now - self.last_frame > GAP_SECONDS:
            return (self.last_frame, now)
        return None


class Follower(asyncio.Protocol):
    """One follower connection. `hello` is sent once the upgrade is answered 101; every binary
    message is a frame. `tokens` makes the token of a `refresh` when the hub says `tokenExpiring`."""

    def __init__(self, host, port, hello, tokens, stats, track):
        self.host, self.port, self.hello, self.tokens, self.stats, self.track = host, port, hello, tokens, stats, track
        self.transport = None
        self.buffer = bytearray()
        self.upgraded = False
        self.fragments = None  # (opcode, bytearray) of a fragmented message
        self.joined = asyncio.get_running_loop().create_future()
        self.ended = asyncio.get_running_loop().create_future()
        self.close_code = None

    def connection_made(self, transport):
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write((f"GET /hub HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: camhub.v1\r\n\r\n").encode())

    def connection_lost(self, exc):
        if not self.joined.done():
            self.joined.set_exception(ConnectionError(f"closed before welcome (close code {self.close_code})"))
        if not self.ended.done():
            self.ended.set_result(self.close_code)

    def data_received(self, data):
        self.buffer += data
        if not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(self.buffer[:self.buffer.find(b"\r\n")])
            if b" 101 " not in status + b" ":
                self.stats["refused"] = self.stats.get("refused", 0) + 1
                self.transport.abort()
                return
            del self.buffer[:end + 4]
            self.upgraded = True
            self.send_text(self.hello)
        self.read_frames()

    def read_frames(self):
        buf = self.buffer
        while len(buf) >= 2:
            n, at = buf[1] & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, at = struct.unpack_from("!H", buf, 2)[0], 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, at = struct.unpack_from("!Q", buf, 2)[0], 10
            if len(buf) < at + n:
                return
            fin, opcode = buf[0] & 0x80, buf[0] & 0x0F
            payload = bytes(buf[at:at + n])
            del buf[:at + n]
            self.message(fin, opcode, payload)

    def message(self, fin, opcode, payload):
        if opcode == 0x9:
            self.transport.write(_frame(0xA, payload))
        elif opcode == 0x8:
            self.close_code = struct.unpack_from("!H", payload)[0] if len(payload) >= 2 else 1005
            self.transport.write(_frame(0x8, payload[:2]))
            self.transport.close()
        elif opcode in (0x1, 0x2) and not fin:
            self.fragments = (opcode, bytearray(payload))
        elif opcode == 0x0 and self.fragments is not None:
            self.fragments[1].extend(payload)
            if fin:
                opcode, whole = self.fragments
                self.fragments = None
                self.whole(opcode, bytes(whole))
        elif opcode in (0x1, 0x2):
            self.whole(opcode, payload)

    def whole(self, opcode, payload):
        if opcode == 0x2:
            track, now = self.track, time.monotonic()
            if track.last_frame is not None and now - track.last_frame > GAP_SECONDS:
                track.gaps.append((track.last_frame, now))
            track.last_frame = now
            track.frames += 1
            return
        message = json.loads(payload)
        kind = message.get("type")
        if kind == "welcome" and not self.joined.done():
            self.joined.set_result(True)
        elif kind == "tokenExpiring":
            self.send_text({"type": "refresh", "token": self.tokens()})
        elif kind == "tokenRefreshed":
            self.stats["refreshed"] = self.stats.get("refreshed", 0) + 1
        elif kind == "error":
            self.stats.setdefault("errors", {})
            key = f"{message.get('code')}: {message.get('message', '')[:80]}"
            self.stats["errors"][key] = self.stats["errors"].get(key, 0) + 1
            if message.get("ref") == "hello" and not self.joined.done():
                self.joined.set_exception(ConnectionError(key))

    def send_text(self, message):
        if not self.transport.is_closing():
            self.transport.write(_frame(0x1, json.dumps(message).encode()))

    def close(self):
        """A clean close (1000); the hub answers and drops the connection."""
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(_frame(0x8, struct.pack("!H", 1000)))


async def connect(port, hello, tokens, stats, track, timeout=5):
    """A joined Follower, or an exception (refused, timed out, an error to hello)."""
    loop = asyncio.get_running_loop()
    _, follower = await asyncio.wait_for(
        loop.create_connection(lambda: Follower("127.0.0.1", port, hello, tokens, stats, track), "127.0.0.1", port), timeout)
    try:
        await asyncio.wait_for(asyncio.shield(follower.joined), timeout)
    except BaseException:
        follower.joined.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved: no warning
        follower.transport.abort()
        raise
    return follower
