#!/usr/bin/env python3
"""Follower rendering fidelity of the viewer page, in headless Chromium
against the real hub, on 127.0.0.1.

For each rate: the page joins a room as a follower at that rate; a Python
follower at 60 Hz (every room tick) records the hub's exact path; a Python
presenter runs a chain of `animate` segments (pan, zoom 0.5/s, bearing 30°/s,
an ease back) and then a `fly`. Reported, over the moving part:

- own: what the page hands MapLibre (camhub.renders(): camera and the hub time
  it shows) against the hub's path at that hub time, best constant offset
  removed (the page and hub clocks may differ by a little);
- painted: MapLibre's camera after each of its renders (a `render` listener)
  against the hub's path at the render's local time minus the best constant
  delay;
- painted vs meant: the same MapLibre cameras against the hub's path at the hub time
  the page meant for that render (the last camera it handed MapLibre before it):
  the painting error alone, without the playout delay's drift; with the paint
  delay's range and SD (local paint time, in the hub's clock, minus the hub time
  shown), which is what turns a drifting delay into painted error;
- the buffer's figures (delay, dry samples / samples, underruns, its own error estimate).

Errors are screen px on a 1280×720 view: the centre's distance in world px at the
zoom, plus zoom, bearing and tilt differences as the displacement they cause
360 px from the centre (clients/js/src/follow/interpolation.js cameraDistancePx).

Usage: scripts/bench_follower.py [--rates 10 30 60] [--json out.json]
Needs what scripts/test_browser.sh installs (CAMHUB, CHROMIUM, CHROMEDRIVER as there).
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "browser"))

from hubtools import SUBPROTOCOL, Hub, HubClient, chrome, js, wait_joined, wait_until  # noqa: E402

DEG = math.pi / 180
DUMP: Path | None = None


def unit_y(lat: float) -> float:
    lat = max(-85.051129, min(85.051129, lat))
    return 0.5 - math.log(math.tan(math.pi / 4 + lat * DEG / 2)) / (2 * math.pi)


def turn(a: float, b: float) -> float:
    d = (b - a) % 360
    return d - 360 if d > 180 else d


def distance_px(a: dict, b: dict, radius: float = 360) -> float:
    ws = 512 * 2 ** a["zoom"]
    dx = turn(a["lon"], b["lon"]) / 360 * ws
    dy = (unit_y(b["lat"]) - unit_y(a["lat"])) * ws
    dz = radius * abs(2 ** (b["zoom"] - a["zoom"]) - 1)
    db = radius * abs(turn(a["bearing"], b["bearing"])) * DEG
    dt = radius * abs(b["tilt"] - a["tilt"]) * DEG
    return math.sqrt(dx * dx + dy * dy + dz * dz + db * db + dt * dt)


def lerp_camera(a: dict, b: dict, t: float) -> dict:
    ya, yb = unit_y(a["lat"]), unit_y(b["lat"])
    y = ya + (yb - ya) * t
    lat = 360 / math.pi * math.atan(math.exp((0.5 - y) * 2 * math.pi)) - 90
    return {"lat": lat, "lon": a["lon"] + turn(a["lon"], b["lon"]) * t, "zoom": a["zoom"] + (b["zoom"] - a["zoom"]) * t,
            "bearing": a["bearing"] + turn(a["bearing"], b["bearing"]) * t, "tilt": a["tilt"] + (b["tilt"] - a["tilt"]) * t}


class Truth:
    """The hub's camera at any hub time, from a follower that gets every tick."""

    def __init__(self, frames: list[dict]):
        self.frames = frames
        self.times = [f["time"] for f in frames]

    def at(self, t: float) -> dict | None:
        i = bisect.bisect_right(self.times, t) - 1
        if i < 0 or i + 1 >= len(self.frames):
            return None
        a, b = self.frames[i], self.frames[i + 1]
        start = a["time"]
        if not a["moving"]:
            if not b["moving"]:
                return dict(a["camera"])  # a jump (set), at b's time
            start = max(start, b["time"] - 1000 / 60)  # the motion began within the tick before b
        if t <= start:
            return dict(a["camera"])
        return lerp_camera(a["camera"], b["camera"], (t - start) / (b["time"] - start))

    def moving(self, t: float) -> bool:
        """True if the hub's camera was moving at hub time t (from a motion's start to its resting frame)."""
        i = bisect.bisect_right(self.times, t) - 1
        if i < 0 or i + 1 >= len(self.frames):
            return False
        a, b = self.frames[i], self.frames[i + 1]
        return a["moving"] or (b["moving"] and t > b["time"] - 1000 / 60)


def rms(xs: list[float]) -> float:
    return math.sqrt(sum(x * x for x in xs) / len(xs)) if xs else float("nan")


def best_offset(samples: list[tuple[float, dict]], truth: Truth, lo: float, hi: float, step: float) -> tuple[float, list[float]]:
    """The constant d minimising the RMS of distance(camera, truth(t - d)); returns d and the errors."""
    best = (float("inf"), 0.0, [])
    d = lo
    while d <= hi:
        errs = []
        for t, cam in samples:
            h = truth.at(t - d)
            if h is not None:
                errs.append(distance_px(h, cam))
        if errs and rms(errs) < best[0]:
            best = (rms(errs), d, errs)
        d += step
    if step > 0.25:  # refine around the best
        return best_offset(samples, truth, best[1] - step, best[1] + step, step / 8)
    return best[1], best[2]


class TickFollower(HubClient):
    """HubClient with a rate in its hello."""

    def __init__(self, ws_url: str, room: str, rate: float):
        from websockets.sync.client import connect

        self.ws = connect(ws_url, subprotocols=[SUBPROTOCOL], open_timeout=10, close_timeout=2)
        self.messages = []
        self.lock = threading.Lock()
        self.cond = threading.Condition(self.lock)
        self.send({"type": "hello", "room": room, "role": "follower", "name": "truth", "rate": rate})
        self.closed = False
        threading.Thread(target=self._run, daemon=True).start()
        self.welcome = self.wait_for(lambda m: m["type"] in ("welcome", "error"), 10, "welcome")
        self.client = self.welcome.get("client")


def script(presenter: HubClient, start: dict):
    """About 8 s of animate segments, then a fly (waits for each part to rest)."""
    mark = presenter.mark()
    presenter.send({"type": "set", "camera": start})
    presenter.wait_rest(10, mark)
    time.sleep(0.5)
    mark = presenter.mark()
    lin = "linear"
    presenter.send({"type": "animate", "id": "pan", "to": {"lon": start["lon"] + 1.5}, "duration": 2, "curve": lin})
    presenter.send({"type": "animate", "id": "zoom", "to": {"zoom": start["zoom"] + 1}, "duration": 2, "curve": lin, "after": "pan"})
    presenter.send({"type": "animate", "id": "turn", "to": {"bearing": 60}, "duration": 2, "curve": lin, "after": "zoom"})
    presenter.send({"type": "animate", "id": "back", "to": {"lat": start["lat"] + 1, "lon": start["lon"] + 3, "zoom": start["zoom"],
                                                             "bearing": 0, "tilt": 45}, "duration": 2, "after": "turn"})
    presenter.wait_for(lambda m: m["type"] == "animation" and m.get("id") == "back" and m["status"] == "finished", 20, "the chain", mark)
    presenter.wait_rest(5, mark)
    mark = presenter.mark()
    presenter.send({"type": "fly", "id": "fly", "camera": {"lat": 48.8566, "lon": 2.3522, "zoom": 9, "bearing": 0, "tilt": 0}})
    presenter.wait_for(lambda m: m["type"] == "animation" and m.get("id") == "fly" and m["status"] == "finished", 30, "the fly", mark)
    presenter.wait_rest(5, mark)
    time.sleep(1.0)


def measure(hub: Hub, browser, rate: int) -> dict:
    room = f"fidelity{rate}"
    browser.get(hub.page(room=room, role="follower", name="wall", rate=rate))
    wait_joined(browser)
    wait_until(lambda: js(browser, "camhub.map.loaded() && camhub.map.areTilesLoaded()"), 30, "the map to load")
    # every MapLibre render: when, MapLibre's camera, and what the page had handed it then (the last render()
    # entry: camera, hub time rt, paintAt) with the buffer's delay and clock offset at that moment
    browser.execute_script("""
      window.__painted = [];
      camhub.map.on('render', () => {
        const log = camhub.renders(camhub.now() - 2000);
        const r = log.length ? log[log.length - 1] : null;
        window.__painted.push({t: camhub.now(), camera: camhub.mapCamera(), page: r && {t: r.t, rt: r.rt, paintAt: r.paintAt, camera: r.camera, drawn: r.drawn},
          delay: camhub.buffer.delay, clockOffset: camhub.buffer.clockOffset, target: camhub.buffer.targetDelay, goal: camhub.buffer.clock.goalDelay,
          jitter: camhub.buffer.clock.jitter, lead: camhub.buffer.clock.lead, interval: camhub.buffer.interval});
      });""")
    if DUMP:  # every frame the buffer takes and every sample it gives, for the timings
        browser.execute_script("""
          const b = camhub.buffer; window.__log = [];
          const push = b.push.bind(b), sample = b.sample.bind(b);
          b.push = (f, at) => { window.__log.push({k: 'f', time: f.time, at, moving: !!f.moving, seq: f.seq}); return push(f, at); };
          b.sample = (displayAt, lead) => { const s = sample(displayAt, lead); const n = b.frames[b.frames.length - 1];
            window.__log.push({k: 's', displayAt, lead, now: camhub.now(), rt: s && s.time, dry: s && s.dry, newest: n && n.time, moving: n && n.moving,
              total: b.clock.total, goal: b.clock.goal, speed: b.clock.speed, resyncs: b.clock.resyncs});
            return s; };""")
    truth_client = TickFollower(hub.ws_url, room, 60)
    presenter = HubClient(hub.ws_url, room, "presenter", name="script")
    start = {"lat": 45.0, "lon": 5.0, "zoom": 5.0, "bearing": 0.0, "tilt": 30.0}
    script(presenter, start)  # warm-up: the page's buffer learns the timings
    before = js(browser, "camhub.playout")
    since = js(browser, "camhub.now()")
    mark = truth_client.mark()
    script(presenter, {**start, "lon": 6.0})
    after = js(browser, "camhub.playout")
    renders = browser.execute_script("return camhub.renders(arguments[0]);", since)
    painted = browser.execute_script("return window.__painted.filter((p) => p.t >= arguments[0]);", since)
    frames = truth_client.frames(mark)
    truth_client.close()
    presenter.close()

    if DUMP:
        (DUMP / f"follower-r{rate}.json").write_text(json.dumps({"renders": renders, "painted": painted, "frames": frames, "since": since,
                                                                "all_painted": browser.execute_script("return window.__painted;"),
                                                                "lateness": js(browser, "camhub.buffer.clock.lateness"),
                                                                "log": browser.execute_script("return window.__log;"),
                                                                "offset": js(browser, "camhub.connection.latency.offset")}))
    truth = Truth(frames)
    # the page's own cameras at the hub times they show (a small constant for the two clocks)
    own = [(r["rt"], r["camera"]) for r in renders if r.get("rt") is not None and truth.moving(r["rt"])]
    d_own, own_errs = best_offset(own, truth, -50, 50, 2)
    # painted: local time − clock offset − the best constant delay
    page_minus_hub = js(browser, "camhub.connection.latency.offset") or 0.0
    approx = (after["delay"] or 0) + after["frameMs"]
    paints = [(p["t"] - page_minus_hub, p["camera"]) for p in painted]
    paints = [(t, c) for t, c in paints if truth.moving(t - approx)]
    d_paint, paint_errs = best_offset(paints, truth, 0, 600, 8)
    # the same paints against the hub time the page meant for each (the last camera it handed MapLibre
    # before that render): painting error without the delay's drift; and that drift (paint's hub-clock
    # time minus the hub time it shows, over the moving paints)
    meant = [(p["camera"], p["page"]) for p in painted if p.get("page") and p["page"].get("rt") is not None]
    meant = [(c, pg) for c, pg in meant if truth.moving(pg["rt"]) and truth.at(pg["rt"]) is not None]
    intended_errs = [distance_px(truth.at(pg["rt"]), c) for c, pg in meant]
    handed_errs = [distance_px(pg["camera"], c) for c, pg in meant]
    delays = [p["t"] - page_minus_hub - p["page"]["rt"] for p in painted
              if p.get("page") and p["page"].get("rt") is not None and truth.moving(p["page"]["rt"])]
    mean_delay = sum(delays) / len(delays) if delays else float("nan")
    return {
        "rate": rate,
        "own_rms_px": rms(own_errs), "own_max_px": max(own_errs) if own_errs else None, "own_samples": len(own_errs),
        "own_offset_ms": d_own,
        "painted_rms_px": rms(paint_errs), "painted_max_px": max(paint_errs) if paint_errs else None,
        "painted_frames": len(paint_errs), "painted_best_delay_ms": d_paint,
        "painted_vs_meant_rms_px": rms(intended_errs), "painted_vs_meant_max_px": max(intended_errs) if intended_errs else None,
        "maplibre_vs_handed_max_px": max(handed_errs) if handed_errs else None,
        "paint_delay_min_ms": min(delays) if delays else None, "paint_delay_max_ms": max(delays) if delays else None,
        "paint_delay_sd_ms": rms([x - mean_delay for x in delays]) if delays else None,
        "dry_samples": after["drySamples"] - before["drySamples"], "samples": after["samples"] - before["samples"],
        "underruns": after["underruns"] - before["underruns"],
        "delay_ms": after["delay"], "frame_ms": after["frameMs"], "error_estimate_px": after["errorPx"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rates", type=int, nargs="+", default=[10, 30, 60])
    ap.add_argument("--json", type=Path)
    ap.add_argument("--dump", type=Path, help="a directory for the raw timings (follower-rRATE.json)")
    args = ap.parse_args()
    global DUMP
    DUMP = args.dump
    if DUMP:
        DUMP.mkdir(parents=True, exist_ok=True)
    hub = Hub()
    browser = chrome(1280, 720)
    results = []
    try:
        for rate in args.rates:
            r = measure(hub, browser, rate)
            results.append(r)
            print(f"rate {rate:>3}: own {r['own_rms_px']:.2f} px RMS (max {r['own_max_px']:.1f}) · painted {r['painted_rms_px']:.2f} px RMS "
                  f"(max {r['painted_max_px']:.1f}, {r['painted_frames']} frames, best delay {r['painted_best_delay_ms']:.0f} ms) · "
                  f"vs meant {r['painted_vs_meant_rms_px']:.2f} px RMS (MapLibre vs handed max {r['maplibre_vs_handed_max_px'] or 0:.3f}) · "
                  f"paint delay {r['paint_delay_min_ms'] or 0:.0f}–{r['paint_delay_max_ms'] or 0:.0f} ms (sd {r['paint_delay_sd_ms'] or 0:.1f}) · "
                  f"dry {r['dry_samples']}/{r['samples']} samples, {r['underruns']} underruns · delay {r['delay_ms']:.0f} ms · "
                  f"frame {r['frame_ms']:.0f} ms · estimate {r['error_estimate_px'] or 0:.2f} px", flush=True)
    finally:
        browser.quit()
        hub.stop()
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
