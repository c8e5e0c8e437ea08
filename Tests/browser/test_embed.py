"""The embed example (examples/embed/, served by the hub at /examples/embed/): a plain MapLibre page that
follows a room with the JavaScript client library's `connect` and `attachMapLibre`, in headless Chromium
against the real hub. Its map shows the room's camera, explores on the person's drag and comes back."""

from hubtools import drag, js, wait_until

PARIS = {"lat": 48.8566, "lon": 2.3522, "zoom": 12.0, "bearing": 0.0, "tilt": 0.0}
ROME = {"lat": 41.9, "lon": 12.5, "zoom": 10.0, "bearing": 30.0, "tilt": 20.0}


def map_camera(browser) -> dict:
    return browser.execute_script("""const m = window.embed.map, c = m.getCenter();
        return {lat: c.lat, lon: c.lng, zoom: m.getZoom(), bearing: m.getBearing(), tilt: m.getPitch()};""")


def wait_map_on(browser, camera: dict, what: str):
    def there():
        c = map_camera(browser)
        return (abs(c["lat"] - camera["lat"]) < 1e-6 and abs(c["lon"] - camera["lon"]) < 1e-6
                and abs(c["zoom"] - camera["zoom"]) < 1e-6 and abs(c["bearing"] - camera["bearing"]) < 1e-6
                and abs(c["tilt"] - camera["tilt"]) < 1e-6)
    wait_until(there, 15, what)


def open_embed(hub, browser, clients, room: str, role: str = "follower"):
    """A presenter (Python) with the room at PARIS, and the embed page following it (or driving, as a driver)."""
    presenter = clients(room, "presenter", name="Pat")
    mark = presenter.mark()
    presenter.send({"type": "set", "camera": PARIS})
    presenter.wait_rest(10, mark, "the presenter's set")
    browser.get(f"{hub.url}/examples/embed/?room={room}&role={role}")
    wait_until(lambda: js(browser, "!!window.embed && window.embed.room.joined"), 20, "the embed page to join")
    return presenter


def test_the_embed_page_follows_the_rooms_camera_with_maplibre(hub, browser, clients):
    presenter = open_embed(hub, browser, clients, "embed")
    assert js(browser, "window.embed.room.role") == "follower"
    wait_map_on(browser, PARIS, "the map to show the room's camera")
    mark = presenter.mark()
    presenter.send({"type": "fly", "id": "to-rome", "camera": ROME, "duration": 1.0})
    presenter.wait_for(lambda m: m["type"] == "animation" and m.get("id") == "to-rome" and m["status"] == "finished",
                       15, "the flight to end", mark)
    wait_map_on(browser, ROME, "the map to land where the flight ended")
    assert js(browser, "window.embed.map.dragPan.isEnabled()") is False, "the room moves the map, not MapLibre's handlers"


def test_a_drag_on_the_embed_map_explores_and_back_returns_it_to_the_room(hub, browser, clients):
    presenter = open_embed(hub, browser, clients, "embed-explore")
    wait_map_on(browser, PARIS, "the map to show the room's camera")
    me = js(browser, "window.embed.room.me")
    mark = presenter.mark()
    drag(browser, (640, 360), (340, 200), steps=10)
    presenter.wait_for(lambda m: m["type"] == "event" and m["event"] == "followChanged" and m["client"] == me
                       and m["state"] == "exploring", 10, "the room to hear the page explores", mark)
    explored = map_camera(browser)
    assert explored["lon"] > PARIS["lon"] and explored["lat"] < PARIS["lat"], explored
    presenter.sync()
    assert presenter.frames(mark) == [], "exploring never moves the room's camera"
    mark = presenter.mark()
    js(browser, "window.embed.attached.back()")
    presenter.wait_for(lambda m: m["type"] == "event" and m["event"] == "followChanged" and m["client"] == me
                       and m["state"] == "following", 10, "the room to hear the page follows again", mark)
    wait_map_on(browser, PARIS, "the map to glide back to the room's camera")


def test_a_drivers_drag_on_the_embed_map_moves_the_room_and_the_map_lands_on_the_hubs_camera(hub, browser, clients):
    presenter = open_embed(hub, browser, clients, "embed-drive", role="driver")
    wait_map_on(browser, PARIS, "the map to show the room's camera")
    assert js(browser, "window.embed.room.role") == "driver"
    mark = presenter.mark()
    drag(browser, (640, 360), (340, 200), steps=10)
    rest = presenter.wait_quiet(0.5, 15, mark)  # the pan and its momentum over
    assert rest["lon"] > PARIS["lon"] and rest["lat"] < PARIS["lat"], rest
    wait_map_on(browser, rest, "the driver's map to land on the hub's camera (prediction reconciled)")
