"""Fixtures: a fresh hub per test, one headless Chromium per test, Python hub clients."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import wirecheck  # noqa: E402
from hubtools import Hub, HubClient, chrome  # noqa: E402


@pytest.fixture
def hub():
    h = Hub()
    yield h
    h.stop()


@pytest.fixture
def browser():
    driver = chrome(1280, 720)
    sent = wirecheck.install(driver)
    yield driver
    wirecheck.collect(driver, sent)
    driver.quit()
    bad = wirecheck.problems("client", sent)
    if bad:
        pytest.fail(f"{len(bad)} of {len(sent)} messages the page sent do not match docs/asyncapi.yaml:\n" + "\n".join(bad[:10]))


@pytest.fixture
def clients(hub):
    """Factory for Python hub clients, closed after the test: clients(room, role, name)."""
    made = []

    def make(room, role, name="py", viewport=(1280, 720)):
        c = HubClient(hub.ws_url, room, role, name=name, viewport=viewport)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()
    received = []
    for c in made:
        with c.lock:
            received += [{k: v for k, v in m.items() if k != "_received"} for m in c.messages]
    bad = wirecheck.problems("hub", received)
    if bad:
        pytest.fail(f"{len(bad)} of {len(received)} messages the hub sent do not match docs/asyncapi.yaml:\n" + "\n".join(bad[:10]))


def pytest_terminal_summary(terminalreporter):
    from test_projection import NOTES

    terminalreporter.write_line(f"schema check (docs/asyncapi.yaml): {wirecheck.CHECKED['client']} messages the pages sent, "
                                f"{wirecheck.CHECKED['hub']} the hub sent to Python clients")

    for note in NOTES:
        terminalreporter.write_line(note)
