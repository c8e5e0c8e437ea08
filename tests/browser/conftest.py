"""Fixtures: a fresh hub per test, one headless Chromium per test, Python hub clients."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hubtools import Hub, HubClient, chrome  # noqa: E402


@pytest.fixture
def hub():
    h = Hub()
    yield h
    h.stop()


@pytest.fixture
def browser():
    driver = chrome(1280, 720)
    yield driver
    driver.quit()


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


def pytest_terminal_summary(terminalreporter):
    from test_projection import NOTES

    for note in NOTES:
        terminalreporter.write_line(note)
