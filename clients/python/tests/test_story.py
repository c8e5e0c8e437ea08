"""The room's storyboard through the Python client, against a real hub: a presenter sets
and steps it, a follower hears where the room is, a joiner finds it in its welcome."""

from __future__ import annotations

import json

import pytest

import camhub
from test_room import until

STEPS = [
    {"camera": camhub.Camera(lat=38.72, lon=-9.14, zoom=11.0), "via": "jump", "title": "Lisbon", "notes": "The Tagus."},
    {"camera": {"lat": 41.15, "lon": -8.61, "zoom": 12, "roll": -8}, "duration": 0.3, "hold": 0, "title": "Porto"},
]


def test_a_presenter_steps_through_its_storyboard_and_a_follower_lands_on_each_step(hub, wire):
    async def main():
        async with camhub.connect(hub.url, "story", role="presenter", on_wire=wire) as presenter, \
                camhub.connect(hub.url, "story", on_wire=wire) as follower:
            assert follower.story is None
            await presenter.set_story(STEPS)
            await until(lambda: follower.story is not None and follower.story["count"] == 2, what="storyChanged")
            await presenter.step("next")
            await until(lambda: follower.story["title"] == "Lisbon", what="the first step")
            await presenter.step(1, id="porto")
            await until(lambda: follower.camera is not None and follower.camera.roll == -8.0, what="the second step's camera")
            assert follower.story["index"] == 1 and follower.story["title"] == "Porto"
            with pytest.raises(camhub.HubError) as refused:
                await presenter.step("next")
            assert refused.value.message == "to: next: the room is on the last step (1 of 0…1)"
            async with camhub.connect(hub.url, "story", on_wire=wire) as late:
                assert late.story == {"count": 2, "index": 1, "title": "Porto", "notes": None, "playing": False,
                                      "drivers": False}

    import asyncio
    asyncio.run(main())


def test_a_storyboard_larger_than_one_message_is_split_into_a_set_and_inserts():
    steps = [{"camera": {"lat": i / 10, "lon": 0, "zoom": 5}, "notes": "n" * 500} for i in range(60)]
    messages = camhub.story_messages(steps, drivers=True)
    assert messages[0]["op"] == "set" and messages[0]["drivers"] is True
    assert len(messages) > 1 and all(m["op"] == "insert" for m in messages[1:])
    assert all(len(json.dumps(m, separators=(",", ":")).encode()) <= 8192 for m in messages)
    assert sum(len(m["steps"]) for m in messages) == 60


def test_a_presenter_reads_the_storyboard_whole_and_a_follower_may_not(hub, wire):
    async def main():
        async with camhub.connect(hub.url, "story-read", role="presenter", on_wire=wire) as presenter, \
                camhub.connect(hub.url, "story-read", on_wire=wire) as follower:
            await presenter.set_story(STEPS)
            await presenter.step(1)
            answer = await presenter.query("story")
            assert [s["title"] for s in answer["steps"]] == ["Lisbon", "Porto"]
            assert answer["steps"][1]["camera"]["roll"] == -8.0 and answer["index"] == 1 and answer["playing"] is False
            with pytest.raises(camhub.HubError) as refused:
                await follower.query("story")
            assert refused.value.code == "forbidden"

    import asyncio
    asyncio.run(main())
