"""The viewer page against the real hub, in headless Chromium."""

import math
import shutil
import time

import pytest

from hubtools import (Hub, drag, flat_project, flat_unproject, js, key, mouse, severe_logs, set_viewport, touch,
                      wait_joined, wait_page_camera, wait_until, wheel, world_size, WEB)

VIEW = (1280, 720)


def close(a: dict, b: dict, tol: float = 1e-9) -> bool:
    return all(abs(a[k] - b[k]) <= tol for k in ("lat", "zoom", "tilt")) and \
        abs((a["lon"] - b["lon"] + 180) % 360 - 180) <= tol and abs((a["bearing"] - b["bearing"] + 180) % 360 - 180) <= tol


def settle_at(setter, observer, browser, camera: dict) -> dict:
    """A Python driver sets `camera`; returns the hub's resting camera once the page shows it exactly."""
    mark = observer.mark()
    setter.send({"type": "set", "camera": camera})
    rest = observer.wait_rest(10, mark, "the hub to apply set")["camera"]
    wait_page_camera(browser, rest)
    # Start the caller's marks from a quiet room: CI once saw one more frame of this
    # set reach the observer after the page had shown it (not reproduced in 8 local runs).
    observer.wait_quiet(0.3, 5)
    return rest


def test_page_loads_without_console_errors(hub, browser):
    browser.get(hub.page(room="load", role="driver", name="loader"))
    wait_joined(browser)
    wait_until(lambda: js(browser, "camhub.map.loaded() && camhub.map.areTilesLoaded()"), 30, "the map to finish loading")
    time.sleep(0.5)
    assert severe_logs(browser) == []
    assert js(browser, "camhub.handlersEnabled()") == [], "every MapLibre handler must be off"
    assert js(browser, "camhub.role") == "driver"
    assert "load" in browser.title and "driver" in browser.title
    assert js(browser, "document.querySelector('[data-hud=connection]').textContent") == "connected"
    assert js(browser, "document.querySelector('[data-hud=me]').textContent") == "loader (you)"
    assert js(browser, "getComputedStyle(document.getElementById('fatal')).display") == "none"
    # buttons for drivers are enabled, the follower hint is hidden
    assert js(browser, "document.getElementById('north').disabled") is False
    # the canvas fills the page
    assert js(browser, "[camhub.map.getCanvas().clientWidth, camhub.map.getCanvas().clientHeight]") == list(VIEW)


def test_missing_maplibre_shows_how_to_install_it(tmp_path, browser):
    web = tmp_path / "web"
    shutil.copytree(WEB, web, ignore=shutil.ignore_patterns("vendor"))
    h = Hub(web=web)
    try:
        browser.get(h.page(room="novendor", role="follower"))
        text = wait_until(lambda: js(browser, "!document.getElementById('fatal').hidden && "
                                              "document.getElementById('fatal').textContent"), 15, "the missing-MapLibre message")
        assert "scripts/install_web_vendor.sh" in text and "make run" in text
        # the HUD still connects without a map
        wait_until(lambda: js(browser, "window.camhub && camhub.state === 'joined'"), 15, "the page to join without a map")
    finally:
        h.stop()


def test_follower_converges_to_scripted_presenter(hub, browser, clients):
    browser.get(hub.page(room="conv", role="follower", name="wall"))
    wait_joined(browser)
    presenter = clients("conv", "presenter", name="scripted")
    wait_until(lambda: js(browser, "camhub.room.presenter") == presenter.client, 5, "the page to see the presenter")

    a = {"lat": 45.8326, "lon": 6.8652, "zoom": 6, "bearing": 30, "tilt": 40}
    mark = presenter.mark()
    presenter.send({"type": "set", "camera": a})
    rest = presenter.wait_rest(5, mark)["camera"]
    assert close(rest, a)
    wait_page_camera(browser, rest)

    b = {"lat": 41.0082, "lon": 28.9784, "zoom": 7.5, "bearing": 320, "tilt": 55}
    before = js(browser, "camhub.stats")
    since = js(browser, "camhub.now()")
    mark = presenter.mark()
    presenter.send({"type": "ease", "id": "e1", "camera": b, "duration": 1.5, "curve": "easeInOut"})
    final = presenter.wait_rest(10, mark, "the ease to finish")
    assert close(final["camera"], b, 1e-9), final
    # the page renders the exact final camera of the moving:false frame
    wait_page_camera(browser, final["camera"])
    frames = js(browser, "camhub.stats")["framesReceived"] - before["framesReceived"]
    assert 20 <= frames <= 60, f"{frames} frames for a 1.5 s ease at 30 Hz"
    # in between it drew the motion (as often as this machine's software GL allows), never
    # overshooting: every rendered zoom lies between the start and the end
    renders = [r["camera"] for r in browser.execute_script("return camhub.renders(arguments[0]);", since)]
    between = [c for c in renders if rest["zoom"] < c["zoom"] < b["zoom"]]
    assert between, f"no intermediate camera rendered: {renders}"
    assert all(rest["zoom"] - 1e-9 <= c["zoom"] <= b["zoom"] + 1e-9 for c in renders)
    assert renders[-1] == final["camera"]
    m = js(browser, "camhub.mapCamera()")
    assert close(m, final["camera"], 1e-6), m
    # HUD: who presents and who moved the camera, the roster
    assert js(browser, "document.querySelector('[data-hud=presenter]').textContent") == "scripted"
    assert js(browser, "document.querySelector('[data-hud=by]').textContent") == "scripted"
    people = js(browser, "[...document.querySelectorAll('[data-hud=people] li')].map(li => li.textContent)")
    assert any(p.startswith("scripted") for p in people) and any(p.startswith("wall (you)") for p in people), people
    assert severe_logs(browser) == []


def test_follower_input_offers_control_instead_of_moving(hub, browser, clients):
    browser.get(hub.page(room="ask", role="follower", name="watcher"))
    wait_joined(browser)
    observer = clients("ask", "follower", name="observer")
    start = observer.camera()
    mark = observer.mark()
    drag(browser, (640, 360), (800, 420), steps=8)
    wheel(browser, 640, 360, -200)
    wait_until(lambda: js(browser, "!document.getElementById('takeover').hidden"), 5, "the take-control prompt")
    time.sleep(0.5)
    assert observer.frames(mark) == [], "a follower's input must not move the camera"
    assert js(browser, "camhub.stats.gesturesSent") == 0
    assert js(browser, "camhub.rendered") == start
    # take control: the page rejoins as a driver and can drag
    browser.find_element("id", "takeover-yes").click()
    wait_until(lambda: js(browser, "camhub.state === 'joined' && camhub.role === 'driver'"), 10, "the page to rejoin as driver")
    assert "role=" not in browser.current_url or "role=driver" in browser.current_url
    mark = observer.mark()
    drag(browser, (640, 360), (700, 360), steps=6)
    observer.wait_rest(10, mark, "the new driver's drag")
    assert severe_logs(browser) == []


@pytest.mark.parametrize("bearing", [0, 90])
def test_driver_drag_pans_the_hub_camera(hub, browser, clients, bearing):
    browser.get(hub.page(room="drag", role="driver", name="hands"))
    me = wait_joined(browser)
    observer = clients("drag", "follower", name="observer")
    setter = clients("drag", "driver", name="setup")
    start = settle_at(setter, observer, browser, {"lat": 10.0, "lon": 20.0, "zoom": 4.0, "bearing": bearing, "tilt": 0.0})

    grab, release = (640.0, 360.0), (840.0, 460.0)
    geo = flat_unproject(start, VIEW, *grab)
    mark = observer.mark()
    drag(browser, grab, release)
    final = observer.wait_quiet(0.5, 10, mark)
    frames = observer.frames(mark)
    assert frames and all(f["by"] == me for f in frames), "the page's gestures moved the camera"
    assert final["zoom"] == start["zoom"] and final["bearing"] == start["bearing"] and final["tilt"] == start["tilt"]
    # the grabbed point is under the pointer where it was released
    x, y = flat_project(final, VIEW, *geo)
    assert math.hypot(x - release[0], y - release[1]) < 1.0, (x, y)
    # direction: the content followed the pointer right and down, so the target moved the other way:
    # bearing 0 (north up): west and north; bearing 90 (east up, screen right is south): north and east
    if bearing == 0:
        assert final["lon"] < start["lon"] and final["lat"] > start["lat"]
    else:
        assert final["lat"] > start["lat"] and final["lon"] > start["lon"]
    # the page shows the hub's final camera exactly, and echoes nothing back
    wait_page_camera(browser, final)
    n = len(observer.frames())
    time.sleep(1.0)
    assert len(observer.frames()) == n, "no frames after rest: the page must not echo the hub's camera"
    assert severe_logs(browser) == []


def test_driver_wheel_zooms_around_the_pointer(hub, browser, clients):
    browser.get(hub.page(room="wheel", role="driver", name="wheeler"))
    me = wait_joined(browser)
    observer = clients("wheel", "follower", name="observer")
    setter = clients("wheel", "driver", name="setup")
    start = settle_at(setter, observer, browser, {"lat": 47.0, "lon": 8.0, "zoom": 5.0, "bearing": 0.0, "tilt": 0.0})

    at = (900.0, 200.0)
    geo = flat_unproject(start, VIEW, *at)
    mark = observer.mark()
    wheel(browser, at[0], at[1], -100)  # one notch up: zoom in
    zoomed = observer.wait_quiet(0.6, 10, mark)
    frames = observer.frames(mark)
    assert frames and all(f["by"] == me for f in frames)
    # the hub zooms by -delta/450 per scroll (docs/PROTOCOL.md); the page sends WheelEvent.deltaY in px
    dz = zoomed["zoom"] - start["zoom"]
    assert abs(dz - 100 / 450) < 1e-9, f"one 100 px wheel step zoomed by {dz}, expected {100 / 450}"
    x, y = flat_project(zoomed, VIEW, *geo)
    assert math.hypot(x - at[0], y - at[1]) < 1.0, "the point under the pointer stays there"

    mark = observer.mark()
    wheel(browser, at[0], at[1], 100)  # one notch down: zoom back out
    back = observer.wait_quiet(0.6, 10, mark)
    assert back["zoom"] < zoomed["zoom"]
    assert abs(back["zoom"] - start["zoom"]) < 1e-6, "the same notch down undoes it"
    wait_page_camera(browser, back)
    assert severe_logs(browser) == []


def test_two_pages_in_one_room_show_the_same_camera(hub, browser, clients):
    browser.get(hub.page(room="pair", role="follower", name="left"))
    wait_joined(browser)
    first = browser.current_window_handle
    browser.switch_to.new_window("window")
    set_viewport(browser, 1024, 640)  # another size: the same camera all the same
    browser.get(hub.page(room="pair", role="driver", name="right"))
    wait_joined(browser)
    second = browser.current_window_handle
    observer = clients("pair", "follower", name="observer")

    mark = observer.mark()
    browser.find_element("css selector", "button[data-place=tokyo]").click()
    final = observer.wait_rest(30, mark, "the flight to Tokyo")["camera"]
    rendered = {}
    for handle in (second, first):
        browser.switch_to.window(handle)
        wait_page_camera(browser, final, timeout=10)
        rendered[handle] = js(browser, "camhub.rendered")
        assert close(js(browser, "camhub.mapCamera()"), final, 1e-6)
        assert len(js(browser, "camhub.room.roster()")) == 3
        assert severe_logs(browser) == []
    assert rendered[first] == rendered[second] == final
    assert abs(final["lat"] - 35.6762) < 1e-6 and abs(final["lon"] - 139.6503) < 1e-6


def test_driver_right_drag_rotates_and_tilts(hub, browser, clients):
    browser.get(hub.page(room="turn", role="driver", name="turner"))
    me = wait_joined(browser)
    observer = clients("turn", "follower", name="observer")
    setter = clients("turn", "driver", name="setup")
    start = settle_at(setter, observer, browser, {"lat": 46.0, "lon": 8.0, "zoom": 6.0, "bearing": 10.0, "tilt": 20.0})

    mark = observer.mark()
    # right button: 50 px right (rotate 0.8°/px -> +40°) and 40 px up (tilt 0.5°/px, up tilts more -> +20°)
    x0, y0, x1, y1 = 640.0, 400.0, 690.0, 360.0
    mouse(browser, "mouseMoved", x0, y0, button="none", buttons=0)
    mouse(browser, "mousePressed", x0, y0, button="right", buttons=2, click_count=1)
    for i in range(1, 11):
        mouse(browser, "mouseMoved", x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10, button="right", buttons=2)
        time.sleep(0.016)
    time.sleep(0.2)
    mouse(browser, "mouseReleased", x1, y1, button="right", buttons=0, click_count=1)
    final = observer.wait_quiet(0.5, 10, mark)
    assert all(f["by"] == me for f in observer.frames(mark))
    assert abs(final["bearing"] - 50.0) < 1e-9, final
    assert abs(final["tilt"] - 40.0) < 1e-9, final
    assert final["zoom"] == start["zoom"]
    wait_page_camera(browser, final)
    assert js(browser, "getComputedStyle(document.getElementById('takeover')).display") == "none"
    assert severe_logs(browser) == []


def test_driver_touch_pinch_zooms_and_keys_pan(hub, browser, clients):
    browser.get(hub.page(room="touch", role="driver", name="fingers"))
    me = wait_joined(browser)
    observer = clients("touch", "follower", name="observer")
    setter = clients("touch", "driver", name="setup")
    start = settle_at(setter, observer, browser, {"lat": 41.0, "lon": 29.0, "zoom": 5.0, "bearing": 0.0, "tilt": 0.0})

    # two fingers 100 px apart around (640, 360) spread to 200 px: scale 2, zoom + 1, focal point fixed
    mark = observer.mark()
    touch(browser, "touchStart", [(590, 360), (690, 360)])
    for i in range(1, 11):
        h = 50 + 5 * i
        touch(browser, "touchMove", [(640 - h, 360), (640 + h, 360)])
        time.sleep(0.02)
    time.sleep(0.2)
    touch(browser, "touchEnd", [])
    pinched = observer.wait_quiet(0.6, 10, mark)
    assert all(f["by"] == me for f in observer.frames(mark))
    assert abs(pinched["zoom"] - (start["zoom"] + 1)) < 1e-9, pinched
    assert abs(pinched["lat"] - start["lat"]) < 1e-9 and abs(pinched["lon"] - start["lon"]) < 1e-9
    wait_page_camera(browser, pinched)

    # arrow left: the map content moves 100 px right, so the camera looks 100 px further west
    mark = observer.mark()
    key(browser, "ArrowLeft", "ArrowLeft", 37)
    panned = observer.wait_quiet(0.6, 10, mark)
    assert abs(panned["lon"] - (pinched["lon"] - 100 * 360 / world_size(pinched["zoom"]))) < 1e-9, panned
    assert abs(panned["lat"] - pinched["lat"]) < 1e-9
    wait_page_camera(browser, panned)
    assert severe_logs(browser) == []


def test_presenter_keeps_the_room_to_the_view_and_clears_it(hub, browser, clients):
    browser.get(hub.page(room="fence", role="presenter", name="lead"))
    wait_joined(browser)
    driver = clients("fence", "driver", name="mover")
    paris = {"lat": 48.8566, "lon": 2.3522, "zoom": 6, "bearing": 0, "tilt": 0}
    settle_at(driver, driver, browser, paris)
    assert js(browser, "getComputedStyle(document.getElementById('limits-controls')).display") != "none"
    assert js(browser, "document.querySelector('[data-hud=limits]').textContent") == "none"

    mark = driver.mark()
    browser.find_element("id", "limits-keep").click()
    changed = driver.wait_for(lambda m: m.get("event") == "limitsChanged", 5, "limitsChanged", mark)["limits"]
    shown = js(browser, "camhub.mapCamera()")
    b = changed["bounds"]
    # the area the presenter saw: Paris inside, a box about as wide as the view at zoom 6
    assert changed["minZoom"] == 6
    assert b["south"] < paris["lat"] < b["north"] and b["west"] < paris["lon"] < b["east"], changed
    width = world_size(shown["zoom"]) * (b["east"] - b["west"]) / 360
    assert abs(width - VIEW[0]) < 2, f"bounds {b} span {width} px, the page is {VIEW[0]} px wide"
    wait_until(lambda: js(browser, "document.querySelector('[data-hud=limits]').textContent").startswith("zoom ≥ 6 · area"),
               5, "the HUD to show the limits")

    # a driver asking for Sydney at zoom 2 ends on the edge of the box, no further out than zoom 6
    mark = driver.mark()
    driver.send({"type": "set", "camera": {"lat": -33.87, "lon": 151.21, "zoom": 2}})
    rest = driver.wait_rest(5, mark, "the clamped set")["camera"]
    assert rest["zoom"] == 6
    assert abs(rest["lat"] - b["south"]) < 1e-9 and abs(rest["lon"] - b["east"]) < 1e-9, (rest, b)
    assert driver.wait_for(lambda m: m.get("event") == "clamped", 5, "the clamped event", mark)

    mark = driver.mark()
    browser.find_element("id", "limits-clear").click()
    cleared = driver.wait_for(lambda m: m.get("event") == "limitsChanged", 5, "limitsChanged", mark)["limits"]
    assert cleared["bounds"] is None and cleared["minZoom"] == 0 and cleared["maxZoom"] == 22, cleared
    wait_until(lambda: js(browser, "document.querySelector('[data-hud=limits]').textContent") == "none", 5, "the HUD to show none")
    assert severe_logs(browser) == []
