#!/usr/bin/env python3
"""A `camhub present` script that keeps a room moving as `camhub bench --presenter
spin` does (Sources/CamHubClient/Script/Spin.swift): linear `animate` segments of
2 s (bearing +90°, longitude +30°, tilt 20°/40°, zoom 3), each chained `after` the
previous one, three queued ahead (the next is queued when the one three back has
finished), so the camera never rests and every follower is owed `rate` frames a
second. The default 900 segments move the camera for 30 minutes; with
`camhub present --loop` the script starts again after that.

    python3 scripts/busy_follower/spin_script.py > spin.json
    camhub present --url ws://127.0.0.1:PORT/hub --room bench --script spin.json --loop --plain
"""
import argparse
import json
import sys


def segment(k: int) -> dict:
    step = {"type": "animate", "id": f"spin-{k}",
            "to": {"lon": float((k * 30 + 180) % 360 - 180), "bearing": float(k * 90 % 360),
                   "tilt": 20.0 if k % 2 == 0 else 40.0, "zoom": 3},
            "duration": 2, "curve": "linear"}
    if k > 1:
        step["after"] = f"spin-{k - 1}"
    return step


def script(segments: int) -> dict:
    steps = [segment(k) for k in range(1, min(3, segments) + 1)]
    for k in range(4, segments + 1):
        steps.append({"type": "waitFor", "id": f"spin-{k - 3}", "timeout": 10})
        steps.append(segment(k))
    steps.append({"type": "waitFor", "id": f"spin-{segments}", "timeout": 10})
    return {"name": "spin", "steps": steps}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--segments", type=int, default=900, help="2 s segments before the script ends (default 900)")
    args = parser.parse_args()
    json.dump(script(max(1, args.segments)), sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
