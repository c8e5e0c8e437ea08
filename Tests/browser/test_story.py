"""The room's storyboard in real Chromium: a presenter steps with the keys a presentation clicker sends,
and two follower pages (one joining late) show each step's caption and land exactly on its camera."""

import math
from pathlib import Path

from hubtools import js, key, severe_logs, wait_joined, wait_page_camera, wait_until

TOUR = Path(__file__).resolve().parents[2] / "examples" / "stories" / "iberia-tour.kml"

STEPS = [
    {"camera": {"lat": 38.7223, "lon": -9.1393, "zoom": 11}, "via": "jump", "title": "Lisbon",
     "notes": "Where the Tagus meets the sea."},
    {"camera": {"lat": 41.1496, "lon": -8.611, "zoom": 12, "bearing": 30, "tilt": 40}, "duration": 0.5, "title": "Porto"},
    {"camera": {"lat": 40.4168, "lon": -3.7038, "zoom": 10}, "via": "ease", "duration": 0.5, "title": "Madrid"},
]


def open_page(browser, url: str, new_window: bool = True) -> str:
    if new_window:
        browser.switch_to.new_window("window")
    browser.get(url)
    wait_joined(browser)
    return browser.current_window_handle


def caption(browser) -> dict:
    return js(browser, "{shown: !document.getElementById('story-caption').hidden, "
                       "progress: document.getElementById('story-progress').textContent, "
                       "title: document.getElementById('story-step-title').textContent, "
                       "notes: document.getElementById('story-notes').textContent}")


def test_a_presenter_steps_with_the_keys_and_every_follower_shows_the_caption_on_the_steps_camera(hub, browser, clients):
    observer = clients("story", "follower", name="observer")
    setup = clients("story", "presenter", name="setup")
    setup.send({"type": "story", "op": "set", "steps": STEPS})
    observer.wait_for(lambda m: m.get("event") == "storyChanged", 10, "storyChanged")
    setup.close()
    followers = [open_page(browser, hub.page(room="story", role="follower", name="wall"), new_window=False)]
    assert caption(browser)["shown"] is False, "no caption before the first step"
    presenter = open_page(browser, hub.page(room="story", role="presenter", name="ana"))
    wait_until(lambda: caption(browser)["progress"] == "3 steps", 10, "the presenter's caption to offer the storyboard")

    for index, step in enumerate(STEPS):
        browser.switch_to.window(presenter)
        mark = observer.mark()
        key(browser, "ArrowRight", "ArrowRight", 39) if index != 1 else key(browser, "PageDown", "PageDown", 34)
        observer.wait_for(lambda m: m.get("event") == "storyStep" and m["index"] == index, 10, f"step {index}", mark)
        rest = observer.wait_rest(10, mark, f"the room at rest on step {index}")
        if index == 1:  # a late joiner finds the room on its step
            followers.append(open_page(browser, hub.page(room="story", role="follower", name="late")))
        for handle in followers:
            browser.switch_to.window(handle)
            wait_page_camera(browser, rest["camera"])
            for k in ("lat", "lon", "zoom"):
                assert abs(rest["camera"][k] - step["camera"][k]) < 1e-9, (k, rest["camera"], step)
            wait_until(lambda: caption(browser)["title"] == step["title"], 10, f"the caption of step {index}")
            shown = caption(browser)
            assert shown["shown"] and shown["progress"] == f"Step {index + 1} of 3", shown
            assert shown["notes"] == step.get("notes", "")
            assert js(browser, "document.getElementById('story-steps').hidden"), "followers have no stepper"
            assert severe_logs(browser) == []
    assert observer.errors() == []


def zoom_for_range(metres: float, lat: float) -> float:
    """The hub's distance model (CameraDistance): MapLibre's eye distance at a 720 px high viewport."""
    pixels = 360 / math.tan(math.radians(36.86989764584402) / 2)
    return math.log2(pixels * 2 * math.pi * 6371008.8 * math.cos(math.radians(lat)) / (512 * metres))


def test_a_presenter_loads_the_kml_tour_and_steps_it_with_the_keyboard_while_followers_land_on_each_view(hub, browser, clients):
    observer = clients("tour", "follower", name="observer")
    followers = [open_page(browser, hub.page(room="tour", role="follower", name="wall"), new_window=False)]
    presenter = open_page(browser, hub.page(room="tour", role="presenter", name="ana"))
    js(browser, "document.getElementById('story-tools').open = true")
    mark = observer.mark()
    browser.find_element("css selector", "#story-file").send_keys(str(TOUR))
    changed = observer.wait_for(lambda m: m.get("event") == "storyChanged", 10, "the tour as the storyboard", mark)
    assert changed["count"] == 4 and changed["by"] == js(browser, "camhub.client")
    # The tour's first three views: LookAts at their point (zoom from range), then a Camera's point, then a LookAt.
    expected = [
        {"lat": 38.7223, "lon": -9.1393, "zoom": zoom_for_range(12000, 38.7223), "bearing": 20, "tilt": 45},
        None,  # a Camera: the point its line of sight meets (checked in KMLTourTests)
        {"lat": 40.4168, "lon": -3.7038, "zoom": zoom_for_range(40000, 40.4168), "bearing": 0, "tilt": 0},
    ]
    titles = ["Lisbon", "Porto & the Douro", "Madrid"]
    for index in range(3):
        browser.switch_to.window(presenter)
        mark = observer.mark()
        key(browser, "ArrowRight", "ArrowRight", 39)
        observer.wait_for(lambda m: m.get("event") == "storyStep" and m["index"] == index, 10, f"step {index}", mark)
        rest = observer.wait_rest(20, mark, f"the room at rest on step {index}")
        if expected[index]:
            for k, v in expected[index].items():
                assert abs(rest["camera"][k] - v) < 1e-9, (k, rest["camera"], expected[index])
        if index == 1:
            followers.append(open_page(browser, hub.page(room="tour", role="follower", name="late")))
        for handle in followers:
            browser.switch_to.window(handle)
            wait_page_camera(browser, rest["camera"], 20)
            wait_until(lambda: caption(browser)["title"] == titles[index], 10, f"the caption of step {index}")
            assert caption(browser)["progress"] == f"Step {index + 1} of 4"
            assert severe_logs(browser) == []
    assert observer.errors() == []
