"""A bot online against a person in Chromium (issue 33's test): `python -m agon.online`
with `engine:50ms` runs as a process of its own, through a proxy the test can cut; a
person signed up with a passkey challenges the bot from the lobby's form, the bot accepts,
the person plays by clicking, every connection of the bot is cut mid-game, and the game
goes on to its end by the rules (a move limit the challenge set: 16 plies, drawn).

Skipped, with a notice, where the `agon` package is not installed (scripts/test.sh
installs it before the browser step).

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import Proxy, api
from test_browser import click_cell, targets
from test_rated import TIMEOUT, click_move, signed_up

PLIES = 16
CUT_AT = 6  # the plies played when the bot's connections are cut


def click_an_action(page, before):
    """Plays the first action of the first piece that has one, by clicking (a step, or
    the return of a captured piece), on a page whose move list holds `before` moves."""
    piece = page.locator("#board g.piece.movable, #board g.piece.returnable").first
    expect(piece).to_be_visible(timeout=TIMEOUT)
    cell = piece.get_attribute("data-cell")
    piece.click()
    expect(page.locator("#board polygon.cell.target").first).to_be_attached(timeout=TIMEOUT)
    dest = targets(page)[0]
    click_cell(page, dest)
    try:
        # Played once the list holds it (the bot's answer may be there already).
        expect(page.locator("#moves .mv:not(.mv-none)").nth(before)).to_be_attached(timeout=5000)
    except AssertionError:
        click_move(page, cell, dest, before)  # a redraw dropped the selection: again


def test_a_bot_accepts_a_challenge_from_the_page_and_survives_a_cut(new_context, passkey_site, catalogues):
    if importlib.util.find_spec("agon") is None:
        pytest.skip("NOTICE: no agon package here: agon.online is not run against the page")
    en, site = catalogues["en"], passkey_site
    robo = signed_up(new_context, site, "Robo")
    assert robo.request.post(f"{site}/api/account/bot", headers={"Origin": site}).status == 200
    made = robo.request.post(f"{site}/api/account/tokens", headers={"Origin": site}, data={"name": "online"})
    assert made.status == 201, made.text()
    robo.close()

    tmp = tempfile.TemporaryDirectory(prefix="agon-online-")
    token_file = Path(tmp.name) / "token"
    token_file.write_text(made.json()["token"] + "\n")
    log = open(Path(tmp.name) / "online.log", "w+b")
    proxy = Proxy(int(site.rsplit(":", 1)[1]))
    bot = subprocess.Popen(
        [sys.executable, "-m", "agon.online", "--server", proxy.base, "--token-file", str(token_file),
         "--bot", "engine:50ms"],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        pia = signed_up(new_context, site, "Pia")
        pia.goto(f"{site}/lobby")
        pia.fill("#challenge-username", "robo")
        pia.fill("#challenge-control", "180+0")
        pia.fill("#challenge-rules", f"standard+limit={PLIES}")
        pia.locator("#challenge-colour").select_option("white")
        pia.get_by_role("button", name=en["lobby.challenge.send"]).click()
        # The bot accepts: the page opens the game with the seat the challenge gave it.
        pia.wait_for_url(re.compile(r"/g/[0-9a-f]{16}$"), timeout=20_000)
        gid = pia.url.rsplit("/", 1)[1]
        moves = pia.locator("#moves .mv:not(.mv-none)")
        cut = 0
        for ply in range(0, PLIES, 2):
            expect(moves).to_have_count(ply, timeout=20_000)
            if ply == CUT_AT:
                # Mid-game: the bot's event stream and game stream go; it must come back.
                cut = proxy.cut()
            click_an_action(pia, ply)
        expect(moves).to_have_count(PLIES, timeout=20_000)
        expect(pia.locator("#outcome")).to_be_visible(timeout=TIMEOUT)
        expect(pia.locator("#outcome-result")).to_contain_text(en["outcome.draw"])
        expect(pia.locator("#outcome-reason")).to_have_text(en["reason.move-limit"])
        assert cut >= 2, f"{cut} connections of the bot were cut (its event and game streams)"
        status, state = api(site, "GET", f"/api/games/{gid}")
        assert status == 200
        assert state["outcome"]["reason"] == "move-limit", state["outcome"]
        assert len(state["moves"]) == PLIES
        assert state["players"]["black"]["username"] == "Robo"
        assert bot.poll() is None, "the bot runs on"
    finally:
        bot.terminate()
        bot.wait(10)
        proxy.close()
        log.seek(0)
        print(log.read().decode(errors="replace")[-2000:])
        log.close()
        tmp.cleanup()
