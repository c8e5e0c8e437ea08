#!/usr/bin/env python3
"""Write a small synthetic terrain archive: one smooth hill as raster-dem tiles.

The hill is a Gaussian bump on a flat plain, centred on SUMMIT:

    height(lat, lon) = BASE + PEAK * exp(-d² / (2 SIGMA²))

with d the distance in metres from the summit on a local flat map (an
equirectangular projection at the summit's latitude). Each tile is a 256 × 256
PNG (RGB, 8 bits) sampled at its pixels' centres, in the Terrarium encoding
(height + 32768 = R·256 + G + B/256, metres) or with --encoding mapbox
(height = −10000 + (R·65536 + G·256 + B)·0.1). Zooms MIN_ZOOM…MAX_ZOOM, only
the tiles that touch the box ±HALF_SIZE_DEG around the summit.

The archive is an MBTiles file (SQLite; rows numbered from the south, TMS), with
the metadata `format` = png, `encoding`, `bounds` (the box), `minzoom`, `maxzoom`. Only the
Python standard library (zlib, struct, sqlite3); the same arguments always give
the same bytes. Nothing is downloaded.

Usage: python3 scripts/make_dem.py OUT.mbtiles [--encoding terrarium|mapbox] [--no-encoding-metadata]
"""
import argparse
import math
import os
import sqlite3
import struct
import sys
import zlib

SUMMIT = (46.5, 8.0)  # lat, lon (degrees)
BASE = 200.0  # metres: the plain around the hill
PEAK = 1800.0  # metres above the plain: the summit is at BASE + PEAK
SIGMA = 4000.0  # metres: the hill's width (one standard deviation)
HALF_SIZE_DEG = 0.15  # the tiles cover at least summit ± this many degrees
MIN_ZOOM, MAX_ZOOM = 8, 11
TILE = 256
METRES_PER_DEGREE = 6378137.0 * math.pi / 180.0


def height(lat, lon):
    """The hill's height in metres at (lat, lon), as the tiles sample it."""
    dx = (lon - SUMMIT[1]) * METRES_PER_DEGREE * math.cos(math.radians(SUMMIT[0]))
    dy = (lat - SUMMIT[0]) * METRES_PER_DEGREE
    return BASE + PEAK * math.exp(-(dx * dx + dy * dy) / (2 * SIGMA * SIGMA))


def tile_range(z):
    """The x and y (XYZ, rows from the north) of the tiles covering the box at zoom z."""
    n = 2**z

    def tx(lon):
        return int((lon + 180.0) / 360.0 * n)

    def ty(lat):
        s = math.sin(math.radians(lat))
        return int((0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * n)

    lat, lon = SUMMIT
    xs = range(tx(lon - HALF_SIZE_DEG), tx(lon + HALF_SIZE_DEG) + 1)
    ys = range(ty(lat + HALF_SIZE_DEG), ty(lat - HALF_SIZE_DEG) + 1)
    return xs, ys


def pixel_lon(z, gx):
    return gx / (TILE * 2**z) * 360.0 - 180.0


def pixel_lat(z, gy):
    m = math.pi * (1 - 2 * gy / (TILE * 2**z))
    return math.degrees(math.atan(math.sinh(m)))


def encode(h, encoding):
    """Three bytes (R, G, B) for height h in metres."""
    if encoding == "terrarium":
        v = max(0, min(256 * 256 * 256 - 1, int(math.floor((h + 32768.0) * 256.0))))
    else:
        v = max(0, min(256 * 256 * 256 - 1, int(round((h + 10000.0) * 10.0))))
    return bytes(((v >> 16) & 255, (v >> 8) & 255, v & 255))


def png(rows):
    """A PNG (RGB, 8 bits, no interlace) of `rows` (each TILE * 3 bytes), every row filtered 'Sub'."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = bytearray()
    for row in rows:
        raw.append(1)  # filter type 1, Sub: each byte minus the byte 3 to its left
        raw.extend(row[:3])
        raw.extend((row[i] - row[i - 3]) & 255 for i in range(3, len(row)))
    header = struct.pack(">IIBBBBB", TILE, len(rows), 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")


def tile_png(z, x, y, encoding):
    # The hill is separable on the local flat map: exp(-dx²/2σ²) · exp(-dy²/2σ²).
    k = math.cos(math.radians(SUMMIT[0])) * METRES_PER_DEGREE
    across = [math.exp(-(((pixel_lon(z, x * TILE + i + 0.5) - SUMMIT[1]) * k) ** 2) / (2 * SIGMA**2)) for i in range(TILE)]
    rows = []
    for j in range(TILE):
        dy = (pixel_lat(z, y * TILE + j + 0.5) - SUMMIT[0]) * METRES_PER_DEGREE
        down = math.exp(-(dy * dy) / (2 * SIGMA**2))
        rows.append(b"".join(encode(BASE + PEAK * a * down, encoding) for a in across))
    return png(rows)


def bounds():
    """west, south, east, north (degrees): the box every zoom's tiles cover (MapLibre asks for no tile outside it)."""
    lat, lon = SUMMIT
    return (lon - HALF_SIZE_DEG, lat - HALF_SIZE_DEG, lon + HALF_SIZE_DEG, lat + HALF_SIZE_DEG)


def write(path, encoding="terrarium", encoding_metadata=True):
    """Writes the archive to `path` (replacing it)."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
    db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
    db.execute("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
    metadata = [
        ("name", "CameraHub test hill"),
        ("format", "png"),
        ("type", "baselayer"),
        ("bounds", ",".join("%.6f" % v for v in bounds())),
        ("minzoom", str(MIN_ZOOM)),
        ("maxzoom", str(MAX_ZOOM)),
        ("attribution", "synthetic (scripts/make_dem.py)"),
    ]
    if encoding_metadata:
        metadata.append(("encoding", encoding))
    db.executemany("INSERT INTO metadata VALUES (?, ?)", metadata)
    for z in range(MIN_ZOOM, MAX_ZOOM + 1):
        xs, ys = tile_range(z)
        for x in xs:
            for y in ys:
                db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, 2**z - 1 - y, tile_png(z, x, y, encoding)))
    db.commit()
    db.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", help="the MBTiles file to write")
    parser.add_argument("--encoding", choices=["terrarium", "mapbox"], default="terrarium")
    parser.add_argument("--no-encoding-metadata", action="store_true", help="leave `encoding` out of the metadata")
    args = parser.parse_args()
    write(args.out, args.encoding, not args.no_encoding_metadata)
    print(f"make_dem: {args.out}: a hill of {BASE + PEAK:.0f} m at {SUMMIT[0]}, {SUMMIT[1]} ({args.encoding}, zooms {MIN_ZOOM}-{MAX_ZOOM})")


if __name__ == "__main__":
    sys.exit(main())
