"""The protocol's values as dataclasses (docs/PROTOCOL.md): what a room's
camera, limits, roster and frames are, and how an animation ended."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from .errors import ProtocolError


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


#: Every field name of a camera, in the wire's order.
_FIELDS = ("lat", "lon", "zoom", "bearing", "tilt", "anchor", "padding", "roll", "elevation", "fov")

#: What the commands take as a camera: a Camera, or a mapping of its field names.
CameraLike = Union[Camera, Mapping[str, Any]]


def as_camera(value: Any, what: str = "camera") -> Camera:
    """`value` as a Camera: a Camera as it is, or a mapping (a dict) of a camera's
    field names, e.g. `{"lat": 48.85, "lon": 2.35, "zoom": 12}` (`anchor` and
    `padding` as Anchor/Padding or as mappings of theirs). Anything else, a
    field a camera does not have, or a value of the wrong type raises
    ProtocolError naming it and the type wanted. `what` names the argument."""
    if isinstance(value, Camera):
        return value
    if not isinstance(value, Mapping):
        raise ProtocolError(f"{what}: a camhub.Camera or a mapping of its fields ({', '.join(_FIELDS)}) is wanted, "
                            f"got {type(value).__name__}")
    unknown = [k for k in value if k not in _FIELDS]
    if unknown:
        raise ProtocolError(f"{what}: a camera has no field {', '.join(map(repr, unknown))} "
                            f"(its fields: {', '.join(_FIELDS)})")
    for k in _SCALARS:
        v = value.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise ProtocolError(f"{what}.{k}: a number is wanted, got {type(v).__name__}")
    return Camera(**{k: value.get(k) for k in _SCALARS},
                  anchor=_part(value.get("anchor"), Anchor, ("x", "y"), f"{what}.anchor"),
                  padding=_part(value.get("padding"), Padding, ("top", "left", "bottom", "right"), f"{what}.padding"))


def _part(value: Any, kind: type, names: tuple[str, ...], what: str) -> Any:
    """An Anchor or Padding given as itself, as a mapping of its fields, or None."""
    if value is None or isinstance(value, kind):
        return value
    if not isinstance(value, Mapping) or any(k not in names for k in value):
        raise ProtocolError(f"{what}: a camhub.{kind.__name__} or a mapping of {', '.join(names)} is wanted, got {value!r}")
    for k, v in value.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ProtocolError(f"{what}.{k}: a number is wanted, got {type(v).__name__}")
    return kind(**value)


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
