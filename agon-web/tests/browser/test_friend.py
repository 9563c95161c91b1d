"""Games between two people in real browsers: the invitation taken by a second browser,
each side seeing the other's moves live (EventSource), offers, clocks running out, the
pages resuming by themselves across a server restart, and a page whose stream is refused
keeping up by asking for the state.

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

import re
import socket
import time

from playwright.sync_api import expect

from conftest import Proxy, api
from test_browser import TIMEOUT, click_cell, move_texts, targets, wait_moves, with_token

LIVE_MS = 1000  # a move made in one browser shows in the other within this


def board_turned_for(page, side):
    """Whether the board shows `side`'s queen's corner (f1 for White, f11 for Black) at the bottom."""
    f1 = page.locator('#board polygon.cell[data-cell="f1"]').bounding_box()
    f11 = page.locator('#board polygon.cell[data-cell="f11"]').bounding_box()
    return (f1["y"] > f11["y"]) == (side == "white")


def click_some_move(page):
    """Plays the first legal move of the first movable piece by clicking; returns its text."""
    piece = page.locator("#board g.piece.movable").first
    expect(piece).to_be_visible(timeout=TIMEOUT)
    cell = piece.get_attribute("data-cell")
    piece.click()
    dest = targets(page)
    assert dest, f"{cell} has destinations"
    click_cell(page, dest[0])
    return f"{cell}-{dest[0]}"


def token_of(page, game_id):
    return page.evaluate(f"localStorage.getItem('agon-token:{game_id}')")


def open_invitation(new_context, url):
    """A second browser opening the invitation link: it takes the free seat."""
    ctx = new_context()
    page = ctx.new_page()
    page.goto(url)
    expect(page.locator("#game")).to_be_visible(timeout=TIMEOUT)
    page.wait_for_selector("#board polygon.cell[data-cell]", timeout=TIMEOUT)
    return page


def creator_page(new_context, base, game):
    """The creator's page of `game` on the server at `base`, in a browser of its own."""
    ctx = new_context()
    with_token(ctx, game)
    page = ctx.new_page()
    page.goto(f"{base}/g/{game['id']}")
    return page


def create_friend(server, **fields):
    body = {"opponent": "friend", "side": "white", **fields}
    status, answer = api(server, "POST", "/api/games", body)
    assert status == 201, answer
    return answer


def test_a_friend_game_by_clicking_live_moves_and_a_draw_by_agreement(server, new_context, shots, catalogues):
    en, ar = catalogues["en"], catalogues["ar"]
    # The first browser starts a game against a friend from the New game panel.
    a = new_context().new_page()
    a.goto(server + "/")
    expect(a.locator("#new-game")).to_be_visible(timeout=TIMEOUT)
    a.get_by_role("radio", name=en["new-game.opponent.friend"], exact=True).click()
    expect(a.locator("#level-choice")).to_be_hidden()
    expect(a.locator("#name-row")).to_be_visible()
    expect(a.locator("#opponent-hint")).to_have_text(en["new-game.opponent.friend-hint"])
    a.locator("#name-input").fill("Ada")
    a.locator("#clock-select").select_option("none")
    a.get_by_role("radio", name=en["new-game.side.white"], exact=True).click()
    a.wait_for_selector("#board polygon.cell[data-cell='f6']", timeout=TIMEOUT)
    a.screenshot(path=str(shots / "friend-new-game.png"))
    a.locator("#start-btn").click()
    a.wait_for_url(re.compile(r"/g/[0-9a-f]+$"), timeout=TIMEOUT)
    game_id = a.url.rsplit("/", 1)[1]

    # The invitation: a link to send, with a Copy button; the second seat is free.
    expect(a.locator("#invite")).to_be_visible(timeout=TIMEOUT)
    link = a.locator("#invite-link").input_value()
    assert link == f"{server}/g/{game_id}"
    expect(a.locator("#invite-copy")).to_be_visible()
    expect(a.locator("#bar-bottom .player-name")).to_have_text("Ada")
    expect(a.locator("#bar-top .player-name")).to_have_text(en["player.waiting"])
    a.screenshot(path=str(shots / "friend-invite.png"))

    # The second browser opens the link and takes Black; the first sees it at once.
    b = open_invitation(new_context, link)
    expect(b.locator("#watch-note")).to_be_hidden()
    expect(b.locator("#game-info")).to_have_text(en["game.you-play-friend"].replace("{side}", en["side.black"]))
    expect(a.locator("#invite")).to_be_hidden(timeout=LIVE_MS)
    expect(a.locator("#bar-top .player-name")).to_have_text(en["player.friend"])
    expect(b.locator("#bar-top .player-name")).to_have_text("Ada")
    # Each sees the other present, and its own pieces at the bottom.
    expect(a.locator("#bar-top .presence.online")).to_have_count(1, timeout=TIMEOUT)
    expect(b.locator("#bar-top .presence.online")).to_have_count(1, timeout=TIMEOUT)
    assert board_turned_for(a, "white") and board_turned_for(b, "black")
    # Offers wait for the game to start.
    expect(b.locator("#draw-btn")).to_be_visible()
    expect(b.locator("#hint-btn")).to_be_hidden()
    expect(b.locator("#undo-btn")).to_be_hidden()

    # White moves by clicking; Black's page shows it within a second, without a reload.
    expect(a.locator("#status")).to_have_text(en["status.your-turn"], timeout=TIMEOUT)
    first = click_some_move(a)
    wait_moves(a, 1)
    t0 = time.monotonic()
    expect(b.locator("#moves .mv:not(.mv-none)")).to_have_count(1, timeout=LIVE_MS)
    assert time.monotonic() - t0 < LIVE_MS / 1000 + 0.2
    assert move_texts(b) == [first]
    expect(b.locator("#status")).to_contain_text(en["status.opponent-moved"].replace("{move}", first))

    # Black answers by clicking; White sees it as quickly.
    second = click_some_move(b)
    wait_moves(b, 2)
    expect(a.locator("#moves .mv:not(.mv-none)")).to_have_count(2, timeout=LIVE_MS)
    assert move_texts(a) == [first, second]
    a.mouse.move(5, 5)
    b.mouse.move(5, 5)
    a.screenshot(path=str(shots / "friend-white.png"))
    b.screenshot(path=str(shots / "friend-black.png"))

    # A takeback asked for and declined.
    a.locator("#takeback-btn").click()
    expect(a.locator("#offer-text")).to_have_text(en["offer.takeback-out"], timeout=TIMEOUT)
    expect(b.locator("#offer-text")).to_have_text(en["offer.takeback-in"], timeout=LIVE_MS)
    b.locator("#offer-decline").click()
    expect(a.locator("#offer-box")).to_be_hidden(timeout=TIMEOUT)
    expect(b.locator("#offer-box")).to_be_hidden()
    assert move_texts(a) == [first, second]
    # Asked again and accepted: White's move and Black's reply after it are taken back.
    a.locator("#takeback-btn").click()
    expect(b.locator("#offer-text")).to_have_text(en["offer.takeback-in"], timeout=TIMEOUT)
    b.locator("#offer-accept").click()
    wait_moves(a, 0)
    wait_moves(b, 0)
    expect(a.locator("#status")).to_have_text(en["status.your-turn"], timeout=TIMEOUT)

    # White offers a draw; Black, reading the page in Arabic, accepts.
    a.locator("#draw-btn").click()
    expect(a.locator("#offer-text")).to_have_text(en["offer.draw-out"], timeout=TIMEOUT)
    expect(a.locator("#draw-btn")).to_be_disabled()
    expect(b.locator("#offer-box")).to_be_visible(timeout=LIVE_MS)
    expect(b.locator("#offer-text")).to_have_text(en["offer.draw-in"])
    b.wait_for_timeout(300)  # the box has faded in
    b.screenshot(path=str(shots / "friend-offer.png"))
    b.locator("#lang-select").select_option("ar")
    expect(b.locator("html")).to_have_attribute("dir", "rtl")
    expect(b.locator("#offer-text")).to_have_text(ar["offer.draw-in"])
    expect(b.locator("#offer-accept")).to_have_text(ar["offer.accept"])
    b.mouse.move(5, 5)
    b.screenshot(path=str(shots / "friend-offer-arabic.png"))
    b.locator("#offer-accept").click()

    # Both pages show the result, in words.
    for page, cat in ((a, en), (b, ar)):
        expect(page.locator("#outcome")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("#outcome-result")).to_contain_text(cat["outcome.draw"])
        expect(page.locator("#outcome-reason")).to_have_text(cat["reason.agreement"])
        expect(page.locator("#entry-form")).to_be_hidden()
        expect(page.locator("#rematch-btn")).to_be_visible()
    b.screenshot(path=str(shots / "friend-over-arabic.png"))
    status, state = api(server, "GET", f"/api/games/{game_id}")
    assert state["outcome"]["reason"] == "agreement"

    # A rematch, colours swapped: both pages move to the new game with their token.
    a.locator("#rematch-btn").click()
    expect(b.locator("#offer-box")).to_be_visible(timeout=TIMEOUT)
    b.locator("#offer-accept").click()
    a.wait_for_url(re.compile(r"/g/(?!%s)[0-9a-f]+$" % game_id), timeout=TIMEOUT)
    b.wait_for_url(re.compile(r"/g/(?!%s)[0-9a-f]+$" % game_id), timeout=TIMEOUT)
    assert a.url == b.url
    new_id = a.url.rsplit("/", 1)[1]
    assert token_of(a, new_id) == token_of(a, game_id)
    expect(a.locator("#game-info")).to_have_text(en["game.you-play-friend"].replace("{side}", en["side.black"]), timeout=TIMEOUT)
    a.wait_for_selector("#board polygon.cell[data-cell]", timeout=TIMEOUT)
    b.wait_for_selector("#board g.piece.movable", timeout=TIMEOUT)
    assert board_turned_for(a, "black") and board_turned_for(b, "white")


def test_a_third_browser_watches(server, new_context, catalogues):
    en = catalogues["en"]
    game = create_friend(server)
    b = open_invitation(new_context, f"{server}/g/{game['id']}")
    expect(b.locator("#watch-note")).to_be_hidden()
    c = open_invitation(new_context, f"{server}/g/{game['id']}")
    expect(c.locator("#watch-note")).to_be_visible()
    expect(c.locator("#watch-note")).to_have_text(en["game.watching-friend"])
    expect(c.locator("#actions")).to_be_hidden()
    # The watcher follows live too.
    status, _ = api(server, "POST", f"/api/games/{game['id']}/moves", {"token": game["token"], "move": "a5-a4"})
    assert status == 200
    expect(c.locator("#moves .mv:not(.mv-none)")).to_have_count(1, timeout=LIVE_MS)
    expect(b.locator("#moves .mv:not(.mv-none)")).to_have_count(1, timeout=LIVE_MS)
    # Black replies (until both sides have moved, Abort stands where Resign will be).
    expect(b.locator("#abort-btn")).to_be_visible()
    expect(b.locator("#resign-btn")).to_be_hidden()
    status, _ = api(server, "POST", f"/api/games/{game['id']}/moves", {"token": token_of(b, game["id"]), "move": "b7-c7"})
    assert status == 200
    expect(c.locator("#moves .mv:not(.mv-none)")).to_have_count(2, timeout=LIVE_MS)
    expect(b.locator("#abort-btn")).to_be_hidden(timeout=LIVE_MS)
    # Black resigns: a second press confirms; the first changes nothing.
    b.locator("#resign-btn").click()
    expect(b.locator("#resign-btn")).to_have_text(en["actions.resign-confirm"])
    assert api(server, "GET", f"/api/games/{game['id']}")[1]["outcome"] is None
    b.locator("#resign-btn").click()
    expect(b.locator("#outcome-reason")).to_have_text(en["reason.you-resigned"], timeout=TIMEOUT)
    expect(b.locator("#outcome-result")).to_contain_text(en["outcome.lose"])
    expect(c.locator("#outcome-reason")).to_have_text(
        en["reason.side-resigned"].replace("{side}", en["side.black"]), timeout=LIVE_MS
    )
    expect(c.locator("#outcome-result")).to_contain_text(en["outcome.white-wins"])
    expect(c.locator("#rematch-btn")).to_be_hidden()


def test_a_clock_runs_out(server, new_context, shots, catalogues):
    en = catalogues["en"]
    game = create_friend(server, clock="1+0")
    minute = game["state"]["clock"]["initial_ms"]
    ctx = new_context()
    key, token = f"agon-token:{game['id']}", game["token"]
    ctx.add_init_script(f"if (location.protocol === 'http:') {{ localStorage.setItem('{key}', '{token}'); localStorage.setItem('agon-side:{game['id']}', 'white'); }}")
    a = ctx.new_page()
    a.goto(f"{server}/g/{game['id']}")
    b = open_invitation(new_context, f"{server}/g/{game['id']}")
    # Both clocks show the whole minute, neither runs before the first move.
    expect(a.locator("#bar-bottom .clock")).to_be_visible(timeout=TIMEOUT)
    expect(a.locator("#game-clock")).to_have_text(en["game.clock"].replace("{control}", "1+0"))
    expect(b.locator(".clock.running")).to_have_count(0)
    # White moves once its page has heard that Black sat down (a loaded machine may take
    # a while to tell it).
    expect(a.locator("#bar-top .presence.online")).to_have_count(1, timeout=TIMEOUT)
    click_some_move(a)
    wait_moves(b, 1)
    # Black's time runs from White's first move (a first move not made in time aborts the
    # game instead: tests/browser/test_playing.py); Black replies.
    expect(b.locator("#bar-bottom .clock.running")).to_have_count(1, timeout=TIMEOUT)
    click_some_move(b)
    wait_moves(a, 2)
    # Now White's time runs, on both pages, down to low time...
    expect(a.locator("#bar-bottom .clock.running")).to_have_count(1, timeout=TIMEOUT)
    expect(b.locator("#bar-top .clock.running")).to_have_count(1, timeout=TIMEOUT)
    expect(a.locator("#bar-bottom .clock.low")).to_have_count(1, timeout=minute + TIMEOUT)
    a.mouse.move(5, 5)
    a.screenshot(path=str(shots / "clock-low.png"))
    # ...and out: the server ends the game and both pages say why, without any move.
    expect(a.locator("#outcome")).to_be_visible(timeout=minute + TIMEOUT)
    expect(a.locator("#outcome-result")).to_contain_text(en["outcome.lose"])
    expect(a.locator("#outcome-reason")).to_have_text(en["reason.time-forfeit-you"])
    expect(b.locator("#outcome-result")).to_contain_text(en["outcome.win"], timeout=TIMEOUT)
    expect(b.locator("#outcome-reason")).to_have_text(en["reason.time-forfeit-opponent"])
    expect(a.locator("#bar-bottom .clock-time")).to_have_text("0:00.0")
    a.screenshot(path=str(shots / "clock-out.png"))


def test_pages_resume_after_a_server_restart(restartable_server, new_context, catalogues):
    srv = restartable_server
    base = srv.base
    game = create_friend(base)
    a = creator_page(new_context, base, game)
    b = open_invitation(new_context, f"{base}/g/{game['id']}")
    b_token = token_of(b, game["id"])
    assert b_token
    first = click_some_move(a)
    expect(b.locator("#moves .mv:not(.mv-none)")).to_have_count(1, timeout=TIMEOUT)

    # The server dies mid-game: the pages say they are reconnecting.
    srv.kill()
    expect(a.locator("#live-note")).to_be_visible(timeout=TIMEOUT)
    expect(b.locator("#live-note")).to_be_visible(timeout=TIMEOUT)
    # Neither page knows now whether the other is there: no green dot.
    for page in (a, b):
        expect(page.locator("#bar-top .presence.unknown")).to_have_count(1)
        expect(page.locator("#bar-top .presence.online")).to_have_count(0)
    srv.start()
    # A move made as soon as it is back, before the pages reconnect.
    status, state = api(base, "GET", f"/api/games/{game['id']}")
    assert status == 200 and state["moves"] == [first]
    reply = state["legal_moves"][0]
    status, _ = api(base, "POST", f"/api/games/{game['id']}/moves", {"token": b_token, "move": reply})
    assert status == 200
    # Both pages come back by themselves and show it, once.
    for page in (a, b):
        expect(page.locator("#live-note")).to_be_hidden(timeout=TIMEOUT)
        wait_moves(page, 2)
        assert move_texts(page) == [first, reply]
        expect(page.locator("#bar-top .presence.online")).to_have_count(1, timeout=TIMEOUT)
    # And go on live: White's next move reaches Black.
    third = click_some_move(a)
    expect(b.locator("#moves .mv:not(.mv-none)")).to_have_count(3, timeout=TIMEOUT)
    assert move_texts(b) == [first, reply, third]


def test_the_move_sound_is_off_by_default_and_remembered(server, new_context, catalogues):
    game = create_friend(server)
    a = creator_page(new_context, server, game)
    sound = a.locator("#sound-btn")
    expect(sound).to_have_attribute("aria-pressed", "false", timeout=TIMEOUT)
    expect(sound).to_have_attribute("title", catalogues["en"]["sound.title"])
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    assert a.evaluate("localStorage.getItem('agon-sound')") == "on"
    a.reload()
    expect(a.locator("#sound-btn")).to_have_attribute("aria-pressed", "true", timeout=TIMEOUT)
    # The opponent's move plays it (Web Audio: no file, nothing the policy forbids).
    b = open_invitation(new_context, f"{server}/g/{game['id']}")
    a.locator("#board").click(position={"x": 5, "y": 5})  # a gesture wakes the audio
    click_some_move(a)
    second = click_some_move(b)
    expect(a.locator("#moves .mv.last")).to_have_text(second, timeout=LIVE_MS)
    a.locator("#sound-btn").click()
    assert a.evaluate("localStorage.getItem('agon-sound')") == "off"


def test_screens_new_game_in_arabic_and_a_friend_game_on_a_phone(server, new_context, shots, catalogues):
    ar = catalogues["ar"]
    ctx = new_context()
    page = ctx.new_page()
    page.goto(server + "/?lang=ar")
    expect(page.locator("html")).to_have_attribute("dir", "rtl", timeout=TIMEOUT)
    page.get_by_role("radio", name=ar["new-game.opponent.friend"], exact=True).click()
    page.locator("#clock-select").select_option("5+3")
    page.wait_for_selector("#board polygon.cell[data-cell='f6']", timeout=TIMEOUT)
    page.screenshot(path=str(shots / "arabic-new-game.png"))
    page.locator("#start-btn").click()
    page.wait_for_url(re.compile(r"/g/[0-9a-f]+$"), timeout=TIMEOUT)
    expect(page.locator("#invite")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#game-clock")).to_have_text(ar["game.clock"].replace("{control}", "5+3"))
    page.screenshot(path=str(shots / "arabic-invite.png"))
    link = page.locator("#invite-link").input_value()

    phone = new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    p = phone.new_page()
    p.goto(link)
    expect(p.locator("#game")).to_be_visible(timeout=TIMEOUT)
    click_some_move(page)
    expect(p.locator("#moves .mv:not(.mv-none)")).to_have_count(1, timeout=TIMEOUT)
    assert p.evaluate("document.documentElement.scrollWidth") <= 390
    top = p.locator("#bar-top").bounding_box()
    board = p.locator("#board").bounding_box()
    bottom = p.locator("#bar-bottom").bounding_box()
    assert top["y"] + top["height"] <= board["y"] + 1 and board["y"] + board["height"] <= bottom["y"] + 1
    p.screenshot(path=str(shots / "friend-phone.png"))


COUNT_ANIMATIONS = """
window.__slides = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  if (this.matches && this.matches('#board g.piece')) window.__slides.push(this.dataset.cell);
  return animate.call(this, frames, options);
};
"""


def test_moves_slide_unless_reduced_motion(server, new_context):
    game = create_friend(server)
    moving = new_context()
    moving.add_init_script(COUNT_ANIMATIONS)
    still = new_context(reduced_motion="reduce")
    still.add_init_script(COUNT_ANIMATIONS)
    a = moving.new_page()
    a.goto(f"{server}/g/{game['id']}")  # joins as Black
    expect(a.locator("#game")).to_be_visible(timeout=TIMEOUT)
    c = still.new_page()
    c.goto(f"{server}/g/{game['id']}")  # watches
    expect(c.locator("#watch-note")).to_be_visible(timeout=TIMEOUT)
    status, _ = api(server, "POST", f"/api/games/{game['id']}/moves", {"token": game["token"], "move": "a5-a4"})
    assert status == 200
    wait_moves(a, 1)
    wait_moves(c, 1)
    assert a.evaluate("window.__slides") == ["a4"], "the opponent's piece slides to its cell"
    assert c.evaluate("window.__slides") == [], "no motion when the person asks for less"


def test_a_rematch_against_the_computer_swaps_colours_at_once(server, new_context, catalogues):
    en = catalogues["en"]
    status, game = api(server, "POST", "/api/games", {"side": "white", "level": "easy"})
    assert status == 201
    page = creator_page(new_context, server, game)
    expect(page.locator("#resign-btn")).to_be_enabled(timeout=TIMEOUT)
    page.locator("#resign-btn").click()
    page.locator("#resign-btn").click()
    expect(page.locator("#rematch-btn")).to_be_visible(timeout=TIMEOUT)
    page.locator("#rematch-btn").click()
    page.wait_for_url(re.compile(r"/g/(?!%s)[0-9a-f]+$" % game["id"]), timeout=TIMEOUT)
    expect(page.locator("#game-info")).to_have_text(
        en["game.you-play"].replace("{side}", en["side.black"]).replace("{level}", en["level.easy"]), timeout=TIMEOUT
    )
    # The computer, now White, has made its first move; Black's pieces are at the bottom.
    wait_moves(page, 1)
    expect(page.locator("#status")).to_contain_text(en["status.your-turn"], timeout=TIMEOUT)
    assert board_turned_for(page, "black")


def test_a_friend_game_across_two_servers(two_servers, new_context, catalogues):
    """White's page on one server, Black's on another, one PostgreSQL database: each sees
    the other's moves live, through the database's notifications."""
    one, two = (srv.base for srv in two_servers)
    game = create_friend(one)
    white = creator_page(new_context, one, game)
    black = open_invitation(new_context, f"{two}/g/{game['id']}")
    assert token_of(black, game["id"]), "the second browser took Black's seat through the other server"
    played = []
    for ply in range(4):
        mover, watcher = (white, black) if ply % 2 == 0 else (black, white)
        played.append(click_some_move(mover))
        expect(watcher.locator("#moves .mv:not(.mv-none)")).to_have_count(len(played), timeout=LIVE_MS)
    for page in (white, black):
        assert move_texts(page) == played
    status, state = api(two, "GET", f"/api/games/{game['id']}")
    assert status == 200 and state["moves"] == played


def test_pages_fail_over_to_the_other_server(two_servers, new_context, catalogues):
    """Two servers on one PostgreSQL behind a proxy: the one serving both pages is killed
    with SIGKILL mid-game, the proxy sends the next connections to the other, and the
    pages carry on by themselves, every move shown once."""
    one, two = two_servers
    proxy = Proxy(one.port)
    try:
        base = proxy.base
        game = create_friend(base)
        white = creator_page(new_context, base, game)
        black = open_invitation(new_context, f"{base}/g/{game['id']}")
        assert token_of(black, game["id"])
        played = [click_some_move(white)]
        expect(black.locator("#moves .mv:not(.mv-none)")).to_have_count(1, timeout=LIVE_MS)
        played.append(click_some_move(black))
        expect(white.locator("#moves .mv:not(.mv-none)")).to_have_count(2, timeout=LIVE_MS)

        one.kill()
        proxy.backend_port = two.port
        # A move made on the surviving server reaches both pages: their streams, cut with
        # the dead server, reopened through the proxy on the other (at once: the proxy
        # answers, so the pages need not even say they are reconnecting).
        status, state = api(two.base, "GET", f"/api/games/{game['id']}")
        assert status == 200 and state["moves"] == played
        status, _ = api(two.base, "POST", f"/api/games/{game['id']}/moves",
                        {"token": game["token"], "move": state["legal_moves"][0]})
        assert status == 200
        played.append(state["legal_moves"][0])
        for page in (white, black):
            expect(page.locator("#moves .mv:not(.mv-none)")).to_have_count(3, timeout=TIMEOUT)
            expect(page.locator("#live-note")).to_be_hidden(timeout=TIMEOUT)
        # The game goes on through the proxy, live on both pages.
        for ply in range(3, 7):
            mover, watcher = (white, black) if ply % 2 == 0 else (black, white)
            played.append(click_some_move(mover))
            expect(watcher.locator("#moves .mv:not(.mv-none)")).to_have_count(len(played), timeout=LIVE_MS)
        for page in (white, black):
            assert move_texts(page) == played
        status, state = api(two.base, "GET", f"/api/games/{game['id']}")
        assert status == 200 and state["moves"] == played
    finally:
        proxy.close()


def hold_stream(base, game_id):
    """Opens the game's event stream from this process (as a watcher) and keeps it open:
    the socket, to close when the stream's place is to be freed."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(
        f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: {host}:{port}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, f"the stream closed: {head!r}"
        head += chunk
    assert head.startswith(b"HTTP/1.1 200"), head[:200]
    return sock


def set_hidden(page, hidden):
    """Makes the page's tab hidden or shown, as the browser says it (document.hidden and
    the visibilitychange event)."""
    page.evaluate(
        """(hidden) => {
          Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
          document.dispatchEvent(new Event('visibilitychange'));
        }""",
        hidden,
    )


def test_a_page_whose_stream_is_refused_asks_for_the_state_until_it_is_back(
    one_stream_server, new_context, shots, catalogues
):
    en = catalogues["en"]
    base = one_stream_server
    game = create_friend(base)
    gid = game["id"]
    status, joined = api(base, "POST", f"/api/games/{gid}/join", {"name": "Bo"})
    assert status == 200, joined
    # Another page behind the same address holds the one stream it may have.
    held = hold_stream(base, gid)
    ctx = new_context()
    with_token(ctx, game)
    page = ctx.new_page()
    # The page's timers run on a clock the test can move on (its requests stay real).
    page.clock.install()
    asks = []  # the page's requests for the game's state
    page.on("request", lambda r: r.method == "GET" and f"/api/games/{gid}?" in r.url and asks.append(r.url))
    page.goto(f"{base}/g/{gid}")
    expect(page.locator("#game")).to_be_visible(timeout=TIMEOUT)

    # Refused from the start (429): the page says it is reconnecting, and does not claim
    # to know whether the opponent is there.
    expect(page.locator("#live-note")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#live-note")).to_have_text(en["live.reconnecting"])
    expect(page.locator("#bar-top .presence.unknown")).to_have_count(1)
    expect(page.locator("#bar-top .presence.online")).to_have_count(0)
    expect(page.locator("#bar-top .presence")).to_have_attribute("aria-label", en["presence.unknown"])

    # It plays (requests need no stream), and the opponent's reply, made elsewhere,
    # reaches it by its asking for the state within a few seconds.
    first = click_some_move(page)
    wait_moves(page, 1)
    status, state = api(base, "GET", f"/api/games/{gid}")
    reply = state["legal_moves"][0]
    status, _ = api(base, "POST", f"/api/games/{gid}/moves", {"token": joined["token"], "move": reply})
    assert status == 200
    before = len(asks)
    page.clock.run_for(6000)  # at most 3 s and its jitter (one ask may find nothing new yet)
    wait_moves(page, 2)
    assert move_texts(page) == [first, reply]
    assert len(asks) > before
    expect(page.locator("#status")).to_contain_text(en["status.your-turn"])
    expect(page.locator("#live-note")).to_be_visible()
    page.screenshot(path=str(shots / "friend-stream-refused.png"))

    # A hidden tab asks nothing, however long; shown again, it asks at once.
    set_hidden(page, True)
    page.wait_for_timeout(500)  # an ask under way when it was hidden
    quiet = len(asks)
    page.clock.run_for(60_000)
    page.wait_for_timeout(500)
    assert len(asks) == quiet, asks[quiet:]
    set_hidden(page, False)
    deadline = time.monotonic() + 5
    while len(asks) == quiet and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert len(asks) > quiet

    # The stream's place is freed: the page's next try opens it (its backoff is at most
    # 8 s), the notice goes, the presence is the server's word again.
    held.close()
    page.clock.run_for(10_000)
    expect(page.locator("#live-note")).to_be_hidden(timeout=TIMEOUT)
    expect(page.locator("#bar-top .presence.unknown")).to_have_count(0)
    expect(page.locator("#bar-top .presence")).to_have_attribute("aria-label", en["presence.offline"])
    # It asks no more: a minute goes by with no request for the state...
    page.wait_for_timeout(500)  # the refresh of the (re)opened stream
    settled = len(asks)
    page.clock.run_for(60_000)
    page.wait_for_timeout(500)
    assert len(asks) == settled, asks[settled:]
    # ... and the opponent's next move arrives live.
    third = click_some_move(page)
    wait_moves(page, 3)
    status, state = api(base, "GET", f"/api/games/{gid}")
    fourth = state["legal_moves"][0]
    status, _ = api(base, "POST", f"/api/games/{gid}/moves", {"token": joined["token"], "move": fourth})
    assert status == 200
    expect(page.locator("#moves .mv:not(.mv-none)")).to_have_count(4, timeout=LIVE_MS * 3)
    assert move_texts(page) == [first, reply, third, fourth]
    assert len(asks) == settled
