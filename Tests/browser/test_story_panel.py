"""The presenter's storyboard panel in real Chromium, against the real hub: a Google Earth tour imported
through the panel, stepped with the keys a presentation clicker sends while followers (one joining late)
land exactly on each step; the storyboard kept across a hub restart; a broken file refused by name; the
steps edited, reordered and removed in place; the panel as a sheet at phone size; a follower's way back."""

import signal
from pathlib import Path

from selenium.webdriver.common.keys import Keys

from hubtools import Hub, js, key, set_viewport, severe_logs, wait_joined, wait_until
from test_story import TOUR, caption, open_page

TITLES = ["Lisbon", "Porto & the Douro", "Madrid", ""]
STEPS = [
    {"camera": {"lat": 38.7223, "lon": -9.1393, "zoom": 11}, "via": "jump", "title": "Lisbon"},
    {"camera": {"lat": 41.1496, "lon": -8.611, "zoom": 12}, "via": "jump", "title": "Porto"},
    {"camera": {"lat": 40.4168, "lon": -3.7038, "zoom": 10}, "via": "jump", "title": "Madrid"},
]


def panel(browser) -> dict:
    return js(browser, "camhub.storyPanel")


def rows(browser) -> list[str]:
    return [r["title"] for r in panel(browser)["rows"]]


def import_file(browser, path: Path):
    js(browser, "document.getElementById('story-tools').open = true")
    browser.find_element("css selector", "#story-file").send_keys(str(path))
    js(browser, "document.getElementById('map').focus()")  # the keys step the storyboard, not a form field


def room_with_steps(clients, room: str):
    """The room's storyboard set by a presenter that then leaves (the page joins as the presenter)."""
    setup = clients(room, "presenter", name="setup")
    setup.send({"type": "story", "op": "set", "steps": STEPS})
    setup.wait_for(lambda m: m.get("event") == "storyChanged", 10, "storyChanged")
    setup.close()


def lands_on(browser, camera: dict, timeout: float = 20):
    """Waits until the page shows `camera` (the hub's step camera) at rest: lat, lon, zoom, bearing, tilt within 1e-9."""
    def close():
        r = js(browser, "{rendered: camhub.rendered, settled: camhub.settled}")
        shown = r["rendered"]
        return r["settled"] and shown and all(abs(shown.get(k, 0) - camera.get(k, 0)) <= 1e-9
                                              for k in ("lat", "lon", "zoom", "bearing", "tilt"))
    wait_until(close, timeout, f"the page to land on the step's camera {camera}")


def test_a_tour_imported_in_the_panel_is_stepped_with_the_keys_and_followers_land_exactly_on_each_step(hub, browser, clients):
    observer = clients("panel", "follower", name="observer")
    followers = [open_page(browser, hub.page(room="panel", role="follower", name="wall"), new_window=False)]
    presenter = open_page(browser, hub.page(room="panel", role="presenter", name="ana"))
    wait_until(lambda: panel(browser)["shown"], 10, "the presenter's storyboard panel")
    mark = observer.mark()
    import_file(browser, TOUR)
    observer.wait_for(lambda m: m.get("event") == "storyChanged" and m["count"] == 4, 10, "the tour as the storyboard", mark)
    wait_until(lambda: rows(browser) == TITLES, 10, "the panel to list the tour's four steps")
    wait_until(lambda: all(r["picture"] for r in panel(browser)["rows"]), 60, "a picture of each step")
    assert panel(browser)["failures"] == 0

    for index, (name, code, keycode) in enumerate([("ArrowRight", "ArrowRight", 39), ("PageDown", "PageDown", 34),
                                                    ("ArrowRight", "ArrowRight", 39)]):
        browser.switch_to.window(presenter)
        mark = observer.mark()
        key(browser, name, code, keycode)
        stepped = observer.wait_for(lambda m: m.get("event") == "storyStep" and m["index"] == index, 10, f"step {index}", mark)
        observer.wait_rest(30, mark, f"the room at rest on step {index}")
        wait_until(lambda: [r["current"] for r in panel(browser)["rows"]] == [i == index for i in range(4)], 10,
                   f"the panel to highlight step {index}")
        if index == 1:  # a follower joining late, after the second step
            followers.append(open_page(browser, hub.page(room="panel", role="follower", name="late")))
        for handle in followers:
            browser.switch_to.window(handle)
            lands_on(browser, stepped["camera"])
            wait_until(lambda: caption(browser)["title"] == TITLES[index], 10, f"the caption of step {index}")
            assert caption(browser)["progress"] == f"Step {index + 1} of 4"
            assert not panel(browser)["shown"], "followers have no storyboard panel"
            assert severe_logs(browser) == []
    assert observer.errors() == []


def test_the_storyboard_survives_a_hub_restart_and_the_panel_lists_the_same_steps(tmp_path, browser):
    data = str(tmp_path / "data")
    first = Hub(["--data", data])
    second = None
    try:
        browser.get(first.page(room="kept", role="presenter", name="ana"))
        wait_joined(browser)
        import_file(browser, TOUR)
        wait_until(lambda: rows(browser) == TITLES, 10, "the panel to list the tour")
        key(browser, "PageDown", "PageDown", 34)
        wait_until(lambda: panel(browser)["rows"][0]["current"], 10, "the room on the first step")
        steps = panel(browser)["steps"]
        port = first.port
        first.proc.send_signal(signal.SIGTERM)
        assert first.proc.wait(timeout=10) == 0
        wait_until(lambda: js(browser, "camhub.state") != "joined", 10, "the page to see the hub go")

        second = Hub(["--data", data, "--port", str(port)])
        wait_until(lambda: js(browser, "camhub.state") == "joined", 20, "the page to rejoin after the restart")
        wait_until(lambda: panel(browser)["steps"] == steps, 10, "the panel to list the same steps again")
        assert rows(browser) == TITLES
        assert [r["current"] for r in panel(browser)["rows"]] == [True, False, False, False], "back on its step, paused"
    finally:
        first.stop()
        if second is not None:
            second.stop()


def test_a_kml_file_that_is_not_well_formed_is_refused_naming_its_line(hub, browser, clients, tmp_path):
    observer = clients("broken", "follower", name="observer")
    open_page(browser, hub.page(room="broken", role="presenter", name="ana"), new_window=False)
    broken = tmp_path / "broken.kml"
    broken.write_text('<kml xmlns:gx="http://www.google.com/kml/ext/2.2">\n<gx:Tour>\n<gx:Playlist>\n'
                      "<gx:FlyTo></gx:Tour></kml>\n")
    mark = observer.mark()
    import_file(browser, broken)
    error = wait_until(lambda: panel(browser)["error"], 10, "the panel to say what is wrong")
    assert error.startswith("broken.kml: line 4: not well-formed XML ("), error
    observer.sync()
    assert [m for m in observer.messages[mark:] if m.get("event") == "storyChanged"] == [], "nothing was sent"
    assert rows(browser) == []


def test_a_tour_with_a_view_missing_a_field_is_refused_naming_the_element(hub, browser, tmp_path):
    open_page(browser, hub.page(room="broken", role="presenter", name="ana"), new_window=False)
    tour = TOUR.read_text().replace("<range>12000</range>", "", 1)
    path = tmp_path / "norange.kml"
    path.write_text(tour)
    import_file(browser, path)
    error = wait_until(lambda: panel(browser)["error"], 10, "the panel to say what is wrong")
    assert error == "norange.kml: LookAt: range missing or not above 0", error


def test_a_title_edited_in_place_is_the_steps_new_title_for_everyone(hub, browser, clients):
    room_with_steps(clients, "edit")
    observer = clients("edit", "follower", name="observer")
    open_page(browser, hub.page(room="edit", role="presenter", name="ana"), new_window=False)
    wait_until(lambda: rows(browser) == ["Lisbon", "Porto", "Madrid"], 10, "the panel to list the steps")
    mark = observer.mark()
    field = browser.find_elements("css selector", "#story-list .story-step-title")[1]
    field.send_keys(Keys.CONTROL, "a")  # typed over, as a person would (Selenium's clear() would send the empty title)
    field.send_keys("Porto, the bridges\n")
    changed = observer.wait_for(lambda m: m.get("event") == "storyChanged", 10, "the edit", mark)
    assert changed["op"] == "update"
    wait_until(lambda: rows(browser) == ["Lisbon", "Porto, the bridges", "Madrid"], 10, "the panel to show the hub's steps")
    assert panel(browser)["steps"][1]["camera"] == {**STEPS[1]["camera"], "bearing": 0, "tilt": 0}, "the rest of the step stays"


def test_notes_edited_in_place_are_the_steps_notes(hub, browser, clients):
    room_with_steps(clients, "notes")
    open_page(browser, hub.page(room="notes", role="presenter", name="ana"), new_window=False)
    wait_until(lambda: rows(browser) == ["Lisbon", "Porto", "Madrid"], 10, "the panel to list the steps")
    notes = browser.find_elements("css selector", "#story-list .story-step-notes")[0]
    notes.send_keys("Seven hills.\nOne river.")
    js(browser, "document.getElementById('map').focus()")  # leaving the field sends the edit
    wait_until(lambda: panel(browser)["steps"][0].get("notes") == "Seven hills.\nOne river.", 10, "the hub's step to have the notes")


def test_move_down_and_move_up_reorder_the_steps_from_the_keyboard(hub, browser, clients):
    room_with_steps(clients, "order")
    open_page(browser, hub.page(room="order", role="presenter", name="ana"), new_window=False)
    wait_until(lambda: rows(browser) == ["Lisbon", "Porto", "Madrid"], 10, "the panel to list the steps")
    down = browser.find_elements("css selector", "#story-list [data-action=down]")[0]
    down.send_keys("\n")  # a keyboard press on the focused button
    wait_until(lambda: rows(browser) == ["Porto", "Lisbon", "Madrid"], 10, "Lisbon one down")
    browser.find_elements("css selector", "#story-list [data-action=up]")[2].click()
    wait_until(lambda: rows(browser) == ["Porto", "Madrid", "Lisbon"], 10, "Madrid one up")
    assert js(browser, "document.querySelectorAll('#story-list [data-action=up]')[0].disabled"), "the first cannot go up"


def test_a_step_dragged_onto_another_moves_there(hub, browser, clients):
    room_with_steps(clients, "drag")
    open_page(browser, hub.page(room="drag", role="presenter", name="ana"), new_window=False)
    wait_until(lambda: rows(browser) == ["Lisbon", "Porto", "Madrid"], 10, "the panel to list the steps")
    # The browser's own drag and drop, as its events reach the page: Madrid's picture dropped on Lisbon's upper half.
    js(browser, """(() => {
        const rows = document.querySelectorAll('#story-list .story-step');
        const data = new DataTransfer();
        const box = rows[0].getBoundingClientRect();
        const at = { bubbles: true, cancelable: true, dataTransfer: data, clientX: box.left + 10, clientY: box.top + 2 };
        rows[2].querySelector('.story-thumb').dispatchEvent(new DragEvent('dragstart', { bubbles: true, dataTransfer: data }));
        rows[0].dispatchEvent(new DragEvent('dragover', at));
        rows[0].dispatchEvent(new DragEvent('drop', at));
        rows[2].querySelector('.story-thumb').dispatchEvent(new DragEvent('dragend', { bubbles: true, dataTransfer: data }));
        return true;
    })()""")
    wait_until(lambda: rows(browser) == ["Madrid", "Lisbon", "Porto"], 10, "Madrid first")


def test_a_removed_step_leaves_the_storyboard(hub, browser, clients):
    room_with_steps(clients, "remove")
    open_page(browser, hub.page(room="remove", role="presenter", name="ana"), new_window=False)
    wait_until(lambda: rows(browser) == ["Lisbon", "Porto", "Madrid"], 10, "the panel to list the steps")
    browser.find_elements("css selector", "#story-list [data-action=remove]")[1].click()
    wait_until(lambda: rows(browser) == ["Lisbon", "Madrid"], 10, "Porto gone")
    assert js(browser, "document.getElementById('story-count').textContent") == "2"


def test_at_phone_size_the_panel_is_a_sheet_along_the_bottom_folded_until_opened(hub, browser, clients):
    room_with_steps(clients, "phone")
    set_viewport(browser, 390, 844)
    open_page(browser, hub.page(room="phone", role="presenter", name="ana"), new_window=False)
    wait_until(lambda: len(panel(browser)["steps"]) == 3, 10, "the panel to have the steps")
    box = js(browser, "document.getElementById('story-panel').getBoundingClientRect().toJSON()")
    assert (box["left"], box["right"], box["bottom"]) == (0, 390, 844), box
    assert panel(browser)["folded"] and box["height"] < 60, box
    browser.find_element("css selector", "#story-panel [data-collapse]").click()
    wait_until(lambda: not panel(browser)["folded"], 5, "the sheet to open")
    opened = js(browser, "document.getElementById('story-panel').getBoundingClientRect().toJSON()")
    assert opened["bottom"] == 844 and opened["height"] <= 0.7 * 844 + 1 and opened["height"] > 100, opened
    for row in js(browser, "[...document.querySelectorAll('#story-list .story-step')].map((r) => r.getBoundingClientRect().toJSON())"):
        assert row["left"] >= 0 and row["right"] <= 390, row
    caption_box = js(browser, "document.getElementById('story-caption').getBoundingClientRect().toJSON()")
    assert caption_box["width"] == 0 or caption_box["right"] <= 390


def test_a_follower_exploring_goes_back_to_the_current_step(hub, browser, clients):
    room_with_steps(clients, "back")
    presenter = clients("back", "presenter", name="ana")
    mark = presenter.mark()
    presenter.send({"type": "step", "to": 1})
    presenter.wait_rest(10, mark, "the room on step 2")
    open_page(browser, hub.page(room="back", role="follower", name="wall"), new_window=False)
    wait_until(lambda: caption(browser)["progress"] == "Step 2 of 3", 10, "the caption of step 2")
    assert js(browser, "document.getElementById('story-back').hidden")
    key(browser, "ArrowLeft", "ArrowLeft", 37)  # a follower's arrow key looks around on its own map
    wait_until(lambda: not js(browser, "document.getElementById('story-back').hidden"), 10, '"Back to the current step"')
    browser.find_element("css selector", "#story-back").click()
    wait_until(lambda: js(browser, "document.getElementById('story-back').hidden"), 10, "the button to go once back")
    lands_on(browser, {**STEPS[1]["camera"], "bearing": 0, "tilt": 0})
