"""Helpers for the browser tests and scripts/make_screenshot.py: start the real
hub (`camhub serve`), talk to it from Python (`websockets`), and drive headless
Chromium with Selenium. Everything stays on 127.0.0.1 and every wait has a
deadline.

Environment:
  CAMHUB        hub binary (default: .build/debug/camhub in the repository)
  CHROMIUM      browser binary (default: /usr/bin/chromium)
  CHROMEDRIVER  driver binary (default: /usr/bin/chromedriver)
"""

from __future__ import annotations

import json
import math
import os
import queue
import re
import subprocess
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:(\d+))")
SUBPROTOCOL = "camhub.v1"


def hub_binary() -> Path:
    return Path(os.environ.get("CAMHUB", ROOT / ".build" / "debug" / "camhub"))


class Deadline:
    def __init__(self, seconds: float):
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        return max(0.0, self.end - time.monotonic())

    def passed(self) -> bool:
        return time.monotonic() >= self.end


def wait_until(predicate, timeout: float, what: str, interval: float = 0.05):
    """Calls predicate until it returns something truthy; raises AssertionError after timeout s."""
    deadline = Deadline(timeout)
    last = None
    while True:
        last = predicate()
        if last:
            return last
        if deadline.passed():
            raise AssertionError(f"timed out after {timeout} s waiting for {what} (last: {last!r})")
        time.sleep(interval)


# ---------------------------------------------------------------------------
# The hub process
# ---------------------------------------------------------------------------


class Hub:
    """`camhub serve --host 127.0.0.1 --port 0 --web web`, reading the port it prints."""

    def __init__(self, extra_args: list[str] | None = None, startup_timeout: float = 20.0, web: Path | None = None):
        binary = hub_binary()
        if not binary.exists():
            raise RuntimeError(f"hub binary {binary} not found: run `swift build` (or set CAMHUB)")
        args = [str(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--web", str(web or WEB)] + (extra_args or [])
        self.proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, "out"), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, "err"), daemon=True).start()
        deadline = Deadline(startup_timeout)
        self.url = None
        while not deadline.passed():
            try:
                line = self.lines.get(timeout=min(0.2, deadline.left()) or 0.01)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            m = LISTENING.search(line)
            if m:
                self.url = m.group(1)
                self.port = int(m.group(2))
                break
        if self.url is None:
            self.stop()
            raise RuntimeError("hub did not print its port within %.0f s; output:\n%s" % (startup_timeout, "\n".join(self.output)))
        self.ws_url = f"ws://127.0.0.1:{self.port}/hub"

    def _pump(self, stream, name):
        for line in stream:
            line = line.rstrip("\n")
            self.output.append(f"[{name}] {line}")
            if name == "out":
                self.lines.put(line)

    def page(self, **params) -> str:
        from urllib.parse import urlencode

        q = urlencode({k: v for k, v in params.items() if v is not None})
        return f"{self.url}/" + (f"?{q}" if q else "")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


# ---------------------------------------------------------------------------
# A Python client of the hub (presenter, driver or follower)
# ---------------------------------------------------------------------------


class HubClient:
    """A protocol v1 client on its own thread, recording everything the hub sends."""

    def __init__(self, ws_url: str, room: str, role: str, name: str = "py", viewport=(1280, 720), timeout: float = 10.0):
        from websockets.sync.client import connect

        self.ws = connect(ws_url, subprotocols=[SUBPROTOCOL], open_timeout=timeout, close_timeout=2)  # closed in close()
        self.messages: list[dict] = []
        self.pings = 0  # sync() pings sent (their `t`)
        self.lock = threading.Lock()
        self.cond = threading.Condition(self.lock)
        self.send({"type": "hello", "room": room, "role": role, "name": name,
                   "viewport": {"width": viewport[0], "height": viewport[1]}})
        self.closed = False
        threading.Thread(target=self._run, daemon=True).start()
        self.welcome = self.wait_for(lambda m: m["type"] in ("welcome", "error"), timeout, "welcome")
        if self.welcome["type"] != "welcome":
            raise RuntimeError(f"hello refused: {self.welcome}")
        self.client = self.welcome["client"]

    def _run(self):
        try:
            for text in self.ws:
                m = json.loads(text)
                m["_received"] = time.monotonic()
                with self.cond:
                    self.messages.append(m)
                    self.cond.notify_all()
        except Exception:
            pass
        finally:
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def send(self, message: dict):
        self.ws.send(json.dumps(message))

    def wait_for(self, predicate, timeout: float, what: str, start: int = 0) -> dict:
        """The first message (from index `start`) matching predicate; AssertionError after timeout."""
        deadline = Deadline(timeout)
        with self.cond:
            while True:
                for m in self.messages[start:]:
                    if predicate(m):
                        return m
                if self.closed:
                    raise AssertionError(f"hub connection closed while waiting for {what}")
                if deadline.passed():
                    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
                self.cond.wait(timeout=min(0.1, deadline.left()) or 0.01)

    def mark(self) -> int:
        with self.lock:
            return len(self.messages)

    def frames(self, start: int = 0) -> list[dict]:
        with self.lock:
            return [m for m in self.messages[start:] if m["type"] == "frame"]

    def errors(self) -> list[dict]:
        with self.lock:
            return [m for m in self.messages if m["type"] == "error"]

    def camera(self) -> dict:
        """The newest camera this client knows (last frame, else welcome)."""
        frames = self.frames()
        return (frames[-1] if frames else self.welcome)["camera"]

    def wait_rest(self, timeout: float, start: int = 0, what: str = "a resting frame") -> dict:
        """The first `moving: false` frame after message index `start`."""
        return self.wait_for(lambda m: m["type"] == "frame" and not m["moving"], timeout, what, start)

    def wait_quiet(self, quiet: float, timeout: float, start: int | None = None) -> dict:
        """Waits until the camera rests and no frame has come for `quiet` s; returns that camera.
        With `start` (a mark()), at least one frame must have come after it."""
        deadline = Deadline(timeout)
        while not deadline.passed():
            frames = self.frames()
            if start is None or self.frames(start):
                last = frames[-1] if frames else self.welcome
                resting = not frames or not frames[-1]["moving"]
                if resting and time.monotonic() - last["_received"] >= quiet:
                    return last["camera"]
            time.sleep(0.05)
        raise AssertionError(f"hub camera did not come to rest within {timeout} s")

    def sync(self, timeout: float = 10.0):
        """A ping round trip: the hub handles one connection's messages in order, so once its pong is here,
        everything sent before it has been applied (no sleep to guess how long that takes)."""
        self.pings += 1
        t = float(self.pings)
        mark = self.mark()
        self.send({"type": "ping", "t": t})
        self.wait_for(lambda m: m["type"] == "pong" and m.get("t") == t, timeout, "the pong of a sync ping", mark)

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass


# ---------------------------------------------------------------------------
# Web Mercator (the shared projection, flat views) for expected values
# ---------------------------------------------------------------------------


def world_size(zoom: float) -> float:
    return 512.0 * 2.0 ** zoom


def mercator(lat: float, lon: float, zoom: float) -> tuple[float, float]:
    ws = world_size(zoom)
    lat = max(-85.051129, min(85.051129, lat))
    x = (lon + 180.0) / 360.0 * ws
    y = (180.0 - 180.0 / math.pi * math.log(math.tan(math.pi / 4 + lat * math.pi / 360.0))) / 360.0 * ws
    return x, y


def inverse_mercator(x: float, y: float, zoom: float) -> tuple[float, float]:
    ws = world_size(zoom)
    lon = x / ws * 360.0 - 180.0
    lat = 360.0 / math.pi * math.atan(math.exp((180.0 - y / ws * 360.0) * math.pi / 180.0)) - 90.0
    return lat, lon


def flat_unproject(camera: dict, viewport: tuple[int, int], x: float, y: float) -> tuple[float, float]:
    """Geo point under view point (x, y) for a camera with tilt 0 (any bearing), centred anchor."""
    assert camera["tilt"] == 0
    cx, cy = mercator(camera["lat"], camera["lon"], camera["zoom"])
    dx, dy = x - viewport[0] / 2, y - viewport[1] / 2
    b = math.radians(camera["bearing"])
    wx = cx + dx * math.cos(b) - dy * math.sin(b)
    wy = cy + dx * math.sin(b) + dy * math.cos(b)
    return inverse_mercator(wx, wy, camera["zoom"])


def flat_project(camera: dict, viewport: tuple[int, int], lat: float, lon: float) -> tuple[float, float]:
    assert camera["tilt"] == 0
    cx, cy = mercator(camera["lat"], camera["lon"], camera["zoom"])
    # the copy of lon nearest the camera
    lon = camera["lon"] + ((lon - camera["lon"] + 180.0) % 360.0 - 180.0)
    px, py = mercator(lat, lon, camera["zoom"])
    dx, dy = px - cx, py - cy
    b = math.radians(camera["bearing"])
    return (viewport[0] / 2 + dx * math.cos(b) + dy * math.sin(b),
            viewport[1] / 2 - dx * math.sin(b) + dy * math.cos(b))


# ---------------------------------------------------------------------------
# Headless Chromium
# ---------------------------------------------------------------------------


def chrome(width: int = 1280, height: int = 720):
    """A headless Chromium WebDriver with browser console logging; never downloads anything."""
    os.environ.setdefault("SE_OFFLINE", "true")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--use-angle=swiftshader",
              "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist", f"--window-size={width},{height}",
              "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
              "--disable-backgrounding-occluded-windows", "--no-first-run", "--no-default-browser-check",
              "--disable-extensions", "--disable-component-update", "--disable-sync", "--metrics-recording-only",
              "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]:
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=opts)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    set_viewport(driver, width, height)
    return driver


def set_viewport(driver, width: int, height: int):
    """Makes the page's layout viewport exactly width x height CSS px at device scale 1."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def js(driver, expression: str):
    return driver.execute_script(f"return {expression};")


def wait_joined(driver, timeout: float = 20.0):
    """Waits until the page is joined to its room and the map's style has loaded."""
    return wait_until(lambda: js(driver, "window.camhub && camhub.state === 'joined' && camhub.client && "
                                         "camhub.stats.mapLoaded && camhub.client"),
                      timeout, "the page to join its room and load the map")


def wait_page_camera(driver, camera: dict, timeout: float = 10.0):
    """Waits until the page has rendered exactly `camera` and holds it (settled)."""
    def check():
        r = driver.execute_script("return {rendered: camhub.rendered, settled: camhub.settled};")
        return r if r["settled"] and r["rendered"] == camera else None

    try:
        return wait_until(check, timeout, f"the page to land on {camera}")
    except AssertionError as e:
        r = driver.execute_script("return {rendered: camhub.rendered, settled: camhub.settled, stats: camhub.stats};")
        raise AssertionError(f"{e}; page has {r}") from None


def settle_at(setter, observer, browser, camera: dict) -> dict:
    """A Python driver sets `camera`; returns the hub's resting camera once the page shows it exactly."""
    mark = observer.mark()
    setter.send({"type": "set", "camera": camera})
    rest = observer.wait_rest(10, mark, "the hub to apply set")["camera"]
    wait_page_camera(browser, rest)
    # Start the caller's marks from a quiet room: CI once saw one more frame of this
    # set reach the observer after the page had shown it.
    observer.wait_quiet(0.3, 5)
    return rest


def severe_logs(driver) -> list[str]:
    return [f"{e['level']}: {e['message']}" for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def mouse(driver, kind: str, x: float, y: float, button: str = "left", buttons: int = 1, click_count: int = 0):
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
        "type": kind, "x": x, "y": y, "button": button, "buttons": buttons, "clickCount": click_count,
        "pointerType": "mouse"})


def drag(driver, start, end, steps: int = 20, hold: float = 0.25, step_pause: float = 0.016):
    """A left-button drag with CDP mouse events; holds still before releasing (no fling)."""
    (x0, y0), (x1, y1) = start, end
    mouse(driver, "mouseMoved", x0, y0, button="none", buttons=0)
    mouse(driver, "mousePressed", x0, y0, click_count=1)
    for i in range(1, steps + 1):
        f = i / steps
        mouse(driver, "mouseMoved", x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)
        time.sleep(step_pause)
    time.sleep(hold)
    mouse(driver, "mouseReleased", x1, y1, click_count=1, buttons=0)


def wheel(driver, x: float, y: float, delta_y: float):
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
        "type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": delta_y, "pointerType": "mouse"})


def touch(driver, kind: str, points: list[tuple[float, float]]):
    """CDP touch event: kind touchStart|touchMove|touchEnd, points [(x, y), …] (ids 0, 1, …)."""
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": i, "radiusX": 1, "radiusY": 1, "force": 1}
                                      for i, (x, y) in enumerate(points)]})


def key(driver, key_name: str, code: str, key_code: int):
    """A key press (keyDown + keyUp) with CDP, e.g. key(driver, "ArrowLeft", "ArrowLeft", 37)."""
    for kind in ("rawKeyDown", "keyUp"):
        driver.execute_cdp_cmd("Input.dispatchKeyEvent", {
            "type": kind, "key": key_name, "code": code, "windowsVirtualKeyCode": key_code})


def input_applied(browser, observer: HubClient, start: int, timeout: float = 10.0) -> dict:
    """The room's camera once the hub has applied all of the page's input, animations it started included:
    waits until the hub has acknowledged the last gesture the page sent (`gestureAck`), then for the
    observer's first resting frame (from message index `start`) that shows it (frame `time` ≥ that
    acknowledgement's hub time). Event-driven: no quiet period to guess on a loaded machine."""
    ack = wait_until(lambda: js(browser, "(p => { const s = p.sentLog.at(-1), a = p.ackLog.at(-1); "
                                         "return s && a && a.seq >= s.seq ? a : null; })(camhub.prediction)"),
                     timeout, "the hub to acknowledge the page's last gesture")
    return observer.wait_for(lambda m: m["type"] == "frame" and not m["moving"] and m["time"] >= ack["time"],
                             timeout, "a resting frame showing the page's last gesture", start)["camera"]


def page_double_click(browser, x: float, y: float):
    """A double-click at (x, y) dispatched by the page itself in one task: the two presses are always within the
    recognizer's double-tap window (CDP round trips on a loaded machine can take longer than that window)."""
    browser.execute_script("""
        const [x, y] = arguments;
        const el = document.querySelector('#map');
        const r = el.getBoundingClientRect();
        const fire = (type, buttons) => el.dispatchEvent(new PointerEvent(type, {
          bubbles: true, cancelable: true, pointerId: 9, pointerType: 'mouse', isPrimary: true, button: 0, buttons,
          clientX: r.left + x, clientY: r.top + y }));
        for (let i = 0; i < 2; i++) { fire('pointerdown', 1); fire('pointerup', 0); }
    """, x, y)


def page_drag(browser, points: list[tuple[float, float]], interval_ms: float = 16, hold_ms: float = 0) -> float:
    """A mouse drag through `points`, dispatched by the page itself every `interval_ms` (CDP round trips on a
    loaded machine are slower than a real mouse); released `hold_ms` after the last move (with 0, in the same
    task as the last move: a fling whatever the machine's load). Returns the page time of the release."""
    return browser.execute_async_script("""
        const [points, interval, hold, done] = arguments;
        const el = document.querySelector('#map');
        const r = el.getBoundingClientRect();
        const fire = (type, [x, y], buttons) => el.dispatchEvent(new PointerEvent(type, {
          bubbles: true, cancelable: true, pointerId: 7, pointerType: 'mouse', isPrimary: true, button: 0, buttons,
          clientX: r.left + x, clientY: r.top + y }));
        fire('pointerdown', points[0], 1);
        let i = 1;
        const release = () => { fire('pointerup', points.at(-1), 0); done(camhub.now()); };
        const next = () => {
          fire('pointermove', points[i++], 1);
          if (i < points.length) setTimeout(next, interval);
          else if (hold > 0) setTimeout(release, hold);
          else release();  // in the same task as the last move: released while moving, however late timers run
        };
        setTimeout(next, interval);
    """, [list(p) for p in points], interval_ms, hold_ms)
