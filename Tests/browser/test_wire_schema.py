"""The schema check of the browser tests reaches the real page: what the viewer
sends leaves through clients/js/src/net/connection.js into the log wirecheck installs, and
an invalid message is reported with the rule of docs/asyncapi.yaml it breaks."""

import json

import wirecheck
from hubtools import js, wait_joined, wait_until


def test_the_pages_messages_reach_the_schema_check_and_a_bad_one_is_named(hub, browser):
    browser.get(hub.page(room="schema", role="driver", name="checker"))
    wait_joined(browser)
    # a message the hub refuses (unknown key in camera): the page sends it through its Connection
    js(browser, "camhub.send({type: 'set', camera: {lng: 2.35}}) && 'sent'")
    wait_until(lambda: js(browser, "(window.__camhubSent || []).some((t) => t.includes('lng'))"), 10,
               "the page's log to hold the message")
    sent: list[str] = []
    wirecheck.collect(browser, sent)  # takes the page's log (the fixture's end-of-test check sees none of it)
    types = [json.loads(t)["type"] for t in sent]
    assert types[0] == "hello", types
    assert "set" in types
    bad = wirecheck.problems("client", sent)
    assert len(bad) == 1, bad
    assert "$.camera: Additional properties are not allowed ('lng' was unexpected)" in bad[0]
    assert "asyncapi.yaml#/components/schemas/PartialCamera/additionalProperties" in bad[0]
