"""The viewer across a planned hub restart: SIGTERM closes it with 1012, the HUD says
"reconnecting…", and once the hub is back (same port, --data) the page rejoins the
same room with the same role and shows the room's camera as it was."""

import signal

from hubtools import Hub, HubClient, js, wait_joined, wait_until


def hud_connection(browser) -> str:
    return js(browser, "document.querySelector('[data-hud=connection]').textContent")


def test_viewer_reconnects_after_sigterm_and_rejoins_its_room_and_role(tmp_path, browser):
    data = str(tmp_path / "data")
    first = Hub(["--data", data])
    second = None
    try:
        browser.get(first.page(room="again", role="driver", name="back"))
        wait_joined(browser)
        presenter = HubClient(first.ws_url, "again", "presenter", name="py")
        presenter.send({"type": "set", "camera": {"lat": 12.5, "lon": 33.25, "zoom": 6.5}})
        camera = presenter.wait_rest(10)["camera"]
        wait_until(lambda: (js(browser, "camhub.hubCamera") or {}).get("zoom") == 6.5, 10, "the page to get the camera")
        presenter.close()
        port = first.port

        first.proc.send_signal(signal.SIGTERM)
        assert first.proc.wait(timeout=10) == 0
        wait_until(lambda: hud_connection(browser).startswith("reconnecting…"), 5, 'the HUD to say "reconnecting…"')
        assert "1012" in hud_connection(browser), hud_connection(browser)

        second = Hub(["--data", data, "--port", str(port)])
        wait_until(lambda: js(browser, "camhub.state") == "joined" and hud_connection(browser) == "connected", 20,
                   "the page to rejoin after the restart")
        assert js(browser, "camhub.role") == "driver"
        assert js(browser, "camhub.params.room") == "again"
        hub_camera = js(browser, "camhub.hubCamera")
        assert {k: hub_camera[k] for k in ("lat", "lon", "zoom")} == {k: camera[k] for k in ("lat", "lon", "zoom")}
    finally:
        first.stop()
        if second is not None:
            second.stop()
