#!/usr/bin/env python3
"""What a tile costs: N random tiles (zoom 6-9 around Europe) from a running
hub over one keep-alive HTTP connection (round trip on loopback, HTTP included),
and the same lookups straight from the MBTiles file with SQLite (the part the
hub's loop thread spends in the archive). Bounded: N requests, 60 s at most.

Usage: python3 scripts/bench_tiles.py --port 8080 [--file .build-tiles/basemap.mbtiles] [-n 2000]
"""
import argparse
import http.client
import random
import sqlite3
import statistics
import time


def tiles(n, seed=1):
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        z = rnd.randint(6, 9)
        side = 1 << z
        # x, y within roughly 10°W-30°E, 35°N-60°N
        x = rnd.randint(int(side * 0.47), int(side * 0.58))
        y = rnd.randint(int(side * 0.30), int(side * 0.40))
        out.append((z, x, y))
    return out


def summary(name, seconds):
    us = sorted(s * 1e6 for s in seconds)
    print(f"{name}: n={len(us)} mean {statistics.mean(us):.0f} µs, p50 {us[len(us) // 2]:.0f} µs, "
          f"p99 {us[int(len(us) * 0.99)]:.0f} µs")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--file", default=".build-tiles/basemap.mbtiles")
    ap.add_argument("-n", type=int, default=2000)
    a = ap.parse_args()
    wanted = tiles(a.n)
    deadline = time.monotonic() + 60
    conn = http.client.HTTPConnection("127.0.0.1", a.port, timeout=5)
    times, sizes = [], []
    for z, x, y in wanted:
        if time.monotonic() > deadline:
            break
        t = time.perf_counter()
        conn.request("GET", f"/tiles/{z}/{x}/{y}.pbf")
        r = conn.getresponse()
        body = r.read()
        times.append(time.perf_counter() - t)
        sizes.append(len(body))
    summary("HTTP round trip", times)
    print(f"  mean tile {statistics.mean(sizes):.0f} B")
    db = sqlite3.connect(f"file:{a.file}?mode=ro", uri=True)
    times = []
    for z, x, y in wanted:
        t = time.perf_counter()
        db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                   (z, x, (1 << z) - 1 - y)).fetchone()
        times.append(time.perf_counter() - t)
    summary("SQLite lookup", times)


if __name__ == "__main__":
    main()
