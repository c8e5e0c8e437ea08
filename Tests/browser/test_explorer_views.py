"""The audience's view in the viewer, against the real hub in headless Chromium: a presenter's page outlines
where an exploring follower looks (its region, from the hub's `viewports`), lists it with its buttons, brings
that one follower back, and looks where it looks; an exploring page tells the hub the region it shows."""

from hubtools import drag, flat_unproject, js, wait_joined, wait_until

EVE = {"lat": 48.85, "lon": 2.35, "zoom": 13.0, "bearing": 0.0, "tilt": 0.0}
CORNERS = [(0, 0), (800, 0), (800, 600), (0, 600)]
EVE_REGION = [[lon, lat] for lat, lon in (flat_unproject(EVE, (800, 600), x, y) for x, y in CORNERS)]


def presenter_page_with_explorer(hub, browser, clients, room: str):
    """The page joined as presenter Pat; a Python follower Eve (800×600) exploring at EVE. Returns Eve."""
    browser.get(hub.page(room=room, role="presenter", name="Pat"))
    wait_joined(browser)
    eve = clients(room, "follower", name="Eve", viewport=(800, 600))
    eve.send({"type": "follow", "state": "exploring"})
    eve.send({"type": "looking", "region": EVE_REGION})
    return eve


def test_a_presenters_page_outlines_where_an_explorer_looks_and_names_it(hub, browser, clients):
    eve = presenter_page_with_explorer(hub, browser, clients, "outlines")
    shown = wait_until(lambda: (lambda v: v if v["outlines"] == 1 else None)(js(browser, "camhub.explorerViews")), 10,
                       "Eve's area on the map")
    assert shown["listed"] == ["Eve"]
    assert shown["views"][0]["client"] == eve.client
    for corner, (lon, lat) in zip(shown["views"][0]["region"], EVE_REGION):
        assert abs(corner[1] - lat) < 1e-9 and abs(corner[0] - lon) < 1e-9, (corner, lat, lon)
    assert eve.errors() == []


def test_bring_back_summons_only_that_explorer(hub, browser, clients):
    eve = presenter_page_with_explorer(hub, browser, clients, "bringback")
    sam = clients("bringback", "follower", name="Sam")
    sam.send({"type": "follow", "state": "exploring"})
    wait_until(lambda: js(browser, "camhub.explorerViews.listed") == ["Eve"], 10, "Eve listed")
    mark = eve.mark()
    browser.find_element("css selector", "#explorer-views li button[data-action=back]").click()
    summoned = eve.wait_for(lambda m: m["type"] == "event" and m["event"] == "summoned", 10, "Eve's summons", mark)
    assert summoned["by"]["name"] == "Pat"
    sam.sync()
    assert not [m for m in sam.messages if m.get("event") == "summoned"], "only Eve was called back"


def test_look_here_moves_the_presenters_view_to_the_explorers(hub, browser, clients):
    presenter_page_with_explorer(hub, browser, clients, "lookhere")
    wait_until(lambda: js(browser, "camhub.explorerViews.listed") == ["Eve"], 10, "Eve listed")
    browser.find_element("css selector", "#explorer-views li button[data-action=look]").click()
    wait_until(lambda: (lambda c: c and abs(c["lat"] - EVE["lat"]) < 1e-3 and abs(c["lon"] - EVE["lon"]) < 1e-6
                        and 11 < c["zoom"] < EVE["zoom"] + 0.5)(js(browser, "camhub.hubCamera")), 10,
               "the room showing Eve's region")


def test_an_exploring_page_tells_the_hub_what_it_shows(hub, browser, clients):
    presenter = clients("looking", "presenter", name="Pat")
    mark = presenter.mark()
    presenter.send({"type": "set", "camera": EVE})
    presenter.wait_rest(10, mark, "the presenter's set")
    browser.get(hub.page(room="looking", role="follower", name="wanderer"))
    me = wait_joined(browser)
    mark = presenter.mark()
    drag(browser, (640, 360), (340, 200), steps=10)
    views = presenter.wait_for(lambda m: m["type"] == "event" and m["event"] == "viewports" and m["clients"]
                               and m["clients"][0]["region"][0][0] > EVE_REGION[0][0], 10, "the page's region", mark)
    assert views["clients"][0]["client"] == me
    wait_until(lambda: js(browser, "camhub.follow.mode === 'exploring'"), 10, "the page to explore")

    def hub_has_what_the_page_shows():
        shown = page_region(browser)
        with presenter.lock:
            told = [m["clients"][0]["region"] for m in presenter.messages[mark:]
                    if m["type"] == "event" and m["event"] == "viewports" and m["clients"]]
        return any(all(abs(a[0] - b[0]) < 1e-5 and abs(a[1] - b[1]) < 1e-5 for a, b in zip(r, shown)) for r in told)

    wait_until(hub_has_what_the_page_shows, 10, "the hub to have the camera the page shows once it rests")


def page_region(browser):
    """The ground under the page's map corners, as MapLibre itself unprojects them: [[lon, lat]×4]."""
    return js(browser, "(() => { const m = camhub.map; const c = m.getContainer(); const w = c.clientWidth, h = c.clientHeight;"
                       " return [[0, 0], [w, 0], [w, h], [0, h]].map(([x, y]) => { const g = m.unproject([x, y]);"
                       " return [g.lng, g.lat]; }); })()")
