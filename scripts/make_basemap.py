#!/usr/bin/env python3
"""Make the viewer's basemap data from Natural Earth (public domain).

Source: the Natural Earth 1:110m admin-0 countries and populated places that
the geopandas==0.14.4 wheel bundles as geopandas/datasets/naturalearth_lowres
and naturalearth_cities (Natural Earth version recorded in the wheel). The
wheel is fetched with `pip download --no-deps` (or pass --wheel PATH) and the
shapefiles are read straight from the zip with pyshp (`pip install pyshp`).

Writes (coordinates rounded to 4 decimals, compact JSON, deterministic):
  web/data/countries.geojson   Polygon/MultiPolygon; name, iso_a3, continent, pop_est
  web/data/cities.geojson      Point; name
  web/data/boundaries.geojson  LineString/MultiLineString; kind = "border" (edges
                               shared by two countries) or "coast" (edges of one
                               country only); the artificial edges of the
                               polygons along the antimeridian and the south
                               pole are left out.

Usage: python3 scripts/make_basemap.py [--wheel PATH] [--out DIR]
"""
import argparse
import glob
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile

try:
    import shapefile  # pyshp
except ImportError:  # pragma: no cover
    sys.exit("make_basemap: needs pyshp: python3 -m pip install pyshp")

WHEEL_SPEC = "geopandas==0.14.4"
DATASETS = "geopandas/datasets/"
DECIMALS = 4

# The bundled .dbf files are ISO-8859-1, so names with letters outside Latin-1
# arrived as "?" in the wheel; restore them (Natural Earth's own spellings).
NAME_FIXES = {"Chi?in?u": "Chi\u0219in\u0103u", "?saka": "\u014csaka"}


def clean_name(name):
    name = " ".join(name.split())  # "Washington,  D.C." -> "Washington, D.C."
    name = NAME_FIXES.get(name, name)
    assert "?" not in name, f"unrepaired name {name!r}: add it to NAME_FIXES"
    return name


def fetch_wheel(tmp):
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    "--dest", tmp, WHEEL_SPEC], check=True)
    return glob.glob(os.path.join(tmp, "geopandas-*.whl"))[0]


def read_shapes(z, name):
    base = f"{DATASETS}{name}/{name}"
    encoding = z.read(base + ".cpg").decode("ascii").strip()  # ISO-8859-1 in this wheel
    reader = shapefile.Reader(shp=io.BytesIO(z.read(base + ".shp")), shx=io.BytesIO(z.read(base + ".shx")),
                              dbf=io.BytesIO(z.read(base + ".dbf")), encoding=encoding)
    fields = [f[0] for f in reader.fields[1:]]
    out = []
    for sr in reader.iterShapeRecords():
        props = dict(zip(fields, list(sr.record)))
        out.append((props, sr.shape.__geo_interface__))
    return out


def rnd(v):
    r = round(v, DECIMALS)
    return 0.0 if r == 0 else r  # no -0.0


def round_ring(ring):
    pts = []
    for x, y in ring:
        p = (rnd(x), rnd(y))
        if not pts or pts[-1] != p:
            pts.append(p)
    if pts[0] != pts[-1]:
        pts.append(pts[0])
    return pts if len(pts) >= 4 else None


def polygons_of(geom):
    if geom["type"] == "Polygon":
        polys = [geom["coordinates"]]
    elif geom["type"] == "MultiPolygon":
        polys = geom["coordinates"]
    else:
        raise ValueError(geom["type"])
    out = []
    for poly in polys:
        rings = [r for r in (round_ring(r) for r in poly) if r]
        if rings:
            out.append(rings)
    return out


def artificial(a, b):
    """Polygon edges that are not real coast or border lines."""
    if abs(a[0]) == 180 and abs(b[0]) == 180 and a[0] == b[0]:
        return True  # along the antimeridian (Russia, Fiji, Antarctica split there)
    if a[1] <= -89.9 and b[1] <= -89.9:
        return True  # Antarctica's closing edge along the pole
    return False


def seg_key(a, b):
    return (a, b) if a <= b else (b, a)


def boundaries(countries):
    counts = {}
    for _, polys in countries:
        for poly in polys:
            for ring in poly:
                for a, b in zip(ring, ring[1:]):
                    k = seg_key(a, b)
                    counts[k] = counts.get(k, 0) + 1
    lines = {"border": [], "coast": []}
    emitted = set()
    for _, polys in countries:
        for poly in polys:
            for ring in poly:
                run, run_kind = [], None
                for a, b in zip(ring, ring[1:]):
                    k = seg_key(a, b)
                    if artificial(a, b) or k in emitted:
                        kind = None
                    else:
                        kind = "border" if counts[k] > 1 else "coast"
                        emitted.add(k)
                    if kind != run_kind or (run and run[-1] != a):
                        if run_kind and len(run) >= 2:
                            lines[run_kind].append(run)
                        run, run_kind = ([a] if kind else []), kind
                    if kind:
                        run.append(b)
                if run_kind and len(run) >= 2:
                    lines[run_kind].append(run)
    # join runs that continue each other (a ring's run that wraps past its start)
    for kind, runs in lines.items():
        merged = True
        while merged:
            merged = False
            by_start = {}
            for i, r in enumerate(runs):
                by_start.setdefault(r[0], []).append(i)
            for i, r in enumerate(runs):
                nxt = [j for j in by_start.get(r[-1], []) if j != i]
                if len(nxt) == 1 and r[-1] != r[0]:
                    j = nxt[0]
                    runs[i] = r + runs[j][1:]
                    runs.pop(j)
                    merged = True
                    break
    return lines


def dump(path, features):
    doc = {"type": "FeatureCollection", "features": features}
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    print(f"make_basemap: wrote {os.path.relpath(path)} ({len(features)} features, {len(text.encode()) // 1024} KiB)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wheel", help="path to a downloaded geopandas 0.14.4 wheel")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web", "data"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or fetch_wheel(tmp)
        with zipfile.ZipFile(wheel) as z:
            version = z.read(f"{DATASETS}naturalearth_cities/naturalearth_cities.VERSION.txt").decode().strip()
            countries_raw = read_shapes(z, "naturalearth_lowres")
            cities_raw = read_shapes(z, "naturalearth_cities")
    print(f"make_basemap: Natural Earth {version} 1:110m from {os.path.basename(wheel)}")

    countries = []
    features = []
    for props, geom in countries_raw:
        polys = polygons_of(geom)
        countries.append((props, polys))
        g = ({"type": "Polygon", "coordinates": [[list(p) for p in r] for r in polys[0]]} if len(polys) == 1 else
             {"type": "MultiPolygon", "coordinates": [[[list(p) for p in r] for r in poly] for poly in polys]})
        features.append({"type": "Feature", "properties": {
            "name": clean_name(props["name"]), "iso_a3": props["iso_a3"], "continent": props["continent"],
            "pop_est": int(props["pop_est"])}, "geometry": g})
    dump(os.path.join(args.out, "countries.geojson"), features)

    cities = []
    for props, geom in cities_raw:
        x, y = geom["coordinates"][:2]
        cities.append({"type": "Feature", "properties": {"name": clean_name(props["name"])},
                       "geometry": {"type": "Point", "coordinates": [rnd(x), rnd(y)]}})
    dump(os.path.join(args.out, "cities.geojson"), cities)

    lines = boundaries(countries)
    feats = []
    for kind in ("coast", "border"):
        runs = sorted(lines[kind])
        feats.append({"type": "Feature", "properties": {"kind": kind},
                      "geometry": {"type": "MultiLineString", "coordinates": [[list(p) for p in r] for r in runs]}})
    dump(os.path.join(args.out, "boundaries.geojson"), feats)


if __name__ == "__main__":
    main()
