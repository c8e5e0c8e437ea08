#!/usr/bin/env python3
"""Makes docs/screenshot.png: the viewer page in headless Chromium, joined to a
room of the real hub whose (scripted) presenter tilts and turns the camera over
Lisbon at city zoom (the offline vector basemap: the Tagus estuary, the Atlantic
coast and the places around), within the room's default limits (what a new room shows). Needs what scripts/test_browser.sh needs (it checks the same way).

Usage: python3 scripts/make_screenshot.py [OUT.png] [--width 1280 --height 720]
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(ROOT / "docs" / "screenshot.png"))
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    a = ap.parse_args()

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
        mark = presenter.mark()
        presenter.send({"type": "ease", "id": "shot", "camera": CAMERA, "duration": 1.0})
        final = presenter.wait_rest(15, mark, "the camera to rest over Lisbon")["camera"]
        if final != CAMERA:
            raise SystemExit(f"make_screenshot: the hub changed the camera to {final} (limits?); want {CAMERA}")
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
