"""The game page in a real browser (Playwright, Debian's Chromium) against the real server.

Run from the repository root:
    cargo build -p agon-web
    AGON_SCREENSHOTS=docs/screenshots .venv/bin/python -m pytest agon-web/tests/browser -q
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from conftest import api

START = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"
# White to move: d9-c8 captures the black guard on b7 (between c8 and the white guard on
# a6). Black's guard on d1 is already captured, so after Black returns one of the two a
# captured piece is still on the board.
CAPTURE = "Qf1,Ga5,Ga6,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1*,gh1,gk7,gl2 w"
# White to move with its guard on b1 captured: White must return it to the outer ring.
RETURN = "Qf1,Ga5,Gb1*,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"

# White to move: h5-g6 completes White's throne ring around its queen (R10).
THRONE_IN_ONE = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"

TIMEOUT = 20_000


# ---------------------------------------------------------------- helpers


def create(server, position=None, side="white", level="easy"):
    body = {"side": side, "level": level}
    if position:
        body["position"] = position
    status, answer = api(server, "POST", "/api/games", body)
    assert status == 201, answer
    return answer


def with_token(ctx, game):
    """Puts the game's token into the context's localStorage before any page script runs."""
    key, token = json.dumps("agon-token:" + game["id"]), json.dumps(game["token"])
    # about:blank has no storage: only set it on the server's pages.
    ctx.add_init_script(f"if (location.protocol === 'http:') localStorage.setItem({key}, {token});")


def click_cell(page, cell):
    """A real mouse click at the centre of the cell's hexagon (whatever is drawn on top)."""
    hexagon = page.locator(f'#board polygon.cell[data-cell="{cell}"]')
    # The page redraws the board's SVG whenever its state changes (a move arriving, an
    # option toggled): a redraw between finding the hexagon and measuring it gives no
    # box, so wait for the redrawn one and measure again.
    for _ in range(20):
        hexagon.wait_for(state="visible")
        box = hexagon.bounding_box()
        if box:
            break
    assert box, f"no cell {cell} on the board"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def targets(page):
    return page.eval_on_selector_all(
        "#board polygon.cell.target", "els => els.map(e => e.dataset.cell)"
    )


def move_texts(page):
    return page.eval_on_selector_all(
        "#moves .mv:not(.mv-none)", "els => els.map(e => e.textContent)"
    )


def wait_moves(page, n):
    """Waits until the move list holds exactly n moves (no string evaluation: the page's
    Content-Security-Policy forbids eval, and Playwright's wait_for_function needs it)."""
    expect(page.locator("#moves .mv:not(.mv-none)")).to_have_count(n, timeout=TIMEOUT)


def wait_idle(page):
    """No request running: the thinking indicator is gone and the board is interactive or over."""
    expect(page.locator("#thinking")).to_be_hidden(timeout=TIMEOUT)
    expect(page.locator("#game")).to_be_visible(timeout=TIMEOUT)


def refuse_first(status, error, retry_after):
    """A Playwright route handler that answers the first request it sees with `status` and
    the JSON error `error` (and `Retry-After`), and lets the others through; and the list
    of the URLs it saw."""
    calls = []

    def handle(route):
        calls.append(route.request.url)
        if len(calls) == 1:
            route.fulfill(
                status=status,
                headers={"Retry-After": retry_after, "Content-Type": "application/json"},
                body=json.dumps({"error": error, "message": error}),
            )
        else:
            route.continue_()

    return calls, handle


def game_page(server, new_context, game):
    """A new browser context holding the game's token, on the game's page."""
    ctx = new_context()
    with_token(ctx, game)
    page = ctx.new_page()
    open_game(page, server, game)
    return page


def open_game(page, server, game):
    page.goto(f"{server}/g/{game['id']}")
    expect(page.locator("#game")).to_be_visible(timeout=TIMEOUT)
    page.wait_for_selector("#board polygon.cell[data-cell]", timeout=TIMEOUT)


# ---------------------------------------------------------------- tests


def test_start_page_new_game_step_and_reply(server, new_context, shots, catalogues):
    ctx = new_context()
    page = ctx.new_page()
    page.goto(server + "/")
    # A board and the "New game" choice.
    page.wait_for_selector("#board polygon.cell[data-cell='f6']", timeout=TIMEOUT)
    assert page.locator("#board polygon.cell[data-cell]").count() == 91
    expect(page.locator("#new-game")).to_be_visible()
    expect(page.locator("#new-game h1")).to_have_text(catalogues["en"]["new-game.title"])
    expect(page.locator(".site-header .brand-name")).to_have_text("Agon")
    expect(page.locator("a.rules-link")).to_have_attribute("href", "/rules")
    page.screenshot(path=str(shots / "start.png"))

    page.get_by_role("radio", name=catalogues["en"]["new-game.side.white"], exact=True).click()
    page.get_by_role("radio", name=catalogues["en"]["new-game.level.easy"], exact=True).click()
    page.locator("#start-btn").click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"), timeout=TIMEOUT)
    game_id = page.url.rsplit("/", 1)[1]
    token = page.evaluate(f"localStorage.getItem('agon-token:{game_id}')")
    assert token, "the token is stored under agon-token:{id}"
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#status")).to_have_text(catalogues["en"]["status.your-turn"])

    # Click a piece: its destinations are marked; click one to move.
    page.locator('#board g.piece[data-cell="a5"]').click()
    expect(page.locator('#board g.piece[data-cell="a5"]')).to_have_class(re.compile(r"\bselected\b"))
    dests = targets(page)
    assert dests, "a5 has legal destinations at the start"
    click_cell(page, dests[0])
    # The computer's reply appears in the move list, as the second half of pair 1.
    wait_moves(page, 2)
    wait_idle(page)
    moves = move_texts(page)
    assert moves[0] == f"a5-{dests[0]}"
    assert re.fullmatch(r"[a-l]\d{1,2}[->][a-l]\d{1,2}", moves[1])
    first_row = page.locator("#moves li").first.inner_text()
    assert re.sub(r"\s+", " ", first_row).strip() == f"1. {moves[0]} {moves[1]}"
    # The computer's move is the one marked last, on the board too.
    expect(page.locator("#moves .mv.last")).to_have_text(moves[1])
    assert page.locator("#board .last-move").count() >= 1
    expect(page.locator("#status")).to_contain_text(moves[1])


def test_capture_by_clicking(server, new_context, shots, catalogues):
    game = create(server, CAPTURE)
    page = game_page(server, new_context, game)
    # d1 is drawn captured before anything happens.
    expect(page.locator('#board g.piece.captured[data-cell="d1"]')).to_have_count(1)
    page.locator('#board g.piece[data-cell="d9"]').click()
    assert "c8" in targets(page)
    click_cell(page, "c8")
    wait_moves(page, 2)
    wait_idle(page)
    moves = move_texts(page)
    assert moves[0] == "d9-c8"
    assert ">" in moves[1], "Black, with captured pieces, returns one"
    # One of Black's two captured guards is still captured, and White is to move.
    captured = page.eval_on_selector_all(
        "#board g.piece.captured", "els => els.map(e => e.dataset.cell)"
    )
    assert len(captured) == 1 and captured[0] in ("b7", "d1"), captured
    expect(page.locator("#captured-list")).to_contain_text(captured[0])
    page.mouse.move(5, 5)  # no hover highlight in the picture
    page.screenshot(path=str(shots / "game-capture.png"))


def test_hint_marks_the_engines_move_and_changes_nothing(server, new_context, shots, catalogues):
    en = catalogues["en"]
    game = create(server, THRONE_IN_ONE)
    page = game_page(server, new_context, game)
    hint = page.locator("#hint-btn")
    expect(hint).to_have_text(en["actions.hint"])
    expect(hint).to_be_enabled()
    hint.click()
    # The winning move is marked on the board, from h5 to g6, and named in the status.
    expect(page.locator("#status")).to_contain_text(
        en["status.hint-wins"].replace("{move}", "h5-g6"), timeout=TIMEOUT
    )
    marked = page.eval_on_selector_all(
        "#board .mark-hint", "els => els.length"
    )
    assert marked == 2
    assert page.locator("#board .mark-hint-arrow").count() == 1
    expect(hint).to_be_disabled()
    # Nothing was played.
    expect(page.locator("#moves .mv:not(.mv-none)")).to_have_count(0)
    page.mouse.move(5, 5)
    page.screenshot(path=str(shots / "game-hint.png"))
    # Playing the hint wins; the marks go with the position.
    page.locator('#board g.piece[data-cell="h5"]').click()
    click_cell(page, "g6")
    wait_moves(page, 1)
    expect(page.locator("#outcome")).to_be_visible(timeout=TIMEOUT)
    assert page.locator("#board .mark-hint").count() == 0
    expect(hint).to_be_hidden()


def test_return_by_clicking(server, new_context, shots, catalogues):
    en = catalogues["en"]
    game = create(server, RETURN)
    page = game_page(server, new_context, game)
    # The page says so in words and shows which piece and where it may go.
    box = page.locator("#return-box")
    expect(box).to_be_visible()
    expect(box).to_contain_text(en["return.title"])
    expect(box).to_contain_text("b1")
    expect(box).to_contain_text(en["return.where-guard"])
    expect(page.locator('#board g.piece[data-cell="b1"]')).to_have_class(re.compile(r"\breturnable\b"))
    # Nothing else is clickable: another piece cannot be selected.
    page.locator('#board g.piece[data-cell="a5"]').click()
    assert page.locator("#board .selected").count() == 0
    page.locator('#board g.piece[data-cell="b1"]').click()
    dests = targets(page)
    assert dests and "c1" in dests and "f6" not in dests
    # An unmarked cell does nothing either (no request, still selected).
    click_cell(page, "e5")
    expect(page.locator("#error")).to_be_hidden()
    expect(page.locator('#board g.piece[data-cell="b1"]')).to_have_class(re.compile(r"\bselected\b"))
    page.screenshot(path=str(shots / "must-return.png"))
    click_cell(page, "c1")
    wait_moves(page, 2)
    wait_idle(page)
    assert move_texts(page)[0] == "b1>c1"
    expect(page.locator("#return-box")).to_be_hidden()


def test_illegal_click_and_typed_moves(server, new_context, catalogues):
    en = catalogues["en"]
    game = create(server)
    page = game_page(server, new_context, game)
    # Queen f1 selected, then a cell two steps away: sent anyway, the reason is shown.
    page.locator('#board g.piece[data-cell="f1"]').click()
    assert "f3" not in targets(page)
    click_cell(page, "f3")
    expect(page.locator("#error")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#error")).to_have_text(en["illegal.not-adjacent"])
    assert move_texts(page) == []
    # Text that is no move at all.
    page.locator("#move-input").fill("hello")
    page.locator("#move-input").press("Enter")
    expect(page.locator("#error")).to_have_text(en["error.malformed-move"], timeout=TIMEOUT)
    # A legal move typed in the notation.
    page.locator("#move-input").fill("a5-a4")
    page.locator("#entry-btn").click()
    wait_moves(page, 2)
    wait_idle(page)
    assert move_texts(page)[0] == "a5-a4"
    expect(page.locator("#error")).to_be_hidden()


def test_keyboard_alone(server, new_context):
    game = create(server)
    page = game_page(server, new_context, game)
    active = "(() => { const a = document.activeElement; return a ? (a.dataset.cell || a.id || a.tagName) : null; })()"
    # Tab from the top of the page reaches the pieces that can move.
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#board')"):
            break
    assert page.evaluate("document.activeElement.matches('#board g.piece.movable')"), page.evaluate(active)
    piece = page.evaluate(active)
    expect(page.locator("#board .mark-focus")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.locator(f'#board g.piece[data-cell="{piece}"]')).to_have_class(re.compile(r"\bselected\b"))
    # Focus moved on to the first destination; Enter plays there.
    assert page.evaluate("document.activeElement.matches('#board polygon.cell.target')")
    target = page.evaluate(active)
    page.keyboard.press("Enter")
    wait_moves(page, 2)
    wait_idle(page)
    assert move_texts(page)[0] == f"{piece}-{target}"
    # After the computer's reply the focus is back on a piece that can move.
    expect(page.locator("#board g.piece.movable:focus")).to_have_count(1)
    # A typed move keeps the focus in the move entry.
    page.locator("#move-input").focus()
    page.keyboard.type("l5-l4")
    page.keyboard.press("Enter")
    wait_moves(page, 4)
    wait_idle(page)
    expect(page.locator("#move-input")).to_be_focused()
    # Every control in the panel takes the focus.
    for sel in ("#move-input", "#entry-btn", "#undo-btn", "#resign-btn", "#record-link", "#copy-btn", "#new-game-btn", "#lang-select"):
        page.locator(sel).focus()
        assert page.evaluate(f"document.activeElement === document.querySelector('{sel}')"), sel


def test_computer_turn_on_load_and_busy_retry(server, new_context, catalogues):
    """A loaded game where the computer is to move asks it; a 503 is retried after Retry-After."""
    game = create(server)
    status, state = api(
        server, "POST", f"/api/games/{game['id']}/moves", {"token": game["token"], "move": "f1-f2", "reply": False}
    )
    assert status == 200 and state["computer_to_move"]
    ctx = new_context()
    with_token(ctx, game)
    page = ctx.new_page()
    calls, busy_once = refuse_first(503, "server-busy", "1")
    page.route("**/api/games/*/computer", busy_once)
    page.goto(f"{server}/g/{game['id']}")
    retry = catalogues["en"]["status.busy-retry"].split("{")[0].strip()
    expect(page.locator("#status")).to_contain_text(retry, timeout=TIMEOUT)
    wait_moves(page, 2)
    wait_idle(page)
    assert len(calls) == 2
    assert move_texts(page)[0] == "f1-f2"
    expect(page.locator("#status")).to_contain_text(catalogues["en"]["status.your-turn"])


def test_rate_limited_move_is_retried(server, new_context, catalogues):
    """A move answered 429 rate-limited is sent again after Retry-After, with a notice, and
    the game goes on; a 429 asking for over a minute is shown as the error instead."""
    game = create(server)
    ctx = new_context()
    with_token(ctx, game)
    page = ctx.new_page()
    calls, limited_once = refuse_first(429, "rate-limited", "1")
    page.route("**/api/games/*/moves", limited_once)
    open_game(page, server, game)
    page.locator("#move-input").fill("f1-f2")
    page.locator("#move-input").press("Enter")
    retry = catalogues["en"]["status.rate-retry"].split("{")[0].strip()
    expect(page.locator("#status")).to_contain_text(retry, timeout=TIMEOUT)
    wait_moves(page, 2)
    wait_idle(page)
    assert len(calls) == 2
    assert move_texts(page)[0] == "f1-f2"

    # A wait of an hour is not sat through: the page shows the error and keeps the board.
    page.unroute("**/api/games/*/moves")
    calls, limited_once = refuse_first(429, "rate-limited", "3600")
    page.route("**/api/games/*/moves", limited_once)
    legal = api(server, "GET", f"/api/games/{game['id']}")[1]["legal_moves"]
    page.locator("#move-input").fill(legal[0])
    page.locator("#move-input").press("Enter")
    expect(page.locator("#error")).to_have_text(catalogues["en"]["error.rate-limited"], timeout=TIMEOUT)
    assert len(calls) == 1
    assert len(move_texts(page)) == 2


def test_undo_and_resign(server, new_context, shots, catalogues):
    en = catalogues["en"]
    game = create(server)
    page = game_page(server, new_context, game)
    expect(page.locator("#undo-btn")).to_be_disabled()
    page.locator("#move-input").fill("k1-i1")
    page.locator("#move-input").press("Enter")
    wait_moves(page, 2)
    wait_idle(page)
    expect(page.locator("#undo-btn")).to_be_enabled()
    page.locator("#undo-btn").click()
    wait_moves(page, 0)
    # Resign asks for a second press; the first one changes nothing on the server.
    page.locator("#resign-btn").click()
    expect(page.locator("#resign-btn")).to_have_text(en["actions.resign-confirm"])
    status, state = api(server, "GET", f"/api/games/{game['id']}")
    assert status == 200 and state["outcome"] is None
    page.locator("#resign-btn").click()
    expect(page.locator("#outcome")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#outcome-result")).to_contain_text(en["outcome.lose"])
    expect(page.locator("#outcome-reason")).to_have_text(en["reason.you-resigned"])
    expect(page.locator("#entry-form")).to_be_hidden()
    # Nothing is left to undo, hint or resign: the buttons go, Undo with the others, and
    # their empty group with them.
    for sel in ("#undo-btn", "#hint-btn", "#resign-btn", "#actions"):
        expect(page.locator(sel)).to_be_hidden()
    page.locator("#panel").screenshot(path=str(shots / "game-over-computer.png"))
    # The record can be downloaded and the position copied.
    expect(page.locator("#record-link")).to_have_attribute("href", f"/api/games/{game['id']}/record")
    page.locator("#copy-btn").click()
    expect(page.locator("#copy-note")).to_be_visible()


def test_arabic_right_to_left(server, new_context, shots, catalogues):
    en, ar = catalogues["en"], catalogues["ar"]
    game = create(server)
    ctx = new_context()
    with_token(ctx, game)
    page = ctx.new_page()
    open_game(page, server, game)
    page.locator("#move-input").fill("l5-l4")
    page.locator("#move-input").press("Enter")
    wait_moves(page, 2)
    wait_idle(page)
    before = page.locator("#game h1").inner_text()
    assert before == en["game.title"]
    page.locator("#lang-select").select_option("ar")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    expect(page.locator("#game h1")).to_have_text(ar["game.title"])
    assert ar["game.title"] != en["game.title"]
    expect(page.locator("#status")).to_contain_text(ar["status.computer-moved"].split("{")[0].strip())
    # A move in right-to-left text is a left-to-right island (LRI ... PDI), so that f4>l1
    # is neither reordered nor mirrored.
    reply = move_texts(page)[1]
    assert f"\u2066{reply}\u2069" in page.locator("#status").text_content()
    assert any(c["name"] == "agon_lang" and c["value"] == "ar" for c in ctx.cookies())
    # The panel is mirrored: in right-to-left it sits left of the board.
    board = page.locator("#board").bounding_box()
    panel = page.locator("#panel").bounding_box()
    assert panel["x"] + panel["width"] <= board["x"] + 1
    page.screenshot(path=str(shots / "arabic.png"))
    # The server keeps the choice: a reload and the rules page come in Arabic.
    page.reload()
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.locator("a.rules-link").click()
    page.wait_for_url(re.compile(r"/rules$"))
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    expect(page.locator("h1")).to_have_text(ar["rules.title"])


def test_reload_resumes_the_game(server, new_context, catalogues):
    ctx = new_context()
    page = ctx.new_page()
    page.goto(server + "/")
    page.locator("#start-btn").click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"), timeout=TIMEOUT)
    expect(page.locator("#game")).to_be_visible()
    page.locator("#move-input").fill("b1-c2")
    page.locator("#move-input").press("Enter")
    wait_moves(page, 2)
    wait_idle(page)
    before = move_texts(page)
    url = page.url
    page.reload()
    expect(page.locator("#game")).to_be_visible(timeout=TIMEOUT)
    wait_moves(page, 2)
    assert page.url == url
    assert move_texts(page) == before
    expect(page.locator("#watch-note")).to_be_hidden()
    expect(page.locator("#move-input")).to_be_enabled()
    # Back to the start page and to the game again through the browser history.
    page.locator("#new-game-btn").click()
    expect(page.locator("#new-game")).to_be_visible()
    game_id = url.rsplit("/", 1)[1]
    expect(page.locator("#continue-link")).to_have_attribute("href", f"/g/{game_id}")
    page.go_back()
    expect(page.locator("#game")).to_be_visible(timeout=TIMEOUT)
    wait_moves(page, 2)
    assert move_texts(page) == before


def test_watcher_cannot_move(server, new_context, catalogues):
    en = catalogues["en"]
    game = create(server)
    status, _ = api(server, "POST", f"/api/games/{game['id']}/moves", {"token": game["token"], "move": "a5-a4"})
    assert status == 200
    ctx = new_context()  # no token in this context
    page = ctx.new_page()
    posts = []
    page.on("request", lambda r: r.method != "GET" and posts.append(r.url))
    open_game(page, server, game)
    expect(page.locator("#watch-note")).to_be_visible()
    expect(page.locator("#watch-note")).to_have_text(en["game.watching"])
    wait_moves(page, 2)
    before = move_texts(page)
    page.locator('#board g.piece[data-cell="a4"]').click()
    click_cell(page, "a3")
    page.locator('#board g.piece[data-cell="f1"]').click()
    click_cell(page, "f2")
    page.wait_for_timeout(300)
    assert page.locator("#board .selected, #board .target, #board .movable").count() == 0
    assert move_texts(page) == before
    assert posts == []
    expect(page.locator("#entry-form")).to_be_hidden()
    expect(page.locator("#actions")).to_be_hidden()


def test_phone_viewport(server, new_context, shots):
    game = create(server, CAPTURE)
    ctx = new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    with_token(ctx, game)
    page = ctx.new_page()
    open_game(page, server, game)
    page.locator('#board g.piece[data-cell="d9"]').tap()
    assert "c8" in targets(page)
    # Board on top, panel below, nothing wider than the screen.
    board = page.locator("#board").bounding_box()
    panel = page.locator("#panel").bounding_box()
    assert board["y"] + board["height"] <= panel["y"] + 1
    assert board["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(shots / "phone.png"))


def test_rules_page(server, new_context, shots, catalogues):
    en = catalogues["en"]
    ctx = new_context()
    page = ctx.new_page()
    page.goto(server + "/rules")
    expect(page.locator("h1")).to_have_text(en["rules.title"])
    for key in ("rules.forbidden.text", "rules.capture.text", "rules.return.text", "rules.end.draw"):
        expect(page.locator(f'[data-i18n="{key}"]')).to_have_text(en[key])
    expect(page.locator("#back-link")).to_have_attribute("href", re.compile(r"^/"))
    page.wait_for_selector("#rules-board svg", timeout=TIMEOUT)
    page.screenshot(path=str(shots / "rules.png"), full_page=True)
    # The header is the game page's: its skip link is the keyboard's first stop and jumps
    # past the header to the rules.
    page.keyboard.press("Tab")
    expect(page.locator("a.skip-link")).to_be_focused()
    expect(page.locator("a.skip-link")).to_have_text(en["a11y.skip-rules"])
    page.keyboard.press("Enter")
    expect(page.locator("#rules-text")).to_be_focused()
    # The language switch works here too, without a reload.
    page.locator("#lang-select").select_option("pl")
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator("h1")).to_have_text(catalogues["pl"]["rules.title"])
    expect(page.locator('[data-i18n="rules.return.text"]')).to_have_text(catalogues["pl"]["rules.return.text"])
    assert page.title() == catalogues["pl"]["rules.page-title"]


def test_unknown_game_link(server, new_context, catalogues):
    ctx = new_context()
    page = ctx.new_page()
    page.goto(server + "/g/0000000000000000")
    expect(page.locator("#new-game")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#new-game-error")).to_have_text(catalogues["en"]["game.not-found"])


def test_thinking_is_shown_while_the_computer_searches(server, new_context, catalogues):
    # The hard level searches for 1.5 s: long enough to see the page say so and stay usable.
    game = create(server, level="hard")
    page = game_page(server, new_context, game)
    page.locator('#board g.piece[data-cell="a5"]').click()
    click_cell(page, targets(page)[0])
    expect(page.locator("#thinking")).to_be_visible(timeout=TIMEOUT)
    # The page does not freeze meanwhile: the language can still be switched.
    page.select_option("#lang-select", "pt")
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    wait_moves(page, 2)
    wait_idle(page)
