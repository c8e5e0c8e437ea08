"""Follow mode in the viewer, against the real hub in headless Chromium: a follower explores on its own map and
comes back, is summoned, is kept on the room's camera in a locked room, and is away while its page is hidden;
a presenter sees who follows and brings everyone back."""

import math

from hubtools import drag, js, key, set_viewport, wait_joined, wait_page_camera, wait_until

PARIS = {"lat": 48.8566, "lon": 2.3522, "zoom": 12.0, "bearing": 0.0, "tilt": 0.0}


def follow_events(client, start: int = 0) -> list[dict]:
    with client.lock:
        return [m for m in client.messages[start:] if m["type"] == "event" and m["event"] == "followChanged"]


def wait_follow_state(client, who: str, state: str, start: int = 0) -> dict:
    return client.wait_for(lambda m: m["type"] == "event" and m["event"] == "followChanged" and m["client"] == who
                           and m["state"] == state, 10, f"followChanged {who} → {state}", start)


def joined_follower(hub, browser, clients, room: str, **page):
    """A presenter (Python, named Pat) with the room at PARIS, and the page joined as a follower showing it."""
    presenter = clients(room, "presenter", name="Pat")
    mark = presenter.mark()
    presenter.send({"type": "set", "camera": PARIS})
    rest = presenter.wait_rest(10, mark, "the presenter's set")["camera"]
    browser.get(hub.page(room=room, role="follower", name="wanderer", **page))
    me = wait_joined(browser)
    wait_page_camera(browser, rest)
    return presenter, me, rest


def explore(browser, presenter, me) -> dict:
    """Drags the page's map; returns the camera the page shows once it explores (the hub was told)."""
    mark = presenter.mark()
    drag(browser, (640, 360), (340, 200), steps=10)
    wait_follow_state(presenter, me, "exploring", mark)
    wait_until(lambda: js(browser, "camhub.follow.mode === 'exploring'"), 10, "the page to explore")
    return js(browser, "camhub.rendered")


def test_a_followers_drag_moves_only_its_own_map_and_back_returns_it_to_the_room(hub, browser, clients):
    presenter, me, room = joined_follower(hub, browser, clients, "wander")
    mark = presenter.mark()
    explored = explore(browser, presenter, me)
    assert explored["lon"] > room["lon"] and explored["lat"] < room["lat"], (explored, room)
    assert js(browser, "!document.getElementById('explore-banner').hidden")
    assert js(browser, "camhub.stats.gesturesSent") == 0, "nothing of the exploring reaches the hub as a gesture"
    presenter.sync()
    assert presenter.frames(mark) == [], "the room's camera never moved"
    # The room moves on: the exploring page does not follow it.
    moved = presenter.mark()
    presenter.send({"type": "set", "camera": {"lat": 40.0, "lon": -3.7, "zoom": 9.0}})
    room = presenter.wait_rest(10, moved, "the presenter's next set")["camera"]
    wait_until(lambda: js(browser, "camhub.hubCamera.lon") == room["lon"], 10, "the page to receive the room's frame")
    assert js(browser, "camhub.rendered") == explored, "exploring shows the page's own map, not the room's"
    # Back: a glide to the room's camera (its continuity is web/tests/explore.test.mjs's), then hub frames exactly.
    browser.find_element("id", "back-to-presenter").click()
    wait_follow_state(presenter, me, "following", mark)
    wait_until(lambda: js(browser, "camhub.follow.mode === 'following'"), 10, "the glide back to end")
    wait_page_camera(browser, room)
    assert js(browser, "camhub.follow.glides") == 1, "Back glides, it does not jump"
    assert js(browser, "document.getElementById('explore-banner').hidden")


def test_while_exploring_the_presenters_area_is_outlined_and_an_arrow_points_to_it_when_off_screen(hub, browser, clients):
    presenter, me, room = joined_follower(hub, browser, clients, "outline")
    explore(browser, presenter, me)
    wait_until(lambda: js(browser, "camhub.follow.outline") == 1, 10, "the presenter's area outlined")
    assert not js(browser, "camhub.follow.arrow"), "the presenter's centre is still on screen"
    for _ in range(2):
        drag(browser, (950, 560), (350, 60), steps=10)
    wait_until(lambda: js(browser, "camhub.follow.arrow"), 10, "the arrow at the edge")
    browser.find_element("id", "back-to-presenter").click()
    wait_page_camera(browser, room)
    wait_until(lambda: js(browser, "camhub.follow.outline") == 0, 10, "the outline gone once following")
    assert not js(browser, "camhub.follow.arrow")


def test_fit_cover_shows_at_least_the_presenters_area_on_two_window_sizes(hub, browser, clients):
    presenter = clients("fit", "presenter", name="Pat", viewport=(1280, 720))
    mark = presenter.mark()
    presenter.send({"type": "set", "camera": PARIS})
    room = presenter.wait_rest(10, mark, "the presenter's set")["camera"]
    for width, height in [(640, 600), (1600, 900)]:
        set_viewport(browser, width, height)
        browser.get(hub.page(room="fit", role="follower", fit="cover"))
        wait_joined(browser)
        vp = js(browser, "camhub.viewport")
        zoom = room["zoom"] + math.log2(min(vp["width"] / 1280, vp["height"] / 720))
        wait_until(lambda: abs(js(browser, "camhub.rendered.zoom") - zoom) < 1e-9, 10, f"zoom {zoom} at {vp}")
        shown = js(browser, "camhub.rendered")
        assert (shown["lat"], shown["lon"], shown["bearing"], shown["tilt"]) == \
            (room["lat"], room["lon"], room["bearing"], room["tilt"]), "same centre, bearing and tilt"
    assert js(browser, "document.getElementById('fit-cover').checked")
    browser.find_element("id", "fit-cover").click()
    wait_page_camera(browser, room)
    assert "fit=" not in browser.current_url


def test_key_b_comes_back_too(hub, browser, clients):
    presenter, me, room = joined_follower(hub, browser, clients, "keyb")
    explore(browser, presenter, me)
    mark = presenter.mark()
    key(browser, "b", "KeyB", 66)
    wait_follow_state(presenter, me, "following", mark)
    wait_page_camera(browser, room)


def test_a_summons_brings_an_exploring_follower_back_and_says_who_called(hub, browser, clients):
    presenter, me, room = joined_follower(hub, browser, clients, "summon")
    explore(browser, presenter, me)
    mark = presenter.mark()
    presenter.send({"type": "summon"})
    result = presenter.wait_for(lambda m: m["type"] == "result" and m["what"] == "summon", 10, "the summon's result", mark)
    assert result["summoned"] == 1
    wait_follow_state(presenter, me, "following", mark)
    wait_page_camera(browser, room)
    assert js(browser, "camhub.follow.summonedBy") == {"client": presenter.client, "name": "Pat"}, "the page says who called"
    assert js(browser, "camhub.follow.glides") == 1


def test_a_locked_room_keeps_the_followers_map_on_the_room_camera_and_says_why(hub, browser, clients):
    presenter, me, room = joined_follower(hub, browser, clients, "locked")
    presenter.send({"type": "followPolicy", "explore": False})
    notice = "(n => n.hidden ? null : n.textContent)(document.getElementById('lock-notice'))"
    said = wait_until(lambda: js(browser, notice), 10, "the page to say why its map stays")
    assert said == "Pat keeps everyone on the presenter's view (following is locked)", said
    mark = presenter.mark()
    drag(browser, (640, 360), (340, 200), steps=10)
    presenter.sync()
    assert follow_events(presenter, mark) == [], "the page never said it explores"
    assert js(browser, "camhub.follow.mode") == "following"
    wait_page_camera(browser, room)


def test_locking_while_a_follower_explores_brings_it_back(hub, browser, clients):
    presenter, me, room = joined_follower(hub, browser, clients, "lockback")
    explore(browser, presenter, me)
    mark = presenter.mark()
    presenter.send({"type": "followPolicy", "explore": False})
    wait_follow_state(presenter, me, "following", mark)
    wait_page_camera(browser, room)


def test_a_hidden_page_is_away_and_following_again_when_it_shows(hub, browser, clients):
    presenter, me, _ = joined_follower(hub, browser, clients, "away")
    mark = presenter.mark()
    set_hidden = ("Object.defineProperty(document, 'hidden', {value: arguments[0], configurable: true});"
                  "document.dispatchEvent(new Event('visibilitychange'));")
    browser.execute_script(set_hidden, True)
    wait_follow_state(presenter, me, "away", mark)
    browser.execute_script(set_hidden, False)
    wait_follow_state(presenter, me, "following", mark)


def test_the_presenters_hud_counts_followers_and_its_buttons_summon_and_lock(hub, browser, clients):
    browser.get(hub.page(room="hudfollow", role="presenter", name="Pat"))
    wait_joined(browser)
    explorer = clients("hudfollow", "follower", name="Eve")
    stayer = clients("hudfollow", "follower", name="Sam")
    explorer.send({"type": "follow", "state": "exploring"})
    wait_until(lambda: js(browser, "document.querySelector('[data-hud=follow]').textContent")
               == "1 following · 1 exploring · 0 away", 10, "the HUD's follow counts")
    wait_until(lambda: js(browser, "[...document.querySelectorAll('[data-hud=people] li')]"
                                   ".some(li => li.dataset.follow === 'exploring' && li.textContent.startsWith('Eve'))"),
               10, "Eve listed as exploring")
    mark = explorer.mark()
    browser.find_element("id", "summon").click()
    summoned = explorer.wait_for(lambda m: m["type"] == "event" and m["event"] == "summoned", 10, "the summons", mark)
    assert summoned["by"]["name"] == "Pat"
    stayer.sync()
    assert not [m for m in stayer.messages if m.get("event") == "summoned"], "a following client gets nothing"
    browser.find_element("id", "lock-follow").click()
    locked = stayer.wait_for(lambda m: m["type"] == "event" and m["event"] == "followPolicyChanged", 10, "the lock")
    assert locked["explore"] is False
    wait_until(lambda: js(browser, "document.getElementById('lock-follow').textContent") == "Unlock following", 10,
               "the button to offer unlocking")


def test_take_control_is_a_button_of_its_own(hub, browser, clients):
    presenter, me, room = joined_follower(hub, browser, clients, "takeover")
    browser.find_element("id", "take-control").click()
    wait_until(lambda: js(browser, "!document.getElementById('takeover').hidden"), 10, "the take-control prompt")
    browser.find_element("id", "takeover-yes").click()
    wait_until(lambda: js(browser, "camhub.state === 'joined' && camhub.role === 'driver'"), 10, "the page to rejoin as driver")
    mark = presenter.mark()
    drag(browser, (640, 360), (700, 360), steps=6)
    presenter.wait_rest(10, mark, "the new driver's drag")


def test_a_presenter_points_with_alt_and_everyone_sees_the_dot(hub, browser, clients):
    browser.get(hub.page(room="laser", role="presenter", name="Pat"))
    me = wait_joined(browser)
    follower = clients("laser", "follower", name="Eve")
    mark = follower.mark()
    for x in (600, 640, 680):
        browser.execute_cdp_cmd("Input.dispatchMouseEvent", {
            "type": "mouseMoved", "x": x, "y": 360, "modifiers": 1, "button": "none", "buttons": 0, "pointerType": "mouse"})
    frame = follower.wait_for(lambda m: m["type"] == "frame" and (m.get("pointer") or {}).get("by") == me, 10,
                              "a frame with the presenter's pointer", mark)
    assert abs(frame["pointer"]["lat"]) <= 90
    wait_until(lambda: js(browser, "document.getElementById('pointer-layer').dataset.dot") == "shown", 10, "the dot drawn")
    wait_until(lambda: abs(float(js(browser, "document.getElementById('pointer-layer').dataset.x")) - 680) < 1.5, 10,
               "the dot under the mouse")
    mark = follower.mark()
    browser.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Alt", "code": "AltLeft", "windowsVirtualKeyCode": 18})
    follower.wait_for(lambda m: m["type"] == "frame" and "pointer" in m and m["pointer"] is None, 10, "pointer: null", mark)
    wait_until(lambda: js(browser, "document.getElementById('pointer-layer').dataset.dot") == "none", 10, "the dot gone")


def test_reduced_motion_shows_a_non_essential_ease_as_a_jump_and_an_essential_one_moving(hub, browser, clients):
    presenter, me, room = joined_follower(hub, browser, clients, "calm", motion="reduced")
    for essential, target in ((False, 8.0), (True, 10.0)):
        since = js(browser, "camhub.now()")
        mark = presenter.mark()
        presenter.send({"type": "ease", "id": f"e{target:.0f}", "camera": {"zoom": target}, "duration": 1.5, "essential": essential})
        started = presenter.wait_for(lambda m: m["type"] == "animation" and m["status"] == "started", 10, "started", mark)
        assert started["essential"] is essential and started["to"]["zoom"] == target
        end = presenter.wait_rest(20, mark, "the ease's end")["camera"]
        wait_page_camera(browser, end)
        assert js(browser, "camhub.follow.jumps") == 1, "only the non-essential ease was shown as a jump"
        if not essential:  # from its start the page showed its end: never a camera in between
            zooms = [r["camera"]["zoom"] for r in js(browser, f"camhub.renders({since})")]
            between = [z for z in zooms if min(room["zoom"], target) < z < max(room["zoom"], target)]
            assert not between and target in zooms, f"a non-essential ease is a jump to its end: {zooms}"
        room = end
