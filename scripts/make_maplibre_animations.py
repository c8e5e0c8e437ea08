#!/usr/bin/env python3
"""Make Tests/Vectors/maplibre_animations.json: flyTo and easeTo paths taken
from MapLibre GL JS 5.3.0 itself, on the flat map and on the globe.

What it does
------------
Opens the page of scripts/make_maplibre_vectors.py (headless Chromium,
software WebGL, MapLibre from web/vendor/maplibre, nothing but 127.0.0.1) and,
for each case drawn from a seeded PRNG (no timestamps):

1. sets the projection ("mercator" or "globe": MapLibre's preset, a globe
   below zoom 12) and the start camera (jumpTo, then read back: the file
   stores what MapLibre holds, not what was asked);
2. calls map.flyTo or map.easeTo with the case's options once, to read
   MapLibre's own duration (flyTo: S / speed; easeTo: the given one);
3. starts it again with MapLibre's clock taken out: the easing returns the
   progress k the script names, and each step calls MapLibre's own frame
   callback (map._renderFrameCallback, the one its render loop calls), so the
   camera read back is the one MapLibre sets at eased progress k.

Cases: flights and eases between random places (near and far, across the
antimeridian and the equator), with and without a target zoom (on the globe,
MapLibre then keeps the globe's apparent size), with changes of bearing,
pitch and roll (easeTo turns roll, pitch and bearing together by a slerp of
the orientation when the roll changes), some with minZoom, another curve or
speed. No padding, no offset, no terrain; the centre elevation stays 0 (without
terrain MapLibre's animations leave it alone).

Running it twice writes the identical file.

Usage:
    python3 scripts/make_maplibre_animations.py [--out PATH]

Needs what scripts/make_maplibre_vectors.py needs (chromium, chromium-driver,
selenium, the MapLibre bundle in web/vendor/maplibre).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_maplibre_vectors import (  # noqa: E402 (the path above)
    MAPLIBRE_VERSION, VECTORS, VIEWPORTS, case_rng, maplibre_oracle, pick, wrap_lon)

OUT = VECTORS / "maplibre_animations.json"
SEED = "camhub-maplibre-animations-v1"
CASES_PER_PROJECTION = 60
PROGRESS = [0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 1]
NO_PADDING = {"top": 0, "left": 0, "bottom": 0, "right": 0}

DESCRIPTION = """\
flyTo and easeTo paths from MapLibre GL JS 5.3.0 itself (headless Chromium, \
scripts/make_maplibre_animations.py), with map.setProjection({type: projection}) (globe: MapLibre's \
preset, drawn as a globe below zoom 12, where its globe camera helper plans the animation; from zoom \
12 on its mercator one). start: the camera MapLibre holds before the animation (read back after \
jumpTo; fields as in maplibre_mercator.json). options: what the animation was asked for (lat, lon: \
center; zoom, bearing, tilt (pitch), roll; fly: curve (rho), speed, minZoom), absent fields were not \
given. duration: MapLibre's own, in seconds (flyTo: S / speed; easeTo: 0.5 unless given). \
globe: whether the map was drawn as a globe when the animation started. samples: the camera MapLibre \
sets at eased progress k (the easing's output; MapLibre's frame function called with k directly), \
k = 0..1. No padding, offset or terrain; elevation stays 0."""


def start_camera(rng, projection):
    u = rng.uniform
    globe = projection == "globe"
    return {
        "lat": u(-70, 70), "lon": u(-180, 180),
        "zoom": pick(rng, [(0.8, lambda: u(0.5, 11.5)), (0.2, lambda: u(12, 16))]) if globe else u(3, 16),
        "bearing": pick(rng, [(0.3, 0.0), (0.7, lambda: u(-180, 180))]),
        "tilt": pick(rng, [(0.3, 0.0), (0.7, lambda: u(0, 70))]),
        "roll": pick(rng, [(0.5, 0.0), (0.5, lambda: u(-180, 180))]),
        "elevation": 0.0, "fov": 36.86989764584402, "padding": dict(NO_PADDING),
    }


def target(rng, start, projection, kind):
    """The animation's options in the hub's field names; at least one field changes."""
    u = rng.uniform
    options = {}
    if rng.random() < 0.85:
        if rng.random() < 0.5:  # far: anywhere
            options["lat"], options["lon"] = u(-70, 70), u(-180, 180)
        else:  # near: within a few degrees
            span = 10 / 2 ** max(0, start["zoom"] - 4)
            options["lat"] = max(-75, min(75, start["lat"] + u(-span, span)))
            options["lon"] = wrap_lon(start["lon"] + u(-span, span))
    if rng.random() < 0.75 or not options:
        low = 0.5 if projection == "globe" else 3
        options["zoom"] = u(low, 16)
    if rng.random() < 0.4:
        options["bearing"] = u(-180, 180)
    if rng.random() < 0.4:
        options["tilt"] = u(0, 70)
    if rng.random() < 0.4:
        options["roll"] = u(-180, 180)
    if kind == "fly":
        # minZoom only with a new centre: MapLibre 5.3.0 turns a zoom-only flight with minZoom
        # into NaN (rho = sqrt(wMax / 0)); the hub ignores minZoom there.
        if rng.random() < 0.2 and "lat" in options:
            options["minZoom"] = u(0.5 if projection == "globe" else 3, 6)
        if rng.random() < 0.2:
            options["curve"] = u(1.0, 2.0)
        if rng.random() < 0.2:
            options["speed"] = u(0.8, 3.0)
    else:
        options["duration"] = round(u(0.3, 3.0), 3)
    return options


def maplibre_options(options):
    out = {}
    if "lat" in options:
        out["center"] = [options["lon"], options["lat"]]
    for ours, theirs in (("zoom", "zoom"), ("bearing", "bearing"), ("tilt", "pitch"), ("roll", "roll"),
                         ("minZoom", "minZoom"), ("curve", "curve"), ("speed", "speed")):
        if ours in options:
            out[theirs] = options[ours]
    if "duration" in options:
        out["duration"] = options["duration"] * 1000
    return out


def make_case(oracle, projection, index):
    rng = case_rng(f"{SEED}/{projection}", index)
    width, height = rng.choice(VIEWPORTS)
    viewport = {"width": width, "height": height}
    kind = "fly" if rng.random() < 0.6 else "ease"
    requested = start_camera(rng, projection)
    # Twice: MapLibre constrains a jumpTo with the projection of its last render
    # (the globe's or the flat map's, which clamps latitude at low zoom), and
    # the first call's redraw leaves the one the start camera is drawn with.
    oracle.set_camera(viewport, requested)
    oracle.set_camera(viewport, requested)
    options = target(rng, requested, projection, kind)
    run = oracle.call("animation", kind, maplibre_options(options), PROGRESS)
    return {
        "name": f"{projection}-{index:03d}-{kind}", "projection": projection, "kind": kind, "viewport": viewport,
        "globe": run["globe"], "start": run["start"], "options": options, "duration": run["duration"] / 1000,
        "samples": [{"k": k, "camera": camera} for k, camera in zip(PROGRESS, run["samples"])],
    }


def to_json(document):
    """One case per few lines; floats keep their shortest round-trip form."""
    def dumps(value):
        return json.dumps(value, ensure_ascii=False)

    head = {k: v for k, v in document.items() if k != "cases"}
    lines = ["{" + dumps(head)[1:-1] + ",", ' "cases": [']
    for i, case in enumerate(document["cases"]):
        end = "," if i + 1 < len(document["cases"]) else ""
        top = {k: v for k, v in case.items() if k not in ("start", "options", "samples")}
        lines.append("  {" + dumps(top)[1:-1] + ",")
        lines.append(f'   "start": {dumps(case["start"])},')
        lines.append(f'   "options": {dumps(case["options"])},')
        lines.append('   "samples": [')
        for j, sample in enumerate(case["samples"]):
            lines.append(f'    {dumps(sample)}' + ("," if j + 1 < len(case["samples"]) else ""))
        lines.append(f"   ]}}{end}")
    lines.append(" ]}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    started = time.monotonic()
    with maplibre_oracle() as oracle:
        cases = []
        for projection in ("mercator", "globe"):
            oracle.call("setProjection", projection)
            cases += [make_case(oracle, projection, i) for i in range(CASES_PER_PROJECTION)]
    document = {"description": DESCRIPTION, "maplibre": MAPLIBRE_VERSION, "cases": cases}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(to_json(document))
    globe = sum(1 for c in cases if c["globe"])
    print(f"{len(cases)} cases ({globe} started on the globe) in {time.monotonic() - started:.1f} s")
    print(f"wrote {args.out}")

if __name__ == "__main__":
    main()
