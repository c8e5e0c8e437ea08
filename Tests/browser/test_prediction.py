"""A driver's own gestures move its map at once (predicted with the hub's rules,
reconciled with the hub's gestureAck), behind a remote-feeling hub (?lag=MS), in headless Chromium."""

import math
import time

from hubtools import (page_drag, flat_project, flat_unproject, input_applied, js, mouse, settle_at, severe_logs, wait_joined,
                      wait_page_camera, wait_until)

VIEW = (1280, 720)


def rendered_since(browser, since: float) -> list[dict]:
    return browser.execute_script("return camhub.renders(arguments[0]);", since)


def ack_received(browser, seq: int) -> float | None:
    """Local time the page received the hub's acknowledgement of its gesture `seq` (None before)."""
    return browser.execute_script("const a = camhub.prediction.ackLog.find((a) => a.seq === arguments[0]); return a ? a.at : null;", seq)


def test_a_drivers_map_follows_its_drag_before_the_hub_answers(hub, browser, clients):
    # 600 ms of round trip: every acknowledgement comes long after the map has moved.
    browser.get(hub.page(room="predict", role="driver", name="hands", lag=600))
    wait_joined(browser)
    observer = clients("predict", "follower", name="observer")
    setter = clients("predict", "driver", name="setup")
    start = settle_at(setter, observer, browser, {"lat": 10.0, "lon": 20.0, "zoom": 4.0, "bearing": 0.0, "tilt": 0.0})

    grab = (640.0, 360.0)
    geo = flat_unproject(start, VIEW, *grab)
    t0 = js(browser, "camhub.now()")
    mouse(browser, "mouseMoved", *grab, button="none", buttons=0)
    mouse(browser, "mousePressed", *grab, click_count=1)
    for i in range(1, 6):
        mouse(browser, "mouseMoved", grab[0] + 20 * i, grab[1] + 10 * i)
        time.sleep(0.016)
    moved = wait_until(lambda: [r for r in rendered_since(browser, t0) if r["camera"] != start], 10, "the map to move")
    first_ack = wait_until(lambda: ack_received(browser, 1), 10, "the hub's answer to the begin")
    assert moved[0]["t"] < first_ack, "the map moved on its own prediction, before the hub answered"
    # The grabbed point is under the pointer in what the page shows.
    here = (grab[0] + 100, grab[1] + 50)
    shown = wait_until(lambda: (lambda c: c if math.hypot(*(a - b for a, b in zip(flat_project(c, VIEW, *geo), here))) < 0.5 else None)(
        js(browser, "camhub.rendered")), 10, "the grabbed point under the pointer")
    assert shown["zoom"] == start["zoom"]

    time.sleep(0.3)  # hold still: no momentum
    mark = observer.mark()
    mouse(browser, "mouseReleased", *here, click_count=1, buttons=0)
    final = input_applied(browser, observer, mark)
    x, y = flat_project(final, VIEW, *geo)
    assert math.hypot(x - here[0], y - here[1]) < 1.0, "the hub agrees: the grabbed point is under the release point"
    wait_page_camera(browser, final)  # the page ends on the hub's camera exactly
    assert js(browser, "camhub.prediction.mode") == "idle"
    assert js(browser, "camhub.prediction.stats.maxErrorPx") < 1.0
    hud = wait_until(lambda: (lambda t: t if t.endswith("px") else None)(
        js(browser, "document.querySelector('[data-hud=prediction]').textContent")), 10, "the HUD's prediction line")
    assert hud.startswith("0.0 px · max 0.0 px"), hud
    assert severe_logs(browser) == []


def test_a_presenter_taking_over_mid_drag_drops_the_prediction(hub, browser, clients):
    browser.get(hub.page(room="override", role="driver", name="hands", lag=200))
    wait_joined(browser)
    observer = clients("override", "follower", name="observer")
    presenter = clients("override", "presenter", name="boss")
    settle_at(presenter, observer, browser, {"lat": 0.0, "lon": 0.0, "zoom": 3.0, "bearing": 0.0, "tilt": 0.0})

    mouse(browser, "mouseMoved", 640, 360, button="none", buttons=0)
    mouse(browser, "mousePressed", 640, 360, click_count=1)
    for i in range(1, 6):
        mouse(browser, "mouseMoved", 640 + 15 * i, 360)
        time.sleep(0.016)
    wait_until(lambda: js(browser, "camhub.prediction.stats.acks") > 0, 10, "the hub to acknowledge the drag")
    mark = observer.mark()
    presenter.send({"type": "set", "camera": {"lat": 45.0, "lon": 7.0, "zoom": 6.0}})
    taken = observer.wait_rest(10, mark, "the presenter's set")["camera"]
    # The driver keeps dragging: its moves are refused and no longer predicted.
    for i in range(6, 16):
        mouse(browser, "mouseMoved", 640 + 15 * i, 360)
        time.sleep(0.016)
    wait_until(lambda: js(browser, "camhub.prediction.stats.dropped") >= 1, 10, "the page to drop its prediction")
    wait_page_camera(browser, taken)  # the page shows the presenter's camera, exactly, mid-drag
    mouse(browser, "mouseReleased", 790, 360, click_count=1, buttons=0)
    time.sleep(0.5)
    assert js(browser, "camhub.rendered") == taken, "the rest of the drag moved nothing"
    assert observer.camera() == taken
    assert js(browser, "camhub.prediction.mode") == "idle"


def test_a_flung_map_glides_at_once_and_lands_on_the_hubs_camera(hub, browser, clients):
    browser.get(hub.page(room="fling", role="driver", name="hands", lag=1000))
    wait_joined(browser)
    observer = clients("fling", "follower", name="observer")
    setter = clients("fling", "driver", name="setup")
    start = settle_at(setter, observer, browser, {"lat": 30.0, "lon": -40.0, "zoom": 5.0, "bearing": 20.0, "tilt": 30.0})

    mark = observer.mark()
    before = js(browser, "camhub.prediction.nextSeq")
    points = [(400 + 30 * i, 400 - 8 * i) for i in range(9)]
    released_at = page_drag(browser, points, hold_ms=0)  # released while moving: a fling
    end_seq = wait_until(lambda: next((s["seq"] for s in js(browser, "camhub.prediction.sentLog")
                                       if s["seq"] >= before and s["phase"] == "end"), None), 10, "the release to be sent")
    # The glide is shown before the hub's answer to the release has come back.
    end_ack = wait_until(lambda: ack_received(browser, end_seq), 10, "the hub's answer to the release")
    renders = rendered_since(browser, released_at - 2000)
    at_release = [r for r in renders if r["t"] <= released_at][-1]["camera"]
    glide = [r for r in renders if released_at < r["t"] < end_ack and r["camera"] != at_release]
    # Seen failing once in a fresh-clone CI run and once in 16 local runs (none in 52 more): what the
    # page sent and rendered around the release is in the message, for the next time.
    assert glide, ("the map glided on its own prediction, before the hub answered the release (500 ms each way)",
                   {"released_at": released_at, "end_ack": end_ack, "at_release": at_release,
                    "sent": [s for s in js(browser, "camhub.prediction.sentLog") if s["seq"] >= before],
                    "renders": [(r["t"], r["camera"]) for r in renders if r["t"] > released_at - 300][:40],
                    "stats": js(browser, "camhub.prediction.stats")})
    final = input_applied(browser, observer, mark)
    assert final != start
    hub_release = [f["camera"] for f in observer.frames(mark) if f["moving"]]
    assert final != hub_release[-1] or len(hub_release) > 1, "the hub glided too (momentum)"
    wait_page_camera(browser, final)  # lands exactly on the hub's camera
    stats = js(browser, "camhub.prediction.stats")
    assert stats["dropped"] == 0 and stats["maxErrorPx"] < 1.0, stats
    assert severe_logs(browser) == []


def test_followers_send_nothing_and_get_no_acknowledgements(hub, browser, clients):
    browser.get(hub.page(room="quiet", role="follower", name="wall"))
    wait_joined(browser)
    driver = clients("quiet", "driver", name="hands")
    mark = driver.mark()
    driver.send({"type": "gesture", "kind": "pan", "phase": "begin", "x": 640, "y": 360, "seq": 1})
    driver.send({"type": "gesture", "kind": "pan", "phase": "change", "x": 700, "y": 360, "seq": 2})
    driver.send({"type": "gesture", "kind": "pan", "phase": "end", "seq": 3})
    driver.wait_for(lambda m: m["type"] == "gestureAck" and m["seq"] == 3, 10, "the end's acknowledgement", mark)
    final = driver.wait_rest(10, mark)["camera"]
    wait_page_camera(browser, final)
    assert js(browser, "camhub.prediction.stats.acks") == 0
    assert js(browser, "camhub.stats.gesturesSent") == 0
