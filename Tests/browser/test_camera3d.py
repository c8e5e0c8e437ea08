"""The camera in 3D in real Chromium: a follower page's MapLibre map (MapLibre GL JS 5.3.0)
shows the room's roll, pitch to 85, centre elevation and field of view, read back from the map
itself, and a fly with roll and elevation ends exactly on the hub's camera."""

from hubtools import js, wait_joined, wait_page_camera, severe_logs

TOLERANCE = 1e-6


def map_matches(browser, camera: dict) -> dict:
    """MapLibre's own camera on the page, checked against the hub's `camera` (fields left out at their defaults)."""
    m = js(browser, "camhub.mapCamera()")
    expected = {"tilt": camera["tilt"], "roll": camera.get("roll", 0), "elevation": camera.get("elevation", 0),
                "fov": camera.get("fov", 36.86989764584402), "zoom": camera["zoom"]}
    for key, value in expected.items():
        assert abs(m[key] - value) <= TOLERANCE, (key, m, camera)
    return m


def test_a_follower_map_shows_the_rooms_roll_pitch_80_elevation_and_fov(hub, browser, clients):
    presenter = clients("steep", "presenter", name="ana")
    presenter.send({"type": "limits", "maxTilt": 85})
    mark = presenter.mark()
    presenter.send({"type": "set", "camera": {"lat": 46.5581, "lon": 7.9858, "zoom": 13, "bearing": 200, "tilt": 80,
                                              "roll": -15, "elevation": 2200, "fov": 45}})
    camera = presenter.wait_for(lambda m: m["type"] == "frame" and m["camera"].get("roll") == -15, 10, "the steep frame",
                                mark)["camera"]
    browser.get(hub.page(room="steep", role="follower", name="wall"))
    wait_joined(browser)
    wait_page_camera(browser, camera)
    map_matches(browser, camera)
    assert severe_logs(browser) == []


def test_a_fly_with_roll_and_elevation_ends_exactly_on_the_hubs_camera(hub, browser, clients):
    presenter = clients("banked", "presenter", name="ana")
    presenter.send({"type": "limits", "maxTilt": 85})
    browser.get(hub.page(room="banked", role="follower", name="wall"))
    wait_joined(browser)
    mark = presenter.mark()
    presenter.send({"type": "fly", "camera": {"lat": 35.6762, "lon": 139.6503, "zoom": 12, "tilt": 70, "roll": 30,
                                              "elevation": 800, "fov": 30}, "duration": 2})
    final = presenter.wait_rest(30, mark, "the banked flight's end")["camera"]
    assert (final["roll"], final["elevation"], final["fov"]) == (30, 800, 30)
    wait_page_camera(browser, final, timeout=15)
    m = map_matches(browser, final)
    assert abs(m["lat"] - final["lat"]) < 1e-9 and abs(m["lon"] - final["lon"]) < 1e-9
    # back to a flat camera: the map's roll, elevation and field of view go back too
    mark = presenter.mark()
    presenter.send({"type": "ease", "camera": {"roll": 0, "elevation": 0, "fov": 36.86989764584402, "tilt": 0},
                    "duration": 0.5})
    flat = presenter.wait_rest(30, mark, "the ease back to flat")["camera"]
    assert "roll" not in flat and "elevation" not in flat and "fov" not in flat
    wait_page_camera(browser, flat, timeout=15)
    map_matches(browser, flat)
