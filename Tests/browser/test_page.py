"""The viewer page against the real hub, in headless Chromium."""

import math
import shutil
import time

import pytest

from hubtools import (Hub, drag, flat_project, flat_unproject, input_applied, js, key, mouse, page_double_click, settle_at, severe_logs,
                      set_viewport, touch, wait_joined, wait_page_camera, wait_until, wheel, world_size, WEB)

VIEW = (1280, 720)


def close(a: dict, b: dict, tol: float = 1e-9) -> bool:
    return all(abs(a[k] - b[k]) <= tol for k in ("lat", "zoom", "tilt")) and \
        abs((a["lon"] - b["lon"] + 180) % 360 - 180) <= tol and abs((a["bearing"] - b["bearing"] + 180) % 360 - 180) <= tol


def movers(frames: list[dict], start: dict) -> set:
    """Who the frames that left `start` name as the last mover. (A gesture's first frame may
    come before it moves anything, when the hub handles its begin in a tick of its own: that
    frame still names whoever moved the camera before.)"""
    return {f["by"] for f in frames if f["camera"] != start}


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
    shutil.copytree(WEB.parent / "clients" / "js" / "src", tmp_path / "clients" / "js" / "src")  # served beside it, as installed
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
    wait_until(lambda: js(browser, "camhub.room.presenter") == presenter.client, 10, "the page to see the presenter")

    a = {"lat": 45.8326, "lon": 6.8652, "zoom": 6, "bearing": 30, "tilt": 40}
    mark = presenter.mark()
    presenter.send({"type": "set", "camera": a})
    rest = presenter.wait_rest(10, mark)["camera"]
    assert close(rest, a)
    wait_page_camera(browser, rest)

    b = {"lat": 41.0082, "lon": 28.9784, "zoom": 7.5, "bearing": 320, "tilt": 55}
    since = js(browser, "camhub.now()")
    mark = presenter.mark()
    # 4 s: long enough that even a page starved of animation frames on a loaded machine draws some of it
    # (the frame rate a follower gets is the hub's throttle's, tested in Swift, not here).
    presenter.send({"type": "ease", "id": "e1", "camera": b, "duration": 4, "curve": "easeInOut"})
    final = presenter.wait_rest(20, mark, "the ease to finish")
    assert close(final["camera"], b, 1e-9), final
    # the page renders the exact final camera of the moving:false frame
    wait_page_camera(browser, final["camera"])
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
    final = input_applied(browser, observer, mark)
    frames = observer.frames(mark)
    assert frames and movers(frames, start) == {me}, "the page's gestures moved the camera"
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
    zoomed = input_applied(browser, observer, mark)
    frames = observer.frames(mark)
    assert frames and movers(frames, start) == {me}
    # the hub zooms by -delta/450 per scroll (docs/PROTOCOL.md); the page sends WheelEvent.deltaY in px
    dz = zoomed["zoom"] - start["zoom"]
    assert abs(dz - 100 / 450) < 1e-9, f"one 100 px wheel step zoomed by {dz}, expected {100 / 450}"
    x, y = flat_project(zoomed, VIEW, *geo)
    assert math.hypot(x - at[0], y - at[1]) < 1.0, "the point under the pointer stays there"

    mark = observer.mark()
    wheel(browser, at[0], at[1], 100)  # one notch down: zoom back out
    back = input_applied(browser, observer, mark)
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
    final = input_applied(browser, observer, mark)
    assert movers(observer.frames(mark), start) == {me}
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
    pinched = input_applied(browser, observer, mark)
    assert movers(observer.frames(mark), start) == {me}
    assert abs(pinched["zoom"] - (start["zoom"] + 1)) < 1e-9, pinched
    assert abs(pinched["lat"] - start["lat"]) < 1e-9 and abs(pinched["lon"] - start["lon"]) < 1e-9
    wait_page_camera(browser, pinched)

    # arrow left: the map content moves 100 px right, so the camera looks 100 px further west
    mark = observer.mark()
    key(browser, "ArrowLeft", "ArrowLeft", 37)
    panned = input_applied(browser, observer, mark)
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
    changed = driver.wait_for(lambda m: m.get("event") == "limitsChanged", 10, "limitsChanged", mark)["limits"]
    shown = js(browser, "camhub.mapCamera()")
    b = changed["bounds"]
    # the area the presenter saw: Paris inside, a box about as wide as the view at zoom 6
    assert changed["minZoom"] == 6
    assert b["south"] < paris["lat"] < b["north"] and b["west"] < paris["lon"] < b["east"], changed
    width = world_size(shown["zoom"]) * (b["east"] - b["west"]) / 360
    assert abs(width - VIEW[0]) < 2, f"bounds {b} span {width} px, the page is {VIEW[0]} px wide"
    wait_until(lambda: js(browser, "document.querySelector('[data-hud=limits]').textContent").startswith("zoom ≥ 6 · area"),
               10, "the HUD to show the limits")

    # a driver asking for Sydney at zoom 2 ends on the edge of the box, no further out than zoom 6
    mark = driver.mark()
    driver.send({"type": "set", "camera": {"lat": -33.87, "lon": 151.21, "zoom": 2}})
    rest = driver.wait_rest(10, mark, "the clamped set")["camera"]
    assert rest["zoom"] == 6
    assert abs(rest["lat"] - b["south"]) < 1e-9 and abs(rest["lon"] - b["east"]) < 1e-9, (rest, b)
    assert driver.wait_for(lambda m: m.get("event") == "clamped", 10, "the clamped event", mark)

    mark = driver.mark()
    browser.find_element("id", "limits-clear").click()
    cleared = driver.wait_for(lambda m: m.get("event") == "limitsChanged", 10, "limitsChanged", mark)["limits"]
    assert cleared["bounds"] is None and cleared["minZoom"] == 0 and cleared["maxZoom"] == 22, cleared
    wait_until(lambda: js(browser, "document.querySelector('[data-hud=limits]').textContent") == "none", 10, "the HUD to show none")
    assert severe_logs(browser) == []


# ---------------------------------------------------------------------------
# The page explains itself: parameters it could not use, a refused hello
# ---------------------------------------------------------------------------


def notices(browser, kind: str = "param") -> list[str]:
    """The texts of the page's notices of `kind` (param: one per parameter; refusal: the hub refused the hello)."""
    return js(browser, f"[...document.querySelectorAll('#notices [data-notice={kind}]')]"
                       ".map(n => (n.querySelector(':scope > span') ?? n).textContent)")


def visible(browser, selector: str) -> bool:
    """The element is displayed inside the viewport and is what a person sees at its centre (not covered)."""
    return browser.execute_script("""
        const el = document.querySelector(arguments[0]);
        if (!el || !el.offsetParent && getComputedStyle(el).position !== 'fixed') return false;
        const r = el.getBoundingClientRect();
        if (r.width < 1 || r.height < 1 || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return el.contains(hit);""", selector)


def test_invalid_parameters_are_named_and_the_address_shows_what_was_joined(hub, browser, clients):
    browser.get(f"{hub.url}/?role=admin&rate=500&room=my%20room!&name=Wall")
    wait_joined(browser)
    assert js(browser, "camhub.room.room") == "my-room"
    assert js(browser, "camhub.role") == "driver"
    shown = wait_until(lambda: (lambda n: n if len(n) == 3 and "30 frames per second" in " ".join(n) else None)(notices(browser)),
                       10, "three parameter notices, the rate one with the granted rate")
    assert any(n.startswith('?room=my room!:') and 'using room "my-room" instead' in n for n in shown), shown
    assert any(n.startswith("?role=admin:") and "presenter, driver and follower" in n and "using driver instead" in n
               for n in shown), shown
    assert any(n.startswith("?rate=500:") and "the hub's default, 30 frames per second" in n for n in shown), shown
    for param in ("room", "role", "rate"):
        assert visible(browser, f"#notices [data-param={param}]"), f"the {param} notice is not visible"
    # the address is what was joined: a reload or a shared link joins the same room
    assert js(browser, "location.search") == "?room=my-room&name=Wall"
    other = clients("my-room", "driver", name="observer")
    assert {"name": "Wall", "role": "driver"} in [{"name": e["name"], "role": e["role"]} for e in other.welcome["roster"]]
    # a notice goes away when dismissed, the others stay
    browser.find_element("css selector", "#notices [data-param=role] .dismiss").click()
    assert [n[:7] for n in notices(browser)] == ["?room=m", "?rate=5"]
    assert severe_logs(browser) == []


def test_clean_address_shows_no_notice(hub, browser):
    browser.get(hub.page(room="quiet", role="follower", name="ok"))
    wait_joined(browser)
    time.sleep(0.3)
    assert notices(browser) == [] and notices(browser, "refusal") == []
    assert js(browser, "location.search") == "?room=quiet&role=follower&name=ok"


def test_rate_above_the_hubs_tick_joins_at_the_default_and_says_so(hub, browser):
    browser.get(hub.page(room="fast", role="follower", rate=100))
    wait_joined(browser)
    assert js(browser, "camhub.room.rate") == 30
    [refusal] = js(browser, "camhub.stats.refusals")
    assert refusal["code"] == "bad_message" and refusal["message"].startswith("rate:"), refusal
    [n] = wait_until(lambda: (lambda n: n if n and "30 frames per second" in n[0] else None)(notices(browser)), 10, "the rate notice")
    assert n.startswith("?rate=100: the hub refused it (rate: must be within 1…60 frames per second"), n
    assert n.endswith("using the hub's default, 30 frames per second instead."), n
    assert visible(browser, "#notices [data-param=rate]")
    assert js(browser, "location.search") == "?room=fast&role=follower"
    assert notices(browser, "refusal") == []


def test_refused_hello_shows_the_hubs_reason_and_ways_in(browser):
    h = Hub(extra_args=["--presenter-token", "s3cret"])
    try:
        browser.get(h.page(room="stage", role="presenter", name="ana", token="wrong"))
        wait_until(lambda: js(browser, "window.camhub && camhub.state") == "refused", 10, "the page to show the refusal")
        [text] = notices(browser, "refusal")
        assert 'The hub did not let this page join room "stage" as presenter' in text
        assert "forbidden: token: wrong token for role presenter" in text
        assert "presenter token" in text and "join as a follower" in text
        assert visible(browser, "#notices [data-notice=refusal]")
        wait_until(lambda: js(browser, "document.querySelector('[data-hud=connection]').textContent").startswith("refused by the hub")
                   and js(browser, "document.querySelector('[data-hud=dot]').dataset.state") == "refused", 10, "the HUD to say refused")
        time.sleep(2.0)  # not retried behind the person's back, and never "joining…"
        assert js(browser, "camhub.state") == "refused"
        assert len(js(browser, "camhub.stats.refusals")) == 1
        # the way in with the right token
        browser.find_element("css selector", "#notices input[name=token]").send_keys("s3cret")
        browser.find_element("css selector", "#notices button[data-action=token]").click()
        wait_joined(browser)
        assert js(browser, "camhub.role") == "presenter"
        assert notices(browser, "refusal") == []
        assert js(browser, "location.search") == "?room=stage&role=presenter&name=ana&token=s3cret"

        # no token at all: join as a follower instead
        browser.get(h.page(room="stage", role="presenter", name="bob"))
        wait_until(lambda: js(browser, "window.camhub && camhub.state") == "refused", 10, "the second refusal")
        assert "missing token for role presenter" in notices(browser, "refusal")[0]
        browser.find_element("css selector", "#notices button[data-action=follower]").click()
        wait_joined(browser)
        assert js(browser, "camhub.role") == "follower"
        assert notices(browser, "refusal") == []
        assert js(browser, "location.search") == "?room=stage&role=follower&name=bob"
    finally:
        h.stop()


def test_header_shows_the_room_name_beside_an_uncut_role_badge(hub, browser):
    def header():
        return browser.execute_script("""
            const room = document.querySelector('[data-hud=room]'), badge = document.querySelector('[data-hud=role]');
            const brand = document.querySelector('#hud .brand');
            const r = room.getBoundingClientRect(), b = badge.getBoundingClientRect(), h = room.parentElement.getBoundingClientRect();
            return {text: room.textContent, title: room.title, cut: room.scrollWidth > room.clientWidth,
                    badge: badge.textContent, badgeCut: badge.scrollWidth > badge.clientWidth,
                    apart: r.right <= b.left, inside: b.right <= h.right, brand: brand.offsetWidth > 0};""")

    browser.get(hub.page(room="lobby", role="follower"))
    wait_joined(browser)
    h = header()
    assert h["text"] == "lobby" and not h["cut"] and h["brand"], h
    assert h["badge"] == "Follower" and not h["badgeCut"] and h["apart"] and h["inside"], h

    mid = "ops-wall_north-2"  # too long beside the brand: the brand makes way
    browser.get(hub.page(room=mid, role="presenter"))
    wait_joined(browser)
    h = header()
    assert h["text"] == mid and not h["cut"] and not h["brand"], h
    assert not h["badgeCut"] and h["apart"] and h["inside"], h

    long = "ops-wall_lobby-screen-north-entrance-" + "x" * 27  # 64 characters: the whole name on hover
    browser.get(hub.page(room=long, role="driver"))
    wait_joined(browser)
    h = header()
    assert h["text"] == long and h["title"] == f"room {long}" and h["cut"], h
    assert h["badge"] == "Driver" and not h["badgeCut"] and h["apart"] and h["inside"], h


def test_double_click_zooms_without_tap_markers_and_a_click_shows_one(hub, browser, clients):
    browser.get(hub.page(room="taps", role="follower", name="wall"))
    wait_joined(browser)
    follower = browser.current_window_handle
    browser.switch_to.new_window("window")
    set_viewport(browser, *VIEW)
    browser.get(hub.page(room="taps", role="driver", name="dana"))
    wait_joined(browser)
    observer = clients("taps", "driver", name="observer")  # drivers get every event
    setter = clients("taps", "driver", name="setup")
    start = settle_at(setter, observer, browser, {"lat": 47.0, "lon": 8.0, "zoom": 5.0, "bearing": 0.0, "tilt": 0.0})

    mark = observer.mark()
    page_double_click(browser, 640, 360)  # two presses at one spot within 300 ms
    zoomed = input_applied(browser, observer, mark)
    assert abs(zoomed["zoom"] - (start["zoom"] + 1)) < 1e-9, zoomed
    time.sleep(0.5)
    taps = [m for m in observer.messages[mark:] if m["type"] == "event" and m["event"] in ("tap", "longPress")]
    assert taps == [], f"a double-click must not announce taps: {taps}"

    mark = observer.mark()
    mouse(browser, "mousePressed", 500, 300, click_count=1)
    mouse(browser, "mouseReleased", 500, 300, buttons=0, click_count=1)
    tap = observer.wait_for(lambda m: m.get("event") == "tap", 10, "the click's tap", mark)
    time.sleep(0.5)
    assert len([m for m in observer.messages[mark:] if m.get("event") == "tap"]) == 1
    assert [f for f in observer.frames(mark) if f["camera"] != zoomed] == [], "a tap does not move the camera"
    browser.switch_to.window(follower)
    wait_until(lambda: js(browser, "camhub.stats.taps").count("dana tapped here") == 1, 10, "the follower's tap marker")
    assert js(browser, "camhub.stats.taps") == ["dana tapped here"], "only the click made a marker"
    assert tap["by"] == js(browser, "camhub.room.roster().find(p => p.name === 'dana').client")
    assert severe_logs(browser) == []


def route_coordinates(browser) -> list:
    """The line the map draws for the room's route (its GeoJSON source), [] when none."""
    data = js(browser, "window.camhub.map && window.camhub.map.getSource('camhub-route') "
                       "&& window.camhub.map.getSource('camhub-route').serialize().data")
    features = (data or {}).get("features") or []
    return features[0]["geometry"]["coordinates"] if features else []


def test_the_route_is_drawn_for_late_joiners_and_follows_changes(hub, browser, clients):
    driver = clients("route", "driver", name="navigator")
    driver.send({"type": "route", "points": [{"lat": 48.85, "lon": 2.35}, {"lat": 48.86, "lon": 2.36}]})
    driver.sync()  # the route is the room's before the page joins
    browser.get(hub.page(room="route", role="follower", name="late"))
    wait_joined(browser)
    wait_until(lambda: route_coordinates(browser) == [[2.35, 48.85], [2.36, 48.86]], 10, "the route from welcome is drawn")
    driver.send({"type": "route", "append": True, "points": [{"lat": 48.87, "lon": 2.37}]})
    wait_until(lambda: len(route_coordinates(browser)) == 3, 10, "an appended point is drawn")
    driver.send({"type": "route", "points": []})
    wait_until(lambda: route_coordinates(browser) == [], 10, "a cleared route is no longer drawn")
    assert severe_logs(browser) == []


def test_the_hud_lists_the_rooms_running_animations(hub, browser, clients):
    presenter = clients("anims", "presenter", name="ana")
    presenter.send({"type": "animate", "id": "spin", "to": {"bearing": 180}, "duration": 30})
    presenter.sync()  # the animation runs before the page joins
    browser.get(hub.page(room="anims", role="follower", name="late"))
    wait_joined(browser)
    hud = lambda: js(browser, "document.querySelector('[data-hud=animations]').textContent")  # noqa: E731
    wait_until(lambda: hud() == "animate spin (ana)", 10, "the running animation from welcome")
    presenter.send({"type": "fly", "id": "trip", "camera": {"lat": 40, "lon": -74, "zoom": 5}, "duration": 20})
    wait_until(lambda: "trip (ana)" in hud(), 10, "a new animation from the room's reports")
    presenter.send({"type": "cancel"})
    wait_until(lambda: hud() == "none", 10, "cancelled animations leave the list")
    assert severe_logs(browser) == []
