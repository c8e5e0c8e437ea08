"""The audience's view in the viewer, against the real hub in headless Chromium: a presenter's page outlines
where an exploring follower looks (its region, from the hub's `viewports`), lists it with its buttons, brings
that one follower back, and looks where it looks; an exploring page tells the hub the region it shows."""

from hubtools import chrome, drag, flat_unproject, js, wait_joined, wait_until

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


def test_look_here_shows_the_region_on_the_presenters_own_map_and_the_room_stays(hub, browser, clients):
    presenter_page_with_explorer(hub, browser, clients, "lookhere")
    wait_until(lambda: js(browser, "camhub.explorerViews.listed") == ["Eve"], 10, "Eve listed")
    room = js(browser, "camhub.hubCamera")
    browser.find_element("css selector", "#explorer-views li button[data-action=look]:not(.explorer-name)").click()
    wait_until(lambda: (lambda c: c and abs(c["lat"] - EVE["lat"]) < 1e-3 and abs(c["lon"] - EVE["lon"]) < 1e-6
                        and 11 < c["zoom"] < EVE["zoom"] + 0.5)(js(browser, "camhub.rendered")), 10,
               "the page showing Eve's region")
    assert js(browser, "camhub.explorerViews.lookingAt") is not None
    assert js(browser, "!document.querySelector('#look-banner').hidden")
    assert js(browser, "camhub.hubCamera") == room, "the room's camera stays"
    browser.find_element("css selector", "#back-to-room").click()
    wait_until(lambda: js(browser, "camhub.follow.mode === 'following'"), 10, "the page back on the room's camera")
    assert js(browser, "document.querySelector('#look-banner').hidden")


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


def test_an_exploring_followers_outline_appears_at_its_real_region_and_goes_when_it_stops_sharing(hub, browser):
    browser.get(hub.page(room="sharing", role="presenter", name="Pat"))
    wait_joined(browser)
    follower = chrome(800, 600)
    try:
        follower.get(hub.page(room="sharing", role="follower", name="Eve"))
        eve = wait_joined(follower)
        drag(follower, (400, 300), (250, 200), steps=10)
        wait_until(lambda: js(follower, "camhub.follow.mode === 'exploring'"), 10, "Eve's page to explore")

        def outline_matches_the_page():
            shown = js(browser, "camhub.explorerViews.rings")
            real = page_region(follower)
            ring = shown[0]["ring"] if shown and shown[0]["client"] == eve else None
            return ring and all(abs(a[0] - b[0]) < 1e-5 and abs(a[1] - b[1]) < 1e-5 for a, b in zip(ring, real))

        wait_until(outline_matches_the_page, 15, "Eve's outline at the region her map really shows")
        assert js(browser, "camhub.explorerViews.listed") == ["Eve"]
        follower.find_element("css selector", "#share-view").click()
        assert js(follower, "camhub.sharing") is False
        assert "do not share" in js(follower, "document.querySelector('#share-note').textContent")
        wait_until(lambda: js(browser, "camhub.explorerViews.outlines") == 0, 10, "Eve's outline to go")
        assert js(browser, "camhub.explorerViews.listed") == []
        assert js(follower, "localStorage.getItem('camhub.share')") == "0", "off is remembered"
    finally:
        follower.quit()
