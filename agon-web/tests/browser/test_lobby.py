"""The lobby in real browsers: a seek posted in one browser and accepted in another
starts the same game in both, each with its own seat.

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request

from playwright.sync_api import expect

from conftest import api
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


# The page's lobby stream connects 1.5 s late (a slow network): events reach the page
# only from then on.
LATE_STREAM = """
(() => {
  const Real = window.EventSource;
  window.EventSource = class extends EventTarget {
    constructor(url) {
      super();
      setTimeout(() => {
        const real = new Real(url);
        for (const type of ['seeks', 'seek', 'gone']) {
          real.addEventListener(type, (e) => this.dispatchEvent(new MessageEvent(type, { data: e.data })));
        }
      }, 1500);
    }
  };
})();
"""


def test_a_seek_accepted_at_once_opens_the_game_though_the_stream_was_late(server, new_context):
    """The page posts only once its stream listens: a seek taken the moment it is posted
    still reaches its poster (else the stream's first list, read after the acceptance,
    would lack it, and the poster would never hear of the game)."""
    ctx = new_context()
    ctx.add_init_script(LATE_STREAM)
    ann = ctx.new_page()
    ann.goto(f"{server}/lobby")
    ann.fill("#seek-control", "7+7")
    ann.locator("#seek-form button[type=submit]").click()
    deadline = time.monotonic() + 10
    seek = None
    while seek is None and time.monotonic() < deadline:
        _, listed = api(server, "GET", "/api/lobby/seeks")
        seek = next((s["id"] for s in listed["seeks"] if s["control"] == "7+7"), None)
        time.sleep(0.02)
    assert seek, "the seek was posted"
    # Bob takes it at once, from the site (its origin is localhost's).
    req = urllib.request.Request(
        f"{server}/api/lobby/seeks/{seek}/accept", b"{}", method="POST",
        headers={"Content-Type": "application/json", "Origin": server.replace("127.0.0.1", "localhost")})
    with urllib.request.urlopen(req, timeout=10) as res:
        started = json.load(res)
    ann.wait_for_url(re.compile(f"/g/{started['game']}$"), timeout=TIMEOUT)
