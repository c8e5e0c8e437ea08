#!/usr/bin/env python3
"""Makes docs/screenshot.png: the viewer page in headless Chromium, joined to a
room of the real hub whose (scripted) presenter tilts and turns the camera over
Lisbon at city zoom (the offline vector basemap: the Tagus estuary, the Atlantic
coast and the places around), within the room's default limits (what a new room shows). Needs what scripts/test_browser.sh needs (it checks the same way).
`--scene steep` (docs/screenshot-3d.png): the room allows pitch 85 and the camera is
low, steep and rolled, its centre raised, with a wider field of view; `--scene globe`
(docs/screenshot-globe.png): the room's map on the globe at world zoom.

Usage: python3 scripts/make_screenshot.py [OUT.png] [--scene lisbon|steep|globe] [--width 1280 --height 720]
Environment: CAMHUB (hub binary, default .build/debug/camhub), CHROMIUM, CHROMEDRIVER.
"""

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "browser"))

from hubtools import Hub, HubClient, chrome, js, severe_logs, wait_joined, wait_page_camera, wait_until  # noqa: E402

# Tilt within the default maxTilt of 60 (docs/PROTOCOL.md, `limits`): the picture shows
# what anyone gets in a new room, and the hub would clamp anything steeper.
CAMERA = {"lat": 38.7, "lon": -9.2, "zoom": 11, "bearing": 340.0, "tilt": 45}
# Each scene: the room's setup messages, the camera, and where the picture goes.
SCENES = {
    "lisbon": ([], CAMERA, "screenshot.png"),
    "steep": ([{"type": "limits", "maxTilt": 85}],
              {"lat": 38.69, "lon": -9.2, "zoom": 12.5, "bearing": 300.0, "tilt": 78, "roll": -12.0, "elevation": 150.0,
               "fov": 50.0}, "screenshot-3d.png"),
    "globe": ([{"type": "projection", "projection": "globe"}],
              {"lat": 30.0, "lon": -20.0, "zoom": 1.6, "bearing": 0.0, "tilt": 0}, "screenshot-globe.png"),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?")
    ap.add_argument("--scene", choices=sorted(SCENES), default="lisbon")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    a = ap.parse_args()
    setup, camera, name = SCENES[a.scene]
    a.out = a.out or str(ROOT / "docs" / name)

    hub = Hub()
    driver = None
    clients = []
    try:
        driver = chrome(a.width, a.height)
        driver.get(hub.page(room="lisbon", role="driver", name="Ben"))
        wait_joined(driver)
        presenter = HubClient(hub.ws_url, "lisbon", "presenter", name="Ana")
        clients.append(presenter)
        clients.append(HubClient(hub.ws_url, "lisbon", "follower", name="Lobby wall"))
        for message in setup:
            presenter.send(message)
        mark = presenter.mark()
        presenter.send({"type": "ease", "id": "shot", "camera": camera, "duration": 1.0})
        final = presenter.wait_rest(15, mark, "the camera to rest")["camera"]
        if final != camera:
            raise SystemExit(f"make_screenshot: the hub changed the camera to {final} (limits?); want {camera}")
        wait_page_camera(driver, final, timeout=20)
        wait_until(lambda: js(driver, "camhub.map.loaded() && camhub.map.areTilesLoaded()"), 30, "the map to load")
        # let the HUD refresh, the join toasts fade and a couple of pings pass
        time.sleep(6.5)
        errors = severe_logs(driver)
        if errors:
            print("console errors:\n" + "\n".join(errors), file=sys.stderr)
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(a.out)
        print(f"make_screenshot: wrote {a.out} ({a.width}x{a.height}) at {final}")
    finally:
        for c in clients:
            c.close()
        if driver:
            driver.quit()
        hub.stop()


if __name__ == "__main__":
    main()
