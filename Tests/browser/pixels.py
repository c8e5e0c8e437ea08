"""Pixel statistics of PNG screenshots, with no imaging library: a small
decoder for the 8-bit, non-interlaced RGB/RGBA PNGs that Chromium writes."""

from __future__ import annotations

import struct
import zlib
from collections import Counter


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB bytes) of an 8-bit non-interlaced RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or color not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG (depth {depth}, color type {color}, interlace {interlace})")
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        f, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append(bytes(line) if channels == 3 else bytes(v for j, v in enumerate(line) if j % 4 != 3))
    return width, height, rows


def colors(png: bytes, box: tuple[int, int, int, int]) -> Counter:
    """Counts of each RGB colour in box = (left, top, right, bottom), in device pixels."""
    _, _, rows = decode_png(png)
    left, top, right, bottom = box
    counts: Counter = Counter()
    for row in rows[top:bottom]:
        for x in range(left, right):
            counts[(row[3 * x], row[3 * x + 1], row[3 * x + 2])] += 1
    return counts


def share_near(counts: Counter, rgb: tuple[int, int, int], tolerance: int = 10) -> float:
    """The share (0…1) of pixels within `tolerance` of `rgb` in every channel."""
    total = sum(counts.values())
    near = sum(n for c, n in counts.items() if all(abs(c[i] - rgb[i]) <= tolerance for i in range(3)))
    return near / total if total else 0.0


def hex_rgb(text: str) -> tuple[int, int, int]:
    text = text.lstrip("#")
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))
