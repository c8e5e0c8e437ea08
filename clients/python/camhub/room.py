"""One client of a CameraHub room over protocol v1 (docs/PROTOCOL.md), on
asyncio and `websockets`: the room's state as the hub last said it, commands as
coroutines that return the hub's answer, frames as an async iterator, events
as callbacks, and reconnection after the hub restarts or the connection drops.
"""

from __future__ import annotations

import asyncio
import itertools
import urllib.parse
import json
import math
import random
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, Optional, Union

import websockets
from websockets.exceptions import ConnectionClosed

from .binary_frame import decode_frame
from .errors import ConnectionLost, HubError, Refused
from .types import AnimationResult, Camera, CameraLike, FollowCounts, Frame, RosterEntry, as_camera

SUBPROTOCOL = "camhub.v1"
#: Close codes after which the client joins again: going away, service restart, a dropped connection.
RETRY_CODES = {1001, 1012, 1006}
#: Animation statuses that end an animation.
ENDED = {"finished", "cancelled", "superseded"}

Handler = Callable[[dict[str, Any]], Any]
WireTap = Callable[[str, Union[str, bytes]], None]
#: Returns a fresh signed token (a coroutine function or a plain one).
TokenSource = Callable[[], Union[str, Awaitable[str]]]
#: Close codes of a token that expired unrefreshed (4001) or was revoked (4003): with `get_token`, the
#: client joins again with a new token.
TOKEN_CODES = {4001, 4003}


def backoff(attempt: int, rng: random.Random = random.Random()) -> float:
    """Seconds to wait before attempt `attempt` (0-based): 0.25 s doubling up to 8 s, each ±25 %."""
    return min(8.0, 0.25 * 2 ** min(attempt, 10)) * (1 + 0.25 * rng.uniform(-1, 1))


#: Closes that mean the hub is draining (1001 going away, 1012 restart): its whole audience comes back.
DRAIN_CODES = {1001, 1012}


def drain_wait(audience: int, rng: random.Random = random.Random()) -> float:
    """Seconds to wait before the first return after a drain: a random time within a window that
    grows with the room's audience, 1 ms per client, from 0.25 s up to 10 s, so that a room of
    10,000 comes back at ~1,000 joins a second (the hub spreads its closes too: --drain-spread)."""
    return rng.uniform(0, min(10.0, max(0.25, audience / 1000)))


def url_with_room(url: str, room: Optional[str]) -> str:
    """The hub URL with the room the hello joins as `?room=` (kept when the URL names one): a hub of
    several loops then serves the connection on its room's loop from the start. Only a placement
    hint; the hello decides the room."""
    if not room:
        return url
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    if any(name == "room" for name, _ in query):
        return url
    query.append(("room", room))
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


class Room:
    """A joined room. Make one with `connect` (an async context manager).

    State (as the hub last said it): `client`, `role`, `camera`, `limits`,
    `presenter`, `roster`, `follow_counts`, `clients`, `explore_allowed`, `view`, `projection`, `story`, `seq`.
    """

    def __init__(self, url: str, hello: dict[str, Any], *, reconnect: bool = True, attempts: int = 10,
                 on_wire: Optional[WireTap] = None, open_timeout: float = 10, get_token: Optional[TokenSource] = None):
        self.url = url
        self.hello = hello
        self.reconnect = reconnect
        self.get_token = get_token
        #: The session's signed token's expiry (seconds since 1970) as the hub last said it; None: not known.
        self.token_exp: Optional[float] = None
        #: Times the token was refreshed during the session.
        self.refreshes = 0
        self.attempts = attempts
        self.on_wire = on_wire
        self.open_timeout = open_timeout
        self.client: Optional[str] = None
        self.role: Optional[str] = None
        self.camera: Optional[Camera] = None
        self.limits: dict[str, Any] = {}
        self.presenter: Optional[str] = None
        self.roster: dict[str, RosterEntry] = {}
        self.follow_counts = FollowCounts()
        #: Clients in the room as the hub last said it (welcome, audience events).
        self.clients = 0
        self.explore_allowed = True
        self.view: Optional[dict[str, Any]] = None
        #: Where the room's explorers look, as the newest `viewports` event said (presenters and drivers only; a
        #: follower never gets it): {"clients": [{client, name, state, region: 4 × [lon, lat]}], "others": N}.
        self.viewports: dict[str, Any] = {"clients": [], "others": 0}
        #: How the room's map draws the world: "mercator" or "globe".
        self.projection = "mercator"
        #: What the hub adapts in this client's frames because of its `render` ("roll", "tilt").
        self.render_limited: list[str] = []
        #: The room's storyboard as every client hears it (welcome.story, storyStep, storyChanged): `count`,
        #: `index` (the step the room is on, None: none), `title`, `notes`, `playing`, `drivers`; None: no storyboard.
        self.story: Optional[dict[str, Any]] = None
        self.seq = 0
        #: Times the room was joined again after the connection ended.
        self.reconnects = 0
        #: Errors the hub sent that no command was waiting for.
        self.errors: list[HubError] = []
        self._ws: Any = None
        self._reader: Optional[asyncio.Task[None]] = None
        self._handlers: dict[str, list[Handler]] = {}
        self._frame_queues: list[asyncio.Queue[Optional[Frame]]] = []
        self._waiters: list[tuple[Callable[[dict[str, Any]], bool], asyncio.Future[dict[str, Any]]]] = []
        self._ids = itertools.count(1)
        self._closed = False
        self._refreshing: Optional[asyncio.Future[None]] = None

    # -- connecting -------------------------------------------------------------------------------------------------

    async def _open(self) -> None:
        """Opens the socket, sends `hello` and takes the `welcome` (Refused on an `error`)."""
        self._ws = await websockets.connect(url_with_room(self.url, self.hello.get("room")), subprotocols=[SUBPROTOCOL],
                                            open_timeout=self.open_timeout, max_size=2 ** 20)
        await self._send_raw(self.hello)
        while True:
            data = await asyncio.wait_for(self._ws.recv(), self.open_timeout)
            self._tap("received", data)
            m = _parse(data)
            if m["type"] == "error":
                await self._ws.close()
                raise Refused(m.get("code", "?"), m.get("message", ""), m.get("ref"))
            if m["type"] == "welcome":
                self._welcome(m)
                return

    async def start(self) -> "Room":
        await self._open()
        self._reader = asyncio.create_task(self._read())
        return self

    async def close(self) -> None:
        """Leaves the room: closes the connection (code 1000) and ends `frames()`."""
        self._closed = True
        if self._refreshing is not None:
            self._refreshing.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
        self._finish(ConnectionLost("the room was closed"))

    async def _read(self) -> None:
        while True:
            try:
                async for data in self._ws:
                    self._tap("received", data)
                    self._dispatch(_parse(data))
                code = self._ws.close_code
            except ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd is not None else 1006
            self._fail_waiters(ConnectionLost(f"connection closed ({code})"))
            retry = code in RETRY_CODES or (code in TOKEN_CODES and self.get_token is not None)
            drained = code in DRAIN_CODES
            if self._closed or not self.reconnect or not retry or \
                    not await self._rejoin(fresh_token=code in TOKEN_CODES, drained=drained):
                self._finish(ConnectionLost(f"connection closed ({code})"))
                return

    async def _rejoin(self, fresh_token: bool = False, drained: bool = False) -> bool:
        """Joins again, after a wait spread over the audience when the hub drained, then with backoff."""
        for attempt in range(self.attempts):
            await asyncio.sleep(drain_wait(self.clients) if drained and attempt == 0 else backoff(attempt))
            if self._closed:
                return False
            try:
                if fresh_token:
                    self.hello["token"] = await self._new_token()
                await self._open()
            except Refused:
                return False
            except (OSError, ConnectionClosed, asyncio.TimeoutError, websockets.InvalidHandshake):
                continue
            self.reconnects += 1
            return True
        return False

    def _finish(self, why: Exception) -> None:
        self._fail_waiters(why)
        for q in self._frame_queues:
            q.put_nowait(None)
        self._frame_queues.clear()

    def _fail_waiters(self, why: Exception) -> None:
        waiters, self._waiters = self._waiters, []
        for _, future in waiters:
            if not future.done():
                future.set_exception(why)

    # -- what the hub says ----------------------------------------------------------------------------------------

    def _welcome(self, m: dict[str, Any]) -> None:
        self.client = m["client"]
        self.role = m["role"]
        self.camera = Camera.from_wire(m["camera"])
        self.limits = m.get("limits", {})
        self.presenter = m.get("presenter")
        self.roster = {e["client"]: RosterEntry(e["client"], e["name"], e["role"], e.get("follow", "following"))
                       for e in m.get("roster", [])}
        self.follow_counts = FollowCounts(m.get("following", 0), m.get("exploring", 0), m.get("away", 0))
        self.clients = m.get("clients", 0)
        self.explore_allowed = m.get("followPolicy", {}).get("explore", True)
        self.view = m.get("view")
        self.viewports = {"clients": [], "others": 0}
        self.projection = m.get("projection", "mercator")
        self.render_limited = m.get("renderLimited", [])
        self.story = dict(m["story"]) if m.get("story") else None
        self.seq = m["seq"]
        self._emit("welcome", m)

    def _dispatch(self, m: dict[str, Any]) -> None:
        kind = m["type"]
        if kind == "frame":
            frame = Frame.from_wire(m)
            self.camera, self.seq = frame.camera, frame.seq
            for q in self._frame_queues:
                if q.full():
                    q.get_nowait()  # a slow reader gets the newest frames, not a growing backlog
                q.put_nowait(frame)
        elif kind == "event":
            self._event(m)
        elif kind == "welcome":
            self._welcome(m)
        elif kind == "tokenExpiring":
            self.token_exp = m["exp"]
            if self.get_token is not None:
                self._refreshing = asyncio.ensure_future(self._refresh_on_time())
        elif kind == "tokenRefreshed":
            self.token_exp = m["exp"]
        for match, future in list(self._waiters):
            if not future.done() and match(m):
                future.set_result(m)
                self._waiters.remove((match, future))
                break
        else:
            if kind == "error":
                self.errors.append(HubError.from_wire(m))
        self._emit(m["event"] if kind == "event" else kind, m)

    def _event(self, m: dict[str, Any]) -> None:
        name = m["event"]
        if name in ("joined", "followChanged"):
            self.roster[m["client"]] = RosterEntry(m["client"], m["name"], m.get("role") or self._role_of(m["client"]),
                                                   m.get("state", "following"))
        elif name == "left":
            self.roster.pop(m["client"], None)
        elif name == "presenterChanged":
            self.presenter = m.get("client")
        elif name == "audience":
            self.follow_counts = FollowCounts(m.get("following", 0), m.get("exploring", 0), m.get("away", 0))
            self.clients = m.get("clients", self.clients)
        elif name == "limitsChanged":
            self.limits = m["limits"]
        elif name == "followPolicyChanged":
            self.explore_allowed = m["explore"]
        elif name == "viewChanged":
            self.view = m["view"]
        elif name == "viewports":
            self.viewports = {"clients": m["clients"], "others": m["others"]}
        elif name == "projectionChanged":
            self.projection = m["projection"]
        elif name == "storyStep":
            drivers = self.story["drivers"] if self.story else False
            self.story = {"count": m["count"], "index": m["index"], "title": m.get("title"), "notes": m.get("notes"),
                          "playing": m["playing"], "drivers": drivers}
        elif name == "storyChanged":
            empty = m["count"] == 0 and m["index"] is None and not m["drivers"]
            self.story = None if empty else {key: m.get(key) for key in ("count", "index", "title", "notes", "playing", "drivers")}

    async def _new_token(self) -> str:
        token = self.get_token()  # type: ignore[misc]
        return await token if inspect.isawaitable(token) else token

    async def _refresh_on_time(self) -> None:
        """After `tokenExpiring`: a new token from `get_token`, sent with `refresh` (a failure is kept in `errors`)."""
        try:
            await self.refresh(await self._new_token())
        except HubError as e:
            self.errors.append(e)
        except ConnectionLost:
            pass  # the reader joins again, with a new token if the old one ran out

    def _role_of(self, client: str) -> str:
        entry = self.roster.get(client)
        return entry.role if entry else "follower"

    def on(self, name: str, handler: Handler) -> None:
        """Calls `handler(message)` for every hub message of type `name` (`frame`, `animation`, `error`,
        `welcome`, …) or every `event` named `name` (`followChanged`, `summoned`, `steady`, …)."""
        self._handlers.setdefault(name, []).append(handler)

    def _emit(self, name: str, m: dict[str, Any]) -> None:
        for handler in self._handlers.get(name, []):
            handler(m)

    async def frames(self, buffer: int = 120) -> AsyncIterator[Frame]:
        """The room's frames as they arrive, until the room is closed. A reader slower than the
        frames keeps the newest `buffer` of them (older ones are dropped, as the hub's throttle would)."""
        q: asyncio.Queue[Optional[Frame]] = asyncio.Queue(maxsize=buffer)
        self._frame_queues.append(q)
        try:
            while (frame := await q.get()) is not None:
                yield frame
        finally:
            if q in self._frame_queues:
                self._frame_queues.remove(q)

    # -- sending --------------------------------------------------------------------------------------------------

    def _tap(self, direction: str, text: Union[str, bytes]) -> None:
        if self.on_wire is not None:
            self.on_wire(direction, text)

    async def _send_raw(self, message: dict[str, Any]) -> None:
        text = json.dumps(message, separators=(",", ":"))
        self._tap("sent", text)
        await self._ws.send(text)

    async def _ask(self, message: dict[str, Any], match: Callable[[dict[str, Any]], bool],
                   timeout: Optional[float]) -> dict[str, Any]:
        """Sends `message` and returns the first hub message that `match`es (HubError for an `error`)."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters.append((match, future))
        try:
            await self._send_raw(message)
        except ConnectionClosed as e:
            self._waiters.remove((match, future))
            raise ConnectionLost(f"connection closed ({e})") from None
        answer = await asyncio.wait_for(future, timeout)
        if answer["type"] == "error":
            raise HubError.from_wire(answer)
        return answer

    async def send(self, message: dict[str, Any], timeout: float = 10) -> None:
        """Sends a command the hub does not answer and waits until the hub has handled it: a `ping`
        right after it comes back only once the hub handled every message before it (one
        connection's messages are handled in order), so an `error` for the command arrives first
        and is raised as HubError."""
        t = float(next(self._ids))
        ref = message.get("id", message["type"])
        await self._send_raw(message)
        answer = await self._ask({"type": "ping", "t": t},
                                 lambda m: (m["type"] == "pong" and m.get("t") == t)
                                 or (m["type"] == "error" and m.get("ref") == ref), timeout)
        if answer["type"] == "error":  # pragma: no cover (raised by _ask)
            raise HubError.from_wire(answer)

    async def ping(self, timeout: float = 10) -> float:
        """A round trip to the hub; returns it in seconds."""
        loop = asyncio.get_running_loop()
        t = float(next(self._ids))
        start = loop.time()
        await self._ask({"type": "ping", "t": t}, lambda m: m["type"] == "pong" and m.get("t") == t, timeout)
        return loop.time() - start

    def _next_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids)}"

    async def _animation(self, message: dict[str, Any], timeout: Optional[float]) -> AnimationResult:
        """Sends an animation command and returns how it ended (HubError when the hub refused it)."""
        ident = message.setdefault("id", self._next_id("py"))
        me = self.client
        m = await self._ask(message, lambda a: (a["type"] == "animation" and a.get("id") == ident
                                                and a.get("owner", me) == me and a["status"] in ENDED)
                            or (a["type"] == "error" and a.get("ref") == ident), timeout)
        camera = m.get("camera")
        return AnimationResult(id=ident, status=m["status"], camera=Camera.from_wire(camera) if camera else None,
                               by=m.get("by"), reason=m.get("reason"), lost=m.get("lost", []), clamped=m.get("clamped", []))

    # -- commands -------------------------------------------------------------------------------------------------

    async def set(self, camera: CameraLike) -> None:
        """Jumps the camera (`set`). `camera`: a Camera or a dict of its fields (`as_camera`)."""
        await self.send({"type": "set", "camera": as_camera(camera).to_wire()})

    async def ease(self, camera: CameraLike, *, duration: Optional[float] = None, curve: Any = None, essential: bool = False,
                   id: Optional[str] = None, timeout: Optional[float] = 120) -> AnimationResult:
        """`ease` to `camera`; returns how the animation ended."""
        m = _fields({"type": "ease", "id": id, "camera": as_camera(camera).to_wire(), "duration": duration, "curve": curve})
        if essential:
            m["essential"] = True
        return await self._animation(m, timeout)

    async def fly(self, camera: CameraLike, *, duration: Optional[float] = None, speed: Optional[float] = None,
                  curve: Optional[float] = None, min_zoom: Optional[float] = None, essential: bool = False,
                  id: Optional[str] = None, timeout: Optional[float] = 120) -> AnimationResult:
        """`fly` to `camera` (zoom out, travel, zoom in); returns how the flight ended."""
        m = _fields({"type": "fly", "id": id, "camera": as_camera(camera).to_wire(), "duration": duration, "speed": speed,
                     "curve": curve, "minZoom": min_zoom})
        if essential:
            m["essential"] = True
        return await self._animation(m, timeout)

    async def animate(self, to: CameraLike, duration: float, *, curve: Any = None, delay: Optional[float] = None,
                      after: Optional[str] = None, essential: bool = False, id: Optional[str] = None,
                      timeout: Optional[float] = 120) -> AnimationResult:
        """`animate` the properties `to` names; returns how the animation ended."""
        m = _fields({"type": "animate", "id": id, "to": as_camera(to, "to").to_wire(), "duration": duration, "curve": curve,
                     "delay": delay, "after": after})
        if essential:
            m["essential"] = True
        return await self._animation(m, timeout)

    async def cancel(self, id: Optional[str] = None, *, all: bool = False) -> None:
        """Cancels one animation (`id`), this client's (no argument) or, for a presenter, every one (`all`)."""
        await self.send(_fields({"type": "cancel", "id": id, "all": True if all else None}))

    async def set_limits(self, **limits: Any) -> None:
        """Sets the room's limits (presenter): `min_zoom=2`, `max_tilt=85`, `max_roll=30`, `bounds={…}` (None clears one)."""
        names = {"min_zoom": "minZoom", "max_zoom": "maxZoom", "min_tilt": "minTilt", "max_tilt": "maxTilt",
                 "max_tilt_by_zoom": "maxTiltByZoom", "bounds": "bounds", "max_roll": "maxRoll"}
        await self.send({"type": "limits", **{names[k]: v for k, v in limits.items()}})

    async def track(self, mode: Optional[str] = None, location: Optional[dict[str, float]] = None) -> None:
        """Sets the tracking mode and/or sends a location fix (`{"lat", "lon", "heading"?}`)."""
        await self.send(_fields({"type": "track", "mode": mode, "location": location}))

    async def route(self, points: list[dict[str, float]], *, append: bool = False) -> None:
        """Replaces (or, `append`, extends) the room's route; `[]` clears it."""
        await self.send(_fields({"type": "route", "points": points, "append": True if append else None}))

    async def query(self, what: str, timeout: float = 10, **params: Any) -> dict[str, Any]:
        """A geometry query for this client's viewport (`project`, `unproject`, `bounds`, `fit`): the `result`."""
        ident = self._next_id("q")
        return await self._ask({"type": "query", "id": ident, "what": what, **params},
                               lambda m: m.get("id") == ident and m["type"] == "result"
                               or (m["type"] == "error" and m.get("ref") == ident), timeout)

    async def viewport(self, width: float, height: float) -> None:
        await self.send({"type": "viewport", "width": width, "height": height})

    async def subscribe(self, events: list[str]) -> None:
        """Replaces this client's event subscriptions."""
        await self.send({"type": "subscribe", "events": events})

    async def follow(self, state: str) -> None:
        """This client's follow state: `following`, `exploring` or `away`."""
        await self.send({"type": "follow", "state": state})

    async def looking(self, region: Optional[Sequence[Sequence[float]]]) -> None:
        """While this client explores: its visible region, four (lon, lat) corners (top-left, top-right,
        bottom-right, bottom-left), or None to stop sharing. Send it at most 2 times a second; the hub drops what
        comes faster. Raises ValueError naming the bad corner."""
        await self.send({"type": "looking", "region": None if region is None else _region(region)})

    async def summon(self, client: Optional[str] = None, timeout: float = 10) -> int:
        """Presenter: calls back every client that is not following, or only `client`; returns how many."""
        ident = self._next_id("s")
        message: dict[str, Any] = {"type": "summon", "id": ident}
        if client is not None:
            message["client"] = client
        m = await self._ask(message,
                            lambda a: a.get("id") == ident and a["type"] == "result"
                            or (a["type"] == "error" and a.get("ref") == ident), timeout)
        return int(m["summoned"])

    async def follow_policy(self, explore: bool) -> None:
        """Presenter: `False` locks following (nobody may explore), `True` unlocks."""
        await self.send({"type": "followPolicy", "explore": explore})

    async def set_projection(self, projection: str) -> None:
        """Driver or presenter: draws the room's map as a "globe" or in "mercator"."""
        if projection not in ("mercator", "globe"):
            raise ValueError(f"projection: mercator or globe (got {projection!r})")
        await self.send({"type": "projection", "projection": projection})

    async def set_story(self, steps: list[dict[str, Any]], *, drivers: Optional[bool] = None) -> None:
        """Presenter (or a driver where allowed): replaces the room's storyboard (`[]` clears it). Each step is
        `{"camera": Camera or {lat, lon, zoom, …}, "via": "fly"|"ease"|"jump", "duration", "speed", "curve", "hold",
        "title", "notes", "essential"}` (docs/PROTOCOL.md, `story`); a storyboard larger than one message goes as a
        `set` and `insert`s. `drivers=True` lets drivers edit and step it. HubError names what the hub refused."""
        for message in story_messages([_wire_step(s) for s in steps], drivers=drivers):
            await self.send(message)

    async def insert_steps(self, steps: list[dict[str, Any]], index: Optional[int] = None) -> None:
        """Puts `steps` before step `index` (from 0; None: at the end)."""
        await self.send(_fields({"type": "story", "op": "insert", "steps": [_wire_step(s) for s in steps], "index": index}))

    async def update_step(self, index: int, step: dict[str, Any]) -> None:
        """Replaces step `index`."""
        await self.send({"type": "story", "op": "update", "index": index, "step": _wire_step(step)})

    async def move_step(self, source: int, to: int) -> None:
        """Moves step `source` to position `to`."""
        await self.send({"type": "story", "op": "move", "from": source, "to": to})

    async def remove_step(self, index: int) -> None:
        """Takes step `index` out."""
        await self.send({"type": "story", "op": "remove", "index": index})

    async def allow_story_drivers(self, allow: bool) -> None:
        """Presenter: whether drivers may edit and step the room's storyboard."""
        await self.send({"type": "story", "drivers": allow})

    async def step(self, to: Union[str, int], *, id: Optional[str] = None) -> None:
        """Goes through the storyboard: `to` is "next", "previous", a step's index, "play" or "pause". The step's
        move is this client's animation (`id`, else the hub's); everyone hears `storyStep`. HubError when refused
        (`to: next: the room is on the last step …`)."""
        await self.send(_fields({"type": "step", "to": to, "id": id}))

    async def fit(self, mode: str) -> None:
        """How this client fits the room's camera to its screen: `same` or `cover`."""
        await self.send({"type": "fit", "mode": mode})

    async def refresh(self, token: str, timeout: float = 10) -> float:
        """Replaces the session's signed token (`refresh`); returns its expiry (seconds since 1970).
        HubError (code `token`) when the hub does not take it: the old token stays. Later
        reconnections join with this token."""
        m = await self._ask({"type": "refresh", "token": token},
                            lambda a: a["type"] == "tokenRefreshed" or (a["type"] == "error" and a.get("ref") == "refresh"),
                            timeout)
        self.hello["token"] = token
        self.refreshes += 1
        return m["exp"]

    async def pointer(self, lat: Optional[float], lon: Optional[float] = None) -> None:
        """Drivers and presenters: shows the room's pointer at (lat, lon); `pointer(None)` hides it."""
        await self.send({"type": "pointer", "lat": None} if lat is None else {"type": "pointer", "lat": lat, "lon": lon})


def _parse(data: Union[str, bytes]) -> dict[str, Any]:
    """One hub message: JSON text, or a binary frame's bytes (hello `encoding` "binary")."""
    return decode_frame(data) if isinstance(data, bytes) else json.loads(data)


#: The hub's largest client message in bytes (`set_story` splits a storyboard to fit).
MAX_MESSAGE_BYTES = 8 * 1024


def _wire_step(step: dict[str, Any]) -> dict[str, Any]:
    """A step as the wire has it (a `Camera` turned into its fields)."""
    out = dict(step)
    if isinstance(out.get("camera"), Camera):
        out["camera"] = out["camera"].to_wire()
    return out


def story_messages(steps: list[dict[str, Any]], *, drivers: Optional[bool] = None) -> list[dict[str, Any]]:
    """The `story` messages that send a whole storyboard: one `set` when it fits in a message, else a `set` of
    the first steps and `insert`s of the rest, each at most `MAX_MESSAGE_BYTES`."""
    def size(m: dict[str, Any]) -> int:
        return len(json.dumps(m, separators=(",", ":"), ensure_ascii=False).encode())
    messages: list[dict[str, Any]] = []
    current = _fields({"type": "story", "op": "set", "steps": [], "drivers": drivers})
    for step in steps:
        current["steps"].append(step)
        if size(current) > MAX_MESSAGE_BYTES and len(current["steps"]) > 1:
            current["steps"].pop()
            messages.append(current)
            current = {"type": "story", "op": "insert", "steps": [step]}
    messages.append(current)
    return messages


def _fields(m: dict[str, Any]) -> dict[str, Any]:
    """`m` without the fields that are None."""
    return {k: v for k, v in m.items() if v is not None}


class connect:
    """`async with camhub.connect(url, "demo", role="presenter") as room:` joins a room and leaves it
    on exit. `url` is the hub's WebSocket address (`ws://127.0.0.1:8080/hub`). The hello fields:
    `name`, `token`, `rate` (frames per second), `events` (subscriptions), `fit`, `viewport`
    (`(width, height)`). With `reconnect` (the default) the room is joined again, with backoff
    and jitter, when the hub restarts (1012), goes away (1001) or the connection drops.
    `get_token()` (a function or coroutine function) returns a fresh signed token: the client
    refreshes its token when the hub says it expires soon (`tokenExpiring`), and joins again with
    a new one after a close for an expired (4001) or revoked (4003) token.
    `encoding` is how frames come: "binary" (the default, a third of the bytes) or "json".
    `render` says what the map this client draws with can show (`{"roll": False, "maxTilt": 60}`):
    the hub then sends it the closest camera it can show, and `room.render_limited` says what it adapts.
    `on_wire(direction, data)` sees every message sent and received (text, or bytes for a binary frame)."""

    def __init__(self, url: str, room: str, role: str = "follower", *, name: Optional[str] = None,
                 token: Optional[str] = None, rate: Optional[float] = None, events: Optional[list[str]] = None,
                 fit: Optional[str] = None, viewport: Optional[tuple[float, float]] = None, reconnect: bool = True,
                 on_wire: Optional[WireTap] = None, get_token: Optional[TokenSource] = None, encoding: str = "binary",
                 render: Optional[dict[str, Any]] = None):
        hello = _fields({"type": "hello", "room": room, "role": role, "name": name, "token": token, "rate": rate,
                         "events": events, "fit": fit, "encoding": None if encoding == "json" else encoding, "render": render})
        if viewport is not None:
            hello["viewport"] = {"width": viewport[0], "height": viewport[1]}
        self.room = Room(url, hello, reconnect=reconnect, on_wire=on_wire, get_token=get_token)

    async def __aenter__(self) -> Room:
        return await self.room.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.room.close()

    def __await__(self):  # `room = await camhub.connect(...)`; the caller closes it
        return self.room.start().__await__()


def _region(region: Sequence[Sequence[float]]) -> list[list[float]]:
    """`region` as the wire's four [lon, lat], checked: finite, lat within ±90, lon within ±180."""
    corners = [list(c) for c in region]
    if len(corners) != 4:
        raise ValueError(f"region: must be four (lon, lat) corners, got {len(corners)}")
    for i, c in enumerate(corners):
        if len(c) != 2 or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in c) \
                or abs(c[1]) > 90 or abs(c[0]) > 180:
            raise ValueError(f"region[{i}]: must be (lon, lat) with lat within ±90 and lon within ±180, got {c!r}")
    return corners
