#!/usr/bin/env python3
"""Follower steadiness as a viewer sees it: the viewer page in headless Chromium
against the real hub on 127.0.0.1, measured per display frame.

For each window size, rate and lag: the page joins a room as a follower at that
rate (`&lag=MS` makes its connection MS of round trip slower); a Python follower
at 60 Hz records the hub's path (every room tick); a Python presenter runs a
chain of `animate` segments and a `fly` twice (bench_follower.py's script: the
first run warms the page up, the second is measured).

The page is instrumented from outside (nothing in it knows it is measured):
every animation frame's timestamp (the rAF callback's argument: when the frame
began, in the page clock performance.timeOrigin + ts), every `jumpTo` (the
camera the page handed MapLibre, in which frame), and every MapLibre `render`
(MapLibre's camera after it, in which frame). Two series of samples:

- own: the camera handed to `jumpTo` in frame k, at frame k's timestamp;
- painted: per display frame j, the camera of MapLibre's last render before
  frame j began (the picture on screen from frame j on), at frame j's timestamp.

Both are compared with the hub's path at (display time - d(t)), where d(t) is
the playout delay that fits best (least squares) among those that never change
faster than 3 % of real time: dynamic programming over knots 1000/30 ms apart,
d on a 1 ms grid, moving by at most 1 ms from knot to knot (exactly 3 %), linear
in between. Beside it, the one constant delay that fits best. Errors are
screen px at the window's half-diagonal: the centre's distance in world px at
the zoom, and the zoom, bearing and tilt differences as the displacement they
cause at the half-diagonal from the centre. Samples count while the hub's
camera moves at (display time - the page's median delay).

It cannot see: what the compositor does after MapLibre's render (the picture
is taken to appear at the next frame's start, a constant latency after that
is in d), and the display's own refresh (headless Chromium has none).

Usage: scripts/bench_viewer.py [--sizes 1200x800 640x400] [--rates 30 10] [--lags 0 100]
                               [--json out.json] [--dump DIR] [--web DIR]
(--web: serve another copy of web/, e.g. a worktree of an earlier commit, for a before and after
on one machine.)
Needs what scripts/test_browser.sh installs (CAMHUB, CHROMIUM, CHROMEDRIVER as there).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "browser"))

from bench_follower import TickFollower, script  # noqa: E402
from hubtools import Hub, HubClient, chrome, js, wait_joined, wait_until  # noqa: E402

DEG = math.pi / 180
TICK = 1000 / 60
KNOT_MS = 1000 / 30  # d may move 1 ms per knot: 3 % of real time
RANGE_MS = 400  # d(t) is searched within the best constant delay ± this

INSTRUMENT = """
  const b = window.__bench = {frames: [], jumps: [], renders: []};
  const now = () => performance.timeOrigin + performance.now();
  window.__rafT = null;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => raf((ts) => {
    const T = performance.timeOrigin + ts;
    if (window.__rafT !== T) { window.__rafT = T; b.frames.push({T, at: now()}); }
    cb(ts);
  });
  const map = camhub.map;
  const jumpTo = map.jumpTo.bind(map);
  map.jumpTo = (o, e) => {
    const r = jumpTo(o, e);
    const log = camhub.renders(now() - 1000);
    const last = log.length ? log[log.length - 1] : null;
    b.jumps.push({T: window.__rafT, at: now(), camera: camhub.rendered, rt: last && last.rt, paintAt: last && last.paintAt});
    return r;
  };
  map.on('render', () => b.renders.push({T: window.__rafT, at: now(), camera: camhub.mapCamera()}));
"""


class Path60:
    """The hub's camera at any hub time, from a follower that gets every tick (linear between ticks)."""

    def __init__(self, frames: list[dict]):
        self.t = np.array([f["time"] for f in frames], dtype=float)
        self.moving = np.array([bool(f["moving"]) for f in frames])
        c = [f["camera"] for f in frames]
        self.lat = np.array([x["lat"] for x in c])
        self.lon = np.unwrap(np.array([x["lon"] for x in c]), period=360)
        self.zoom = np.array([x["zoom"] for x in c])
        self.bearing = np.unwrap(np.array([x["bearing"] for x in c]), period=360)
        self.tilt = np.array([x["tilt"] for x in c])
        self.y = unit_y(self.lat)

    def at(self, q: np.ndarray):
        """(valid, y, lon, zoom, bearing, tilt) at hub times q."""
        n = len(self.t)
        i = np.searchsorted(self.t, q, side="right") - 1
        valid = (i >= 0) & (i < n - 1)
        i = np.clip(i, 0, n - 2)
        a, b = i, i + 1
        start = self.t[a].copy()
        rest_a = ~self.moving[a]
        begins = rest_a & self.moving[b]
        start = np.where(begins, np.maximum(start, self.t[b] - TICK), start)
        span = self.t[b] - start
        f = np.where(span > 0, (q - start) / np.where(span > 0, span, 1), 1.0)
        f = np.clip(f, 0, 1)
        f = np.where(rest_a & ~self.moving[b], 0.0, f)  # a jump (set) happens at b's time

        def lerp(x):
            return x[a] + (x[b] - x[a]) * f

        return valid, lerp(self.y), lerp(self.lon), lerp(self.zoom), lerp(self.bearing), lerp(self.tilt)

    def moving_at(self, q: np.ndarray) -> np.ndarray:
        n = len(self.t)
        i = np.searchsorted(self.t, q, side="right") - 1
        ok = (i >= 0) & (i < n - 1)
        i = np.clip(i, 0, n - 2)
        return ok & (self.moving[i] | (self.moving[i + 1] & (q > self.t[i + 1] - TICK)))

    def motion_ms(self) -> float:
        """Hub ms during which the camera moved."""
        total = 0.0
        for k in range(len(self.t) - 1):
            if self.moving[k] or self.moving[k + 1]:
                total += self.t[k + 1] - self.t[k] if self.moving[k] else TICK
        return total


def unit_y(lat):
    lat = np.clip(lat, -85.051129, 85.051129)
    return 0.5 - np.log(np.tan(np.pi / 4 + lat * DEG / 2)) / (2 * np.pi)


def distance(path: Path60, q: np.ndarray, cam: dict, radius: float):
    """Screen px between `cam` and the hub's path at hub times q (an array); NaN where the path does not reach."""
    valid, y, lon, zoom, bearing, tilt = path.at(q)
    ws = 512 * 2.0 ** zoom
    dlon = (cam["lon"] - lon + 180) % 360 - 180
    dx = dlon / 360 * ws
    dy = (float(unit_y(np.array(cam["lat"]))) - y) * ws
    dz = radius * np.abs(2.0 ** (cam["zoom"] - zoom) - 1)
    db = radius * np.abs((cam["bearing"] - bearing + 180) % 360 - 180) * DEG
    dt = radius * np.abs(cam["tilt"] - tilt) * DEG
    e = np.sqrt(dx * dx + dy * dy + dz * dz + db * db + dt * dt)
    return np.where(valid, e, np.nan)


def fit(samples: list[tuple[float, dict]], path: Path60, radius: float, guess: float) -> dict:
    """The best constant delay and the best delay that never changes faster than 3 % of real time.

    samples: (display time in the hub's clock, camera). Returns errors (px) under each, and d(t)'s range."""
    if not samples:
        return {}
    grid = np.arange(max(0.0, round(guess) - RANGE_MS), round(guess) + RANGE_MS + 1, 1.0)
    t0 = samples[0][0]
    knots = int(math.floor((samples[-1][0] - t0) / KNOT_MS)) + 1
    # per knot interval m: the samples in it, and their fraction of the interval
    by_knot: list[list[tuple[int, float]]] = [[] for _ in range(knots)]
    for idx, (t, _) in enumerate(samples):
        m = min(knots - 1, int((t - t0) // KNOT_MS))
        by_knot[m].append((idx, (t - t0 - m * KNOT_MS) / KNOT_MS))
    big = 1e12

    def sq(idx: int, d: np.ndarray) -> np.ndarray:
        t, cam = samples[idx]
        e = distance(path, t - d, cam, radius)
        return np.where(np.isnan(e), big, e * e)

    # best constant
    const = np.zeros(len(grid))
    for idx in range(len(samples)):
        const += sq(idx, grid)
    c = int(np.argmin(const))
    const_errs = [float(math.sqrt(min(big, sq(i, np.array([grid[c]]))[0]))) for i in range(len(samples))]
    # DP: V[g] the least cost with d = grid[g] at the current knot
    V = np.zeros(len(grid))
    choice = np.zeros((knots, len(grid)), dtype=np.int8)
    inf = np.inf
    for m in range(knots):
        best = np.full(len(grid), inf)
        arg = np.zeros(len(grid), dtype=np.int8)
        for delta in (-1, 0, 1):
            # from d at knot m (index g) to d + delta at knot m + 1 (index g + delta)
            cost = V.copy()
            for idx, frac in by_knot[m]:
                cost = cost + sq(idx, grid + delta * frac)
            shifted = np.full(len(grid), inf)
            if delta == 0:
                shifted[:] = cost
            elif delta > 0:
                shifted[1:] = cost[:-1]
            else:
                shifted[:-1] = cost[1:]
            better = shifted < best
            best = np.where(better, shifted, best)
            arg = np.where(better, delta, arg)
        V = best
        choice[m] = arg
    # back from the best end
    g = int(np.argmin(V))
    d_knot = np.zeros(knots + 1)
    d_knot[knots] = grid[g]
    for m in range(knots - 1, -1, -1):
        delta = int(choice[m][g])
        g -= delta
        d_knot[m] = grid[g]
    errs = []
    ds = []
    for m in range(knots):
        for idx, frac in by_knot[m]:
            d = d_knot[m] + (d_knot[m + 1] - d_knot[m]) * frac
            ds.append(d)
            errs.append(float(math.sqrt(min(big, sq(idx, np.array([d]))[0]))))
    return {
        "rms_px": rms(errs), "max_px": max(errs), "samples": len(errs),
        "d_min_ms": min(ds), "d_max_ms": max(ds),
        "const_ms": float(grid[c]), "const_rms_px": rms(const_errs), "const_max_px": max(const_errs),
        "errors": errs, "d": ds,
    }


def rms(xs) -> float:
    return math.sqrt(sum(x * x for x in xs) / len(xs)) if len(xs) else float("nan")


def measure(hub: Hub, browser, size: tuple[int, int], rate: int, lag: int, dump: Path | None) -> dict:
    room = f"viewer{size[0]}r{rate}l{lag}"
    browser.get(hub.page(room=room, role="follower", name="wall", rate=rate, lag=lag or None))
    wait_joined(browser)
    wait_until(lambda: js(browser, "camhub.map.loaded() && camhub.map.areTilesLoaded()"), 30, "the map to load")
    browser.execute_script(INSTRUMENT)
    truth = TickFollower(hub.ws_url, room, 60)
    presenter = HubClient(hub.ws_url, room, "presenter", name="script")
    start = {"lat": 45.0, "lon": 5.0, "zoom": 5.0, "bearing": 0.0, "tilt": 30.0}
    script(presenter, start)  # warm-up: the page learns the timings
    before = js(browser, "camhub.playout")
    since = js(browser, "camhub.now()")
    mark = truth.mark()
    load0 = os.getloadavg()[0]
    script(presenter, {**start, "lon": 6.0})
    load1 = os.getloadavg()[0]
    after = js(browser, "camhub.playout")
    bench = browser.execute_script(
        "const b = window.__bench, s = arguments[0];"
        "return {frames: b.frames.filter((f) => f.T >= s - 200), jumps: b.jumps.filter((j) => j.T >= s),"
        " renders: b.renders.filter((r) => r.T >= s - 1000)};", since)
    page_minus_hub = js(browser, "camhub.connection.latency.offset") or 0.0
    clock = browser.execute_script("const c = camhub.buffer.clock; return {lateness: c.lateness, resyncs: c.resyncLog || null,"
                                   " goal: c.goalDelay, target: camhub.buffer.targetDelay, interval: camhub.buffer.interval, lead: c.lead};")
    final_page = js(browser, "camhub.rendered")
    frames = truth.frames(mark)
    truth.close()
    presenter.close()
    path = Path60(frames)
    radius = math.hypot(size[0], size[1]) / 2

    # own: the camera handed in frame k at frame k's timestamp (in the hub's clock)
    jumps = [j for j in bench["jumps"] if j["T"] is not None and j["camera"]]
    guess = float(np.median([j["T"] - page_minus_hub - j["rt"] for j in jumps if j["rt"] is not None])) if jumps else 100.0
    own = [(j["T"] - page_minus_hub, j["camera"]) for j in jumps]
    own = [s for s in own if path.moving_at(np.array([s[0] - guess]))[0]]
    # painted: per display frame, MapLibre's last render before it began
    renders = sorted(bench["renders"], key=lambda r: r["at"])
    painted = []
    k = 0
    last = None
    for f in bench["frames"]:
        while k < len(renders) and renders[k]["T"] is not None and renders[k]["T"] < f["T"]:
            last = renders[k]
            k += 1
        if last is not None and f["T"] >= since:
            painted.append((f["T"] - page_minus_hub, last["camera"]))
    painted = [s for s in painted if path.moving_at(np.array([s[0] - guess]))[0]]
    own_fit = fit(own, path, radius, guess)
    paint_fit = fit(painted, path, radius, guess)
    ts = [f["T"] for f in bench["frames"] if f["T"] >= since]
    gaps = np.diff(ts) if len(ts) > 1 else np.array([float("nan")])
    moving_s = path.motion_ms() / 1000
    underruns = after["underruns"] - before["underruns"]
    result = {
        "size": f"{size[0]}x{size[1]}", "rate": rate, "lag": lag, "radius_px": radius,
        "own": {k: v for k, v in own_fit.items() if k not in ("errors", "d")},
        "painted": {k: v for k, v in paint_fit.items() if k not in ("errors", "d")},
        "underruns": underruns, "resyncs": (after.get("resyncs") or 0) - (before.get("resyncs") or 0),
        "motion_s": moving_s, "underruns_per_min": underruns / (moving_s / 60) if moving_s else None,
        "display_fps": 1000 / float(np.median(gaps)), "frame_ms_p10_p90": [float(np.percentile(gaps, 10)), float(np.percentile(gaps, 90))],
        "final_exact": final_page == frames[-1]["camera"] if frames else None,
        "page_delay_ms": after["delay"], "load": [load0, load1],
    }
    if dump:
        (dump / f"viewer-{result['size']}-r{rate}-l{lag}.json").write_text(json.dumps({
            "result": result, "bench": bench, "frames": frames, "since": since, "page_minus_hub": page_minus_hub, "clock": clock,
            "own": {"t": [s[0] for s in own], "errors": own_fit.get("errors"), "d": own_fit.get("d")},
            "painted": {"t": [s[0] for s in painted], "errors": paint_fit.get("errors"), "d": paint_fit.get("d")}}))
    return result


def line(r: dict) -> str:
    o, p = r["own"], r["painted"]
    return (f"{r['size']:>8} rate {r['rate']:>2} lag {r['lag']:>3}: own {o['rms_px']:.2f} px RMS (max {o['max_px']:.1f}) "
            f"vs d(t) {o['d_min_ms']:.0f}–{o['d_max_ms']:.0f} ms; constant {o['const_ms']:.0f} ms: {o['const_rms_px']:.2f} "
            f"(max {o['const_max_px']:.1f}) · painted {p['rms_px']:.2f} (max {p['max_px']:.1f}), constant {p['const_rms_px']:.2f} · "
            f"{r['underruns']} underruns, {r['resyncs']} re-syncs in {r['motion_s']:.1f} s of motion · "
            f"{r['display_fps']:.1f} display fps · {o['samples']} own / {p['samples']} painted samples · "
            f"final {'exact' if r['final_exact'] else 'NOT exact'} · load {r['load'][0]:.1f}→{r['load'][1]:.1f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", nargs="+", default=["1200x800", "640x400"])
    ap.add_argument("--rates", type=int, nargs="+", default=[30, 10])
    ap.add_argument("--lags", type=int, nargs="+", default=[0, 100])
    ap.add_argument("--json", type=Path)
    ap.add_argument("--dump", type=Path, help="a directory for every sample (viewer-SIZE-rRATE-lLAG.json)")
    ap.add_argument("--web", type=Path, help="the web/ folder to serve (default: this repository's)")
    args = ap.parse_args()
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
    hub = Hub(web=args.web.resolve() if args.web else None)
    results = []
    try:
        for size in args.sizes:
            w, h = (int(x) for x in size.split("x"))
            browser = chrome(w, h)
            try:
                for lag in args.lags:
                    for rate in args.rates:
                        r = measure(hub, browser, (w, h), rate, lag, args.dump)
                        results.append(r)
                        print(line(r), flush=True)
            finally:
                browser.quit()
    finally:
        hub.stop()
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
