#!/usr/bin/env python3
"""How fast a driver's own drag moves its map, with and without prediction.

Runs the real hub (`camhub serve`, CAMHUB or .build/debug/camhub) and the viewer in headless
Chromium (the browser tests' harness, Tests/browser/hubtools.py), with `?lag=MS` so the page's
connection delays every message by MS/2 each way. For each mode (prediction on, `?predict=0`),
the map is dragged in steady drags that stop before release (no fling): by default with
Chromium's own input pipeline (CDP `Input.dispatchMouseEvent`, as a real mouse: moves are
delivered aligned with the page's animation frames; each move waits for the previous one's
round trip), or with `--input page`, by pointer events the page dispatches itself every 16 ms
(a 60 Hz mouse, but not frame-aligned: up to a frame of extra wait). It then reports:

- latency: from each pointer move (the event's time stamp) to the end of the first draw of the
  map that shows it (median, 90th percentile, max), and from the moment the page handled the move
  (a loaded machine delivers input late: that part is the browser's, before the page sees it);
- the largest correction drawn during the drags (px; prediction only) and the largest
  prediction error (the hub's camera for a gesture against the page's prediction of it);
- whether the page ended every drag on the hub's resting camera exactly.

Usage: scripts/bench_prediction.py [--lag 100] [--drags 3] [--moves 40] [--input cdp|page]
Bounded: about 10 s per drag and mode.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "Tests" / "browser"))

from hubtools import Hub, page_drag, HubClient, chrome, js, mouse, wait_joined, wait_page_camera  # noqa: E402



def percentile(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def cdp_drag(browser, points):
    mouse(browser, "mouseMoved", *points[0], button="none", buttons=0)
    mouse(browser, "mousePressed", *points[0], click_count=1)
    for p in points[1:]:
        mouse(browser, "mouseMoved", *p)
    time.sleep(0.2)
    mouse(browser, "mouseReleased", *points[-1], click_count=1, buttons=0)


def run(hub, lag: int, predict: bool, drags: int, moves: int, via: str, size: tuple[int, int]) -> dict:
    browser = chrome(*size)
    room = f"bench-{'on' if predict else 'off'}"
    try:
        params = {"room": room, "role": "driver", "name": "bench", "lag": lag}
        if not predict:
            params["predict"] = 0
        browser.get(hub.page(**params))
        wait_joined(browser)
        observer = HubClient(hub.ws_url, room, "follower", name="observer")
        setter = HubClient(hub.ws_url, room, "driver", name="setup")
        latencies, handled, exact = [], [], 0
        max_correction = max_error = 0.0
        for d in range(drags):
            mark = observer.mark()
            setter.send({"type": "set", "camera": {"lat": 20.0 + d, "lon": 10.0, "zoom": 5.0, "bearing": 0.0, "tilt": 0.0}})
            wait_page_camera(browser, observer.wait_rest(10, mark)["camera"])
            time.sleep(0.3)
            js(browser, "Object.assign(camhub.prediction.stats, {maxCorrectionPx: 0, maxErrorPx: 0}) && 0")
            first_seq = js(browser, "camhub.prediction.nextSeq")
            since = js(browser, "camhub.now()")
            w, h = size  # the same drag across the view at every size (8 and 3 px a move at 1280x720)
            points = [[w * 0.3125 + w / 160 * i, h * 0.4167 + h / 240 * i] for i in range(moves + 1)]
            mark = observer.mark()
            if via == "page":
                page_drag(browser, points, 16, 200)
            else:
                cdp_drag(browser, points)
            final = observer.wait_quiet(0.5, 10, mark)
            try:
                wait_page_camera(browser, final, timeout=5)
                exact += 1
            except AssertionError:
                pass
            stats = js(browser, "camhub.prediction.stats")
            max_correction = max(max_correction, stats["maxCorrectionPx"])
            max_error = max(max_error, stats["maxErrorPx"])
            sent = [s for s in js(browser, "camhub.prediction.sentLog") if s["seq"] >= first_seq and s["phase"] == "change"]
            renders = [r for r in browser.execute_script("return camhub.renders(arguments[0]);", since)
                       if r["drawn"] is not None and r["seq"] is not None]
            for s in sent:
                shown = next((r for r in renders if r["seq"] >= s["seq"]), None)
                if shown:
                    latencies.append(shown["drawn"] - s["t"])
                    handled.append(shown["drawn"] - s["at"])
        observer.close()
        setter.close()
        playout = js(browser, "camhub.playout")
        return {"latencies": latencies, "handled": handled, "exact": exact, "drags": drags, "maxCorrectionPx": max_correction,
                "maxErrorPx": max_error, "frameMs": playout["frameMs"], "drawMs": playout["drawMs"] or 0}
    finally:
        browser.quit()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lag", type=int, default=100, help="round trip the page adds (ms, ?lag=)")
    ap.add_argument("--drags", type=int, default=3)
    ap.add_argument("--moves", type=int, default=40, help="pointer moves per drag")
    ap.add_argument("--input", choices=["cdp", "page"], default="cdp", help="how the pointer moves are made")
    ap.add_argument("--size", default="1280x720",
                    help="the page's viewport, WxH (software GL's cost per changed frame grows with its pixels)")
    a = ap.parse_args()
    size = tuple(int(v) for v in a.size.lower().split("x"))
    hub = Hub()
    try:
        print(f"lag {a.lag} ms round trip, {a.drags} drags x {a.moves} moves ({a.input} input), {a.size}, headless Chromium (SwiftShader)")
        print("| mode | moves | move → drawn: median | p90 | max | handled → drawn: median | frame / draw | largest correction | largest prediction error | exact final |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for predict in (True, False):
            r = run(hub, a.lag, predict, a.drags, a.moves, a.input, size)
            lat = r["latencies"]
            if not lat:
                print(f"| {'prediction' if predict else '?predict=0'} | 0 | — | — | — | — | — | — | — | {r['exact']}/{r['drags']} |")
                continue
            corr = f"{r['maxCorrectionPx']:.2f} px" if predict else "—"
            err = f"{r['maxErrorPx']:.2g} px" if predict else "—"
            print(f"| {'prediction' if predict else '?predict=0'} | {len(lat)} | {statistics.median(lat):.0f} ms | "
                  f"{percentile(lat, 0.9):.0f} ms | {max(lat):.0f} ms | {statistics.median(r['handled']):.0f} ms | {r['frameMs']:.0f} / {r['drawMs']:.0f} ms | {corr} | {err} | {r['exact']}/{r['drags']} |")
    finally:
        hub.stop()


if __name__ == "__main__":
    main()
