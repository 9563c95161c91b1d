"""The screen-reader mode: a whole game against the computer played with the keyboard and
the text board only, every step read from the page's accessible names (the text board's
cells, the move entry's combobox and its options, the live region's log and the end's
alert). The graphic board is not shown in this mode, and nothing is clicked.

The game is short by its start position, and ends by play (R10): White's queen is captured
and five of White's guards hold the throne ring, a Black guard on g6 its sixth cell. White
returns the queen to the throne; after Black's step, h7-h6 captures the guard on g6
(flanked by h6 and the queen on f6); Black must return it to the outer ring; h6-g6 closes
the ring around White's queen, and White wins. Black's pieces stand on the outer ring,
from where one step reaches nothing of this.

The game has a clock of "3+2", whose minute lasts 4 s on the tests' server (conftest.py): 12 s
each, started by White's first move. Before its last move White waits until its clock has
run below 10 s, which the log says; the clocks are then read with their button.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from conftest import api
from test_browser import TIMEOUT, with_token

GAME = "Qa1*,Ge5,Ge6,Gf5,Gf7,Gg5,Gh7/qf11,ga2,gb7,gd1,gg6,gk7,gl2 w"


def tab_to(page, element_id, back=False):
    """Presses Tab (Shift+Tab going back) until the element with the id has the focus (at
    most 30 times)."""
    for _ in range(30):
        if page.evaluate("() => document.activeElement.id") == element_id:
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"#{element_id} is not reached with Tab")


def play(page, entry, typed, expected_option):
    """Types part of a move, checks the one option it leaves, and plays it with ↓ Enter."""
    entry.press_sequentially(typed)
    options = page.get_by_role("listbox", name="Legal moves").get_by_role("option")
    expect(options).to_have_count(1, timeout=TIMEOUT)
    expect(options).to_have_text(expected_option)
    page.keyboard.press("ArrowDown")
    expect(options).to_have_attribute("aria-selected", "true")
    expect(entry).to_have_attribute("aria-activedescendant", "move-opt-0")
    page.keyboard.press("Enter")


def test_a_whole_game_by_keyboard_and_text_board(server, new_context, shots):
    status, game = api(server, "POST", "/api/games", {"side": "white", "level": "easy", "position": GAME, "clock": "3+2"})
    assert status == 201, game
    ctx = new_context(reduced_motion="reduce")
    with_token(ctx, game)
    page = ctx.new_page()
    page.goto(f"{server}/g/{game['id']}?blind=1&lang=en")

    text_board = page.get_by_role("region", name="The board as text")
    cells = text_board.get_by_role("listitem")
    log = page.get_by_role("log", name="What happens")
    expect(cells).to_have_count(91, timeout=TIMEOUT)
    expect(page.locator("#board")).to_be_hidden()
    expect(page.get_by_role("button", name="Screen reader mode")).to_have_attribute("aria-pressed", "true")
    # By ring, from the throne out: the throne is ring 0, empty; ring 1 holds five White
    # guards and the Black one; the captured White queen stands on a1 in the outer ring.
    rings = text_board.get_by_role("heading", level=3)
    expect(rings).to_have_text(["Ring 0: the throne", "Ring 1", "Ring 2", "Ring 3", "Ring 4", "Ring 5: the outer ring"])
    expect(cells.first).to_have_text("f6, the throne: empty")
    expect(cells.nth(1)).to_have_text("f7: White guard")
    expect(cells.filter(has_text="a1:")).to_have_text("a1: White queen, captured")
    expect(cells.filter(has_text="g6:")).to_have_text("g6: Black guard")
    expect(text_board).to_contain_text("White: queen a1; guards e5, e6, f5, f7, g5, h7. Captured: a1.")

    # The move entry, reached with the keyboard from the skip link to the game's controls.
    entry = page.get_by_role("combobox", name="Type a move")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to the game controls")).to_be_focused()
    page.keyboard.press("Enter")
    tab_to(page, "move-input")
    expect(entry).to_be_focused()

    # 1. White returns the queen: typing the throne's cell leaves that return alone.
    play(page, entry, "f6", re.compile(r"^a1>f6: return the queen from a1 to f6, the throne$"))
    expect(log).to_contain_text("White returns the queen from a1 to f6, the throne.", timeout=TIMEOUT)
    # 2. The computer's step, said, then the person's turn.
    expect(log.locator("p").last).to_contain_text(re.compile(r"^Black: (guard|queen) from [a-l]\d+ to [a-l]\d+\. Your turn\.$"),
                                                  timeout=TIMEOUT)
    expect(cells.filter(has_text="f6, the throne")).to_have_text("f6, the throne: White queen")

    # 3. h7-h6 captures the Black guard on g6, between h6 and the queen.
    expect(entry).to_be_focused(timeout=TIMEOUT)
    play(page, entry, "h7 h6", "h7-h6: guard from h7 to h6")
    expect(log).to_contain_text("White: guard from h7 to h6. Captured: Black guard g6.", timeout=TIMEOUT)
    # 4. Black must return it, to the outer ring.
    expect(log.locator("p").last).to_contain_text(
        re.compile(r"^Black returns the guard from g6 to [a-l]\d+\. Your turn\.$"), timeout=TIMEOUT)
    expect(cells.filter(has_text="g6:")).to_have_text("g6: empty")

    # White's clock runs below 10 s (during its third move or now): said once; the button
    # reads both clocks (White's below ten seconds, in tenths).
    expect(log).to_contain_text("White: 10 seconds left.", timeout=TIMEOUT)
    tab_to(page, "blind-clocks", back=True)
    page.keyboard.press("Enter")
    expect(log.locator("p").last).to_have_text(re.compile(r"^Clocks: White 0:0\d\.\d, Black 0:\d\d(\.\d)?\.$"))

    # 5. h6-g6 closes the ring around White's queen: the game is won.
    tab_to(page, "move-input")
    play(page, entry, "h6 g6", "h6-g6: guard from h6 to g6")
    end = page.get_by_role("alert").filter(has_text="Game over")
    expect(end).to_have_text(
        "Game over. You win (1-0). The queen sits on the throne with her six guards all around it.", timeout=TIMEOUT)
    expect(log).to_contain_text("White: guard from h6 to g6.")
    expect(cells.filter(has_text="g6:")).to_have_text("g6: White guard")
    assert page.locator("#moves .mv:not(.mv-none)").count() == 5
    page.screenshot(path=str(shots / "blind.png"))

    # The reading by file, chosen with the arrow key in the radio group: file f holds the
    # queen on the throne among her guards.
    page.get_by_role("radio", name="By ring").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("radio", name="By file")).to_be_checked()
    expect(rings).to_have_count(11)
    expect(rings.first).to_have_text("File a")
    expect(cells.first).to_have_text("a1: empty")
    expect(cells.filter(has_text=re.compile("^f[4-8]"))).to_have_text(
        ["f4: empty", "f5: White guard", "f6, the throne: White queen", "f7: White guard", "f8: empty"])

    # Stepping back through the game is said, move and all; the text board says that it
    # keeps showing the game as it is now.
    tab_to(page, "nav-prev")
    page.keyboard.press("Enter")
    expect(log.locator("p").last).to_have_text(re.compile(
        r"^You are looking at move 4 of 5\. g6>[a-l]\d+\. The text board shows the game as it is now\.$"))
    expect(text_board.get_by_text("The text board shows the game as it is now.", exact=True)).to_be_visible()
