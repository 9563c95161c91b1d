"""The lobby in real browsers: a seek posted in one browser and accepted in another
starts the same game in both, each with its own seat.

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from test_browser import TIMEOUT


def test_a_seek_posted_in_one_browser_and_accepted_in_another_starts_one_game(server, new_context):
    ann = new_context().new_page()
    ann.goto(f"{server}/lobby")
    expect(ann.locator("#seeks-empty")).to_be_visible(timeout=TIMEOUT)
    ann.fill("#seek-control", "10+5")
    ann.locator("#seek-form button[type=submit]").click()
    mine = ann.locator("#seek-list li")
    expect(mine).to_have_count(1, timeout=TIMEOUT)
    seek = mine.get_attribute("data-seek")

    bob = new_context().new_page()
    bob.goto(f"{server}/lobby")
    theirs = bob.locator(f'#seek-list li[data-seek="{seek}"]')
    expect(theirs).to_be_visible(timeout=TIMEOUT)
    theirs.locator("button").click()

    # Both pages open the same game: Bob's by the accept's answer, Ann's by the stream.
    game = re.compile(r"/g/([0-9a-f]{16})$")
    bob.wait_for_url(game, timeout=TIMEOUT)
    ann.wait_for_url(game, timeout=TIMEOUT)
    assert ann.url == bob.url
    gid = game.search(ann.url).group(1)
    tokens = [p.evaluate(f"localStorage.getItem('agon-token:{gid}')") for p in (ann, bob)]
    assert all(tokens) and tokens[0] != tokens[1], "each browser holds its own seat"
    for page in (ann, bob):
        page.wait_for_selector("#board polygon.cell[data-cell]", timeout=TIMEOUT)
    for context in (ann.context, bob.context):
        assert context.page_errors == [], context.page_errors
