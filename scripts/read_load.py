#!/usr/bin/env python3
"""HTTP load on a running hub while `camhub bench` measures its tick: `--tiles`
concurrent tile readers (random z6-9 tiles around Europe, a fresh connection
each) and `--scrapers` readers of /metrics and /healthz (alternately), for
`--seconds`. Prints what was answered: tiles, scrapes, 503 busy, errors.
Loopback only; bounded in time (and by the thread count). See docs/BENCHMARKS.md,
"The tick under tile reads and scrapes".

    python3 scripts/read_load.py --port 8080 --tiles 200 --scrapers 4 --seconds 15
"""
import argparse, http.client, random, threading, time
p = argparse.ArgumentParser()
p.add_argument("--port", type=int, required=True)
p.add_argument("--tiles", type=int, default=200)
p.add_argument("--scrapers", type=int, default=4)
p.add_argument("--seconds", type=float, default=20)
a = p.parse_args()
end = time.monotonic() + a.seconds
counts = {"tile": 0, "scrape": 0, "busy": 0, "error": 0}
lock = threading.Lock()
def tile(seed):
    rnd = random.Random(seed)
    while time.monotonic() < end:
        z = rnd.randint(6, 9); side = 1 << z
        x = rnd.randint(int(side * 0.47), int(side * 0.58)); y = rnd.randint(int(side * 0.30), int(side * 0.40))
        try:
            c = http.client.HTTPConnection("127.0.0.1", a.port, timeout=10)
            c.request("GET", f"/tiles/{z}/{x}/{y}.pbf"); r = c.getresponse(); r.read(); c.close()
            with lock: counts["busy" if r.status == 503 else "tile"] += 1
        except Exception:
            with lock: counts["error"] += 1
def scrape(i):
    while time.monotonic() < end:
        try:
            c = http.client.HTTPConnection("127.0.0.1", a.port, timeout=10)
            c.request("GET", "/metrics" if i % 2 == 0 else "/healthz"); r = c.getresponse(); r.read(); c.close()
            with lock: counts["scrape"] += 1
        except Exception:
            with lock: counts["error"] += 1
threads = [threading.Thread(target=tile, args=(i,)) for i in range(a.tiles)] + [threading.Thread(target=scrape, args=(i,)) for i in range(a.scrapers)]
for t in threads: t.start()
for t in threads: t.join()
print(counts)
