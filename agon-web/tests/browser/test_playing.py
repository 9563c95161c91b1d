"""Issue 34's "Playing" in real browsers: stepping through a game (the move list, the arrow
keys, the buttons) without changing it and snapping back to the present on the opponent's
move; flipping the board (the button and `f`); a premove between people played, dropped
when illegal and cancelled; a game aborted by its button and by a first move not made in
time.

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from conftest import api
from test_browser import TIMEOUT, click_cell, wait_moves
from test_friend import board_turned_for, create_friend, creator_page, open_invitation, token_of


def state(server, game_id):
    status, answer = api(server, "GET", f"/api/games/{game_id}")
    assert status == 200, answer
    return answer


def play(server, game_id, token, move):
    status, answer = api(server, "POST", f"/api/games/{game_id}/moves", {"token": token, "move": move})
    assert status == 200, answer
    return answer


def first_step(legal_moves):
    """The first move of a list that is a step (not a return, not a pass)."""
    return next(m for m in legal_moves if "-" in m)


def legal_after(server, moves):
    """The legal moves after `moves` from the start, read from a game of their own: what a
    premove queued now will meet once the opponent's reply is made."""
    probe = create_friend(server)
    status, joined = api(server, "POST", f"/api/games/{probe['id']}/join", {})
    assert status == 200, joined
    tokens = [probe["token"], joined["token"]]
    answer = probe["state"]
    for i, m in enumerate(moves):
        answer = play(server, probe["id"], tokens[i % 2], m)
    return answer["legal_moves"]


def friends(server, new_context, **fields):
    """A game between friends, White's page (the creator's) and Black's (the invitation's),
    both seated: (game, white page, black page, Black's token)."""
    game = create_friend(server, **fields)
    a = creator_page(new_context, server, game)
    expect(a.locator("#invite")).to_be_visible(timeout=TIMEOUT)
    b = open_invitation(new_context, f"{server}/g/{game['id']}")
    black = token_of(b, game["id"])
    assert black
    expect(a.locator("#invite")).to_be_hidden(timeout=TIMEOUT)
    return game, a, b, black


def filled(template, **params):
    """A catalogue string with its {name}s filled, as a pattern: the page wraps each value
    in directional isolates (U+2066 ... U+2069) in a right-to-left language."""
    pattern = re.escape(template)
    for name, value in params.items():
        pattern = pattern.replace(re.escape("{" + name + "}"), "\u2066?" + re.escape(str(value)) + "\u2069?")
    return re.compile("^" + pattern + "$")


def wait_turned(page, side):
    """Waits until the board is drawn with `side`'s corner at the bottom."""
    for _ in range(100):
        if board_turned_for(page, side):
            return
        page.wait_for_timeout(100)
    assert board_turned_for(page, side), f"the board is not turned for {side}"


def test_step_through_a_game_snap_back_and_flip(server, new_context, shots, catalogues):
    en = catalogues["en"]
    game, a, b, black = friends(server, new_context)
    gid, white = game["id"], game["token"]
    # Four moves, the first White's queen f1-e1.
    moves = ["f1-e1"]
    play(server, gid, white, "f1-e1")
    for token in (black, white, black):
        moves.append(first_step(state(server, gid)["legal_moves"]))
        play(server, gid, token, moves[-1])
    wait_moves(a, 4)
    before = state(server, gid)
    expect(a.locator("#nav-last")).to_be_disabled()
    expect(a.locator("#nav-note")).to_be_hidden()
    # The arrow keys step back: the move list marks the ply shown, the board is its own.
    a.keyboard.press("ArrowLeft")
    expect(a.locator('#moves [aria-current="step"]')).to_have_text(moves[2], timeout=TIMEOUT)
    expect(a.locator("#nav-note")).to_have_text(en["nav.viewing"].replace("{ply}", "3").replace("{total}", "4"))
    expect(a.locator("#board")).to_have_class(re.compile(r"\bpast\b"))
    # Home: the start, White's queen back on f1 and nothing to step back to.
    a.keyboard.press("Home")
    expect(a.locator("#nav-note")).to_have_text(en["nav.viewing-start"], timeout=TIMEOUT)
    expect(a.locator('#board g.piece[data-cell="f1"]')).to_have_count(1, timeout=TIMEOUT)
    expect(a.locator('#board g.piece[data-cell="e1"]')).to_have_count(0)
    expect(a.locator("#nav-first")).to_be_disabled()
    expect(a.locator("#nav-prev")).to_be_disabled()
    expect(a.locator('#moves [aria-current="step"]')).to_have_count(0)
    # No piece can be played on a past ply.
    expect(a.locator("#board g.piece.movable")).to_have_count(0)
    a.keyboard.press("ArrowRight")
    expect(a.locator('#moves [aria-current="step"]')).to_have_text("f1-e1", timeout=TIMEOUT)
    expect(a.locator('#board g.piece[data-cell="e1"]')).to_have_count(1, timeout=TIMEOUT)
    # The buttons, and a click on a move.
    a.locator("#nav-next").click()
    expect(a.locator('#moves [aria-current="step"]')).to_have_text(moves[1], timeout=TIMEOUT)
    a.locator("#nav-prev").click()
    expect(a.locator('#moves [aria-current="step"]')).to_have_text(moves[0], timeout=TIMEOUT)
    a.locator('#moves button[data-ply="3"]').click()
    expect(a.locator('#moves [aria-current="step"]')).to_have_text(moves[2], timeout=TIMEOUT)
    a.keyboard.press("ArrowUp")
    expect(a.locator("#nav-note")).to_have_text(en["nav.viewing-start"], timeout=TIMEOUT)
    a.keyboard.press("ArrowDown")
    expect(a.locator("#nav-note")).to_be_hidden(timeout=TIMEOUT)
    expect(a.locator('#moves [aria-current="step"]')).to_have_text(moves[3])
    a.locator("#nav-first").click()
    expect(a.locator("#nav-note")).to_have_text(en["nav.viewing-start"], timeout=TIMEOUT)
    a.screenshot(path=str(shots / "step-start.png"))
    a.locator("#nav-last").click()
    expect(a.locator("#nav-note")).to_be_hidden(timeout=TIMEOUT)
    # Stepping changed nothing in the game.
    assert state(server, gid)["version"] == before["version"]
    # White's turn: a's board is live again; back in the past, the opponent's move (Black's
    # page here, after White's) brings it back to the present.
    a.keyboard.press("End")
    white_move = first_step(state(server, gid)["legal_moves"])
    play(server, gid, white, white_move)
    wait_moves(a, 5)
    a.keyboard.press("Home")
    expect(a.locator("#nav-note")).to_be_visible(timeout=TIMEOUT)
    black_move = first_step(state(server, gid)["legal_moves"])
    # Black's page, stepped back on its turn: the status says it is a past move, and still
    # Black's turn; back at the present, plainly its turn.
    wait_moves(b, 5)
    b.keyboard.press("ArrowLeft")
    expect(b.locator("#nav-note")).to_be_visible(timeout=TIMEOUT)
    expect(b.locator("#status")).to_contain_text(en["status.your-turn-past"])
    expect(b.locator("#status")).not_to_contain_text(en["status.your-turn"])
    b.keyboard.press("End")
    expect(b.locator("#status")).to_contain_text(en["status.your-turn"], timeout=TIMEOUT)
    play(server, gid, black, black_move)
    wait_moves(a, 6)
    expect(a.locator("#nav-note")).to_be_hidden(timeout=TIMEOUT)
    expect(a.locator("#board")).not_to_have_class(re.compile(r"\bpast\b"))
    expect(a.locator("#moves .mv.current")).to_have_text(black_move)
    expect(a.locator("#board g.piece.movable").first).to_be_visible(timeout=TIMEOUT)
    # The keys leave typed text alone: an arrow in the move entry moves the caret.
    a.locator("#move-input").focus()
    a.keyboard.press("ArrowLeft")
    a.keyboard.press("f")
    expect(a.locator("#nav-note")).to_be_hidden()
    expect(a.locator("#flip-btn")).to_have_attribute("aria-pressed", "false")
    a.locator("#move-input").fill("")
    a.locator("body").click(position={"x": 5, "y": 5})
    # Flip: `f` and the button turn the board, and the stream follows the new side.
    assert board_turned_for(a, "white")
    a.keyboard.press("f")
    expect(a.locator("#flip-btn")).to_have_attribute("aria-pressed", "true", timeout=TIMEOUT)
    wait_turned(a, "black")
    a.screenshot(path=str(shots / "flipped.png"))
    # A move made flipped still shows, drawn the flipped way.
    play(server, gid, white, first_step(state(server, gid)["legal_moves"]))
    wait_moves(a, 7)
    a.wait_for_timeout(300)
    assert board_turned_for(a, "black")
    a.locator("#flip-btn").click()
    expect(a.locator("#flip-btn")).to_have_attribute("aria-pressed", "false", timeout=TIMEOUT)
    wait_turned(a, "white")
    # A finished game steps through too, for a watcher as well.
    status, _ = api(server, "POST", f"/api/games/{gid}/resign", {"token": black})
    assert status == 200
    watcher = new_context().new_page()
    watcher.goto(f"{server}/g/{gid}")
    wait_moves(watcher, 7)
    watcher.keyboard.press("Home")
    expect(watcher.locator("#nav-note")).to_have_text(en["nav.viewing-start"], timeout=TIMEOUT)
    expect(watcher.locator('#board g.piece[data-cell="f1"]')).to_have_count(1, timeout=TIMEOUT)
    watcher.keyboard.press("ArrowRight")
    expect(watcher.locator('#moves [aria-current="step"]')).to_have_text("f1-e1", timeout=TIMEOUT)


def test_premove_played_dropped_and_cancelled(server, new_context, shots, catalogues):
    en = catalogues["en"]
    game, a, b, black = friends(server, new_context)
    gid, white = game["id"], game["token"]
    w1 = "f1-e1"
    play(server, gid, white, w1)
    wait_moves(a, 1)
    b1 = first_step(state(server, gid)["legal_moves"])
    # White queues a premove legal after Black's reply: played the moment Black has moved.
    pm = first_step(legal_after(server, [w1, b1]))
    frm, to = pm.split("-")
    click_cell(a, frm)
    expect(a.locator(f'#board g.piece[data-cell="{frm}"]')).to_have_count(1)
    click_cell(a, to)
    expect(a.locator("#premove")).to_be_visible(timeout=TIMEOUT)
    expect(a.locator("#premove-text")).to_have_text(en["premove.queued"].replace("{move}", pm))
    expect(a.locator("#board .mark-premove")).to_have_count(2)
    a.screenshot(path=str(shots / "premove-queued.png"))
    play(server, gid, black, b1)
    wait_moves(a, 3)
    expect(a.locator("#premove")).to_be_hidden(timeout=TIMEOUT)
    assert state(server, gid)["moves"] == [w1, b1, pm]
    wait_moves(b, 3)

    # An illegal premove (a guard two rings away) is dropped, with a cue, and nothing played.
    b2 = first_step(state(server, gid)["legal_moves"])
    guard = next(p["cell"] for p in state(server, gid)["pieces"]
                 if p["side"] == "white" and p["kind"] == "guard" and not p["captured"] and p["cell"] not in (frm, to))
    far = "f6"  # the throne: never a guard's
    click_cell(a, guard)
    click_cell(a, far)
    expect(a.locator("#premove-text")).to_have_text(en["premove.queued"].replace("{move}", f"{guard}-{far}"), timeout=TIMEOUT)
    play(server, gid, black, b2)
    wait_moves(a, 4)
    expect(a.locator("#premove")).to_have_class(re.compile(r"\bdropped\b"), timeout=TIMEOUT)
    expect(a.locator("#premove-text")).to_have_text(en["premove.dropped"].replace("{move}", f"{guard}-{far}"))
    a.screenshot(path=str(shots / "premove-dropped.png"))
    after = state(server, gid)
    assert len(after["moves"]) == 4 and after["chooser"] == "white"
    # White moves itself (the cue goes with the position), and Black thinks again.
    w3 = first_step(after["legal_moves"])
    play(server, gid, white, w3)
    wait_moves(a, 5)
    expect(a.locator("#premove")).to_be_hidden(timeout=TIMEOUT)

    # Cancelled three ways: a click on the board, a right-click, Escape; then Black's
    # reply plays nothing for White.
    queue = first_step(legal_after(server, state(server, gid)["moves"] + [first_step(state(server, gid)["legal_moves"])]))
    qf, qt = queue.split("-")
    for cancel in ("click", "right", "escape"):
        click_cell(a, qf)
        click_cell(a, qt)
        expect(a.locator("#premove")).to_be_visible(timeout=TIMEOUT)
        if cancel == "click":
            click_cell(a, "f6")
        elif cancel == "right":
            box = a.locator('#board polygon.cell[data-cell="f6"]').bounding_box()
            a.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, button="right")
        else:
            a.keyboard.press("Escape")
        expect(a.locator("#premove")).to_be_hidden(timeout=TIMEOUT)
        expect(a.locator("#board .mark-premove")).to_have_count(0)
    # And by its button.
    click_cell(a, qf)
    click_cell(a, qt)
    a.locator("#premove-cancel").click()
    expect(a.locator("#premove")).to_be_hidden(timeout=TIMEOUT)
    play(server, gid, black, first_step(state(server, gid)["legal_moves"]))
    wait_moves(a, 6)
    a.wait_for_timeout(500)
    assert len(state(server, gid)["moves"]) == 6, "a cancelled premove is not played"


def test_abort_by_button_and_by_the_first_move_timeout(server, new_context, shots, catalogues):
    en = catalogues["en"]
    # By the button: Black aborts after White's first move; both pages say so.
    game, a, b, black = friends(server, new_context)
    expect(a.locator("#abort-btn")).to_be_visible(timeout=TIMEOUT)
    expect(a.locator("#resign-btn")).to_be_hidden()
    play(server, game["id"], game["token"], "f1-e1")
    wait_moves(b, 1)
    expect(b.locator("#abort-btn")).to_be_visible()
    b.locator("#abort-btn").click()
    for page in (a, b):
        expect(page.locator("#outcome")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("#outcome-result")).to_have_text(en["outcome.aborted"])
        expect(page.locator("#outcome-reason")).to_have_text(en["reason.aborted"])
        expect(page.locator("#abort-btn")).to_be_hidden()
    assert state(server, game["id"])["outcome"] == {"winner": None, "reason": "aborted", "score": "*"}
    b.screenshot(path=str(shots / "aborted.png"))

    # Once both sides moved, Abort gives way to Resign.
    game, a, b, black = friends(server, new_context)
    play(server, game["id"], game["token"], "f1-e1")
    play(server, game["id"], black, first_step(state(server, game["id"])["legal_moves"]))
    wait_moves(a, 2)
    expect(a.locator("#abort-btn")).to_be_hidden(timeout=TIMEOUT)
    expect(a.locator("#resign-btn")).to_be_visible()

    # By the clock: with "2+0" (a 4 s minute here) White's first move is due within 8 s of
    # Black's joining; nobody moves, and the server aborts the game for both pages.
    game, a, b, black = friends(server, new_context, clock="2+0")
    seconds = state(server, game["id"])["clock"]["initial_ms"] // 1000
    expect(a.locator("#status")).to_contain_text(
        en["status.first-move-you"].split("{seconds}")[0], timeout=TIMEOUT)
    expect(b.locator("#status")).to_contain_text(
        en["status.first-move"].replace("{side}", en["side.white"]).split("{seconds}")[0], timeout=TIMEOUT)
    a.screenshot(path=str(shots / "first-move-countdown.png"))
    for page in (a, b):
        expect(page.locator("#outcome-result")).to_have_text(en["outcome.aborted"], timeout=seconds * 1000 + TIMEOUT)
        expect(page.locator("#outcome-reason")).to_have_text(en["reason.aborted"])
    final = state(server, game["id"])
    assert final["outcome"]["reason"] == "aborted" and final["moves"] == []
    assert final["clock"]["white_ms"] == final["clock"]["initial_ms"], "no clock ran"


def test_looks_in_arabic_dark_and_on_a_phone(server, new_context, shots, catalogues):
    ar = catalogues["ar"]
    game = create_friend(server)
    status, joined = api(server, "POST", f"/api/games/{game['id']}/join", {})
    assert status == 200
    gid, white, black = game["id"], game["token"], joined["token"]
    play(server, gid, white, "f1-e1")
    play(server, gid, black, first_step(state(server, gid)["legal_moves"]))
    play(server, gid, white, first_step(state(server, gid)["legal_moves"]))
    for name, kwargs in (
        ("ar-desktop", {"locale": "ar"}),
        ("ar-dark", {"locale": "ar", "color_scheme": "dark"}),
        ("ar-phone", {"locale": "ar", "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}),
    ):
        ctx = new_context(**kwargs)
        ctx.add_init_script(
            f"if (location.protocol === 'http:') {{ localStorage.setItem('agon-token:{gid}', '{white}'); "
            f"localStorage.setItem('agon-side:{gid}', 'white'); }}")
        page = ctx.new_page()
        page.goto(f"{server}/g/{gid}?lang=ar")
        wait_moves(page, 3)
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        # Black to move: a premove queued, and the game stepped back one ply.
        pm = first_step(legal_after(server, state(server, gid)["moves"] + [first_step(state(server, gid)["legal_moves"])]))
        click_cell(page, pm.split("-")[0])
        click_cell(page, pm.split("-")[1])
        expect(page.locator("#premove-text")).to_have_text(filled(ar["premove.queued"], move=pm), timeout=TIMEOUT)
        expect(page.locator("#flip-btn")).to_have_text(ar["nav.flip"])
        expect(page.locator("#nav-prev")).to_have_attribute("aria-label", ar["nav.prev"])
        page.screenshot(path=str(shots / f"{name}-premove.png"), full_page=True)
        page.keyboard.press("Escape")
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#nav-note")).to_have_text(filled(ar["nav.viewing"], ply=2, total=3), timeout=TIMEOUT)
        page.screenshot(path=str(shots / f"{name}-step.png"), full_page=True)
