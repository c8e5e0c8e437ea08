"""Tokens that live as long as sessions: the client refreshes its token on its own (`get_token`)
when the hub says it expires soon, and joins again with a new one after a revocation."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import camhub
from conftest import Hub, ROOT

SECRET = "a loopback test secret, 32 bytes or more"


@pytest.fixture
def secured():
    """A hub with a token secret and a revoked-ids file: (hub, make_token, revoked_file)."""
    with tempfile.TemporaryDirectory() as directory:
        secret, revoked = Path(directory, "secret"), Path(directory, "revoked")
        secret.write_text(SECRET)
        revoked.write_text("")
        hub = Hub(args=("--token-secret-file", str(secret), "--revoked-file", str(revoked)))
        binary = os.environ.get("CAMHUB", str(ROOT / ".build" / "debug" / "camhub"))

        def token(ttl: str, jti: str | None = None) -> str:
            command = [binary, "token", "--secret-file", str(secret), "--room", "demo", "--role", "driver", "--ttl", ttl]
            return subprocess.run(command + (["--jti", jti] if jti else []), check=True, capture_output=True, text=True).stdout.strip()

        try:
            yield hub, token, revoked
        finally:
            hub.stop()


def test_get_token_refreshes_the_session_before_its_token_runs_out(secured, wire):
    hub, token, _ = secured
    fresh = []

    async def get_token() -> str:
        fresh.append(token("1h"))
        return fresh[-1]

    async def main():
        started = time.time()
        async with camhub.connect(hub.url, "demo", role="driver", token=token("4s"), get_token=get_token, on_wire=wire) as room:
            while room.refreshes == 0:
                await asyncio.sleep(0.01)  # warned at once (less than a minute left), refreshed on its own
            assert room.token_exp is not None and room.token_exp > started + 3000
            await asyncio.sleep(max(0.0, started + 5 - time.time()))  # past the first token's expiry
            await room.set(camhub.Camera(zoom=6))
            assert room.reconnects == 0, "the session went on, not a new one"
            assert room.hello["token"] == fresh[-1], "a later reconnection joins with the new token"

    asyncio.run(main())


def test_a_revoked_client_with_get_token_joins_again_with_a_new_token(secured, wire):
    hub, token, revoked = secured

    async def main():
        async with camhub.connect(hub.url, "demo", role="driver", token=token("1h", jti="t-1"),
                                  get_token=lambda: token("1h", jti="t-2"), on_wire=wire) as room:
            first = room.client
            revoked.write_text("t-1\n")
            hub.proc.send_signal(signal.SIGHUP)
            while room.reconnects == 0:
                await asyncio.sleep(0.01)
            assert room.client != first
            await room.set(camhub.Camera(zoom=7))

    asyncio.run(main())


def test_a_refresh_the_hub_does_not_take_raises_its_token_error_and_the_old_token_stays(secured, wire):
    hub, token, _ = secured

    async def main():
        async with camhub.connect(hub.url, "demo", role="driver", token=token("1h"), on_wire=wire) as room:
            with pytest.raises(camhub.HubError) as refused:
                await room.refresh("not.a-valid.token")
            assert refused.value.code == "token"
            await room.set(camhub.Camera(zoom=5))

    asyncio.run(main())
