"""The map itself: the offline vector basemap served
by the hub, `camhub serve --style`, the page's `?style=`, and `--tiles` with a
user's own archive. Pictures are judged by pixel statistics of screenshots."""

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hubtools import ROOT, WEB, Hub, HubClient, chrome, js, wait_joined, wait_page_camera, wait_until
from pixels import colors, hex_rgb, share_near

BASEMAP = ROOT / ".build-tiles" / "basemap.mbtiles"
LAND, WATER = hex_rgb("#f2efe6"), hex_rgb("#a9cbe0")  # web/js/map/vector_style.js
# The middle of a 1280 x 720 page, clear of the HUD (left) and the panel (right).
BOX = (380, 140, 900, 560)


def make_tiles():
    spec = importlib.util.spec_from_file_location("make_tiles", ROOT / "scripts" / "make_tiles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def show(hub, driver, camera, room="map", extra=""):
    """Puts `camera` in `room` with a presenter, opens a follower page on it and waits for every tile."""
    presenter = HubClient(hub.ws_url, room, "presenter", name="shot")
    try:
        mark = presenter.mark()
        presenter.send({"type": "set", "camera": camera})
        final = presenter.wait_rest(15, mark, "the camera to be set")["camera"]
        driver.get(hub.page(room=room, role="follower") + extra)
        wait_joined(driver)
        wait_page_camera(driver, final, timeout=20)
        wait_until(lambda: js(driver, "camhub.map.loaded() && camhub.map.areTilesLoaded()"), 40, "the map's tiles to load")
        wait_until(lambda: js(driver, "!camhub.map.isMoving()"), 10, "the map to settle")
        return driver.get_screenshot_as_png()
    finally:
        presenter.close()


def tile_features(driver, layer):
    """How many features of `layer` the map decoded from the hub's tiles (the tiles load in a worker)."""
    return js(driver, f"camhub.map.querySourceFeatures('tiles', {{sourceLayer: '{layer}'}}).length")


def test_the_offline_basemap_shows_a_coastal_city_at_zoom_12():
    assert BASEMAP.exists(), f"{BASEMAP} is missing: scripts/setup.sh builds it (python3 scripts/make_tiles.py)"
    hub = Hub()
    driver = chrome(1280, 720)
    try:
        # Marseille: the Mediterranean to the west and south, the city and its districts inland.
        png = show(hub, driver, {"lat": 43.29, "lon": 5.36, "zoom": 12, "bearing": 0, "tilt": 0})
        assert js(driver, "camhub.mapStyle.from") == "tiles"
        assert tile_features(driver, "water") > 0 and tile_features(driver, "place") > 0, "water and places from /tiles/…"
        if os.environ.get("CAMHUB_SHOTS"):
            Path(os.environ["CAMHUB_SHOTS"], "zoom12.png").write_bytes(png)
        counts = colors(png, BOX)
        water, land = share_near(counts, WATER), share_near(counts, LAND)
        other = 1 - water - land
        assert water > 0.05, f"sea on screen ({water:.3f})"
        assert land > 0.05, f"land on screen ({land:.3f})"
        assert other > 0.003, f"coastline, labels and borders on screen ({other:.4f})"
        assert len(counts) > 50, f"a picture, not a flat plane ({len(counts)} colours)"
    finally:
        driver.quit()
        hub.stop()


def test_hub_style_file_and_the_pages_style_parameter_take_effect(tmp_path):
    web = tmp_path / "web"
    shutil.copytree(WEB, web, ignore=shutil.ignore_patterns("tests"))
    shutil.copytree(WEB.parent / "clients" / "js" / "src", tmp_path / "clients" / "js" / "src")  # served beside it, as installed
    (web / "styles").mkdir(exist_ok=True)
    plain = lambda color: {"version": 8, "name": color, "sources": {}, "layers": [
        {"id": "bg", "type": "background", "paint": {"background-color": color}}]}
    hub_style = tmp_path / "hub-style.json"
    hub_style.write_text(json.dumps(plain("#d02090")))
    (web / "styles" / "green.json").write_text(json.dumps(plain("#20a040")))
    hub = Hub(["--style", str(hub_style)], web=web)
    driver = chrome(1280, 720)
    try:
        camera = {"lat": 10, "lon": 10, "zoom": 3, "bearing": 0, "tilt": 0}
        png = show(hub, driver, camera)
        assert js(driver, "camhub.mapStyle") == {"from": "hub", "url": f"{hub.url}/map/style.json", "name": "#d02090"}
        assert share_near(colors(png, BOX), hex_rgb("#d02090")) > 0.9, "the --style file's background fills the map"
        png = show(hub, driver, camera, room="page-style", extra="&style=styles/green.json")
        assert js(driver, "camhub.mapStyle.from") == "page"
        assert share_near(colors(png, BOX), hex_rgb("#20a040")) > 0.9, "?style= wins over --style"
    finally:
        driver.quit()
        hub.stop()


@pytest.mark.parametrize("suffix", ["mbtiles", "pmtiles"])
def test_a_users_tile_archive_is_served_and_drawn(tmp_path, suffix):
    # A small archive built here: one water polygon around 0°N 0°E, to zoom 5.
    features = tmp_path / "water.geojson"
    features.write_text(json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"class": "lake"},
         "geometry": {"type": "Polygon", "coordinates": [[[-20, -15], [20, -15], [20, 15], [-20, 15], [-20, -15]]]}}]}))
    archive = tmp_path / f"mine.{suffix}"
    subprocess.run([make_tiles().tippecanoe(), "-o", str(archive), "-Z0", "-z5", "--quiet", "-n", "mine",
                    "-L", f"water:{features}"], check=True, timeout=120)
    hub = Hub(["--tiles", str(archive)])
    driver = chrome(1280, 720)
    try:
        png = show(hub, driver, {"lat": 0, "lon": 0, "zoom": 4, "bearing": 0, "tilt": 0})
        assert js(driver, "camhub.mapStyle.from") == "tiles"
        tilejson = js(driver, "fetch('/tiles.json').then(r => r.json())")
        assert (tilejson["name"], tilejson["maxzoom"]) == ("mine", 5)
        assert tile_features(driver, "water") > 0
        counts = colors(png, BOX)
        assert share_near(counts, WATER) > 0.9, "the archive's water fills the middle of the map"
        png = show(hub, driver, {"lat": 45, "lon": 60, "zoom": 4, "bearing": 0, "tilt": 0}, room="elsewhere")
        assert share_near(colors(png, BOX), LAND) > 0.9, "outside the archive: land colour, no water"
    finally:
        driver.quit()
        hub.stop()


@pytest.mark.parametrize("content", [None, b"not a database at all" * 100], ids=["missing", "broken"])
def test_a_missing_or_broken_tile_archive_stops_the_start_with_its_name(tmp_path, content):
    archive = tmp_path / "bad.mbtiles"
    if content is not None:
        archive.write_bytes(content)
    with pytest.raises(RuntimeError) as info:
        Hub(["--tiles", str(archive)], startup_timeout=10)
    assert f"--tiles {archive}" in str(info.value)
