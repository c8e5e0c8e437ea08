"""A short presenter tour with the Python client (clients/python):

    pip install ./clients/python
    python3 examples/python/tour.py ws://127.0.0.1:8080/hub demo

Flies to three cities, pointing at each one, then brings every follower who
wandered off back and prints how each step ended."""

import asyncio
import sys

import camhub

STOPS = [
    ("Paris", camhub.Camera(lat=48.8566, lon=2.3522, zoom=11, bearing=0, tilt=30)),
    ("New York", camhub.Camera(lat=40.7128, lon=-74.006, zoom=11, bearing=30, tilt=45)),
    ("Tokyo", camhub.Camera(lat=35.6762, lon=139.6503, zoom=11, bearing=0, tilt=0)),
]


async def tour(url: str, room_name: str) -> None:
    async with camhub.connect(url, room_name, role="presenter", name="python tour") as room:
        for name, camera in STOPS:
            result = await room.fly(camera, essential=True)  # the flight shows the way: essential
            print(f"{name}: {result.status}" + (f" ({result.reason})" if result.reason else ""))
            await room.pointer(camera.lat, camera.lon)
            await asyncio.sleep(2)
            await room.pointer(None)
        print(f"{await room.summon()} followers called back; {room.follow_counts}")


if __name__ == "__main__":
    asyncio.run(tour(sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:8080/hub", sys.argv[2] if len(sys.argv) > 2 else "demo"))
