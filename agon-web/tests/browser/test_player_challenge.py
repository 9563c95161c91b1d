"""A challenge from a player page, in Chromium with its virtual authenticator: a signed-in
visitor challenges the page's player with the form (time control, rated, colour), the
player sees it in the lobby and accepts, and both open the game, the challenger's page by
the lobby's stream; a bot's page says the bot answers by itself, and a bot declining
(through the Bot API) is said on the page; no form for a guest nor on one's own page;
screenshots in English and Arabic.

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import expect

from conftest import api
from test_account import PHONE
from test_rated import signed_up

GAME = re.compile(r"/g/([0-9a-f]{16})$")


def player_page(page, site, username, lang="en"):
    page.goto(f"{site}/@/{username}?lang={lang}")
    expect(page.locator("#player-name")).not_to_be_empty()
    return page


def test_a_challenge_from_a_player_page_is_seen_and_accepted(new_context, passkey_site, catalogues):
    en, site = catalogues["en"], passkey_site
    kim = signed_up(new_context, site, "Kim")
    lev = signed_up(new_context, site, "Lev")
    lev.goto(f"{site}/lobby?lang=en")
    expect(lev.locator("#seeks-empty")).to_be_attached()

    # No form on one's own page, nor for a guest.
    player_page(kim, site, "Kim")
    expect(kim.locator("#challenge-card")).to_be_hidden()
    guest = player_page(new_context().new_page(), site, "Lev")
    expect(guest.locator("#challenge-card")).to_be_hidden()

    player_page(kim, site, "lev")
    card = kim.locator("#challenge-card")
    expect(card).to_be_visible()
    expect(kim.locator("#challenge-title")).to_have_text(en["player.challenge.title"].replace("{player}", "Lev"))
    expect(kim.locator("#challenge-bot")).to_be_hidden()
    kim.fill("#challenge-control", "15+10")
    kim.locator("#challenge-colour").select_option("black")
    kim.locator("#challenge-rated").check()
    kim.get_by_role("button", name=en["lobby.challenge.send"]).click()
    expect(kim.locator("#challenge-status")).to_have_text(
        en["player.challenge.waiting"].replace("{player}", "Lev"))
    expect(kim.locator("#challenge-send")).to_be_disabled()

    got = lev.locator("#challenge-list li")
    expect(got).to_contain_text(en["lobby.challenge.from"].replace("{player}", "Kim"))
    for text in ("15+10", en["lobby.rated-mark"], en["lobby.colour.black"]):
        expect(got).to_contain_text(text)
    got.get_by_role("button", name=en["lobby.accept"]).click()
    lev.wait_for_url(GAME)
    kim.wait_for_url(GAME)
    assert kim.url == lev.url
    gid = GAME.search(kim.url).group(1)
    status, state = api(site, "GET", f"/api/games/{gid}")
    assert status == 200, state
    assert state["rated"] is True, state
    assert (state["players"]["white"]["username"], state["players"]["black"]["username"]) == ("Lev", "Kim")
    tokens = [p.evaluate(f"localStorage.getItem('agon-token:{gid}')") for p in (kim, lev)]
    assert all(tokens) and tokens[0] != tokens[1], "each browser holds its own seat"
    assert kim.evaluate("localStorage.getItem('agon-lobby-seeks')") == "{}", "the seat's token taken"


def test_a_bot_is_challenged_from_its_page_and_its_refusal_is_said(new_context, passkey_site, catalogues, shots):
    en, ar, site = catalogues["en"], catalogues["ar"], passkey_site
    bot = signed_up(new_context, site, "Robota")
    made = bot.request.post(f"{site}/api/account/bot", headers={"Origin": site})
    assert made.status == 200, made.text()
    token = bot.request.post(f"{site}/api/account/tokens", headers={"Origin": site}, data={"name": "t"})
    assert token.status == 201, token.text()
    bearer = {"Authorization": f"Bearer {token.json()['token']}"}

    mia = signed_up(new_context, site, "Mia")
    player_page(mia, site, "Robota")
    expect(mia.locator("#challenge-bot")).to_have_text(en["player.challenge.bot"])
    mia.fill("#challenge-control", "3+2")
    mia.get_by_role("button", name=en["lobby.challenge.send"]).click()
    expect(mia.locator("#challenge-status")).to_have_text(
        en["player.challenge.waiting"].replace("{player}", "Robota"))
    mia.screenshot(path=str(shots / "player-challenge-en-desktop.png"), full_page=True)

    # Not in a guest's list; the bot declines it through the Bot API.
    status, listed = api(site, "GET", "/api/lobby/seeks")
    assert all(s["to"] != "Robota" for s in listed["seeks"]), "a challenge is only its two players'"
    sent = mia.evaluate("JSON.parse(localStorage.getItem('agon-lobby-seeks'))")
    [challenge] = sent.keys()
    req = urllib.request.Request(f"{site}/api/challenge/{challenge}/decline", b"{}", method="POST",
                                 headers={**bearer, "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        assert json.load(res) == {"id": challenge}
    expect(mia.locator("#challenge-status")).to_have_text(en["lobby.declined"])
    expect(mia.locator("#challenge-send")).to_be_enabled()
    expect(mia.locator("#challenge-cancel")).to_be_hidden()

    # A second one, cancelled from the page.
    mia.get_by_role("button", name=en["lobby.challenge.send"]).click()
    expect(mia.locator("#challenge-cancel")).to_be_visible()
    mia.get_by_role("button", name=en["lobby.cancel"]).click()
    expect(mia.locator("#challenge-status")).to_have_text(en["player.challenge.gone"])

    # Arabic, right to left, on a phone.
    mia.set_viewport_size(PHONE)
    player_page(mia, site, "Robota", "ar")
    expect(mia.locator("html")).to_have_attribute("dir", "rtl")
    expect(mia.locator("#challenge-title")).to_have_text(ar["player.challenge.title"].replace("{player}", "Robota"))
    expect(mia.locator("#challenge-bot")).to_have_text(ar["player.challenge.bot"])
    assert mia.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    mia.screenshot(path=str(shots / "player-challenge-ar-phone.png"), full_page=True)
