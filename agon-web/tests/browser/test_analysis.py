"""The analysis board (/analysis) in a real browser: a tree of moves built on the board
(a main line and a side line), exported as a record with variations (written by the
server, agon-core's Record), read back into the page from the pasted text, the tree
checked again, a side line promoted and a move deleted; then a finished game opened on
the board from its page's "Analyse this game" link.

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

from playwright.sync_api import expect

from conftest import api
from test_browser import TIMEOUT, click_cell

# The record of the tree built below: White's f1-e1 answered by f11-g10, and f1-g1 as
# the other first move.
RECORD = '[Result "*"]\n\n1. f1-e1 (1. f1-g1) 1... f11-g10 *\n'
# The same with f1-g1 made the main line.
PROMOTED = '[Result "*"]\n\n1. f1-g1 (1. f1-e1 f11-g10) *\n'


def tree(page):
    """The move list as the page shows it: each move's text and whether it sits in a
    variation."""
    return page.eval_on_selector_all(
        "#tree .tree-move",
        "els => els.map(e => [e.textContent, !!e.closest('.variation')])",
    )


def current(page):
    return page.locator("#tree .tree-move[aria-current]")


def drawn(page, plies):
    """Waits until the board shows a position `plies` moves from the start."""
    expect(page.locator(f'#board[data-plies="{plies}"] svg')).to_be_visible(timeout=TIMEOUT)


def play(page, source, target, moves, plies):
    """Plays a move on the board, waits until the move list has `moves` moves and the
    board is drawn `plies` moves from the start."""
    click_cell(page, source)
    click_cell(page, target)
    expect(page.locator("#tree .tree-move")).to_have_count(moves, timeout=TIMEOUT)
    drawn(page, plies)


def export(page):
    """Asks the server for the tree's record; the text the page shows."""
    out = page.locator("#record-output")
    out.evaluate("e => { e.value = ''; }")
    page.locator("#export").click()
    expect(out).not_to_have_value("", timeout=TIMEOUT)
    return out.input_value()


def test_a_tree_is_built_exported_and_read_back(server, new_context, shots):
    page = new_context().new_page()
    page.goto(server + "/analysis")
    drawn(page, 0)
    # The engine is left out: this test is about the tree (tests/analysis.rs has the engine).
    page.locator("#engine-on").uncheck()
    expect(page.locator("#tree .tree-move")).to_have_count(0)

    play(page, "f1", "e1", 1, 1)
    play(page, "f11", "g10", 2, 2)
    page.locator("#go-first").click()
    expect(current(page)).to_have_count(0)
    drawn(page, 0)
    play(page, "f1", "g1", 3, 1)
    assert tree(page) == [["1. f1-e1", False], ["1. f1-g1", True], ["1… f11-g10", False]]
    expect(current(page)).to_have_text("1. f1-g1")
    page.locator("#board").screenshot(path=str(shots / "analysis-board.png"))

    assert export(page) == RECORD
    page.screenshot(path=str(shots / "analysis.png"), full_page=True)

    # Back to an empty board, then the record pasted and read: the same tree, shown at
    # the end of its main line.
    page.locator("#load-start").click()
    expect(page.locator("#tree .tree-move")).to_have_count(0)
    page.locator("#record-input").fill(RECORD)
    page.locator("#load-record").click()
    expect(page.locator("#tree .tree-move")).to_have_count(3, timeout=TIMEOUT)
    assert tree(page) == [["1. f1-e1", False], ["1. f1-g1", True], ["1… f11-g10", False]]
    expect(current(page)).to_have_text("1… f11-g10")

    # The side line made the main line; then f11-g10 deleted.
    page.locator("#tree .tree-move", has_text="f1-g1").click()
    page.locator("#promote").click()
    assert tree(page) == [["1. f1-g1", False], ["1. f1-e1", True], ["f11-g10", True]]
    assert export(page) == PROMOTED
    page.locator("#tree .tree-move", has_text="f11-g10").click()
    page.locator("#delete").click()
    expect(page.locator("#tree .tree-move")).to_have_count(2)
    expect(current(page)).to_have_text("1. f1-e1")

    # A record the core refuses: its reason, with where, shown.
    page.locator("#record-input").fill("1. f1-e1 (1. f1-g1 *")
    page.locator("#load-record").click()
    expect(page.locator("#analysis-error")).to_contain_text("at byte 19: expected a move or ')'", timeout=TIMEOUT)

    # A finished game's page links to the board, which reads the game's record.
    status, game = api(server, "POST", "/api/games", {"side": "white", "level": "easy"})
    assert status == 201, game
    gid, token = game["id"], game["token"]
    status, state = api(server, "POST", f"/api/games/{gid}/moves", {"token": token, "move": "f1-e1"})
    assert status == 200, state
    status, state = api(server, "POST", f"/api/games/{gid}/resign", {"token": token})
    assert status == 200, state
    plies = len(state["moves"])
    page.goto(f"{server}/g/{gid}")
    link = page.locator("#analyse-link")
    expect(link).to_be_visible(timeout=TIMEOUT)
    link.click()
    expect(page).to_have_url(f"{server}/analysis?game={gid}")
    expect(page.locator("#tree .tree-move")).to_have_count(plies, timeout=TIMEOUT)
    expect(page.locator("#tree .tree-move").first).to_have_text("1. f1-e1")
