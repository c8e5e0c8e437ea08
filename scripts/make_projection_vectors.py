#!/usr/bin/env python3
"""Make Tests/Vectors/projection.json: shared projection test vectors.

The expected values come from a re-implementation of MapLibre GL JS's
mercator transform as explicit 4x4 matrices in numpy (float64), NOT from the
closed-form formulas used by clients/js/src/geo/projection.js or the Swift core:

    M = P(fov, aspect, near, far, principal point) * S(1, -1, 1)
        * T(0, 0, -d) * Rx(tilt) * Rz(-bearing) * T(-targetX, -targetY, 0)

where (targetX, targetY) is the map centre in Web Mercator world pixels
(512 * 2^zoom per world) -- the ground point at the principal point, placed as
MapLibre's setLocationAtPoint places it so that the camera target is drawn at
its anchor -- d = (H/2) / tan(fov/2) = 1.5 H, and P is gl-matrix's
`perspective` with the centre-of-perspective offset written into m[8], m[9]
exactly as MapLibre does for padding.  Projection: clip = M * p,
NDC = clip.xyz / clip.w (null when clip.w <= 0: behind the camera plane),
pixel = ((ndc.x + 1) W / 2, (1 - ndc.y) H / 2).  Unprojection: two NDC points
(z = -1 and z = +1) of the pixel are mapped through inverse(M), the ray
through them is intersected with the plane z = 0; null when the ray is
parallel to the plane or the hit lies behind the camera (above the horizon).

Conventions (see also the "description" field written into the JSON):
- Forward projection clamps latitude to +-85.051129 and uses the copy of the
  point's longitude (+-360 k) nearest to the camera target's longitude.
- Unprojection does not clamp latitude (inverse Mercator of any y, so points
  beyond the top/bottom edge of the world give |lat| > 85.05) and wraps
  longitude into [-180, 180).

Running it twice produces the same file (no randomness, no timestamps).
Usage: python3 scripts/make_projection_vectors.py [output-path]
"""
import json
import math
import os
import sys

import numpy as np

TILE_SIZE = 512.0
MAX_LAT = 85.051129
FOV = 2.0 * math.atan(1.0 / 3.0)  # vertical field of view, radians (~36.87 deg)

# ----------------------------------------------------------------------------
# Mercator (the shared definition) and longitude helpers
# ----------------------------------------------------------------------------

def world_size(zoom):
    return TILE_SIZE * 2.0 ** zoom


def merc_x(lon, ws):
    return (lon + 180.0) / 360.0 * ws


def merc_y(lat, ws):
    lat = max(-MAX_LAT, min(MAX_LAT, lat))
    return (180.0 - (180.0 / math.pi) * math.log(math.tan(math.pi / 4 + lat * math.pi / 360.0))) / 360.0 * ws


def inv_merc_lon(x, ws):
    return x / ws * 360.0 - 180.0


def inv_merc_lat(y, ws):
    y2 = 180.0 - y / ws * 360.0
    return 360.0 / math.pi * math.atan(math.exp(y2 * math.pi / 180.0)) - 90.0


def wrap_lon(lon):
    w = math.fmod(lon + 180.0, 360.0)
    if w < 0:
        w += 360.0
    if w >= 360.0:
        return -180.0
    return w - 180.0


def nearest_lon(lon, ref):
    d = math.fmod(lon - ref, 360.0)
    if d > 180.0:
        d -= 360.0
    elif d <= -180.0:
        d += 360.0
    return ref + d


# ----------------------------------------------------------------------------
# gl-matrix style 4x4 operations (numpy arrays, row-major M[row, col];
# gl-matrix's column-major m[i] is M[i % 4, i // 4]).  "mat4.op(m, m, v)"
# right-multiplies: m = m * Op(v).
# ----------------------------------------------------------------------------

def perspective(fovy, aspect, near, far):
    f = 1.0 / math.tan(fovy / 2.0)
    m = np.zeros((4, 4))
    m[0, 0] = f / aspect
    m[1, 1] = f
    m[2, 2] = (far + near) / (near - far)
    m[3, 2] = -1.0
    m[2, 3] = 2.0 * far * near / (near - far)
    return m


def scale(m, v):
    return m @ np.diag([v[0], v[1], v[2], 1.0])


def translate(m, v):
    t = np.identity(4)
    t[0:3, 3] = v
    return m @ t


def rotate_x(m, rad):
    c, s = math.cos(rad), math.sin(rad)
    r = np.identity(4)
    r[1, 1], r[1, 2] = c, -s
    r[2, 1], r[2, 2] = s, c
    return m @ r


def rotate_z(m, rad):
    c, s = math.cos(rad), math.sin(rad)
    r = np.identity(4)
    r[0, 0], r[0, 1] = c, -s
    r[1, 0], r[1, 1] = s, c
    return m @ r


def padding_of(cam):
    p = cam.get("padding") or {}
    return (float(p.get("top", 0.0)), float(p.get("left", 0.0)), float(p.get("bottom", 0.0)), float(p.get("right", 0.0)))


def principal_point(cam, vp):
    """The centre of perspective: MapLibre's EdgeInsets.getCenter -- the centre of
    the viewport less the padding, clamped into the viewport."""
    W, H = float(vp["width"]), float(vp["height"])
    top, left, bottom, right = padding_of(cam)
    x = min(max((left + W - right) / 2.0, 0.0), W)
    y = min(max((top + H - bottom) / 2.0, 0.0), H)
    return x, y


def matrix_at(cam, vp, cx, cy):
    """MapLibre's projMatrix (mercator_transform._calcMatrices) with its map centre at
    world pixels (cx, cy)."""
    W, H = float(vp["width"]), float(vp["height"])
    d = 0.5 / math.tan(FOV / 2.0) * H  # cameraToCenterDistance
    px, py = principal_point(cam, vp)
    offset_x = px - W / 2.0  # centre offset (MapLibre: centerOffset from padding)
    offset_y = py - H / 2.0
    near, far = d / 100.0, d * 1000.0  # generous; the math below never clips
    m = perspective(FOV, W / H, near, far)
    m[0, 2] = -offset_x * 2.0 / W  # m[8]
    m[1, 2] = offset_y * 2.0 / H  # m[9]
    m = scale(m, (1.0, -1.0, 1.0))
    m = translate(m, (0.0, 0.0, -d))
    m = rotate_x(m, math.radians(cam["tilt"]))
    m = rotate_z(m, -math.radians(cam["bearing"]))  # bearing clockwise from north
    m = translate(m, (-cx, -cy, 0.0))
    return m


def ground_hit(m, vp, view):
    """World pixels (x, y) where the ray through view pixel `view` meets z = 0, or None."""
    W, H = float(vp["width"]), float(vp["height"])
    inv = np.linalg.inv(m)
    nx = 2.0 * view["x"] / W - 1.0
    ny = 1.0 - 2.0 * view["y"] / H
    p0 = inv @ np.array([nx, ny, -1.0, 1.0])
    p1 = inv @ np.array([nx, ny, 1.0, 1.0])
    p0 = p0[:3] / p0[3]  # on the near plane
    p1 = p1[:3] / p1[3]  # on the far plane
    dz = p0[2] - p1[2]
    if dz == 0.0:
        return None  # ray parallel to the ground
    s = p0[2] / dz
    # The near plane is much closer to the camera than the ground can be
    # (camera height >= d cos 85deg), so a hit in front of the camera has s > 0.
    if s <= 0.0:
        return None  # the ray meets z = 0 behind the camera: at/above the horizon
    hit = p0 + s * (p1 - p0)
    return float(hit[0]), float(hit[1])


def anchor_point(cam, vp):
    """Where the target is drawn (HERE's target anchor point), kept below 85 % of the
    way from the principal point to the horizon."""
    W, H = float(vp["width"]), float(vp["height"])
    px, py = principal_point(cam, vp)
    top, left, bottom, right = padding_of(cam)
    # A fraction of the padded area (of the whole viewport without padding).
    x = px + (cam["anchor"]["x"] - 0.5) * max(0.0, W - left - right)
    y = py + (cam["anchor"]["y"] - 0.5) * max(0.0, H - top - bottom)
    t = math.radians(cam["tilt"])
    if math.sin(t) > 1e-12:
        d = 0.5 / math.tan(FOV / 2.0) * H
        y = max(y, py - 0.85 * d * math.cos(t) / math.sin(t))
    return x, y


def camera_matrix(cam, vp):
    """The matrix of a camera whose target is drawn at its anchor: MapLibre's
    setLocationAtPoint(target, anchor point) on a map centred on the target, i.e.
    the map centre is moved by the ground offset between the anchor point and the
    principal point."""
    ws = world_size(cam["zoom"])
    tx = merc_x(cam["lon"], ws)
    ty = merc_y(cam["lat"], ws)
    at_target = matrix_at(cam, vp, tx, ty)
    ax, ay = anchor_point(cam, vp)
    px, py = principal_point(cam, vp)
    a = ground_hit(at_target, vp, {"x": ax, "y": ay})
    b = ground_hit(at_target, vp, {"x": px, "y": py})
    return matrix_at(cam, vp, tx - (a[0] - b[0]), ty - (a[1] - b[1]))


def matrix_project(cam, vp, geo):
    ws = world_size(cam["zoom"])
    lon = nearest_lon(geo["lon"], cam["lon"])
    p = np.array([merc_x(lon, ws), merc_y(geo["lat"], ws), 0.0, 1.0])
    c = camera_matrix(cam, vp) @ p
    if c[3] <= 0.0:
        return None  # on or behind the camera plane
    nx, ny = c[0] / c[3], c[1] / c[3]
    W, H = float(vp["width"]), float(vp["height"])
    return {"x": float((nx + 1.0) * W / 2.0), "y": float((1.0 - ny) * H / 2.0)}


def matrix_unproject(cam, vp, view):
    hit = ground_hit(camera_matrix(cam, vp), vp, view)
    if hit is None:
        return None
    ws = world_size(cam["zoom"])
    return {"lat": float(inv_merc_lat(hit[1], ws)), "lon": float(wrap_lon(inv_merc_lon(hit[0], ws)))}


# ----------------------------------------------------------------------------
# Independent hand computations (sanity checks of the matrix pipeline)
# ----------------------------------------------------------------------------

def close(a, b, tol):
    return abs(a - b) <= tol


def check_hand_computations():
    d720 = 1.5 * 720
    # 1. tilt 0, bearing 0, centred: view = (W/2 + dx, H/2 + dy) in world pixels.
    cam = camera(48.8566, 2.3522, 12, 0, 0)
    vp = {"width": 1280, "height": 720}
    geo = {"lat": 48.87, "lon": 2.30}
    ws = world_size(12)
    dx = merc_x(2.30, ws) - merc_x(2.3522, ws)
    dy = merc_y(48.87, ws) - merc_y(48.8566, ws)
    v = matrix_project(cam, vp, geo)
    assert close(v["x"], 640 + dx, 1e-7) and close(v["y"], 360 + dy, 1e-7), (v, dx, dy)

    # 2. tilt 0, bearing 0, anchor (0.2, 0.3): target drawn at (0.2 W, 0.3 H).
    cam = camera(35.6762, 139.6503, 3.5, 0, 0, 0.2, 0.3)
    vp = {"width": 800, "height": 600}
    geo = {"lat": 20.0, "lon": 150.0}
    ws = world_size(3.5)
    dx = merc_x(150.0, ws) - merc_x(139.6503, ws)
    dy = merc_y(20.0, ws) - merc_y(35.6762, ws)
    v = matrix_project(cam, vp, geo)
    assert close(v["x"], 160 + dx, 1e-7) and close(v["y"], 180 + dy, 1e-7), (v, dx, dy)

    # 3. tilt 0, bearing 90: east points up, so a point east by D px is D px above.
    cam = camera(0, 0, 5, 90, 0)
    geo = {"lat": 0.0, "lon": 1.0}
    ws = world_size(5)
    D = merc_x(1.0, ws) - merc_x(0.0, ws)
    v = matrix_project(cam, {"width": 1280, "height": 720}, geo)
    assert close(v["x"], 640, 1e-7) and close(v["y"], 360 - D, 1e-7), (v, D)

    # 4. tilt t, bearing 0: a point D world px due north of the target lies on the
    #    vertical centre line, D*cos(t) above the target in the tilted ground
    #    plane and D*sin(t) further from the eye: y = H/2 - d D cos t / (d + D sin t).
    t = math.radians(60)
    cam = camera(10, 20, 4, 0, 60)
    geo = {"lat": 14.0, "lon": 20.0}
    ws = world_size(4)
    D = merc_y(10, ws) - merc_y(14, ws)
    v = matrix_project(cam, {"width": 1280, "height": 720}, geo)
    expect_y = 360 - d720 * D * math.cos(t) / (d720 + D * math.sin(t))
    assert close(v["x"], 640, 1e-7) and close(v["y"], expect_y, 1e-7), (v, expect_y)

    # 5. The horizon of a tilted camera is at y = H/2 - d cot(t).
    for tilt in (75, 85):
        cam = camera(0, 0, 6, 0, tilt)
        vp = {"width": 1280, "height": 720}
        yh = 360 - d720 / math.tan(math.radians(tilt))
        assert matrix_unproject(cam, vp, {"x": 640, "y": yh - 1.0}) is None
        assert matrix_unproject(cam, vp, {"x": 640, "y": yh + 1.0}) is not None

    # 6. The target is drawn at the anchor at any tilt and bearing, and the
    #    horizon stays where the view centre puts it (y = H/2 - d cot t).
    vp = {"width": 1280, "height": 720}
    for tilt, bearing, ax, ay in ((0, 0, 0.2, 0.3), (45, 30, 0.5, 0.8), (60, 271.5, 0.2, 0.7)):
        cam = camera(52.52, 13.405, 14, bearing, tilt, ax, ay)
        v = matrix_project(cam, vp, {"lat": 52.52, "lon": 13.405})
        assert close(v["x"], ax * 1280, 1e-6) and close(v["y"], ay * 720, 1e-6), (v, ax, ay)
        if tilt:
            yh = 360 - d720 / math.tan(math.radians(tilt))
            assert matrix_unproject(cam, vp, {"x": 640, "y": yh - 1.0}) is None
            assert matrix_unproject(cam, vp, {"x": 640, "y": yh + 1.0}) is not None

    # 7. Padding (MapLibre): the target is drawn at the centre of the padded area,
    #    and the horizon moves with it (y = padded centre - d cot t).
    cam = camera(52.52, 13.405, 14, 30, 45, padding=(100, 300, 20, 0))
    v = matrix_project(cam, vp, {"lat": 52.52, "lon": 13.405})
    assert close(v["x"], (300 + 1280) / 2.0, 1e-6) and close(v["y"], (100 + 720 - 20) / 2.0, 1e-6), v
    yh = (100 + 720 - 20) / 2.0 - d720 / math.tan(math.radians(45))
    assert matrix_unproject(cam, vp, {"x": 640, "y": yh - 1.0}) is None
    assert matrix_unproject(cam, vp, {"x": 640, "y": yh + 1.0}) is not None

    # 8. Unproject inverts project.
    cam = camera(-33.8688, 151.2093, 12, 271.5, 60, 0.5, 0.8)
    vp = {"width": 375, "height": 812}
    g = matrix_unproject(cam, vp, {"x": 100, "y": 500})
    v = matrix_project(cam, vp, g)
    assert close(v["x"], 100, 1e-6) and close(v["y"], 500, 1e-6), v


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

def camera(lat, lon, zoom, bearing, tilt, ax=0.5, ay=0.5, padding=None):
    cam = {"lat": lat, "lon": lon, "zoom": zoom, "bearing": bearing, "tilt": tilt,
           "anchor": {"x": ax, "y": ay}}
    if padding is not None:
        top, left, bottom, right = padding
        cam["padding"] = {"top": top, "left": left, "bottom": bottom, "right": right}
    return cam


VP_WIDE = {"width": 1280, "height": 720}
VP_4_3 = {"width": 800, "height": 600}
VP_PHONE = {"width": 375, "height": 812}

# (name, camera, viewport, [geo points])
# Point offsets are multiples of the span of one screen width in degrees so
# most points are on or near the screen.
def span(zoom, vp):
    return 360.0 / world_size(zoom) * vp["width"]


def around(cam, vp, fractions):
    s = span(cam["zoom"], vp)
    pts = []
    for fx, fy in fractions:
        lat = max(-89.0, min(89.0, cam["lat"] + fy * s * math.cos(math.radians(cam["lat"]))))
        pts.append({"lat": round(lat, 9), "lon": round(cam["lon"] + fx * s, 9)})
    return pts


STD = [(0.0, 0.0), (0.3, 0.2), (-0.4, -0.1), (0.1, -0.3), (-0.2, 0.35)]

PROJECTION_SETS = [
    # flat views, bearings 0 / 180 / 359
    ("flat_z3.5_b0", camera(20.0, 10.0, 3.5, 0, 0), VP_WIDE, STD),
    ("flat_z12_b180", camera(40.7128, -74.006, 12, 180, 0), VP_4_3, STD),
    ("flat_z18.7_b359", camera(51.5007, -0.1246, 18.7, 359, 0), VP_PHONE, STD),
    ("flat_z0_b0", camera(0.0, 0.0, 0, 0, 0), VP_WIDE, [(0.1, 0.05), (-0.15, -0.1)]),
    ("flat_z0_b90_anchor", camera(30.0, -60.0, 0, 90, 0, 0.2, 0.3), VP_4_3, [(0.05, 0.02), (-0.1, -0.04)]),
    # tilt 30
    ("t30_z12_b0", camera(48.8566, 2.3522, 12, 0, 30), VP_WIDE, STD),  # Paris
    ("t30_z3.5_b180_anchor", camera(-10.0, 30.0, 3.5, 180, 30, 0.5, 0.8), VP_4_3, STD),
    ("t30_z18.7_b90", camera(35.6586, 139.7454, 18.7, 90, 30), VP_PHONE, STD),  # Tokyo Tower
    # tilt 60
    ("t60_z12_b359", camera(-33.8568, 151.2153, 12, 359, 60), VP_PHONE, STD),  # Sydney Opera House
    ("t60_z3.5_b271.5_anchor", camera(60.0, -100.0, 3.5, 271.5, 60, 0.2, 0.3), VP_WIDE, STD),
    ("t60_z18.7_b180", camera(35.6762, 139.6503, 18.7, 180, 60, 0.5, 0.8), VP_4_3, STD),  # Tokyo
    # high tilt: points behind the camera project to null
    ("t75_z3.5_b0", camera(0.0, 0.0, 3.5, 0, 75), VP_WIDE, [(0.0, 0.0), (0.2, 0.1), (0.0, 0.6), (0.0, -1.0)]),
    ("t85_z3.5_b90", camera(10.0, 20.0, 3.5, 90, 85), VP_4_3, [(0.0, 0.0), (0.3, 0.0), (-0.6, 0.0), (-1.3, 0.0)]),
    # padded cameras (MapLibre padding: the centre of perspective moves to the padded centre)
    ("pad_flat_z12_b0", camera(48.8566, 2.3522, 12, 0, 0, padding=(0, 300, 0, 0)), VP_WIDE, STD),
    ("pad_t45_z14_b30", camera(52.52, 13.405, 14, 30, 45, padding=(100, 0, 250, 50)), VP_WIDE, STD),
    ("pad_t60_z16_b200_phone", camera(40.7128, -74.006, 16, 200, 60, padding=(300, 20, 0, 20)), VP_PHONE, STD),
    ("pad_t30_z5_b90_anchor", camera(-33.8688, 151.2093, 5, 90, 30, 0.3, 0.8, padding=(50, 200, 50, 0)), VP_4_3, STD),
]

EXTRA_PROJECTION = [
    # Null Island, real places
    ("null_island_flat", camera(0.0, 0.0, 12, 0, 0), VP_WIDE, {"lat": 0.01, "lon": -0.02}),
    ("null_island_t60_b271.5", camera(0.0, 0.0, 12, 271.5, 60), VP_WIDE, {"lat": -0.02, "lon": 0.03}),
    ("paris_eiffel_from_louvre_t60", camera(48.8606, 2.3376, 14, 250, 60), VP_WIDE, {"lat": 48.8584, "lon": 2.2945}),
    ("tokyo_skytree_t30", camera(35.6812, 139.7671, 12, 30, 30), VP_4_3, {"lat": 35.7101, "lon": 139.8107}),
    ("sydney_harbour_bridge_t60_anchor", camera(-33.8568, 151.2153, 15, 359, 60, 0.5, 0.8), VP_PHONE,
     {"lat": -33.8523, "lon": 151.2108}),
    # antimeridian: camera at 179.9 and point at -179.8 (seen at 180.2), and the reverse
    ("antimeridian_east_flat", camera(0.0, 179.9, 8, 0, 0), VP_WIDE, {"lat": 0.1, "lon": -179.8}),
    ("antimeridian_east_t30_b180", camera(-16.0, 179.9, 8, 180, 30), VP_4_3, {"lat": -16.2, "lon": -179.8}),
    ("antimeridian_east_t60_b359", camera(52.0, 179.9, 8, 359, 60, 0.5, 0.8), VP_PHONE, {"lat": 52.3, "lon": -179.8}),
    ("antimeridian_east_z12", camera(0.0, 179.99, 12, 0, 0), VP_WIDE, {"lat": 0.0, "lon": -179.98}),
    ("antimeridian_west_flat", camera(0.0, -179.8, 8, 0, 0), VP_WIDE, {"lat": -0.1, "lon": 179.9}),
    ("antimeridian_west_t30_b90", camera(65.0, -179.8, 8, 90, 30), VP_4_3, {"lat": 65.1, "lon": 179.9}),
    ("antimeridian_west_t60_b271.5", camera(-45.0, -179.8, 8, 271.5, 60, 0.2, 0.3), VP_WIDE, {"lat": -45.2, "lon": 179.9}),
    ("antimeridian_west_z3.5", camera(0.0, -170.0, 3.5, 0, 0), VP_WIDE, {"lat": 10.0, "lon": 170.0}),
    ("lon_copy_far", camera(0.0, 170.0, 3.5, 0, 30), VP_WIDE, {"lat": 5.0, "lon": -530.0}),  # -530 = 190 - 720
    ("camera_lon_unwrapped", camera(0.0, 190.0, 6, 0, 0), VP_WIDE, {"lat": 0.5, "lon": -169.5}),
    # poles
    ("pole_north_85_flat", camera(84.0, 0.0, 3.5, 0, 0), VP_WIDE, {"lat": 85.0, "lon": 10.0}),
    ("pole_north_80_t30", camera(78.0, 40.0, 3.5, 180, 30), VP_4_3, {"lat": 80.0, "lon": 45.0}),
    ("pole_north_85_t60", camera(82.0, -30.0, 6, 0, 60), VP_PHONE, {"lat": 85.0, "lon": -31.0}),
    ("pole_south_85_flat", camera(-84.0, 100.0, 3.5, 359, 0), VP_WIDE, {"lat": -85.0, "lon": 95.0}),
    ("pole_south_80_t60", camera(-78.0, -120.0, 3.5, 90, 60, 0.5, 0.8), VP_4_3, {"lat": -80.0, "lon": -118.0}),
    ("pole_south_85_t30", camera(-83.0, 0.0, 6, 271.5, 30), VP_PHONE, {"lat": -85.0, "lon": 1.0}),
    ("pole_clamp_lat_88", camera(80.0, 0.0, 2, 0, 0), VP_WIDE, {"lat": 88.0, "lon": 5.0}),
    ("pole_clamp_lat_-89", camera(-80.0, 0.0, 2, 0, 0), VP_WIDE, {"lat": -89.0, "lon": -5.0}),
    # zoom 0 whole world
    ("world_z0_t60", camera(0.0, 0.0, 0, 0, 60), VP_WIDE, {"lat": 40.0, "lon": 90.0}),
    ("world_z0_t30_b180", camera(20.0, 100.0, 0, 180, 30), VP_PHONE, {"lat": -30.0, "lon": 150.0}),
    # behind the camera (far south of a tilted north-looking camera)
    ("behind_t85_b0", camera(0.0, 0.0, 3.5, 0, 85), VP_WIDE, {"lat": -60.0, "lon": 0.0}),
    ("behind_t75_b180", camera(0.0, 0.0, 3.5, 180, 75), VP_WIDE, {"lat": 60.0, "lon": 0.0}),
    ("behind_t85_b90", camera(0.0, 0.0, 3.5, 90, 85, 0.5, 0.8), VP_4_3, {"lat": 0.0, "lon": -70.0}),
    ("front_t85_far_north", camera(0.0, 0.0, 3.5, 0, 85), VP_WIDE, {"lat": 70.0, "lon": 0.0}),
    # padding wider than the view: MapLibre clamps the centre of perspective into the view
    ("pad_over_wide_t30", camera(35.6762, 139.6503, 12, 0, 30, padding=(0, 1500, 0, 0)), VP_WIDE, {"lat": 35.68, "lon": 139.64}),
    ("pad_antimeridian_t60_b271.5", camera(0.0, 179.9, 8, 271.5, 60, padding=(0, 0, 200, 400)), VP_WIDE, {"lat": 0.1, "lon": -179.8}),
]

# Unproject: per camera, a list of view points. Points above the horizon give null.
def unproject_points(vp, extra=()):
    W, H = vp["width"], vp["height"]
    return [(W * 0.5, H * 0.5), (0.0, 0.0), (W, H), (W * 0.9, H * 0.2)] + list(extra)


UNPROJECT_SETS = [
    ("u_flat_z3.5_b0", camera(20.0, 10.0, 3.5, 0, 0), VP_WIDE, []),
    ("u_t30_z12_b180_paris", camera(48.8566, 2.3522, 12, 180, 30), VP_4_3, []),
    ("u_t60_z18.7_b359_anchor", camera(35.6762, 139.6503, 18.7, 359, 60, 0.5, 0.8), VP_PHONE, []),
    ("u_t60_z12_b271.5_anchor", camera(-33.8688, 151.2093, 12, 271.5, 60, 0.2, 0.3), VP_WIDE, []),
    ("u_t75_z3.5_b90", camera(0.0, 0.0, 3.5, 90, 75), VP_WIDE, [(640.0, 100.0)]),
    ("u_t85_z12_b0", camera(10.0, 20.0, 12, 0, 85), VP_4_3, [(400.0, 300.0 - 1.5 * 600 / math.tan(math.radians(85)) + 2.0)]),
    ("u_antimeridian_t30", camera(0.0, 179.9, 8, 0, 30), VP_WIDE, []),
    ("u_z0_world_edge", camera(0.0, 0.0, 0, 0, 0), VP_WIDE, []),
    ("u_null_island_t60_b180", camera(0.0, 0.0, 12, 180, 60, 0.5, 0.8), VP_WIDE, []),
    ("u_pad_t45_z14_b30", camera(52.52, 13.405, 14, 30, 45, padding=(100, 0, 250, 50)), VP_WIDE, []),
    ("u_pad_t60_anchor_phone", camera(40.7128, -74.006, 16, 200, 60, 0.5, 0.7, padding=(300, 20, 0, 20)), VP_PHONE, []),
]


def main():
    check_hand_computations()
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Vectors", "projection.json")

    cases = []
    for name, cam, vp, fracs in PROJECTION_SETS:
        for i, geo in enumerate(around(cam, vp, fracs)):
            cases.append({"name": f"{name}_p{i}", "camera": cam, "viewport": vp, "geo": geo,
                          "view": matrix_project(cam, vp, geo)})
    for name, cam, vp, geo in EXTRA_PROJECTION:
        cases.append({"name": name, "camera": cam, "viewport": vp, "geo": geo,
                      "view": matrix_project(cam, vp, geo)})

    ucases = []
    for name, cam, vp, extra in UNPROJECT_SETS:
        for i, (x, y) in enumerate(unproject_points(vp, extra)):
            view = {"x": float(x), "y": float(y)}
            ucases.append({"name": f"{name}_v{i}", "camera": cam, "viewport": vp, "view": view,
                           "geo": matrix_unproject(cam, vp, view)})

    # Guard against cases so close to the camera plane that they are ill-conditioned.
    for c in cases:
        v = c["view"]
        if v is not None:
            assert abs(v["x"]) < 1e6 and abs(v["y"]) < 1e6, c["name"]
    # Round trip: the matrix unprojection of each projected point returns it.
    for c in cases:
        if c["view"] is None:
            continue
        g = matrix_unproject(c["camera"], c["viewport"], c["view"])
        assert g is not None, c["name"]
        lat = max(-MAX_LAT, min(MAX_LAT, c["geo"]["lat"]))
        assert abs(g["lat"] - lat) < 1e-8, (c["name"], g, c["geo"])
        assert abs(shortest(g["lon"], c["geo"]["lon"])) < 1e-8, (c["name"], g, c["geo"])

    nulls = sum(1 for c in cases if c["view"] is None)
    unulls = sum(1 for c in ucases if c["geo"] is None)
    assert nulls >= 3 and unulls >= 3, (nulls, unulls)

    doc = {
        "description": (
            "Projection test vectors for CameraHub, made by scripts/make_projection_vectors.py "
            "(python3 + numpy float64; deterministic). Expected values come from MapLibre GL JS's mercator "
            "transform rebuilt as 4x4 matrices, not from a closed form: M = P * S(1,-1,1) * T(0,0,-d) * "
            "Rx(tilt) * Rz(-bearing) * T(-X, -Y, 0), P = gl-matrix perspective(fovRadians, W/H, d/100, "
            "1000 d) with the principal point at the centre of the viewport less the camera's padding "
            "(top, left, bottom, right px), clamped into the viewport, written into P[0][2], P[1][2] as "
            "MapLibre does (EdgeInsets.getCenter, centre offset), d = (H/2)/tan(fov/2) = 1.5 H, "
            "(X, Y) = the map centre in Web Mercator world pixels with worldSize = 512 * 2^zoom, "
            "chosen as MapLibre's setLocationAtPoint does so that the camera target (lat, lon) is drawn "
            "at the anchor point, a fraction (ax, ay) of the padded area (HERE's target anchor point; an anchor above 85 % of the way "
            "from the principal point to the horizon is drawn on that line): X, Y = target - (ground under "
            "the anchor point - ground under the principal point) in the map centred on the target, "
            "x = (lon+180)/360 ws, y = (180 - (180/pi) ln(tan(pi/4 + lat pi/360)))/360 ws (y grows south). "
            "Bearing is clockwise from north (bearing 90: east is up), tilt in degrees from nadir, anchor "
            "(ax, ay) normalized viewport position of the target. "
            "project: clip = M (x, y, 0, 1); null when clip.w <= 0 (behind the camera plane); "
            "view = ((ndc.x+1) W/2, (1-ndc.y) H/2); no near/far clipping. Latitude is clamped to "
            "+-85.051129 before projecting and the copy of the point's longitude (+-360k) nearest to the "
            "camera longitude is used. unproject: the NDC points (x, y, -1) and (x, y, +1) are mapped "
            "through inverse(M) and the ray through them is intersected with z = 0; null when the hit is "
            "behind the camera or the ray is parallel (view point at or above the horizon y = principal y - d cot(tilt)). "
            "Unprojected latitude is the inverse Mercator of the hit y (not clamped, so it can exceed "
            "85.05 beyond the world's edge); longitude is wrapped to [-180, 180). The script also checks "
            "the matrices against hand computations (flat views, bearing 90, a due-north point under tilt, "
            "the horizon) and round trips. Suggested tolerances: 1e-6 px for view, 1e-9 deg for geo."),
        "fovRadians": FOV,
        "cases": cases,
        "unprojectCases": ucases,
    }
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    text = json.dumps(doc, indent=1, allow_nan=False) + "\n"
    with open(out_path, "w") as f:
        f.write(text)
    print(f"wrote {out_path}: {len(cases)} projection cases ({nulls} null), "
          f"{len(ucases)} unproject cases ({unulls} null)")


def shortest(a, b):
    d = math.fmod(a - b, 360.0)
    if d > 180.0:
        d -= 360.0
    elif d <= -180.0:
        d += 360.0
    return d


if __name__ == "__main__":
    main()
