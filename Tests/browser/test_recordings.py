"""The panel's Recordings section against a real hub that records
(`camhub serve --record`): a presenter page flies in one room; as a presenter of another
room it opens that recording, plays it there, seeks and pauses, and a follower there
sees the recorded cameras."""

import json
import re
import time
import urllib.request
import zlib

import pytest

from hubtools import Hub, HubClient, js, severe_logs, wait_joined, wait_until
from test_controls import open_tools

def close(a, b, tolerance=1e-9):
    return all(abs(a[k] - b[k]) <= tolerance for k in ("lat", "lon", "zoom", "bearing", "tilt"))


def click(browser, selector):
    browser.execute_script("document.querySelector(arguments[0]).click()", selector)


def seek(browser, seconds):
    """Moves the slider as a user lets go of it: input, then change."""
    browser.execute_script("""
        const s = document.querySelector('#recording-seek');
        s.value = String(arguments[0]);
        s.dispatchEvent(new Event('input'));
        s.dispatchEvent(new Event('change'));""", seconds)


@pytest.fixture
def recording_hub(tmp_path):
    h = Hub(["--record", str(tmp_path / "rec")])
    yield h
    h.stop()


def record_show(hub, browser):
    """Page A, presenter in room `show`: flies to Paris with the panel's button, then resets north.
    Returns (the camera the fly ended on, the final camera), as a follower of `show` saw them."""
    watcher = HubClient(hub.ws_url, "show", "follower", name="watcher")
    try:
        browser.get(hub.page(room="show", role="presenter", name="ana"))
        wait_joined(browser)
        mark = watcher.mark()
        click(browser, "#places button[data-place=paris]")
        watcher.wait_for(lambda m: m["type"] == "frame" and m["moving"], 10, "the fly to start", mark)
        flown = watcher.wait_quiet(0.3, 20, mark)
        mark = watcher.mark()
        click(browser, "#north")
        final = watcher.wait_quiet(0.3, 10, mark)
    finally:
        watcher.close()
    assert flown["tilt"] == 30 and final["tilt"] == 0, (flown, final)
    # The recorder flushes about once a second: wait until the hub serves both commands and both ends.
    wait_until(lambda: recorded_types(hub, "show").count("command") == 2 and recorded_types(hub, "show").count("animationEnded") == 2,
               10, "the hub to serve the recording's two commands and two animation ends")
    return flown, final


def recorded_types(hub, room: str) -> list[str]:
    """The `type` of every entry the hub serves for `room`'s recording so far (a part being written has no gzip
    trailer: what has been flushed is read)."""
    with urllib.request.urlopen(f"{hub.url}/recordings/{room}", timeout=10) as r:
        parts = json.load(r)["recordings"]
    types = []
    for part in parts:
        with urllib.request.urlopen(f"{hub.url}/recordings/{room}/{part['file']}", timeout=10) as r:
            text = zlib.decompressobj(wbits=31).decompress(r.read()).decode()
        for line in text.splitlines():
            try:
                types.append(json.loads(line).get("type"))
            except json.JSONDecodeError:
                pass  # the last line, cut where the flush ended
    return types


def test_a_presenter_plays_pauses_and_seeks_a_recording_into_its_room(recording_hub, browser):
    hub = recording_hub
    flown, final = record_show(hub, browser)

    browser.get(hub.page(room="rerun", role="presenter", name="pat"))
    wait_joined(browser)
    open_tools(browser)
    wait_until(lambda: browser.execute_script("return !document.querySelector('#recording-controls').hidden"), 10,
               "the Recordings section (the hub records, the page presents)")
    wait_until(lambda: len(js(browser, "camhub.recordings.list")) == 1, 10, "the hub's recording listed")
    assert js(browser, "camhub.recordings.list")[0]["room"] == "show"
    click(browser, "#recording-open")
    wait_until(lambda: js(browser, "camhub.recordings.open") is not None, 10, "the recording opened")
    status = browser.find_element("css selector", "#recording-status").text
    assert "show" in status and "2 commands" in status, status  # the fly and the ease
    duration = js(browser, "camhub.recordings.open.timeline.duration")
    assert 1.5 < duration < 20, duration

    follower = HubClient(hub.ws_url, "rerun", "follower", name="wall")
    driver = HubClient(hub.ws_url, "rerun", "driver", name="dana")
    try:
        # Play from the start: the room ends on the recorded final camera.
        mark = follower.mark()
        click(browser, "#recording-play")
        assert browser.find_element("css selector", "#recording-play").text == "Pause"
        wait_until(lambda: close(follower.camera(), final), 10, "the room to reach the recorded final camera")
        follower.wait_quiet(0.3, 5, mark)
        assert close(follower.camera(), final), (follower.camera(), final)
        wait_until(lambda: not js(browser, "camhub.recordings.open.timeline.playing"), 10, "the player to stop at the end")
        assert browser.find_element("css selector", "#recording-play").text == "Play"
        shown = browser.find_element("css selector", "#recording-time").text
        assert re.fullmatch(r"(\d+:\d\d\.\d) / \1", shown), f"position / duration at the end: {shown}"

        # Seek between the fly's end and the ease: the room is set to the camera the fly ended on.
        entries = js(browser, "camhub.recordings.open.timeline.recording.entries")
        fly_end = next(e["t"] for e in entries if e["kind"] == "animationEnded")
        mark = follower.mark()
        seek(browser, fly_end + 0.3)
        follower.wait_rest(10, mark, "the seek's set")
        wait_until(lambda: close(follower.camera(), flown), 10, "the room at the fly's end camera")
        slider = float(browser.execute_script("return document.querySelector('#recording-seek').value"))
        assert fly_end < slider < fly_end + 0.4, (fly_end, slider)
        assert abs(js(browser, "camhub.recordings.open.timeline.position(camhub.now())") - slider) < 1e-9, "paused where it was sought"

        # Play from 0 and pause during the fly: the room's camera stops short; play goes on to the end.
        # (A recording does not hold the camera it began on: a driver moves the room away first.)
        seek(browser, 0)
        mark = follower.mark()
        driver.send({"type": "set", "camera": {"lat": 30.0, "lon": -20.0, "zoom": 3.0}})
        follower.wait_rest(10, mark, "the driver's set")
        mark = follower.mark()
        click(browser, "#recording-play")
        follower.wait_for(lambda m: m["type"] == "frame" and m["moving"], 10, "the fly to start", mark)
        click(browser, "#recording-play")  # at once: however slow the machine, the fly (seconds long) is under way
        paused_at = js(browser, "camhub.recordings.open.timeline.position(camhub.now())")
        stopped = follower.wait_quiet(0.4, 5)
        assert not close(stopped, flown, 1e-3), "the pause stopped the fly short of its target"
        time.sleep(0.3)
        assert js(browser, "camhub.recordings.open.timeline.position(camhub.now())") == paused_at, "paused: the clock holds"
        click(browser, "#recording-play")
        wait_until(lambda: close(follower.camera(), final), 10, "the resumed recording to reach the final camera")
        assert follower.errors() == []
        assert js(browser, "camhub.stats.errors") == [], "the hub refused none of the player's messages"
        assert severe_logs(browser) == []
    finally:
        follower.close()
        driver.close()


def test_the_recordings_section_is_only_for_presenters_on_a_hub_that_records(hub, recording_hub, browser):
    browser.get(recording_hub.page(room="rerun", role="driver", name="dana"))
    wait_joined(browser)
    time.sleep(0.5)
    assert browser.execute_script("return document.querySelector('#recording-controls').hidden"), "a driver does not see it"
    browser.get(hub.page(room="rerun", role="presenter", name="pat"))
    wait_joined(browser)
    wait_until(lambda: js(browser, "camhub.recordings.available") is False, 10, "/map/config.json to say the hub does not record")
    assert browser.execute_script("return document.querySelector('#recording-controls').hidden"), "the hub does not record"
    assert severe_logs(browser) == [], "the page never asked a hub that does not record for /recordings"
