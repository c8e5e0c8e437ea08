"""The viewer's panel controls against the real hub: the event log,
the per-kind gesture switches and the frame-delay plot."""

import time

from hubtools import input_applied, js, mouse, page_double_click, settle_at, wait_joined, wait_until


def open_tools(browser):
    """The panel's tool sections fold away by default: open them all."""
    browser.execute_script("document.querySelectorAll('#controls details.tool').forEach((d) => { d.open = true; });")


def drive_page(hub, browser, clients, room, camera):
    """The page as driver `dana` in `room`, with a Python observer and setter, at rest on `camera`."""
    browser.get(hub.page(room=room, role="driver", name="dana"))
    wait_joined(browser)
    open_tools(browser)
    observer = clients(room, "driver", name="observer")
    setter = clients(room, "driver", name="setup")
    return observer, setter, settle_at(setter, observer, browser, camera)


def test_the_event_log_shows_who_joined_and_the_animations_of_others(hub, browser, clients):
    browser.get(hub.page(room="log", role="follower", name="wall"))
    wait_joined(browser)
    open_tools(browser)
    driver = clients("log", "driver", name="dana")
    driver.send({"type": "ease", "id": "glide", "camera": {"zoom": 4}, "duration": 0.3})
    wait_until(lambda: any("joined: dana (driver)" in line for line in js(browser, "camhub.eventLog")), 10, "dana's join in the log")
    wait_until(lambda: any("animation: glide finished" in line for line in js(browser, "camhub.eventLog")), 10,
               "dana's animation ending, in the log")
    # The list and the log are read in one script: a `steady` event may arrive between two calls.
    shown, log = browser.execute_script(
        "return [[...document.querySelectorAll('#event-log li')].map((li) => li.textContent), camhub.eventLog];")
    assert any("joined: dana (driver)" in line for line in shown), shown
    assert shown[0] == log[0], "newest first"


def test_a_gesture_kind_switched_off_moves_nothing_until_it_is_switched_on(hub, browser, clients):
    observer, setter, start = drive_page(hub, browser, clients, "switch", {"lat": 47.0, "lon": 8.0, "zoom": 5.0, "bearing": 0.0, "tilt": 0.0})

    browser.execute_script("document.querySelector('#gesture-switches').scrollIntoView()")
    box = browser.find_element("css selector", "#gesture-kinds input[value=doubleTap]")
    box.click()
    wait_until(lambda: js(browser, "camhub.disabledGestures") == ["doubleTap"], 10, "the hub to switch doubleTap off")
    mark = observer.mark()
    page_double_click(browser, 640, 360)
    time.sleep(1.0)
    assert [f for f in observer.frames(mark) if f["camera"] != start] == [], "a switched-off double tap moves nothing"
    assert abs(observer.camera()["zoom"] - start["zoom"]) < 1e-9

    box.click()
    wait_until(lambda: js(browser, "camhub.disabledGestures") == [], 10, "the hub to switch doubleTap on")
    mark = observer.mark()
    page_double_click(browser, 640, 360)
    zoomed = input_applied(browser, observer, mark)
    assert abs(zoomed["zoom"] - (start["zoom"] + 1)) < 1e-9, zoomed


def test_the_frame_delay_plot_draws_the_followers_last_minute(hub, browser, clients):
    browser.get(hub.page(room="plot", role="follower", name="wall"))
    wait_joined(browser)
    open_tools(browser)
    driver = clients("plot", "driver", name="dana")
    driver.send({"type": "ease", "id": "slow", "camera": {"zoom": 6, "bearing": 40}, "duration": 2.0})
    # Samples are taken from the join on, at rest too: wait for the ones taken while
    # the ease's frames arrive (a count of samples can be reached before the ease starts).
    samples = wait_until(lambda: [s for s in js(browser, "camhub.delayPlot") if s["fps"] and s["delay"] is not None
                                  and s["latency"] is not None],
                         15, "plot samples with the frames' rate, playout delay and latency")
    assert all(0 < s["fps"] <= 120 and s["delay"] >= 0 for s in samples), samples[-3:]
    inked = browser.execute_script("""
        const c = document.querySelector('#delay-plot');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
        return n;""")
    assert inked > 100, f"the plot drew {inked} pixels"


def test_click_to_query_picks_a_point_draws_the_bounds_and_fits_them(hub, browser, clients):
    observer, setter, start = drive_page(hub, browser, clients, "query", {"lat": 47.0, "lon": 8.0, "zoom": 5.0, "bearing": 0.0, "tilt": 0.0})

    mark = observer.mark()
    browser.find_element("css selector", "#query-pick").click()
    size = js(browser, "camhub.viewport")
    mouse(browser, "mousePressed", size["width"] / 2, size["height"] / 2, click_count=1)
    mouse(browser, "mouseReleased", size["width"] / 2, size["height"] / 2, buttons=0, click_count=1)
    wait_until(lambda: js(browser, "camhub.query.point") is not None, 10, "the picked point's result")
    point = js(browser, "camhub.query.point")
    assert abs(point["lat"] - start["lat"]) < 1e-6 and abs(point["lon"] - start["lon"]) < 1e-6, point
    assert "47.00000° N, 8.00000° E" in browser.find_element("css selector", "#query-out").text
    time.sleep(0.5)
    assert [m for m in observer.messages[mark:] if m.get("event") == "tap"] == [], "a picking click is not a tap"

    browser.find_element("css selector", "#query-bounds").click()
    wait_until(lambda: js(browser, "camhub.query.bounds") is not None, 10, "the visible bounds")
    bounds = js(browser, "camhub.query.bounds")["bounds"]
    assert bounds["south"] < start["lat"] < bounds["north"] and bounds["west"] < start["lon"] < bounds["east"], bounds

    settle_at(setter, observer, browser, {"lat": 30.0, "lon": -20.0, "zoom": 3.0, "bearing": 0.0, "tilt": 0.0})
    mark = observer.mark()
    browser.find_element("css selector", "#query-fit").click()
    fitted = observer.wait_rest(10, mark, "the fit's ease to end")["camera"]
    assert 4.5 < fitted["zoom"] < 5.0, fitted
    assert abs(fitted["lat"] - start["lat"]) < 0.05 and abs(fitted["lon"] - start["lon"]) < 0.05, fitted


def click_map(browser, x, y):
    mouse(browser, "mousePressed", x, y, click_count=1)
    mouse(browser, "mouseReleased", x, y, buttons=0, click_count=1)


def test_tracking_controls_set_the_mode_draw_a_route_and_drive_it(hub, browser, clients):
    observer, setter, _ = drive_page(hub, browser, clients, "track", {"lat": 52.52, "lon": 13.40, "zoom": 14.0, "bearing": 0.0, "tilt": 0.0})
    browser.execute_script("document.querySelector('#tracking-controls').scrollIntoView()")

    mark = observer.mark()
    browser.execute_script("const s = document.querySelector('#track-mode'); s.value = 'followNorthUp'; s.dispatchEvent(new Event('change'));")
    mode = observer.wait_for(lambda m: m.get("event") == "trackingModeChanged", 10, "the mode change", mark)
    assert mode["mode"] == "followNorthUp"

    mark = observer.mark()
    browser.find_element("css selector", "#route-draw").click()
    for x, y in ((500, 400), (640, 360), (780, 300)):
        click_map(browser, x, y)
        time.sleep(0.3)
    wait_until(lambda: len(js(browser, "camhub.tracking.draft")) == 3, 10, "three points drawn")
    browser.find_element("css selector", "#route-send").click()
    changed = observer.wait_for(lambda m: m.get("event") == "routeChanged", 10, "the route", mark)
    assert changed["total"] == 3 and not changed["append"], changed
    first = changed["points"][0]
    # The page drives the route the hub announced; the observer can hear of it before the page has.
    wait_until(lambda: len(js(browser, "camhub.room.route?.points ?? []")) == 3, 10, "the page to have the route")

    mark = observer.mark()
    browser.find_element("css selector", "#drive-start").click()
    wait_until(lambda: abs(observer.camera()["lat"] - first["lat"]) < 2e-4 and abs(observer.camera()["lon"] - first["lon"]) < 2e-3,
               10, "the camera following the drive's first locations")
    assert js(browser, "camhub.tracking.driving") is True
    browser.find_element("css selector", "#drive-stop").click()
    assert js(browser, "camhub.tracking.driving") is False


def test_a_route_file_is_loaded_and_a_bad_one_is_named(hub, browser, clients, tmp_path):
    browser.get(hub.page(room="file", role="driver", name="dana"))
    wait_joined(browser)
    open_tools(browser)
    observer = clients("file", "driver", name="observer")
    good = tmp_path / "route.geojson"
    good.write_text('{"type":"Feature","geometry":{"type":"LineString","coordinates":[[13.40,52.52],[13.41,52.52],[13.41,52.53]]}}')
    mark = observer.mark()
    browser.find_element("css selector", "#route-file").send_keys(str(good))
    changed = observer.wait_for(lambda m: m.get("event") == "routeChanged", 10, "the loaded route", mark)
    assert changed["total"] == 3 and changed["points"][2] == {"lat": 52.53, "lon": 13.41}, changed

    bad = tmp_path / "bad.geojson"
    bad.write_text('{"type":"Point","coordinates":[0,0]}')
    browser.find_element("css selector", "#route-file").send_keys(str(bad))
    wait_until(lambda: "bad.geojson: the file has no LineString" in browser.find_element("css selector", "#toasts").text, 10,
               "the page to name the bad file and why")


def animation_list(browser) -> dict:
    """The room's animation list as the page shows it, read in one script (it re-renders on every animation message)."""
    return browser.execute_script(
        "const list = document.querySelector('#animation-list');"
        " return {items: [...list.querySelectorAll('li')].map(li => li.textContent),"
        " cancellable: [...list.querySelectorAll('button[data-cancel]')].map(b => b.dataset.cancel)};")


def test_the_room_animations_list_cancels_ones_own_and_a_presenter_cancels_all(hub, browser, clients):
    browser.get(hub.page(room="anims", role="presenter", name="ana"))
    wait_joined(browser)
    open_tools(browser)
    clients("anims", "driver", name="observer")  # a third client in the room, as in use
    other = clients("anims", "driver", name="dana")
    browser.execute_script("document.querySelector('#animation-controls').scrollIntoView()")

    browser.find_element("css selector", "#tour").click()
    wait_until(lambda: browser.find_elements("css selector", "#animation-list button[data-cancel]"), 10, "the tour's animations listed")
    # The list re-renders on every animation message, so it is read and clicked inside one script.
    first = browser.execute_script(
        "const b = document.querySelector('#animation-list button[data-cancel]');"
        " b.click(); return b.dataset.cancel;")
    wait_until(lambda: first not in animation_list(browser)["cancellable"], 10,
               "the cancelled animation to leave the list")
    browser.find_element("css selector", "#stop").click()  # the rest of the tour

    other.send({"type": "ease", "id": "long", "camera": {"zoom": 8, "bearing": 90}, "duration": 20})
    wait_until(lambda: any("long" in text for text in animation_list(browser)["items"]), 10,
               "another driver's animation listed (without a cancel button)")
    assert not browser.find_elements("css selector", "#animation-list button[data-cancel=long]")
    browser.find_element("css selector", "#cancel-all").click()
    ended = other.wait_for(lambda m: m.get("type") == "animation" and m.get("id") == "long" and m.get("status") == "cancelled",
                           10, "the presenter's cancel all to end dana's animation")
    assert ended["by"] == js(browser, "camhub.client"), ended
