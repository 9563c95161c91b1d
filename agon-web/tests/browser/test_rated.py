"""A rated game from end to end in Chromium (issue 33): two browsers each sign up with a
passkey (the virtual authenticator), one posts a rated seek in the lobby, the other
accepts it, both play the game to its end by the rules by clicking on the board, and
both players' pages show the ratings the server's Glicko-2 gave them, checked against
the independent Python implementation of tests/fixtures/glicko2/sequence.py.

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

import importlib.util
import re
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from conftest import REPO, api
from test_account import authenticator, confirm_codes, sign_up
from test_browser import click_cell

TIMEOUT = 10_000

# A short end by the rules (the fewest plies R10 allows; R12 was not searched): White
# walks its six guards into the throne ring, four inward steps each, its queen far from
# the throne, while Black's queen steps between f11 and e10; White's 24th move closes
# the ring and loses (R10). No capture, no forbidden cell, no repeated position. Found by asking the server's analysis board for the legal
# moves at each ply.
RING_WITHOUT_QUEEN = [
    "a5-b5", "f11-e10", "l5-k5", "e10-f11", "b1-c2", "f11-e10", "k1-i2", "e10-f11",
    "d9-d8", "f11-e10", "h9-g9", "e10-f11", "b5-c5", "f11-e10", "k5-i5", "e10-f11",
    "c2-d3", "f11-e10", "i2-h3", "e10-f11", "d8-d7", "f11-e10", "g9-f9", "e10-f11",
    "c5-d5", "f11-e10", "i5-h5", "e10-f11", "d3-e4", "f11-e10", "h3-g4", "e10-f11",
    "d7-d6", "f11-e10", "f9-f8", "e10-f11", "d5-e5", "f11-e10", "h5-g6", "e10-f11",
    "e4-f5", "f11-e10", "g4-g5", "e10-f11", "d6-e6", "f11-e10", "f8-f7",
]


def glicko2():
    """The second implementation of the site's Glicko-2 (the Rust tests' check too)."""
    path = REPO / "agon-web" / "tests" / "fixtures" / "glicko2" / "sequence.py"
    spec = importlib.util.spec_from_file_location("glicko2_sequence", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def signed_up(new_context, site, username):
    """A new browser with its own virtual authenticator, signed up as `username`."""
    # No sliding pieces: a click waits for none to stop.
    page = new_context(reduced_motion="reduce").new_page()
    page.set_default_timeout(TIMEOUT)
    authenticator(page)
    page.goto(f"{site}/account")
    expect(page.locator("#signed-out")).to_be_visible()
    sign_up(page, username)
    confirm_codes(page)
    return page


def click_move(page, source, target, before):
    """Plays `source`-`target` by clicking, on a page whose move list holds `before` moves
    (done once it holds more: a bot may have answered already); clicks again should a
    redraw (a clock's or a presence's event) drop the selection between the two clicks,
    as a person would."""
    moves = page.locator("#moves .mv:not(.mv-none)")
    for _ in range(4):
        if moves.count() > before:
            return
        try:
            page.locator(f'#board g.piece[data-cell="{source}"]').click(timeout=2000)
            expect(page.locator(f'#board polygon.cell.target[data-cell="{target}"]')).to_have_count(1, timeout=2000)
            click_cell(page, target)
            expect(moves.nth(before)).to_be_attached(timeout=5000)
            return
        except (AssertionError, PlaywrightTimeout):
            continue
    raise AssertionError(f"{source}-{target} could not be played by clicking")


def play_by_clicking(pages, moves, start=0):
    """Plays `moves` by clicking, the side to move's page each time (White's first); each
    move waits until the next mover's page shows it."""
    for i, move in enumerate(moves, start):
        source, target = move.split("-")
        click_move(pages[i % 2], source, target, i)
        expect(pages[(i + 1) % 2].locator("#moves .mv:not(.mv-none)")).to_have_count(i + 1, timeout=TIMEOUT)


def test_a_rated_game_from_the_lobby_to_the_end_changes_both_ratings(new_context, passkey_site, catalogues):
    en = catalogues["en"]
    site = passkey_site
    ann = signed_up(new_context, site, "Annika")
    bob = signed_up(new_context, site, "Bodo")

    # Ann posts a rated seek as White; Bob sees it marked rated and accepts it.
    ann.goto(f"{site}/lobby")
    expect(ann.locator("#seeks-empty")).to_be_visible()
    ann.fill("#seek-control", "180+0")
    ann.locator("#seek-colour").select_option("white")
    ann.locator("#seek-rated").check()
    ann.locator("#seek-form button[type=submit]").click()
    mine = ann.locator("#seek-list li")
    expect(mine).to_have_count(1)
    seek = mine.get_attribute("data-seek")
    bob.goto(f"{site}/lobby")
    theirs = bob.locator(f'#seek-list li[data-seek="{seek}"]')
    expect(theirs).to_contain_text("Annika")
    expect(theirs).to_contain_text(en["lobby.rated-mark"])
    theirs.get_by_role("button", name=en["lobby.accept"]).click()
    game = re.compile(r"/g/([0-9a-f]{16})$")
    bob.wait_for_url(game)
    ann.wait_for_url(game)
    assert ann.url == bob.url
    gid = game.search(ann.url).group(1)
    status, state = api(site, "GET", f"/api/games/{gid}")
    assert status == 200 and state["rated"] is True, state
    players = state["players"]
    assert [players[side]["username"] for side in ("white", "black")] == ["Annika", "Bodo"], players

    t0 = time.monotonic()
    play_by_clicking([ann, bob], RING_WITHOUT_QUEEN)
    played = time.monotonic() - t0
    print(f"{len(RING_WITHOUT_QUEEN)} plies clicked in {played:.1f} s")
    for page, result in ((ann, en["outcome.lose"]), (bob, en["outcome.win"])):
        expect(page.locator("#outcome")).to_be_visible()
        expect(page.locator("#outcome-result")).to_contain_text(result)
        expect(page.locator("#outcome-reason")).to_have_text(en["reason.ring-without-queen"])
    status, state = api(site, "GET", f"/api/games/{gid}")
    assert state["outcome"]["winner"] == "black" and state["outcome"]["reason"] == "ring-without-queen"

    # Both new players start at 1500 with the widest deviation; one game is one rating
    # period: the winner's rating goes up, the loser's down, by the same amount.
    g = glicko2()
    new = (g.C["default_rating"], g.C["default_deviation"], g.C["default_volatility"])
    won, lost = g.after_game(new, new, 1.0), g.after_game(new, new, 0.0)
    assert won[0] > 1500 > lost[0]
    speed = state["speed"]
    for name, expected, page in (("Annika", lost, ann), ("Bodo", won, bob)):
        status, player = api(site, "GET", f"/api/players/{name}")
        assert status == 200, player
        [rating] = player["ratings"]
        assert rating["speed"] == speed and rating["games"] == 1, rating
        assert (rating["rating"], rating["deviation"]) == (round(expected[0]), round(expected[1])), rating
        assert rating["provisional"] is True
        # The player page shows it, provisional, and the game's change.
        page.goto(f"{site}/@/{name.lower()}")
        expect(page.locator("#player-name")).to_have_text(name)
        expect(page.locator("#rating-list li")).to_have_count(1)
        expect(page.locator("#rating-list li strong")).to_have_text(f"\u2066{round(expected[0])}?\u2069")
        diff = round(expected[0]) - 1500
        row = page.locator("#games-list tr")
        expect(row).to_have_count(1)
        expect(row).to_contain_text(f"{round(expected[0])} ({'+' if diff >= 0 else '−'}{abs(diff)})")
