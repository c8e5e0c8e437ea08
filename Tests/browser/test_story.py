"""The room's storyboard in real Chromium: a presenter steps with the keys a presentation clicker sends,
and two follower pages (one joining late) show each step's caption and land exactly on its camera."""

from hubtools import js, key, severe_logs, wait_joined, wait_page_camera, wait_until

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
