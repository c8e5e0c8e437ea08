"""The binary `frame` (docs/PROTOCOL.md, "Binary frames"): what a client whose hello says
`"encoding": "binary"` gets instead of the JSON frame; every other message stays JSON text.
Little-endian; doubles are the hub's IEEE 754 bits, so the camera read here is the hub's to the
bit, as from the JSON. `decode_frame` returns the dict `json.loads` gives for the JSON frame."""

from __future__ import annotations

import struct
from typing import Any, Optional

from .errors import ProtocolError

KIND_FRAME = 1
#: A frame whose camera has roll, elevation or fov off its default: a second flags byte follows the first.
KIND_FRAME_3D = 2
_ROLL, _ELEVATION, _FOV = 0x01, 0x02, 0x04
#: MapLibre's vertical field of view in degrees, 2·atan(1/3): a camera's `fov` when the frame leaves it out.
DEFAULT_FOV = 36.86989764584402
_NULL_LENGTH = 0xFFFF
_MOVING, _CORNER, _VELOCITY, _ANCHOR, _PADDING, _EPOCH, _POINTER_SHOWN, _POINTER_HIDDEN = (1 << i for i in range(8))


class _Reader:
    def __init__(self, data: bytes):
        self.data = data
        self.at = 0

    def take(self, fmt: str, field: str) -> tuple[Any, ...]:
        size = struct.calcsize(fmt)
        left = len(self.data) - self.at
        if size > left:
            raise ProtocolError(f"binary frame: {field} needs {size} bytes at offset {self.at}, {left} left")
        values = struct.unpack_from(fmt, self.data, self.at)
        self.at += size
        return values

    def text(self, field: str) -> Optional[str]:
        (length,) = self.take("<H", f"{field} length")
        if length == _NULL_LENGTH:
            return None
        (raw,) = self.take(f"<{length}s", field)
        return raw.decode("utf-8")


def decode_frame(data: bytes) -> dict[str, Any]:
    """One binary frame message as the JSON frame's dict; ProtocolError naming the field that does not fit."""
    r = _Reader(bytes(data))
    (kind,) = r.take("<B", "kind")
    if kind not in (KIND_FRAME, KIND_FRAME_3D):
        raise ProtocolError(f"binary message of kind {kind}: only 1 (frame) and 2 (frame with 3D fields) exist")
    (flags,) = r.take("<B", "flags")
    flags3d = r.take("<B", "flags3D")[0] if kind == KIND_FRAME_3D else 0
    (seq,) = r.take("<Q", "seq")
    (time,) = r.take("<d", "time")
    camera: dict[str, Any] = {key: r.take("<d", f"camera.{key}")[0] for key in ("lat", "lon", "zoom", "bearing", "tilt")}
    for bit, key in ((_ROLL, "roll"), (_ELEVATION, "elevation"), (_FOV, "fov")):
        if flags3d & bit:
            (camera[key],) = r.take("<d", f"camera.{key}")
    if flags & _ANCHOR:
        camera["anchor"] = {key: r.take("<d", f"anchor.{key}")[0] for key in ("x", "y")}
    if flags & _PADDING:
        camera["padding"] = {key: r.take("<d", f"padding.{key}")[0] for key in ("top", "left", "bottom", "right")}
    m: dict[str, Any] = {"type": "frame", "seq": seq, "time": time, "camera": camera, "moving": bool(flags & _MOVING)}
    if flags & _EPOCH:
        (m["epoch"],) = r.take("<Q", "epoch")
    if flags & _VELOCITY:
        m["velocity"] = {key: r.take("<f", f"velocity.{key}")[0] for key in ("lat", "lon", "zoom", "bearing", "tilt")}
        if kind == KIND_FRAME_3D:
            # Roll, elevation and fov rates follow; like the JSON frame, only the ones that are not 0.
            for key in ("roll", "elevation", "fov"):
                (rate,) = r.take("<f", f"velocity.{key}")
                if rate != 0:
                    m["velocity"][key] = rate
    m["by"] = r.text("by")
    if flags & _CORNER:
        m["corner"] = True
    if flags & _POINTER_SHOWN:
        plat, plon = r.take("<d", "pointer.lat")[0], r.take("<d", "pointer.lon")[0]
        m["pointer"] = {"lat": plat, "lon": plon, "by": r.text("pointer.by")}
    elif flags & _POINTER_HIDDEN:
        m["pointer"] = None
    if r.at != len(r.data):
        raise ProtocolError(f"binary frame: {len(r.data) - r.at} bytes after its last field")
    return m
