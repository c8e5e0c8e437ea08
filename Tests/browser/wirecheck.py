"""The browser tests' half of the protocol schema check: every message the
viewer page sends (clients/js/src/net/connection.js hands each one to
`window.__camhubWireTap`, installed here before the page's scripts run) and
every message the hub sends to the tests' Python clients is validated against
docs/asyncapi.yaml with scripts/validate_messages.py (Python's jsonschema), in
this process. A test whose page or hub sent an invalid message fails at
teardown with the message and the schema rule it broke.
"""

from __future__ import annotations

import sys
from functools import lru_cache

from hubtools import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import validate_messages  # noqa: E402

# Runs in every new document before its scripts: a log the page's Connection appends to.
TAP_SOURCE = "window.__camhubSent = []; window.__camhubWireTap = (text) => window.__camhubSent.push(text);"


@lru_cache(maxsize=1)
def schema() -> validate_messages.Schema:
    return validate_messages.Schema(ROOT / "docs" / "asyncapi.yaml")


def install(driver):
    """Records what each page of `driver` sends; `driver.get` keeps the log of the page it leaves.
    Returns the list the texts are collected into."""
    sent: list[str] = []
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TAP_SOURCE})
    original_get = driver.get

    def get(url):
        collect(driver, sent)
        original_get(url)

    driver.get = get
    return sent


def collect(driver, sent: list[str]):
    """Appends the current page's log to `sent` and empties it (nothing when the page has none)."""
    try:
        texts = driver.execute_script("const s = window.__camhubSent || []; window.__camhubSent = []; return s;")
    except Exception:  # no page yet, or the browser is gone: nothing to collect
        return
    sent.extend(texts or [])


# Messages checked in this session, by sender (for the summary line).
CHECKED = {"client": 0, "hub": 0}


def problems(sender: str, items) -> list[str]:
    """One line per invalid message (texts or parsed dicts); [] when all match."""
    out = []
    for item in items:
        CHECKED[sender] += 1
        try:
            value = validate_messages.parse(item) if isinstance(item, str) else item
            schema().check(sender, value)
        except (ValueError, validate_messages.Invalid) as e:
            out.append(f"{sender} message {str(item)[:300]}\n  {e}")
    return out
