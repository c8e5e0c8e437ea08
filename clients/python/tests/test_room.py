"""The Python client against a real hub: joining, commands and their answers,
frames, events, follow mode, refusals and reconnecting after a restart."""

from __future__ import annotations

import asyncio
import math

import pytest

import camhub
from conftest import Hub

PARIS = camhub.Camera(lat=48.8566, lon=2.3522, zoom=11.0)


async def until(predicate, timeout: float = 10, what: str = "the condition"):
    """Waits for `predicate()` (checked after every message the event loop handles), up to `timeout` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.01)


def test_a_fly_returns_how_it_ended_and_a_follower_sees_frames_end_on_that_camera(hub, wire):
    async def main():
        async with camhub.connect(hub.url, "tour", role="presenter", name="ana", on_wire=wire) as presenter, \
                camhub.connect(hub.url, "tour", rate=30, on_wire=wire) as follower:
            frames = []

            async def collect():
                async for frame in follower.frames():
                    frames.append(frame)
                    if not frame.moving:
                        return

            collecting = asyncio.create_task(collect())
            result = await presenter.fly(PARIS, duration=0.5)
            assert result.finished and result.by == presenter.client
            assert math.isclose(result.camera.lat, 48.8566) and result.camera.zoom == 11
            await asyncio.wait_for(collecting, 10)
            assert any(f.moving for f in frames) and frames[-1].camera == result.camera
            assert follower.camera == result.camera and follower.seq == frames[-1].seq
            assert presenter.roster[presenter.client].name == "ana"

    asyncio.run(main())


def test_a_command_the_role_may_not_send_raises_the_hubs_error_and_the_room_goes_on(hub, wire):
    async def main():
        async with camhub.connect(hub.url, "rules", on_wire=wire) as follower:
            with pytest.raises(camhub.HubError) as refused:
                await follower.set(PARIS)
            assert refused.value.code == "forbidden" and refused.value.ref == "set"
            assert await follower.ping() >= 0
            answer = await follower.query("bounds")
            assert answer["what"] == "bounds" and set(answer["bounds"]) == {"south", "west", "north", "east"}

    asyncio.run(main())


def test_a_hello_the_hub_refuses_raises_refused_with_its_reason(hub):
    async def main():  # (the hello is invalid on purpose: not checked against the schema)
        with pytest.raises(camhub.Refused) as refused:
            async with camhub.connect(hub.url, "my room!"):
                pass
        assert refused.value.code == "bad_message" and refused.value.message.startswith("room:")

    asyncio.run(main())


def test_follow_states_a_summons_and_the_lock(hub, wire):
    async def main():
        async with camhub.connect(hub.url, "class", role="presenter", name="Pat", on_wire=wire) as presenter, \
                camhub.connect(hub.url, "class", name="Eve", on_wire=wire) as student:
            summoned = []
            student.on("summoned", summoned.append)
            await student.follow("exploring")
            await until(lambda: presenter.roster.get(student.client, camhub.RosterEntry("", "", "")).follow == "exploring",
                        what="the presenter to see Eve exploring")
            await until(lambda: presenter.follow_counts == camhub.FollowCounts(0, 1, 0), what="the counts")
            assert await presenter.summon() == 1
            await until(lambda: summoned, what="the summons")
            assert summoned[0]["by"] == {"client": presenter.client, "name": "Pat"}
            await presenter.follow_policy(False)
            await until(lambda: not student.explore_allowed, what="the lock")
            await student.follow("following")
            with pytest.raises(camhub.HubError) as locked:
                await student.follow("exploring")
            assert locked.value.code == "policy"

    asyncio.run(main())


REGION = [[2.3, 48.9], [2.4, 48.9], [2.4, 48.8], [2.3, 48.8]]


def test_a_presenter_sees_where_an_explorer_looks_and_brings_that_one_back(hub, wire):
    async def main():
        async with camhub.connect(hub.url, "audience", role="presenter", name="Pat", on_wire=wire) as presenter, \
                camhub.connect(hub.url, "audience", name="Eve", viewport=(800, 600), on_wire=wire) as student:
            summoned = []
            student.on("summoned", summoned.append)
            await student.follow("exploring")
            await student.looking(REGION)
            await until(lambda: [v["client"] for v in presenter.viewports["clients"]] == [student.client],
                        what="Eve's region")
            view = presenter.viewports["clients"][0]
            assert (view["name"], view["region"], presenter.viewports["others"]) == ("Eve", REGION, 0)
            assert student.viewports == {"clients": [], "others": 0}
            assert await presenter.summon(student.client) == 1
            await until(lambda: summoned, what="the summons")
            await student.looking(None)
            await until(lambda: presenter.viewports["clients"] == [], what="Eve's region to go")

    asyncio.run(main())


def test_looking_refuses_a_region_without_four_corners_naming_it():
    with pytest.raises(ValueError, match=r"region: must be four \(lon, lat\) corners, got 3"):
        camhub.room._region(REGION[:3])
    with pytest.raises(ValueError, match=r"region\[1\]: must be \(lon, lat\) with lat within ±90"):
        camhub.room._region([REGION[0], [2.4, 91], REGION[2], REGION[3]])


def test_the_pointer_and_the_view_reach_the_room(hub, wire):
    async def main():
        async with camhub.connect(hub.url, "laser", role="driver", viewport=(1600, 900), on_wire=wire) as driver, \
                camhub.connect(hub.url, "laser", rate=60, on_wire=wire) as follower:
            pointed = asyncio.Event()
            follower.on("frame", lambda m: pointed.set() if (m.get("pointer") or {}).get("by") == driver.client else None)
            await driver.set(PARIS)
            await driver.pointer(48.8584, 2.2945)
            await asyncio.wait_for(pointed.wait(), 10)
            await until(lambda: follower.view is not None and follower.view["width"] == 1600, what="the view")

    asyncio.run(main())


def test_the_room_is_joined_again_after_the_hub_restarts():
    first = Hub()
    port = first.port

    async def main():
        async with camhub.connect(first.url, "phoenix", role="presenter") as room:
            welcomes = []
            room.on("welcome", welcomes.append)
            first.stop()  # SIGTERM: the hub closes every connection with 1012
            second = Hub(port=port)
            try:
                await until(lambda: room.reconnects == 1, 30, "the client to join again")
                assert welcomes and welcomes[-1]["room"] == "phoenix"
                result = await room.ease(PARIS, duration=0.2)
                assert result.finished
            finally:
                second.stop()

    asyncio.run(main())


def test_backoff_doubles_from_a_quarter_second_to_eight_with_jitter():
    for attempt, base in ((0, 0.25), (1, 0.5), (3, 2.0), (5, 8.0), (9, 8.0)):
        for _ in range(20):
            assert base * 0.75 <= camhub.backoff(attempt) <= base * 1.25


def test_the_example_tour_runs_against_a_hub(hub, monkeypatch, capsys):
    import importlib.util

    from conftest import ROOT

    spec = importlib.util.spec_from_file_location("tour", ROOT / "examples" / "python" / "tour.py")
    tour = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tour)
    monkeypatch.setattr(tour, "STOPS", tour.STOPS[:1])  # one stop keeps the test short

    async def no_pause(_seconds):
        return None

    monkeypatch.setattr(tour.asyncio, "sleep", no_pause)
    asyncio.run(tour.tour(hub.url, "example"))
    assert capsys.readouterr().out.splitlines() == [
        "Paris: finished", "0 followers called back; FollowCounts(following=0, exploring=0, away=0)"]


def test_frames_come_binary_by_default_and_say_to_the_bit_what_the_json_frames_say(hub, wire):
    async def main():
        binary_kinds: list[type] = []
        json_kinds: list[type] = []

        def tap(kinds):
            def record(direction, data):
                wire(direction, data)
                if direction == "received":
                    kinds.append(type(data))
            return record

        async with camhub.connect(hub.url, "bits", role="presenter", on_wire=wire) as presenter, \
                camhub.connect(hub.url, "bits", rate=60, on_wire=tap(binary_kinds)) as binary, \
                camhub.connect(hub.url, "bits", rate=60, encoding="json", on_wire=tap(json_kinds)) as text:
            seen: dict[str, dict[int, camhub.Frame]] = {"binary": {}, "json": {}}

            async def collect(room, into):
                async for frame in room.frames():
                    into[frame.seq] = frame
                    if not frame.moving:
                        return

            tasks = [asyncio.create_task(collect(binary, seen["binary"])), asyncio.create_task(collect(text, seen["json"]))]
            result = await presenter.fly(camhub.Camera(lat=48.8566, lon=2.3522, zoom=11.123456789, bearing=33.3), duration=0.5)
            await asyncio.wait_for(asyncio.gather(*tasks), 10)
            assert bytes in binary_kinds and bytes not in json_kinds
            both = set(seen["binary"]) & set(seen["json"])
            assert len(both) > 5
            for seq in both:
                b, j = seen["binary"][seq], seen["json"][seq]
                assert b.camera == j.camera and b.time == j.time and b.moving == j.moving and b.by == j.by
            assert binary.camera == text.camera == result.camera

    asyncio.run(main())


def test_a_rolled_elevated_camera_with_its_own_fov_reaches_binary_and_json_followers_to_the_bit(hub, wire):
    async def main():
        async with camhub.connect(hub.url, "steep", role="presenter", on_wire=wire) as presenter, \
                camhub.connect(hub.url, "steep", rate=60, on_wire=wire) as binary, \
                camhub.connect(hub.url, "steep", rate=60, encoding="json", on_wire=wire) as text:
            await presenter.set_limits(max_tilt=85)
            target = camhub.Camera(lat=46.55, lon=7.98, zoom=13.5, tilt=80, roll=-12.5, elevation=3454.0, fov=50.0)
            result = await presenter.fly(target, duration=0.4)
            assert result.finished
            assert (result.camera.roll, result.camera.elevation, result.camera.fov, result.camera.tilt) == (-12.5, 3454.0, 50.0, 80.0)
            await until(lambda: binary.camera == text.camera == result.camera, what="both followers on the fly's end")

    asyncio.run(main())


def test_a_follower_without_roll_gets_roll_zero_while_others_get_the_roll_and_everyone_hears_the_globe(hub, wire):
    async def main():
        async with camhub.connect(hub.url, "banked", role="presenter", on_wire=wire) as presenter, \
                camhub.connect(hub.url, "banked", render={"roll": False}, on_wire=wire) as level, \
                camhub.connect(hub.url, "banked", on_wire=wire) as everything:
            assert level.render_limited == ["roll"] and everything.render_limited == []
            result = await presenter.ease(camhub.Camera(roll=25.0, bearing=40.0), duration=0.3)
            assert result.finished and result.camera.roll == 25.0
            await until(lambda: everything.camera == result.camera, what="the full camera")
            await until(lambda: level.camera.bearing == 40.0, what="the levelled camera")
            assert level.camera.roll is None and everything.camera.roll == 25.0
            await presenter.set_projection("globe")
            await until(lambda: level.projection == everything.projection == "globe", what="projectionChanged")

    asyncio.run(main())


def test_a_malformed_binary_frame_is_refused_naming_the_field():
    frame = bytes([1, 0x01]) + (42).to_bytes(8, "little") + bytes(8 + 16)
    try:
        camhub.decode_frame(frame)
    except camhub.ProtocolError as e:
        assert str(e) == "binary frame: camera.zoom needs 8 bytes at offset 34, 0 left"
    else:
        raise AssertionError("a truncated frame decoded")


def test_after_a_drain_the_first_return_is_spread_over_a_window_that_grows_with_the_audience():
    class Widest:
        """An rng that always picks the window's far end."""

        def uniform(self, a, b):
            return b

    from camhub.room import drain_wait
    assert [drain_wait(n, Widest()) for n in (0, 10, 5000, 50000)] == [0.25, 0.25, 5.0, 10.0]


def test_a_dict_of_a_cameras_fields_flies_like_a_camera_and_anything_else_is_a_protocol_error_naming_the_type(hub, wire):
    async def main():
        async with camhub.connect(hub.url, "dicts", role="presenter", on_wire=wire) as presenter:
            result = await presenter.fly({"lat": 48.8566, "lon": 2.3522, "zoom": 11.0}, duration=0.2)
            assert result.finished and (result.camera.lat, result.camera.lon, result.camera.zoom) == (48.8566, 2.3522, 11.0)
            await presenter.set({"bearing": 30, "padding": {"top": 10}})
            with pytest.raises(camhub.ProtocolError, match="a camhub.Camera or a mapping of its fields .* got int"):
                await presenter.fly(42)
            with pytest.raises(camhub.ProtocolError, match="no field 'latitude'"):
                await presenter.ease({"latitude": 48.85})
            with pytest.raises(camhub.ProtocolError, match=r"to\.zoom: a number is wanted, got str"):
                await presenter.animate({"zoom": "12"}, 1)
            assert (await presenter.ease({"zoom": 12}, duration=0.1)).finished, "the room goes on"

    asyncio.run(main())


def test_the_url_names_the_room_the_hello_joins_and_keeps_a_room_or_parameters_already_there():
    from camhub.room import url_with_room
    assert url_with_room("ws://127.0.0.1:8080/hub", "demo") == "ws://127.0.0.1:8080/hub?room=demo"
    assert url_with_room("ws://h/hub?room=other", "demo") == "ws://h/hub?room=other"
    assert url_with_room("wss://h/hub?lag=100", "demo") == "wss://h/hub?lag=100&room=demo"
    assert url_with_room("ws://h/hub", None) == "ws://h/hub"
