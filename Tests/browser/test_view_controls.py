"""The room's map from the controls panel, in real Chromium with MapLibre GL JS 5.3.0: a presenter's
projection switch puts every follower page's map on the globe and back (read from the map itself,
`map.getProjection()`), and a driver's roll slider, Level button and Ctrl+Shift drag roll the room's
camera (a Python follower sees the frames)."""

import json
import time

from hubtools import js, settle_at, severe_logs, wait_joined, wait_page_camera, wait_until

# What MapLibre GL JS 5.3.0's map.getProjection() returns: the style's `projection`, which setProjection sets
# to the object it is given; None (undefined) for a style without one, which MapLibre draws in Mercator.
GLOBE = {"type": "globe"}
MERCATOR = {"type": "mercator"}
MAP_PROJECTION = "camhub.map.getProjection() ?? null"
ROLL = "document.getElementById('roll')"


def open_page(browser, url: str, new_window: bool = True) -> str:
    """Opens `url` (in a new window unless told otherwise), waits until it joined; its window handle."""
    if new_window:
        browser.switch_to.new_window("window")
    browser.get(url)
    wait_joined(browser)
    return browser.current_window_handle


def wait_map_projection(browser, expected, what: str):
    return wait_until(lambda: js(browser, MAP_PROJECTION) == expected, 10, what)


def shown_camera_is(browser, camera: dict) -> None:
    """MapLibre's own camera is the room's (the projection moves nothing)."""
    m = js(browser, "camhub.mapCamera()")
    for k in ("lat", "lon", "zoom", "bearing", "tilt"):
        assert abs(m[k] - camera[k]) < 1e-6, (k, m, camera)


def test_a_presenters_projection_switch_puts_every_follower_map_on_the_globe_and_back(hub, browser, clients):
    observer = clients("globe", "follower", name="observer")
    setter = clients("globe", "driver", name="setup")
    presenter = open_page(browser, hub.page(room="globe", role="presenter", name="ana"), new_window=False)
    me = js(browser, "camhub.client")
    camera = settle_at(setter, observer, browser, {"lat": 30, "lon": 10, "zoom": 2.5, "bearing": 20, "tilt": 30})
    followers = [open_page(browser, hub.page(room="globe", role="follower", name=f"wall{i}")) for i in (1, 2)]
    for handle in followers:
        browser.switch_to.window(handle)
        assert js(browser, MAP_PROJECTION) is None, "a Mercator room makes no setProjection call"
        assert js(browser, "camhub.room.projection") == "mercator"
        assert js(browser, "document.querySelector('[data-projection=globe]').offsetParent") is None, "followers have no switch"

    browser.switch_to.window(presenter)
    assert js(browser, "document.querySelector('[data-projection=mercator]').getAttribute('aria-pressed')") == "true"
    mark = observer.mark()
    browser.find_element("css selector", "[data-projection=globe]").click()
    event = observer.wait_for(lambda m: m.get("event") == "projectionChanged", 10, "projectionChanged", mark)
    assert (event["projection"], event["by"]) == ("globe", me)
    wait_map_projection(browser, GLOBE, "the presenter's own map on the globe")
    wait_until(lambda: js(browser, "document.querySelector('[data-projection=globe]').getAttribute('aria-pressed')") == "true",
               10, "the switch to show Globe")
    for handle in followers:
        browser.switch_to.window(handle)
        wait_map_projection(browser, GLOBE, "a follower's map on the globe")
        shown_camera_is(browser, camera)
        wait_until(lambda: any(line.endswith("projection: globe by ana") for line in js(browser, "camhub.eventLog")),
                   10, "the event log to list the change")
        assert severe_logs(browser) == []

    late = open_page(browser, hub.page(room="globe", role="follower", name="late"))
    wait_map_projection(browser, GLOBE, "a follower joining later on the globe (welcome.projection)")
    followers.append(late)

    browser.switch_to.window(presenter)
    mark = observer.mark()
    browser.find_element("css selector", "[data-projection=mercator]").click()
    event = observer.wait_for(lambda m: m.get("event") == "projectionChanged", 10, "projectionChanged back", mark)
    assert event["projection"] == "mercator"
    wait_map_projection(browser, MERCATOR, "the presenter's map flat again")
    for handle in followers:
        browser.switch_to.window(handle)
        wait_map_projection(browser, MERCATOR, "a follower's map flat again")
        shown_camera_is(browser, camera)
        assert severe_logs(browser) == []
    browser.switch_to.window(presenter)
    assert severe_logs(browser) == []


def ctrl_shift_mouse(browser, kind: str, x: float, y: float, buttons: int, click_count: int = 0):
    """A CDP mouse event with Ctrl and Shift held (modifiers: Ctrl 2 + Shift 8)."""
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {
        "type": kind, "x": x, "y": y, "button": "left" if kind != "mouseMoved" or buttons else "none",
        "buttons": buttons, "clickCount": click_count, "modifiers": 10, "pointerType": "mouse"})


def rolled_frame(observer, roll: float, start: int, what: str) -> dict:
    """The first resting frame (from `start`) whose camera has `roll` (absent: 0)."""
    return observer.wait_for(lambda m: m["type"] == "frame" and not m["moving"]
                             and abs(m["camera"].get("roll", 0) - roll) < 1e-9, 10, what, start)["camera"]


def hud_roll(browser):
    """The HUD's roll field, or None while its row is hidden."""
    return js(browser, "(el => el.hidden ? null : el.textContent)(document.querySelector('[data-hud=roll]'))")


def test_the_roll_slider_level_and_a_ctrl_shift_drag_roll_the_room(hub, browser, clients):
    browser.get(hub.page(room="roll", role="driver", name="pilot"))
    me = wait_joined(browser)
    observer = clients("roll", "follower", name="observer")
    setter = clients("roll", "driver", name="setup")
    start = settle_at(setter, observer, browser, {"lat": 46.0, "lon": 8.0, "zoom": 6.0, "bearing": 10.0, "tilt": 40.0})
    assert hud_roll(browser) is None, "a level camera: no roll row"

    # the slider: -45°
    mark = observer.mark()
    browser.execute_script(f"const s = {ROLL}; s.focus(); s.value = '-45';"
                           "s.dispatchEvent(new Event('input', {bubbles: true}));"
                           "s.dispatchEvent(new Event('change', {bubbles: true}));")
    tilted = rolled_frame(observer, -45, mark, "the slider's roll")
    assert tilted["roll"] == -45 and tilted["bearing"] == start["bearing"] and tilted["tilt"] == start["tilt"]
    wait_page_camera(browser, tilted)
    assert abs(js(browser, "camhub.mapCamera().roll") - -45) < 1e-9
    wait_until(lambda: hud_roll(browser) == "-45.0°", 10, "the HUD to show the roll")

    # Level: back to 0 (the wire leaves a 0 roll out)
    mark = observer.mark()
    browser.find_element("id", "roll-level").click()
    level = rolled_frame(observer, 0, mark, "the level camera")
    assert "roll" not in level
    wait_page_camera(browser, level)
    wait_until(lambda: hud_roll(browser) is None, 10, "the HUD's roll row to go")
    wait_until(lambda: js(browser, f"{ROLL}.value") == "0", 10, "the slider back at 0")

    # Ctrl+Shift drag 100 px to the right below the view centre: +30° (0.3° a pixel), and no gesture
    gestures = js(browser, "camhub.stats.gesturesCaptured")
    sent_before = len(js(browser, "window.__camhubSent"))
    mark = observer.mark()
    x0, x1, y = 600.0, 700.0, 560.0
    ctrl_shift_mouse(browser, "mouseMoved", x0, y, buttons=0)
    began = time.monotonic()
    ctrl_shift_mouse(browser, "mousePressed", x0, y, buttons=1, click_count=1)
    for i in range(1, 21):
        ctrl_shift_mouse(browser, "mouseMoved", x0 + (x1 - x0) * i / 20, y, buttons=1)
        time.sleep(0.016)
    ctrl_shift_mouse(browser, "mouseReleased", x1, y, buttons=0, click_count=1)
    elapsed = time.monotonic() - began
    rolled = observer.wait_for(lambda m: m["type"] == "frame" and not m["moving"]
                               and abs(m["camera"].get("roll", 0) - 30) < 1e-6, 10, "the dragged roll", mark)
    final = rolled["camera"]
    assert rolled["by"] == me
    assert (final["bearing"], final["tilt"], final["zoom"]) == (start["bearing"], start["tilt"], start["zoom"]), \
        "a roll drag neither rotates nor tilts"
    assert js(browser, "camhub.stats.gesturesCaptured") == gestures, "the drag never reached the gesture input"
    observer.wait_quiet(0.3, 5)
    assert abs(observer.camera().get("roll", 0) - 30) < 1e-6, "the release sent the last roll"
    wait_page_camera(browser, observer.camera())
    wait_until(lambda: hud_roll(browser) == "30.0°", 10, "the HUD to show the dragged roll")
    sets = [t for t in js(browser, "window.__camhubSent")[sent_before:] if '"type":"set"' in t]
    assert 2 <= len(sets) <= elapsed / 0.033 + 2, f"{len(sets)} sets in {elapsed:.2f} s: at most 30 a second"
    assert all(list(json.loads(t)["camera"]) == ["roll"] for t in sets), sets
    assert severe_logs(browser) == []
