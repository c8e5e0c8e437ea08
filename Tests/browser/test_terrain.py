"""Terrain in real Chromium: a hub started with `--terrain` on the synthetic hill of scripts/make_dem.py
serves a viewer whose MapLibre map has terrain; a driver page whose camera sits on the summit, clamped to
the ground, makes the room's elevation the hill's height there, a follower page's map shows exactly that
elevation, and with "Follow the ground" off the driver leaves the elevation as it is set.

Tolerance of the room's elevation against the summit's height (BASE + PEAK = 2000 m), 1 m:
  - Terrarium quantizes heights to 1/256 m;
  - MapLibre reads the DEM bilinearly and puts pixel i at i/dim (a corner) where make_dem.py samples
    pixel centres: half a pixel off. At the summit the slope is 0, so both errors are second order,
    at most PEAK·d²/(4σ²) with d the DEM's pixel size: MapLibre's terrain reads the tiles one zoom
    below the view's (zoom 11 for this zoom-12 camera) or their parent while they load; at zoom 10,
    d ≈ 105 m and σ = 4000 m give 0.31 m (one run read 1999.86 m);
  - the driver does not send a ground that differs from the room's elevation by GROUND_CHANGE_M
    (0.5 m, web/js/map/ground.js) or less.
  Together at most 0.82 m; a coarser parent MapLibre reads while those load (zoom 8: d ≈ 420 m, up to
  5 m off) is only an intermediate value: the test waits for the room to come to rest on the final one.
"""

import sys
import time
from pathlib import Path

import pytest

from hubtools import ROOT, Hub, HubClient, chrome, js, wait_joined, wait_page_camera, wait_until, severe_logs

sys.path.insert(0, str(ROOT / "scripts"))
import make_dem  # noqa: E402

SUMMIT_HEIGHT = make_dem.BASE + make_dem.PEAK
TOLERANCE_M = 1.0
SUMMIT = {"lat": make_dem.SUMMIT[0], "lon": make_dem.SUMMIT[1], "zoom": 12, "bearing": 30, "tilt": 60}


@pytest.fixture(scope="module")
def dem(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("dem") / "hill.mbtiles"
    make_dem.write(str(path))
    return path


def elevation_settles(observer: HubClient, near: float, what: str) -> dict:
    """The room's camera once it rests within TOLERANCE_M of `near` and no frame has come for 1 s."""
    wait_until(lambda: abs(observer.camera().get("elevation", 0) - near) <= TOLERANCE_M, 30, what)
    camera = observer.wait_quiet(1.0, 15)
    assert abs(camera.get("elevation", 0) - near) <= TOLERANCE_M, (what, camera)
    return camera


def test_a_driver_on_the_hill_clamped_to_the_ground_sets_the_rooms_elevation_and_a_follower_shows_it(dem):
    hub = Hub(["--terrain", str(dem)])
    pages = []
    clients = []
    try:
        setter = HubClient(hub.ws_url, "hill", "driver", name="py")
        observer = HubClient(hub.ws_url, "hill", "follower", name="obs")
        clients += [setter, observer]
        driving = chrome(1280, 720)
        pages.append(driving)
        driving.get(hub.page(room="hill", role="driver", name="Dee"))
        wait_joined(driving)
        assert js(driving, "camhub.map.getTerrain()") == {"source": "camhub-terrain", "exaggeration": 1}
        assert js(driving, "camhub.terrain") == {"type": "raster-dem", "url": f"{hub.url}/terrain.json",
                                                 "encoding": "terrarium", "tileSize": 256}
        assert js(driving, "camhub.groundClamped") is True, "clamped to the ground by default with terrain"

        # A camera on the summit without an elevation: the driver page finds the ground under it.
        setter.send({"type": "set", "camera": SUMMIT})
        rest = elevation_settles(observer, SUMMIT_HEIGHT, "the room's elevation to reach the summit's height")
        assert (rest["lat"], rest["lon"]) == (SUMMIT["lat"], SUMMIT["lon"]), "only the elevation was set"
        ground = js(driving, f"camhub.map.queryTerrainElevation([{SUMMIT['lon']}, {SUMMIT['lat']}])")
        assert abs(ground - rest["elevation"]) <= 0.5, "the room's elevation is the ground the driver's map reads"

        following = chrome(1280, 720)
        pages.append(following)
        following.get(hub.page(room="hill", role="follower", name="Fay"))
        wait_joined(following)
        wait_page_camera(following, rest)
        assert js(following, "camhub.map.getTerrain()") is not None
        shown = js(following, "camhub.map.getCenterElevation()")
        assert abs(shown - rest["elevation"]) <= 1e-6, "the follower shows exactly the room's elevation, not its own ground"

        # Free elevation: the driver leaves a set elevation alone.
        js(driving, "(document.querySelector('#ground-follow').click(), camhub.groundClamped)")
        assert js(driving, "camhub.groundClamped") is False
        setter.send({"type": "set", "camera": {"elevation": 500}})
        elevation_settles(observer, 500, "the set elevation")
        time.sleep(1.5)  # fifteen of the driver's ground checks: none may send
        assert observer.camera()["elevation"] == 500

        # Clamped again: back on the ground.
        js(driving, "document.querySelector('#ground-follow').click()")
        elevation_settles(observer, SUMMIT_HEIGHT, "the room's elevation back on the ground")
        for page in pages:
            assert severe_logs(page) == []
    finally:
        for c in clients:
            c.close()
        for page in pages:
            page.quit()
        hub.stop()


def test_a_terrain_file_that_is_no_elevation_archive_stops_the_start_with_its_name(tmp_path):
    archive = tmp_path / "flat.mbtiles"
    archive.write_bytes(b"not a database at all" * 100)
    with pytest.raises(RuntimeError) as info:
        Hub(["--terrain", str(archive)], startup_timeout=10)
    assert f"--terrain {archive}: not a readable MBTiles (SQLite) file" in str(info.value)
