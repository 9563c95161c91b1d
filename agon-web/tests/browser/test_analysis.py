"""The analysis board (/analysis) in a real browser: a tree of moves built on the board
(a main line and a side line), exported as a record with variations (written by the
server, agon-core's Record), read back into the page from the pasted text, the tree
checked again, a side line promoted and a move deleted.

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

from playwright.sync_api import expect

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


def play(page, source, target, moves):
    """Plays a move on the board and waits until the move list has `moves` moves."""
    click_cell(page, source)
    click_cell(page, target)
    expect(page.locator("#tree .tree-move")).to_have_count(moves, timeout=TIMEOUT)
    expect(page.locator("#board svg")).to_be_visible()


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
    expect(page.locator("#board svg")).to_be_visible(timeout=TIMEOUT)
    # The engine is left out: this test is about the tree (tests/analysis.rs has the engine).
    page.locator("#engine-on").uncheck()
    expect(page.locator("#tree .tree-move")).to_have_count(0)

    play(page, "f1", "e1", 1)
    play(page, "f11", "g10", 2)
    page.locator("#go-first").click()
    expect(current(page)).to_have_count(0)
    play(page, "f1", "g1", 3)
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
