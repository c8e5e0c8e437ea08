#!/usr/bin/env python3
"""Reference flights for the flyTo test: Tests/Vectors/flights.json.

Made independently of the Swift code, straight from van Wijk & Nuij,
"Smooth and efficient zooming and panning" (InfoVis 2003), section 3, in
*absolute* units (w is the visible span in world pixels at the start zoom,
u the distance travelled along the ground), as MapLibre GL JS's flyTo
applies them: w0 = max(viewport width, height), w1 = w0 / 2^(z1 - z0),
u1 = |p1 - p0| in start-zoom world pixels, and with minZoom given,
rho = sqrt(2 * wMax / u1) where wMax = w0 / 2^(minZoom - z0).

  b_i = (w1^2 - w0^2 + (-1)^i rho^4 u1^2) / (2 w_i rho^2 u1)
  r_i = ln(-b_i + sqrt(b_i^2 + 1)),  S = (r1 - r0) / rho
  u(s) = w0 / rho^2 * (cosh r0 * tanh(rho s + r0) - sinh r0)
  w(s) = w0 * cosh r0 / cosh(rho s + r0)

At eased progress k (MapLibre's default easing, cubic-bezier(0.25, 0.1,
0.25, 1), solved here by bisection), s = k S, zoom = z0 + log2(w0 / w(s)),
and the centre is p0 + (p1 - p0) * u(s) / u1 in Mercator units. Duration
when not given: S / speed seconds (MapLibre: 1000 S / V ms).
"""
import json, math, os

def merc(lat, lon):
    return ((lon + 180) / 360, (180 - math.degrees(math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)))) / 360)

def unmerc(x, y):
    return (math.degrees(2 * math.atan(math.exp(math.pi * (1 - 2 * y))) - math.pi / 2), x * 360 - 180)

def bezier(x1, y1, x2, y2, x):
    def bx(t): return 3 * (1 - t) ** 2 * t * x1 + 3 * (1 - t) * t * t * x2 + t ** 3
    def by(t): return 3 * (1 - t) ** 2 * t * y1 + 3 * (1 - t) * t * t * y2 + t ** 3
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if bx(mid) < x: lo = mid
        else: hi = mid
    return by((lo + hi) / 2)

def flight(name, start, end, viewport, rho=1.42, speed=1.2, min_zoom=None):
    z0, z1 = start["zoom"], end["zoom"]
    w0 = max(viewport["width"], viewport["height"])
    w1 = w0 / 2 ** (z1 - z0)
    lon1 = end["lon"]
    while lon1 - start["lon"] > 180: lon1 -= 360
    while lon1 - start["lon"] < -180: lon1 += 360
    p0, p1 = merc(start["lat"], start["lon"]), merc(end["lat"], lon1)
    size = 512 * 2 ** z0
    u1 = math.hypot((p1[0] - p0[0]) * size, (p1[1] - p0[1]) * size)
    if min_zoom is not None:
        w_max = w0 / 2 ** (min(min_zoom, z0, z1) - z0)
        rho = math.sqrt(2 * w_max / u1)
    def r(i):
        wi = w0 if i == 0 else w1
        b = (w1 ** 2 - w0 ** 2 + (-1) ** i * rho ** 4 * u1 ** 2) / (2 * wi * rho ** 2 * u1)
        return math.log(-b + math.sqrt(b * b + 1))
    r0 = r(0)
    S = (r(1) - r0) / rho
    samples = []
    for i in range(11):
        t = i / 10
        k = bezier(0.25, 0.1, 0.25, 1, t)
        s = k * S
        u = w0 / rho ** 2 * (math.cosh(r0) * math.tanh(rho * s + r0) - math.sinh(r0))
        w = w0 * math.cosh(r0) / math.cosh(rho * s + r0)
        x = p0[0] + (p1[0] - p0[0]) * u / u1
        y = p0[1] + (p1[1] - p0[1]) * u / u1
        lat, lon = unmerc(x, y)
        samples.append({"t": t, "lat": lat, "lon": (lon + 180) % 360 - 180, "zoom": z0 + math.log2(w0 / w)})
    out = {"name": name, "start": start, "end": end, "viewport": viewport, "rho": rho if min_zoom is None else 1.42,
           "speed": speed, "duration": S / speed, "samples": samples}
    if min_zoom is not None: out["minZoom"] = min_zoom
    return out

flights = [
    flight("Paris to New York", {"lat": 48.8566, "lon": 2.3522, "zoom": 11}, {"lat": 40.7128, "lon": -74.006, "zoom": 12},
           {"width": 1280, "height": 720}),
    flight("Tokyo to Sydney, wide view", {"lat": 35.6762, "lon": 139.6503, "zoom": 6}, {"lat": -33.8688, "lon": 151.2093, "zoom": 9},
           {"width": 800, "height": 1200}),
    flight("Fiji across the antimeridian with minZoom", {"lat": -17.7, "lon": 178.0, "zoom": 8}, {"lat": -14.3, "lon": -170.7, "zoom": 7},
           {"width": 1024, "height": 768}, min_zoom=3),
    flight("Zoom in within a city", {"lat": 51.5074, "lon": -0.1278, "zoom": 10}, {"lat": 51.5155, "lon": -0.0922, "zoom": 16},
           {"width": 1280, "height": 720}, rho=1.42, speed=2.0),
]
path = os.path.join(os.path.dirname(__file__), "..", "Tests", "Vectors", "flights.json")
with open(path, "w") as f:
    json.dump({"description": __doc__.strip(), "flights": flights}, f, indent=1)
    f.write("\n")
print(f"wrote {len(flights)} flights to {os.path.normpath(path)}")
