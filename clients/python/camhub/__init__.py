"""CameraHub's Python client: present, drive or follow a shared map camera.

    import asyncio, camhub

    async def main():
        async with camhub.connect("ws://127.0.0.1:8080/hub", "demo", role="presenter") as room:
            result = await room.fly(camhub.Camera(lat=48.8566, lon=2.3522, zoom=11), duration=3)
            print(result.status, room.camera)

    asyncio.run(main())

The protocol is docs/PROTOCOL.md (and docs/asyncapi.yaml) in the CameraHub repository.
"""

from .binary_frame import decode_frame
from .errors import CamHubError, ConnectionLost, HubError, ProtocolError, Refused
from .room import Room, backoff, connect, story_messages
from .types import Anchor, AnimationResult, Camera, CameraLike, FollowCounts, Frame, Padding, RosterEntry, as_camera

__all__ = [
    "Anchor", "AnimationResult", "CamHubError", "Camera", "CameraLike", "ConnectionLost", "FollowCounts", "Frame",
    "HubError", "Padding", "ProtocolError", "Refused", "Room", "RosterEntry", "as_camera", "backoff", "connect",
    "decode_frame", "story_messages",
]
