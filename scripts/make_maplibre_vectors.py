#!/usr/bin/env python3
"""Make Tests/Vectors/maplibre_mercator.json: projection test vectors taken
from MapLibre GL JS 5.3.0 itself, running in headless Chromium.

What it does
------------
1. Serves web/vendor/maplibre (the bundle, installed by
   scripts/install_web_vendor.sh) and scripts/maplibre_vectors.html from a
   Python http.server on 127.0.0.1 (ephemeral port) and opens the page in
   headless Chromium with software WebGL (Tests/browser/hubtools.py `chrome`,
   SE_OFFLINE=true: Selenium never downloads anything).  The page holds a
   MapLibre map with an empty mercator style (maxPitch 85, pixelRatio 1,
   centerClampedToGround false so the centre elevation survives rendering).
2. Draws the requested cameras from a seeded PRNG (no timestamps): zoom 0-20,
   pitch 0-85 (many above 60, some exactly 0 and 85), roll -180..180, bearing
   0..360, centre elevation 0-4000 m, vertical field of view (MapLibre's
   default for about half), latitude within +-80, four viewports, about a fifth
   with padding.  For each case the page resets the map to a neutral camera,
   resizes the container (map.resize()), calls map.jumpTo({center, zoom,
   bearing, pitch, roll, elevation, padding}) and then
   map.setVerticalFieldOfView(fov), and READS BACK the camera MapLibre holds
   (getCenter, getZoom, ...).  The file stores the read-back camera, not the
   requested one.  Every case is also set with the other order
   (setVerticalFieldOfView first) to check that the order does not matter.
3. Per case it computes, with transform._pixelMatrix3D -- the matrix MapLibre
   draws the ground with (world pixels x = mercX * worldSize, y = mercY *
   worldSize, z = 0 metres) -- not with map.project, which uses _pixelMatrix
   and leaves out the translate by the centre's elevation:
   - `project`: ground points -> view pixels (pixel = xy / w; null when w <= 0,
     i.e. behind the camera): the centre's ground point, points MapLibre draws
     (unprojected from random screen points that are ground and inside the
     near/far planes, then jittered by up to 2 world px), a far point ahead
     near the horizon and, when one exists within the world, a point behind
     the camera (null).
   - `unproject`: view pixels -> ground points: a 3x3 grid (edges, corners and
     the principal point's row and column) and two pixels a few px either side
     of the horizon (the nearest horizon point to the principal point), or a
     pixel near the top edge when the horizon is not in view.  The ray through
     the pixel (inverse of _pixelMatrix3D) is intersected with z = 0; null when
     it is parallel to the plane or meets it behind the camera (sky).
   Cross-checks printed at the end: the same pixels through MapLibre's own
   coordinatePoint / screenPointToMercatorCoordinateAtZ with _pixelMatrix at
   z = -elevation, and how far map.project is off.
4. With --verify-render it also draws a red circle (GeoJSON point, radius 6,
   white background layer) for a few points of the cases with elevation > 0,
   roll != 0 and pitch >= 60, waits for 'idle', reads the canvas and compares
   the red centroid with the _pixelMatrix3D pixel and with map.project.

Running it twice writes the identical file.

Usage:
    python3 scripts/make_maplibre_vectors.py [--out PATH] [--verify-render]

Needs /usr/bin/chromium and /usr/bin/chromedriver (apt-get install chromium
chromium-driver), selenium (see Tests/browser/requirements.txt) and the
MapLibre bundle in web/vendor/maplibre.  No network besides 127.0.0.1.
"""
from __future__ import annotations

import argparse
import contextlib
import http.server
import json
import math
import os
import random
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENDOR = ROOT / "web" / "vendor" / "maplibre"
PAGE = ROOT / "scripts" / "maplibre_vectors.html"
VECTORS = ROOT / "Tests" / "Vectors"
MAPLIBRE_VERSION = "5.3.0"

# Per projection: the output file, the PRNG seed and how many cases.
PROJECTIONS = {
    "mercator": (VECTORS / "maplibre_mercator.json", "camhub-maplibre-mercator-v1", 264),
    "globe": (VECTORS / "maplibre_globe.json", "camhub-maplibre-globe-v1", 264),
}
GLOBE_MERCATOR_ZOOM = 12.0  # MapLibre's globe preset draws with its mercator transform from here on
VIEWPORTS = [(1280, 720), (800, 600), (375, 812), (1000, 1000)]
UNEVEN_PADDING = {"top": 0, "left": 200, "bottom": 50, "right": 0}
DEFAULT_FOV = math.degrees(2 * math.atan(1 / 3))  # MapLibre's default, 36.8699 deg
MAX_LAT = 85.0  # project points stay inside the mercator world
SCREEN_SAMPLES = 5  # drawn ground points per case in `project`
VERIFY_CASES = 8
VERIFY_POINTS = 3

DESCRIPTION = """\
Projection test vectors from MapLibre GL JS 5.3.0 itself (headless Chromium, \
scripts/make_maplibre_vectors.py; mercator, no terrain, ground at altitude 0). \
camera: what MapLibre holds after map.jumpTo({center, zoom, bearing, pitch, roll, elevation, padding}) \
and map.setVerticalFieldOfView(fov) on a map of viewport width x height CSS px, read back with \
getCenter (lat, lon: the point under the padded centre at altitude `elevation`), getZoom \
(MapLibre raises low zooms so the world covers the viewport and may move the centre), \
getBearing (degrees, wrapped to [-180, 180)), getPitch (tilt, degrees), getRoll \
(degrees), getCenterElevation (elevation, metres), getVerticalFieldOfView (fov, degrees), \
getPadding (px). \
Pixels are view pixels from the top-left corner of the viewport (x right, y down), computed with \
transform._pixelMatrix3D, the matrix MapLibre draws the ground with: \
clipSpaceToPixels * P * S(1, -1, 1) * T(0, 0, -D) * Rz(-roll) * Rx(tilt) * Rz(-bearing) \
* T(-cx, -cy, 0) * S(1, 1, pixelPerMeter) * T(0, 0, -elevation) applied to the world point \
(mercX * worldSize, mercY * worldSize, 0, 1), pixel = (x / w, y / w); worldSize = 512 * 2^zoom, \
(cx, cy) = the centre in world pixels, D = (height / 2) / tan(fov / 2), \
pixelPerMeter = worldSize / (2 pi 6371008.8 cos(lat of the centre)), P = perspective(fov, \
width / height, near, far) with P[8] = -(left - right) / width, P[9] = (top - bottom) / height \
(padding). NOTE: map.project in 5.3.0 uses _pixelMatrix, which leaves out T(0, 0, -elevation), so \
it differs whenever elevation != 0. \
project: geo point at altitude 0 -> view pixel, null when w <= 0 (behind the camera); geo lon is \
within +-180 of the camera lon and is projected as given (no wrapping); points: the centre's ground \
point, points MapLibre draws, a far point ahead near the horizon and (when one exists within the \
world) a point behind the camera. \
unproject: view pixel -> the ground point where the ray through the pixel (inverse of _pixelMatrix3D) \
meets z = 0, null when the ray is parallel to the ground or meets it behind the camera (sky); \
lon wrapped to [-180, 180) (at low zoom and near the horizon the hit can be several world copies \
away from the camera, so compare longitudes modulo 360); lat from the inverse Mercator formula \
without clamping (|lat| > 85.051129: outside the Mercator world, where MapLibre draws nothing; far \
outside it lat saturates towards +-90, so compare lat directly there). Pixels: a 3x3 \
grid (edges and the principal point's row and column), then either two pixels a few px below and \
above the horizon or one pixel near the top edge; ground just below the horizon can lie beyond \
MapLibre's far plane (not drawn) but is still given."""

GLOBE_DESCRIPTION = """\
Projection test vectors for MapLibre GL JS 5.3.0's globe (map.setProjection({type: "globe"}): \
its vertical perspective transform below zoom 12, its mercator transform from zoom 12 on), from \
MapLibre itself in headless Chromium (scripts/make_maplibre_vectors.py --projection globe). \
camera: read back as in maplibre_mercator.json, after map.redraw() so the projection follows the zoom. \
Cases with "globe": false are drawn flat and follow maplibre_mercator.json's description. \
Cases with "globe": true: the world is a sphere of radius R = worldSize / (2 pi) / cos(lat of the \
centre) pixels (worldSize = 512 * 2^zoom), drawn with P * T(0, 0, -D) * Rz(roll) * Rx(-tilt) * \
Rz(bearing) * T(0, 0, -R) * Rx(lat) * Ry(-lon) * S(R) applied to the unit vector (sin lon cos lat, \
sin lat, cos lon cos lat) (gl-matrix rotations, D = (height / 2) / tan(fov / 2), P = perspective(fov, \
width / height, near, far) with the padding offset); view pixel x = (ndc.x + 1) / 2 * width, \
y = (1 - ndc.y) / 2 * height. The centre's elevation does not change the globe's picture. \
project: geo point on the sphere -> view pixel (MapLibre's locationToScreenPoint), null when the \
globe hides it (isLocationOccluded: behind the plane of the eye's tangent points) or w <= 0 (behind \
the eye); points: the centre, points on the visible globe, a point just inside the limb and the \
centre's antipode (null). \
unproject: view pixel -> where the ray through it first meets the sphere (unprojectScreenPoint), \
lon wrapped to [-180, 180); null when the ray misses the globe (isPointOnMapSurface false). Pixels: \
a 3x3 grid, then two pixels a few px inside and outside the limb along a random direction from the \
principal point (or a pixel near the top edge when the limb is not in view). \
bounds: MapLibre's getBounds() (eight edge points, each off the globe moved to a point of the limb, \
the widest extents around the centre, poles in view widen it to every longitude); corners: the \
points getBounds takes under the four corners (top-left, top-right, bottom-right, bottom-left)."""


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------

def wrap_lon(lon: float) -> float:
    """Longitude into [-180, 180)."""
    w = math.fmod(lon + 180.0, 360.0)
    if w < 0:
        w += 360.0
    return w - 180.0


def near_lon(lon: float, ref: float) -> float:
    """The copy of `lon` (+-360 k) within [-180, 180) of `ref`."""
    return ref + wrap_lon(lon - ref)


def case_rng(seed: str, index: int) -> random.Random:
    """A PRNG per case, so one case's draws never shift another's."""
    return random.Random(f"{seed}/{index}")


# ---------------------------------------------------------------------------
# The browser and the page
# ---------------------------------------------------------------------------

class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the page at / and the vendored MapLibre files next to it."""

    def translate_path(self, path):
        name = path.split("?", 1)[0].split("#", 1)[0].lstrip("/")
        if name in ("", "index.html"):
            return str(PAGE)
        return str(VENDOR / os.path.basename(name))

    def log_message(self, *args):
        pass


def start_server() -> http.server.ThreadingHTTPServer:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def open_browser(url: str):
    sys.path.insert(0, str(ROOT / "Tests" / "browser"))
    from hubtools import chrome, wait_until  # noqa: E402 (needs the path above)

    driver = chrome(1280, 1000)
    driver.get(url)
    wait_until(lambda: driver.execute_script("return !!window.oracleReady"), 30, "the MapLibre page to load")
    return driver


class Oracle:
    """Calls window.oracle on the page: MapLibre's own transform and matrices, float64 arithmetic.
    Numbers cross as JSON text (shortest round-trip form), so no precision is lost."""

    def __init__(self, driver):
        self.driver = driver

    def call(self, name, *args):
        text = self.driver.execute_script(
            f"return JSON.stringify(oracle.{name}.apply(null, arguments));", *args)
        return json.loads(text)

    def render_dot(self, lon, lat):
        """Draws a red dot at (lon, lat); the red centroid in view pixels once MapLibre is idle."""
        self.driver.set_script_timeout(60)
        return json.loads(self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "oracle.renderDot(arguments[0], arguments[1], r => done(JSON.stringify(r)));", lon, lat))

    def set_camera(self, viewport, camera, fov_first=False):
        return self.call("setCamera", viewport, camera, fov_first)

    def project(self, lon, lat):
        return self.call("project", lon, lat)

    def unproject(self, x, y):
        return self.call("unproject", x, y)


@contextlib.contextmanager
def maplibre_oracle():
    """The MapLibre page in headless Chromium, served from 127.0.0.1, as an Oracle of the
    expected MapLibre version; the browser and the server are stopped afterwards."""
    if not (VENDOR / "maplibre-gl.js").exists():
        sys.exit(f"{VENDOR / 'maplibre-gl.js'} missing: run scripts/install_web_vendor.sh")
    server = start_server()
    driver = None
    try:
        driver = open_browser(f"http://127.0.0.1:{server.server_port}/")
        oracle = Oracle(driver)
        version = oracle.call("version")
        if version != MAPLIBRE_VERSION:
            sys.exit(f"the bundle is MapLibre GL JS {version}, expected {MAPLIBRE_VERSION}")
        yield oracle
    finally:
        if driver is not None:
            driver.quit()
        server.shutdown()
        server.server_close()


# ---------------------------------------------------------------------------
# Requested cameras
# ---------------------------------------------------------------------------

def pick(rng, options):
    """options: list of (weight, value-or-callable)."""
    r = rng.random() * sum(w for w, _ in options)
    for w, v in options:
        r -= w
        if r < 0:
            return v() if callable(v) else v
    v = options[-1][1]
    return v() if callable(v) else v


def request_padding(rng, width, height):
    kind = rng.random()
    if kind < 0.80:
        return {"top": 0, "left": 0, "bottom": 0, "right": 0}
    if kind < 0.86 and width >= 600:
        return dict(UNEVEN_PADDING)
    return {"top": round(rng.uniform(0, 0.3) * height), "left": round(rng.uniform(0, 0.3) * width),
            "bottom": round(rng.uniform(0, 0.3) * height), "right": round(rng.uniform(0, 0.3) * width)}


def request_camera(rng, projection="mercator"):
    width, height = rng.choice(VIEWPORTS)
    u = rng.uniform
    globe = projection == "globe"
    camera = {
        "lat": u(-85, 85) if globe else u(-80, 80),
        "lon": u(-180, 180),
        # The globe: mostly drawn as one (below zoom 12), some beyond.
        "zoom": pick(rng, [(0.05, 0.0), (0.80, lambda: u(0, GLOBE_MERCATOR_ZOOM)), (0.15, lambda: u(12, 20))])
        if globe else pick(rng, [(0.04, 0.0), (0.02, 20.0), (0.94, lambda: u(0, 20))]),
        "bearing": pick(rng, [(0.1, 0.0), (0.9, lambda: u(0, 360))]),
        "tilt": pick(rng, [(0.08, 0.0), (0.08, 85.0), (0.45, lambda: u(60, 85)), (0.39, lambda: u(0, 60))]),
        "roll": pick(rng, [(0.15, 0.0), (0.02, 180.0), (0.02, -180.0), (0.81, lambda: u(-180, 180))]),
        "elevation": pick(rng, [(0.2, 0.0), (0.8, lambda: u(0, 4000))]),
        "fov": pick(rng, [(0.5, DEFAULT_FOV), (0.03, 1.0), (0.03, 60.0), (0.44, lambda: u(1, 60))]),
        "padding": request_padding(rng, width, height),
    }
    return {"width": width, "height": height}, camera


# ---------------------------------------------------------------------------
# Points
# ---------------------------------------------------------------------------

def jitter(rng, lon, lat, world_size):
    """Moves a geo point by up to 2 world pixels in each direction."""
    deg = 360.0 / world_size
    return (lon + rng.uniform(-2, 2) * deg,
            lat + rng.uniform(-2, 2) * deg * math.cos(math.radians(lat)))


def drawn_samples(oracle, rng, viewport, world_size, count):
    """Ground points MapLibre draws: unprojected random screen points inside its near/far planes."""
    points = []
    for _ in range(60):
        if len(points) == count:
            break
        x = rng.uniform(0.05, 0.95) * viewport["width"]
        y = rng.uniform(0.05, 0.95) * viewport["height"]
        hit = oracle.unproject(x, y)
        if hit is None or abs(hit["lat"]) > MAX_LAT - 0.5:
            continue
        lon, lat = jitter(rng, hit["lon"], hit["lat"], world_size)
        if oracle.call("drawnDepth", lon, lat) and oracle.project(lon, lat) is not None:
            points.append((lon, lat))
    return points


def ground_along(oracle, metres, null_wanted):
    """A ground point along the bearing from under the camera (metres < 0: behind it), shrunk
    until it stays within MAX_LAT and half a world; for null_wanted grown until it projects null."""
    for _ in range(12):
        p = oracle.call("alongBearing", metres)
        inside = abs(p["lat"]) <= MAX_LAT and abs(p["offset"]) <= 0.45
        if not inside:
            if null_wanted:
                return None
            metres /= 2
            continue
        if not null_wanted or oracle.project(p["lon"], p["lat"]) is None:
            return p["lon"], p["lat"]
        metres *= 2
    return None


def special_points(oracle, rng, camera, info):
    """A far point ahead near the horizon, and one behind the camera when there is one."""
    h = info["cameraAltitude"]
    depression = math.radians(rng.uniform(0.5, 3.0))
    points = [ground_along(oracle, h / math.tan(depression), null_wanted=False)]
    pitch = math.radians(camera["tilt"])
    if pitch > 0:
        plane = h / math.tan(pitch)  # the camera plane meets the ground this far behind the camera
        points.append(ground_along(oracle, -(1.3 * plane + 0.3 * h), null_wanted=True))
    return [p for p in points if p is not None]


def project_entries(oracle, rng, viewport, camera, info):
    geos = [(camera["lon"], camera["lat"])]
    specials = special_points(oracle, rng, camera, info)
    count = SCREEN_SAMPLES + (2 - len(specials))  # keep about 8 points per case
    geos += drawn_samples(oracle, rng, viewport, info["worldSize"], count)
    geos += specials
    entries = []
    for lon, lat in geos:
        lon = near_lon(lon, camera["lon"])
        view = oracle.project(lon, lat)
        entries.append({"geo": {"lat": lat, "lon": lon},
                        "view": None if view is None else {"x": view["x"], "y": view["y"]}})
    return entries


def principal_point(viewport, padding):
    return ((viewport["width"] + padding["left"] - padding["right"]) / 2,
            (viewport["height"] + padding["top"] - padding["bottom"]) / 2)


def inside(viewport, x, y):
    return 0 <= x <= viewport["width"] and 0 <= y <= viewport["height"]


def horizon_line(m):
    """The horizon in view pixels, (a, b, c) with a x + b y + c = 0: the line through the images
    of the ground's directions (1, 0, 0, 0) and (0, 1, 0, 0) under the column-major matrix m."""
    h1 = (m[0], m[1], m[3])
    h2 = (m[4], m[5], m[7])
    return (h1[1] * h2[2] - h1[2] * h2[1], h1[2] * h2[0] - h1[0] * h2[2], h1[0] * h2[1] - h1[1] * h2[0])


def clip_line(foot, direction, viewport):
    """The parameter interval [t0, t1] of foot + t direction inside the viewport, or None."""
    t0, t1 = -math.inf, math.inf
    for p, d, size in ((foot[0], direction[0], viewport["width"]), (foot[1], direction[1], viewport["height"])):
        if abs(d) < 1e-12:
            if not 0 <= p <= size:
                return None
            continue
        a, b = sorted(((0 - p) / d, (size - p) / d))
        t0, t1 = max(t0, a), min(t1, b)
    return (t0, t1) if t0 <= t1 else None


def horizon_pixels(rng, viewport, padding, matrix):
    """Two pixels `offset` px below and above the horizon point nearest the principal point, or
    a pixel near the top edge when the horizon is not in view."""
    px, py = principal_point(viewport, padding)
    offset = rng.uniform(2, 10)
    top = [(rng.uniform(0.2, 0.8) * viewport["width"], rng.uniform(0.005, 0.03) * viewport["height"])]
    a, b, c = horizon_line(matrix)
    norm = math.hypot(a, b)
    if norm < 1e-12 * max(1.0, abs(c)):
        return top  # pitch 0: the horizon is at infinity
    s = (a * px + b * py + c) / norm ** 2
    foot = (px - s * a, py - s * b)
    normal = (-s * a / abs(s * norm), -s * b / abs(s * norm))  # from the principal point (ground) to the sky
    direction = (-b / norm, a / norm)
    span = clip_line(foot, direction, viewport)
    if span is None:
        return top
    t = min(max(0.0, span[0]), span[1])
    hx, hy = foot[0] + t * direction[0], foot[1] + t * direction[1]
    pixels = [(hx - offset * normal[0], hy - offset * normal[1]), (hx + offset * normal[0], hy + offset * normal[1])]
    return [p for p in pixels if inside(viewport, *p)] or top


def unproject_entries(oracle, rng, viewport, camera, matrix):
    px, py = principal_point(viewport, camera["padding"])
    pixels = [(x, y) for y in (0, py, viewport["height"]) for x in (0, px, viewport["width"])]
    pixels += horizon_pixels(rng, viewport, camera["padding"], matrix)
    entries = []
    for x, y in pixels:
        x, y = float(x), float(y)
        hit = oracle.unproject(x, y)
        entries.append({"view": {"x": x, "y": y},
                        "geo": None if hit is None else {"lat": hit["lat"], "lon": wrap_lon(hit["lon"])}})
    return entries


# ---------------------------------------------------------------------------
# Bookkeeping: what jumpTo changed, cross-checks
# ---------------------------------------------------------------------------

class Stats:
    def __init__(self):
        self.changed = {}  # field -> {"tiny": n, "wrapped": n, "changed": n, "examples": [...]}
        self.order_mismatch = 0
        self.cross = {"via_pixelMatrix": 0.0, "via_inverse": 0.0, "map_project": 0.0, "map_project_elev0": 0.0}

    def note_readback(self, name, requested, got):
        for field in ("lat", "lon", "zoom", "bearing", "tilt", "roll", "elevation", "fov"):
            a, b = requested[field], got[field]
            if a == b:
                continue
            d = self.changed.setdefault(field, {"tiny": 0, "wrapped": 0, "changed": 0, "examples": []})
            if abs(a - b) <= 1e-9 * max(1.0, abs(a)):
                d["tiny"] += 1
            elif field in ("bearing", "lon") and abs(wrap_lon(a - b)) <= 1e-9 * max(1.0, abs(a)):
                d["wrapped"] += 1
            else:
                d["changed"] += 1
                if len(d["examples"]) < 3:
                    d["examples"].append((name, a, b))
        if requested["padding"] != got["padding"]:
            d = self.changed.setdefault("padding", {"tiny": 0, "wrapped": 0, "changed": 0, "examples": []})
            d["changed"] += 1

    def cross_check(self, oracle, case):
        """Compares the file's pixels with MapLibre's own code paths (see the page's crossCheck)."""
        viewport, elevation = case["viewport"], case["camera"]["elevation"]
        for e in case["project"]:
            if e["view"] is None:
                continue
            g, v = e["geo"], e["view"]
            c = oracle.call("crossCheck", g["lon"], g["lat"], None, None)
            self._max("via_pixelMatrix", dist(v, c["viaPixelMatrix"]))
            if inside(viewport, v["x"], v["y"]):
                self._max("map_project" if elevation else "map_project_elev0", dist(v, c["mapProject"]))
        for e in case["unproject"]:
            if e["geo"] is None:
                continue
            v = e["view"]
            c = oracle.call("crossCheck", None, None, v["x"], v["y"])
            self._max("via_inverse", dist(v, c["viaInversePixel"]))

    def _max(self, key, value):
        self.cross[key] = max(self.cross[key], value)


def dist(a, b):
    return math.hypot(a["x"] - b["x"], a["y"] - b["y"])


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

def make_case(oracle, stats, projection, seed, index):
    rng = case_rng(seed, index)
    name = f"c{index:03d}"
    viewport, requested = request_camera(rng, projection)
    other = oracle.set_camera(viewport, requested, True)
    state = oracle.set_camera(viewport, requested, False)
    if other["camera"] != state["camera"] or other.get("pixelMatrix3D") != state.get("pixelMatrix3D"):
        stats.order_mismatch += 1
    camera = state["camera"]
    stats.note_readback(name, requested, camera)
    if state["globe"]:
        return make_globe_case(oracle, rng, name, viewport, camera)
    info = oracle.call("cameraInfo")
    case = {"name": name, "viewport": viewport, "camera": camera,
            "project": project_entries(oracle, rng, viewport, camera, info),
            "unproject": unproject_entries(oracle, rng, viewport, camera, state["pixelMatrix3D"])}
    if projection == "globe":
        case["globe"] = False
    stats.cross_check(oracle, case)
    return case


# ---------------------------------------------------------------------------
# Globe cases (MapLibre's vertical perspective transform, below zoom 12)
# ---------------------------------------------------------------------------

LIMB_STEPS = 40  # bisection steps for the limb along a ray from the principal point


def make_globe_case(oracle, rng, name, viewport, camera):
    case = {"name": name, "viewport": viewport, "camera": camera, "globe": True,
            "project": globe_project_entries(oracle, rng, viewport, camera),
            "unproject": globe_unproject_entries(oracle, rng, viewport, camera)}
    b = oracle.call("globeBounds")
    case["bounds"] = {k: b[k] for k in ("south", "west", "north", "east")}
    case["corners"] = b["corners"]
    return case


def globe_visible(oracle, lon, lat):
    """The view pixel of a sphere point, or None when the globe hides it or it is behind the eye."""
    p = oracle.call("globeProject", lon, lat)
    if p["occluded"] or p["w"] <= 0:
        return None
    return {"x": p["x"], "y": p["y"]}


def globe_radius_px(camera):
    """The globe's radius in view pixels at the centre (MapLibre's getGlobeRadiusPixels)."""
    return 512 * 2 ** camera["zoom"] / (2 * math.pi) / math.cos(math.radians(camera["lat"]))


def limb_pixels(oracle, rng, viewport, camera):
    """Two pixels a few px inside and outside the globe's limb, along a ray from the principal
    point in a random direction; None when no direction tried meets the limb inside the view."""
    px, py = principal_point(viewport, camera["padding"])
    offset = rng.uniform(2, 10)
    for _ in range(8):
        angle = rng.uniform(0, 2 * math.pi)
        d = (math.cos(angle), math.sin(angle))
        span = clip_line((px, py), d, viewport)
        if span is None or span[1] <= 0:
            continue
        end = span[1]
        if oracle.call("globeUnproject", px + end * d[0], py + end * d[1]) is not None:
            continue  # the globe reaches the edge of the view this way
        lo, hi = 0.0, end
        for _ in range(LIMB_STEPS):
            mid = (lo + hi) / 2
            if oracle.call("globeUnproject", px + mid * d[0], py + mid * d[1]) is None:
                hi = mid
            else:
                lo = mid
        pixels = [(px + (lo - offset) * d[0], py + (lo - offset) * d[1]),
                  (px + (hi + offset) * d[0], py + (hi + offset) * d[1])]
        pixels = [p for p in pixels if inside(viewport, *p)]
        if len(pixels) == 2:
            return pixels
    return None


def globe_project_entries(oracle, rng, viewport, camera):
    radius = globe_radius_px(camera)
    geos = [(camera["lon"], camera["lat"])]
    for _ in range(60):
        if len(geos) == 1 + SCREEN_SAMPLES:
            break
        hit = oracle.call("globeUnproject", rng.uniform(0.05, 0.95) * viewport["width"],
                          rng.uniform(0.05, 0.95) * viewport["height"])
        if hit is None:
            continue
        lat = hit["lat"] + math.degrees(rng.uniform(-2, 2) / radius)
        lon = hit["lon"] + math.degrees(rng.uniform(-2, 2) / radius / max(0.05, math.cos(math.radians(hit["lat"]))))
        if abs(lat) < 89.9 and globe_visible(oracle, lon, lat) is not None:
            geos.append((lon, lat))
    limb = limb_pixels(oracle, rng, viewport, camera)
    if limb is not None:
        near = oracle.call("globeUnproject", *limb[0])
        if near is not None:
            geos.append((near["lon"], near["lat"]))
    geos.append((camera["lon"] + 180, -camera["lat"]))  # the antipode: behind the globe
    entries = []
    for lon, lat in geos:
        lon = near_lon(lon, camera["lon"])
        entries.append({"geo": {"lat": lat, "lon": lon}, "view": globe_visible(oracle, lon, lat)})
    return entries


def globe_unproject_entries(oracle, rng, viewport, camera):
    px, py = principal_point(viewport, camera["padding"])
    pixels = [(x, y) for y in (0, py, viewport["height"]) for x in (0, px, viewport["width"])]
    pixels += limb_pixels(oracle, rng, viewport, camera) or [
        (rng.uniform(0.2, 0.8) * viewport["width"], rng.uniform(0.005, 0.03) * viewport["height"])]
    entries = []
    for x, y in pixels:
        x, y = float(x), float(y)
        hit = oracle.call("globeUnproject", x, y)
        entries.append({"view": {"x": x, "y": y},
                        "geo": None if hit is None else {"lat": hit["lat"], "lon": wrap_lon(hit["lon"])}})
    return entries


def to_json(document):
    """The document as JSON with one case per four lines (header, camera, project, unproject);
    floats keep their shortest round-trip form (full double precision)."""
    def dumps(value):
        return json.dumps(value, ensure_ascii=False)

    head = {k: v for k, v in document.items() if k != "cases"}
    lines = ["{" + dumps(head)[1:-1] + ",", ' "cases": [']
    for i, case in enumerate(document["cases"]):
        end = "," if i + 1 < len(document["cases"]) else ""
        lines.append(f'  {{"name": {dumps(case["name"])}, "viewport": {dumps(case["viewport"])},')
        lines.append(f'   "camera": {dumps(case["camera"])},')
        if "globe" in case:
            lines.append(f'   "globe": {dumps(case["globe"])},')
        lines.append(f'   "project": {dumps(case["project"])},')
        if "bounds" in case:
            lines.append(f'   "bounds": {dumps(case["bounds"])}, "corners": {dumps(case["corners"])},')
        lines.append(f'   "unproject": {dumps(case["unproject"])}}}{end}')
    lines.append(" ]}")
    return "\n".join(lines) + "\n"


def count_points(cases):
    n_project = sum(len(c["project"]) for c in cases)
    n_unproject = sum(len(c["unproject"]) for c in cases)
    null_project = sum(e["view"] is None for c in cases for e in c["project"])
    null_unproject = sum(e["geo"] is None for c in cases for e in c["unproject"])
    return n_project, null_project, n_unproject, null_unproject


# ---------------------------------------------------------------------------
# Render verification
# ---------------------------------------------------------------------------

def verify_render(oracle, cases):
    """Renders red dots for project points of steep, rolled, elevated cases; returns rows."""
    chosen = [c for c in cases if c["camera"]["elevation"] > 0 and c["camera"]["roll"] != 0
              and c["camera"]["tilt"] >= 60][:VERIFY_CASES]
    rows = []
    for case in chosen:
        vp, cam = case["viewport"], case["camera"]
        state = oracle.set_camera(vp, cam)
        points = [e for e in case["project"] if e["view"] is not None
                  and 12 <= e["view"]["x"] <= vp["width"] - 12 and 12 <= e["view"]["y"] <= vp["height"] - 12]
        for e in points[:VERIFY_POINTS]:
            g = e["geo"]
            seen = oracle.render_dot(g["lon"], g["lat"])
            after = oracle.call("readCamera")
            public = oracle.call("crossCheck", g["lon"], g["lat"], None, None)["mapProject"]
            rows.append({"case": case["name"], "camera": cam, "geo": g, "matrix3D": e["view"],
                         "rendered": seen, "mapProject": public,
                         "camera_unchanged": after == state["camera"]})
    return rows


def report_render(rows):
    print("\nrender verification (red circle centroid vs _pixelMatrix3D vs map.project):")
    worst_3d = worst_pub = 0.0
    for r in rows:
        c, seen = r["camera"], r["rendered"]
        if seen is None:
            print(f"  {r['case']}: no red pixels found")
            continue
        d3 = dist(seen, r["matrix3D"])
        dp = dist(seen, r["mapProject"])
        worst_3d, worst_pub = max(worst_3d, d3), max(worst_pub, dp)
        print(f"  {r['case']} z={c['zoom']:.2f} tilt={c['tilt']:.1f} roll={c['roll']:.1f} "
              f"elev={c['elevation']:.0f} m: rendered ({seen['x']:.2f}, {seen['y']:.2f}) "
              f"3D ({r['matrix3D']['x']:.2f}, {r['matrix3D']['y']:.2f}) d={d3:.3f} px | "
              f"map.project d={dp:.1f} px | camera kept: {r['camera_unchanged']}")
    print(f"  worst: pixelMatrix3D {worst_3d:.3f} px, map.project {worst_pub:.1f} px over {len(rows)} dots")


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def report(cases, stats, seconds):
    n_p, null_p, n_u, null_u = count_points(cases)
    print(f"{len(cases)} cases, {n_p} project points ({null_p} null), "
          f"{n_u} unproject points ({null_u} null), {seconds:.1f} s")
    print(f"jumpTo/setVerticalFieldOfView order: {stats.order_mismatch} cases differ")
    print("read back vs requested (tiny = within 1e-9 relative; wrapped = +-360):")
    for field, d in sorted(stats.changed.items()):
        print(f"  {field}: tiny {d['tiny']}, wrapped {d['wrapped']}, changed {d['changed']} "
              f"e.g. {d['examples']}")
    c = stats.cross
    print(f"cross-checks, max px: _pixelMatrix at z=-elevation {c['via_pixelMatrix']:.2e}, "
          f"screenPointToMercatorCoordinateAtZ(-elevation) re-projected {c['via_inverse']:.2e}; "
          f"map.project for in-view points: elevation 0 {c['map_project_elev0']:.2e}, "
          f"elevation > 0 {c['map_project']:.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--projection", choices=sorted(PROJECTIONS), default="mercator")
    parser.add_argument("--out", type=Path, help="default: Tests/Vectors/maplibre_<projection>.json")
    parser.add_argument("--verify-render", action="store_true",
                        help="also render red dots and compare their centroids (slower)")
    args = parser.parse_args()
    started = time.monotonic()
    with maplibre_oracle() as oracle:
        default_out, seed, count = PROJECTIONS[args.projection]
        out = args.out or default_out
        oracle.call("setProjection", args.projection)
        stats = Stats()
        cases = [make_case(oracle, stats, args.projection, seed, i) for i in range(count)]
        description = DESCRIPTION if args.projection == "mercator" else GLOBE_DESCRIPTION
        document = {"description": description, "maplibre": MAPLIBRE_VERSION, "projection": args.projection,
                    "cases": cases}
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(to_json(document))
        report(cases, stats, time.monotonic() - started)
        print(f"wrote {out}")
        if args.verify_render:
            started = time.monotonic()
            report_render(verify_render(oracle, cases))
            print(f"render verification took {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
