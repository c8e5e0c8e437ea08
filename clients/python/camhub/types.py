"""The protocol's values as dataclasses (docs/PROTOCOL.md): what a room's
camera, limits, roster and frames are, and how an animation ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional


@dataclass(frozen=True)
class Anchor:
    """Where the camera's target is drawn, as a fraction of the padded view (0.5, 0.5: the centre)."""

    x: float
    y: float


@dataclass(frozen=True)
class Padding:
    """Pixels at the view's edges kept clear (MapLibre's `padding`)."""

    top: float = 0
    left: float = 0
    bottom: float = 0
    right: float = 0


#: The camera's number fields, in the wire's order.
_SCALARS = ("lat", "lon", "zoom", "bearing", "tilt", "roll", "elevation", "fov")


@dataclass(frozen=True)
class Camera:
    """A map camera: degrees, MapLibre zoom levels. A partial camera (for `set`,
    `ease`, `fly`, `animate`) leaves out what it does not change (None).

    The 3D fields, as MapLibre GL JS 5 has them: `roll` (degrees, -180…180), `elevation`
    (the altitude of the point looked at, metres) and `fov` (vertical field of view,
    degrees, 1…60). The hub leaves each out of a camera while it is at its default
    (0, 0, 36.86989764584402), so a camera read from the hub has None there then."""

    lat: Optional[float] = None
    lon: Optional[float] = None
    zoom: Optional[float] = None
    bearing: Optional[float] = None
    tilt: Optional[float] = None
    anchor: Optional[Anchor] = None
    padding: Optional[Padding] = None
    roll: Optional[float] = None
    elevation: Optional[float] = None
    fov: Optional[float] = None

    def to_wire(self) -> dict[str, Any]:
        """The wire object: only the fields that are set."""
        out: dict[str, Any] = {k: getattr(self, k) for k in _SCALARS if getattr(self, k) is not None}
        if self.anchor is not None:
            out["anchor"] = {"x": self.anchor.x, "y": self.anchor.y}
        if self.padding is not None:
            p = self.padding
            out["padding"] = {"top": p.top, "left": p.left, "bottom": p.bottom, "right": p.right}
        return out

    @staticmethod
    def from_wire(o: dict[str, Any]) -> "Camera":
        a = o.get("anchor")
        p = o.get("padding")
        return Camera(
            lat=o.get("lat"), lon=o.get("lon"), zoom=o.get("zoom"), bearing=o.get("bearing"), tilt=o.get("tilt"),
            roll=o.get("roll"), elevation=o.get("elevation"), fov=o.get("fov"),
            anchor=Anchor(a["x"], a["y"]) if a else None,
            padding=Padding(p["top"], p["left"], p["bottom"], p["right"]) if p else None)


@dataclass(frozen=True)
class RosterEntry:
    """A listed client of the room: presenters, drivers and the first followers."""

    client: str
    name: str
    role: str
    follow: str = "following"


@dataclass(frozen=True)
class FollowCounts:
    """The room's followers by follow state."""

    following: int = 0
    exploring: int = 0
    away: int = 0


@dataclass(frozen=True)
class Frame:
    """One room frame: `time` is the hub's wall clock (ms since the epoch)."""

    seq: int
    time: float
    camera: Camera
    moving: bool
    by: Optional[str]
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @staticmethod
    def from_wire(o: dict[str, Any]) -> "Frame":
        return Frame(seq=o["seq"], time=o["time"], camera=Camera.from_wire(o["camera"]), moving=o["moving"], by=o.get("by"), raw=o)


@dataclass(frozen=True)
class AnimationResult:
    """How one of this client's animations ended: `finished`, `cancelled` or
    `superseded`, with the camera where it ended, who ended it and why."""

    id: str
    status: str
    camera: Optional[Camera]
    by: Optional[str]
    reason: Optional[str]
    lost: list[str]
    clamped: list[str]

    @property
    def finished(self) -> bool:
        return self.status == "finished"
