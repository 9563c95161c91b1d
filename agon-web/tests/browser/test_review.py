"""Issue 34's game review in a real browser: a finished game whose one move is a known
blunder is reviewed from its page (the "Review" button, the progress, then the graph, the
counts per player and the marked move with the engine's winning move beside it, in the
move list and in the review's list); a mark goes to its ply, and Arabic lays it out right
to left.

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

import re
import urllib.request

from playwright.sync_api import expect

from conftest import api
from test_browser import TIMEOUT

# Black wins at once with f11-g10, f11-f10, f11-e10, d2-c2 or b6-b5 (R12); b4-c5 lets
# White breathe: a blunder (agon-bots' review example).
BLACK_WINS_AT_ONCE = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b"
WINNING = {"f11-g10", "f11-f10", "f11-e10", "d2-c2", "b6-b5"}


def blundered_game(server):
    """A game against the computer from BLACK_WINS_AT_ONCE: the person (Black) plays b4-c5,
    then resigns."""
    status, game = api(server, "POST", "/api/games",
                       {"side": "black", "level": "easy", "position": BLACK_WINS_AT_ONCE})
    assert status == 201, game
    moved = {"token": game["token"], "move": "b4-c5", "reply": False}
    status, answer = api(server, "POST", f"/api/games/{game['id']}/moves", moved)
    assert status == 200, answer
    status, answer = api(server, "POST", f"/api/games/{game['id']}/resign", {"token": game["token"]})
    assert status == 200, answer
    return game["id"]


def same_as_python(server, game_id, figures):
    """Python's `agon.review` of the game's record gives the server's figures exactly (both
    wrap agon-bots' `review` at its default budget); says so and checks nothing where the
    `agon` package is not installed (scripts/test.sh installs it before this step)."""
    try:
        import agon
    except ImportError:
        print("NOTICE: no agon package here: the review is not compared with Python's")
        return
    with urllib.request.urlopen(f"{server}/api/games/{game_id}/record", timeout=30) as res:
        game = agon.Game.from_record(res.read().decode())
    review = agon.review(game)
    assert review.nodes == figures["nodes"]
    assert [p.white for p in review.positions] == [p["white"] for p in figures["positions"]]
    assert [(str(p.move), str(p.best), p.judgement, p.before, p.after, p.loss) for p in review.plies] == [
        (p["played"], p["best"], p["judgement"], p["before"], p["after"], p["loss"]) for p in figures["plies"]
    ]
    for side, name in [(agon.Side.WHITE, "white"), (agon.Side.BLACK, "black")]:
        tally = review.tally(side)
        assert {k: tally[k] for k in figures[name]} == figures[name]


def test_a_blunder_is_marked_with_the_winning_move(server, new_context, shots, catalogues):
    game_id = blundered_game(server)
    page = new_context().new_page()
    page.goto(f"{server}/g/{game_id}?lang=en")
    expect(page.locator("#outcome")).to_be_visible(timeout=TIMEOUT)
    button = page.locator("#review-btn")
    expect(button).to_have_text(catalogues["en"]["review.request"], timeout=TIMEOUT)
    button.click()
    expect(page.locator("#review-done")).to_be_visible(timeout=TIMEOUT)
    expect(button).to_be_hidden()
    # The graph is the server's, with the blunder's dot on the position it led to.
    expect(page.locator('#review-graph circle.mark.blunder[data-position="1"]')).to_have_count(1)
    expect(page.locator("#review-black-blunders")).to_have_text("1")
    expect(page.locator("#review-white-blunders")).to_have_text("0")
    # The review's list: the move, its judgement and the engine's move.
    item = page.locator("#review-list li.rv-blunder")
    expect(item).to_have_count(1)
    text = item.inner_text()
    assert "b4-c5" in text and catalogues["en"]["review.blunder"] in text, text
    best = item.locator(".rv-best").inner_text().replace("\u2066", "").replace("\u2069", "").split()[-1]
    assert best in WINNING, best
    # The move list marks the move with the same best move beside it.
    marked = page.locator('#moves button.mv[data-ply="1"]')
    expect(marked).to_have_class(re.compile(r"\brv-blunder\b"))
    expect(marked.locator(".rv-glyph")).to_have_text("??")
    expect(marked.locator(".rv-best")).to_have_text(best)
    # The server's figures are the page's.
    status, stored = api(server, "GET", f"/api/games/{game_id}/review")
    assert status == 200 and stored["status"] == "done", stored
    assert stored["review"]["plies"][0]["best"] == best
    same_as_python(server, game_id, stored["review"])
    # A mark goes to its ply; the graph to the position clicked (the start, at its left).
    page.locator("#review-graph svg").click(position={"x": 2, "y": 40})
    expect(page.locator("#nav-note")).to_have_text(catalogues["en"]["nav.viewing-start"])
    item.locator("button").click()
    expect(page.locator("#nav-note")).to_be_hidden()
    expect(marked).to_have_attribute("aria-current", "step")
    page.screenshot(path=str(shots / "review-en.png"), full_page=True)
    # Arabic: right to left, the review in its words, the moves still left to right.
    ar = new_context(locale="ar").new_page()
    ar.goto(f"{server}/g/{game_id}?lang=ar")
    expect(ar.locator("#review-done")).to_be_visible(timeout=TIMEOUT)
    assert ar.evaluate("document.documentElement.dir") == "rtl"
    expect(ar.locator("#review .card-subtitle")).to_have_text(catalogues["ar"]["review.title"])
    expect(ar.locator("#review-list li.rv-blunder .rv-what")).to_have_text(catalogues["ar"]["review.blunder"])
    ar.screenshot(path=str(shots / "review-ar.png"), full_page=True)
