"""The account page (/account) in Chromium with its virtual authenticator (CDP's WebAuthn
domain): sign up with a passkey and see the recovery codes once, sign out, sign in with
the passkey, add a second passkey and remove the first, sign in with a recovery code,
new codes, delete the account; and the page's look in English and Arabic, desktop and
phone.

The page is opened at http://localhost:PORT, not 127.0.0.1: a passkey's relying party
is a domain, never an IP address (the server's --origin defaults to
http://localhost:PORT).

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import json

import jsonschema
import pytest
import referencing
import referencing.jsonschema
from playwright.sync_api import expect

from conftest import Server, api

TIMEOUT = 10_000
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def site():
    """A server of this module's own, addressed as localhost (the passkeys' domain)."""
    tmp = tempfile.TemporaryDirectory(prefix="agon-web-account-")
    srv = Server(Path(tmp.name), name="accounts")
    try:
        srv.start()
        yield f"http://localhost:{srv.port}"
    finally:
        srv.stop()
        tmp.cleanup()


def authenticator(page):
    """Adds a virtual platform authenticator (resident keys, user verification) to the
    page's browser; its CDP session and id, to remove it again (a device lost)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    return cdp, another_authenticator(cdp)


def another_authenticator(cdp):
    """One more virtual authenticator on the CDP session's page: its id."""
    return cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})["authenticatorId"]


def credentials(cdp, authenticator_id):
    return cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator_id})["credentials"]


CREDENTIAL_REQUESTS = {("POST", "/api/account/signup"), ("POST", "/api/account/signin"),
                       ("POST", "/api/account/passkeys"), ("DELETE", "/api/account")}


def record_credential_requests(page):
    """The bodies the page sends with a passkey's credential, (method, path, body), as
    they are sent: appended to the list returned."""
    sent = []

    def seen(request):
        path = re.sub(r"^https?://[^/]+", "", request.url).split("?")[0]
        if (request.method, path) in CREDENTIAL_REQUESTS:
            sent.append((request.method, path, json.loads(request.post_data or "null")))
    page.on("request", seen)
    return sent


def assert_valid_under_the_document(site, sent):
    """Each body is valid under its operation's request schema in the server's OpenAPI
    document: the schema's bounds (the credential's texts, which keep every allowed body
    under 4 KiB) take what Chromium's authenticator really sends."""
    status, doc = api(site, "GET", "/api/openapi.json")
    assert status == 200
    registry = referencing.Registry().with_resource(
        "urn:agon-web", referencing.Resource.from_contents(
            doc, default_specification=referencing.jsonschema.DRAFT202012))
    assert {(m, p) for m, p, _ in sent} == CREDENTIAL_REQUESTS, sent
    for method, path, body in sent:
        schema = doc["paths"][path][method.lower()]["requestBody"]["content"]["application/json"]["schema"]
        validator = jsonschema.Draft202012Validator(
            {"$ref": "urn:agon-web" + schema["$ref"]}, registry=registry)
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(body)]
        assert errors == [], (method, path, errors)
        assert len(json.dumps(body)) <= 4096, (method, path)


def account_page(new_context, site, lang="en", viewport=None):
    ctx = new_context(**({"viewport": viewport} if viewport else {}))
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    cdp, auth = authenticator(page)
    page.goto(f"{site}/account?lang={lang}")
    expect(page.locator("#signed-out")).to_be_visible()
    return page, cdp, auth


def sign_up(page, username):
    """Signs up as `username`; the recovery codes shown (the page still showing them)."""
    page.fill("#signup-username", username)
    page.locator("#signup-form button[type=submit]").click()
    expect(page.locator("#codes")).to_be_visible()
    expect(page.locator("#codes-title")).to_be_focused()
    expect(page.locator("#codes-list li")).to_have_count(10)
    codes = page.locator("#codes-list li").all_text_contents()
    return codes


def confirm_codes(page):
    done = page.locator("#codes-done")
    expect(done).to_be_disabled()
    page.locator("#codes-saved").check()
    expect(done).to_be_enabled()
    done.click()
    expect(page.locator("#signed-in")).to_be_visible()
    expect(page.locator("#codes-list li")).to_have_count(0)


def signed_out(page, status):
    """The signed-out view with `status` said, the header's link back to "Sign in", and
    the server knowing no session of this browser."""
    expect(page.locator("#signed-out")).to_be_visible()
    expect(page.locator("#account-status")).to_have_text(status)
    expect(page.locator("#account-link")).to_have_text("Sign in")
    assert page.request.get(f"{page.url.split('/account')[0]}/api/me").status == 401


def recover(page, username, code):
    page.fill("#recover-username", username)
    page.fill("#recover-code", code)
    page.get_by_role("button", name="Sign in with a recovery code").click()


def test_account_life_with_passkeys_and_codes(new_context, site):
    page, cdp, first = account_page(new_context, site)
    sent = record_credential_requests(page)
    header = page.locator("#account-link")
    expect(header).to_have_text("Sign in")
    expect(header).to_have_attribute("aria-current", "page")

    # A name the server refuses is explained, before any passkey is made.
    page.fill("#signup-username", "2zoe")
    page.locator("#signup-form button[type=submit]").click()
    expect(page.locator("#account-error")).to_have_text("A username begins with a letter.")
    assert credentials(cdp, first) == []

    codes = sign_up(page, "Zoe-1")
    assert len(codes) == 10 and len(set(codes)) == 10, codes
    assert len(credentials(cdp, first)) == 1
    confirm_codes(page)
    expect(page.locator("#me-title")).to_have_text("Signed in as Zoe-1")
    expect(page.locator("#codes-left")).to_have_text("Unused codes: 10")
    expect(page.locator("#passkey-list li")).to_have_count(1)
    expect(header).to_have_text("Zoe-1")

    # Another page of the site shows the name in its header.
    page.goto(f"{site}/rules")
    expect(page.locator("#account-link")).to_have_text("Zoe-1")
    page.goto(f"{site}/account")
    expect(page.locator("#signed-in")).to_be_visible()

    page.get_by_role("button", name="Sign out", exact=True).click()
    signed_out(page, "You are signed out.")

    # Back in with the passkey: no name asked.
    page.get_by_role("button", name="Sign in with a passkey").click()
    expect(page.locator("#me-title")).to_have_text("Signed in as Zoe-1")
    expect(page.locator("#me-title")).to_be_focused()

    # The first device is lost; a second one gets a passkey of its own.
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": first})
    second = another_authenticator(cdp)
    page.fill("#passkey-name", "Phone")
    page.get_by_role("button", name="Add a passkey").click()
    expect(page.locator("#account-status")).to_have_text("The passkey is added.")
    expect(page.locator("#passkey-list li")).to_have_count(2)
    expect(page.locator("#passkey-list .passkey-name").nth(1)).to_have_text("Phone")
    assert len(credentials(cdp, second)) == 1

    # The lost device's passkey removed; the last one cannot be.
    lost = page.locator("#passkey-list .passkey-name").first.text_content()
    page.get_by_role("button", name=f"Remove the passkey {lost}").click()
    expect(page.locator("#passkey-list li")).to_have_count(1)
    expect(page.locator("#passkeys-title")).to_be_focused()
    page.get_by_role("button", name="Remove the passkey Phone").click()
    expect(page.locator("#account-error")).to_have_text(
        "This is your only passkey: add another before removing it.")
    expect(page.locator("#passkey-list li")).to_have_count(1)

    # A recovery code signs in once.
    page.get_by_role("button", name="Sign out", exact=True).click()
    expect(page.locator("#signed-out")).to_be_visible()
    recover(page, "zoe-1", codes[0])
    expect(page.locator("#me-title")).to_have_text("Signed in as Zoe-1")
    expect(page.locator("#codes-left")).to_have_text("Unused codes: 9")
    page.get_by_role("button", name="Sign out", exact=True).click()
    recover(page, "Zoe-1", codes[0])
    expect(page.locator("#account-error")).to_have_text(
        "This username and code do not match (each code works once).")

    # New codes: the old ones void.
    page.get_by_role("button", name="Sign in with a passkey").click()
    expect(page.locator("#signed-in")).to_be_visible()
    page.get_by_role("button", name="New recovery codes").click()
    # The click only starts the request: read the list once the new codes are in it.
    expect(page.locator("#codes-title")).to_be_focused()
    expect(page.locator("#codes-list li")).to_have_count(10)
    fresh = page.locator("#codes-list li").all_text_contents()
    assert len(fresh) == 10 and not set(fresh) & set(codes)
    confirm_codes(page)
    expect(page.locator("#codes-left")).to_have_text("Unused codes: 10")

    # Deleting asks for the confirmation, then a passkey.
    delete = page.locator("#delete-account")
    expect(delete).to_be_disabled()
    page.locator("#delete-confirm").check()
    delete.click()
    signed_out(page, "Your account is deleted.")
    # Its passkey and codes sign in no more.
    page.get_by_role("button", name="Sign in with a passkey").click()
    expect(page.locator("#account-error")).to_have_text("The passkey was refused. Try again, or use another one.")
    recover(page, "Zoe-1", fresh[0])
    expect(page.locator("#account-error")).to_have_text(
        "This username and code do not match (each code works once).")
    # What the page sent with each passkey is what the API document says it takes.
    assert_valid_under_the_document(site, sent)


def test_sign_out_everywhere_ends_the_other_browsers_session(new_context, site):
    page, cdp, auth = account_page(new_context, site)
    sign_up(page, "Ravi")
    confirm_codes(page)
    # A second browser holding the same passkey (copied across, as a synced passkey is).
    other, other_cdp, other_auth = account_page(new_context, site)
    for credential in credentials(cdp, auth):
        other_cdp.send("WebAuthn.addCredential", {"authenticatorId": other_auth, "credential": credential})
    other.get_by_role("button", name="Sign in with a passkey").click()
    expect(other.locator("#me-title")).to_have_text("Signed in as Ravi")

    page.get_by_role("button", name="Sign out everywhere").click()
    expect(page.locator("#signed-out")).to_be_visible()
    other.reload()
    expect(other.locator("#signed-out")).to_be_visible()
    assert other.request.get(f"{site}/api/me").status == 401


def test_signing_up_claims_the_game_in_progress(new_context, site):
    """A guest playing the computer signs up during the game: the seat becomes the
    account's (the server answers a second claim with the account's name; another
    account's claim is refused)."""
    status, game = api(site, "POST", "/api/games", {"side": "white", "level": "easy"})
    assert status == 201, game
    ctx = new_context()
    key, token, gid = (json.dumps(x) for x in ("agon-token:" + game["id"], game["token"], game["id"]))
    ctx.add_init_script(
        f"if (location.protocol === 'http:') {{ localStorage.setItem({key}, {token});"
        f" localStorage.setItem('agon-last-game', {gid}); }}")
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    authenticator(page)
    page.goto(f"{site}/account")
    expect(page.locator("#signed-out")).to_be_visible()
    sign_up(page, "Kemal")
    expect(page.locator("#account-status")).to_have_text(
        "Your game in progress is now played under your account.")
    claim = f"{site}/api/games/{game['id']}/claim"
    again = page.request.post(claim, data={"token": game["token"]}, headers={"Origin": site})
    assert again.status == 200 and again.json() == {"side": "white", "username": "Kemal"}, again.text()

    other, _, _ = account_page(new_context, site)
    sign_up(other, "Mira")
    taken = other.request.post(claim, data={"token": game["token"]}, headers={"Origin": site})
    assert taken.status == 409 and taken.json()["error"] == "seat-claimed", taken.text()


def test_a_players_page_lists_their_games_and_opens_them(new_context, site):
    """A signed-up player's page: their name, no rating yet, the game they created signed
    in (listed as playing, filterable), which opens; and the leaderboard's page."""
    page, _, _ = account_page(new_context, site)
    sign_up(page, "Lena")
    confirm_codes(page)
    made = page.request.post(f"{site}/api/games", headers={"Origin": site},
                             data={"side": "white", "opponent": "friend", "clock": "5+3"})
    assert made.status == 201, made.text()
    game = made.json()["id"]
    page.goto(f"{site}/@/lena")
    expect(page.locator("#player-name")).to_have_text("Lena")
    expect(page.locator("#no-ratings")).to_be_visible()
    rows = page.locator("#games-list tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Blitz")
    page.select_option("#filter-result", "win")
    expect(rows).to_have_count(0)
    expect(page.locator("#no-games")).to_be_visible()
    page.select_option("#filter-result", "")
    expect(rows).to_have_count(1)
    rows.first.get_by_role("link", name="Playing").click()
    expect(page).to_have_url(f"{site}/g/{game}")
    page.goto(f"{site}/leaderboard?speed=rapid")
    expect(page.locator("#leaderboard-speed")).to_have_value("rapid")
    expect(page.locator("#leaderboard-empty")).to_be_visible()


@pytest.mark.parametrize("lang,viewport", [
    ("en", None), ("ar", None), ("en", PHONE), ("ar", PHONE)])
def test_account_page_screenshots(new_context, site, shots, catalogues, lang, viewport):
    """The page's three views, keyboard-only, in the language asked; screenshots to look at."""
    page, _, _ = account_page(new_context, site, lang, viewport)
    size = "phone" if viewport else "desktop"
    cat = catalogues[lang]
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    expect(page.locator("#account-link")).to_have_text(cat["header.account"])
    # No box wider than the screen (the phone's too).
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(shots / f"account-{lang}-{size}-signed-out.png"), full_page=True)

    # By keyboard: the username field, Enter submits.
    name = f"{'Amal' if lang == 'ar' else 'Ann'}{size[0]}"
    page.locator("#signup-username").focus()
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    expect(page.locator("#codes")).to_be_visible()
    page.screenshot(path=str(shots / f"account-{lang}-{size}-codes.png"), full_page=True)
    page.keyboard.press("Tab")  # the copy button
    page.keyboard.press("Tab")  # the checkbox
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    expect(page.locator("#codes-done")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#me-title")).to_be_focused()
    expect(page.locator("#me-title")).to_have_text(re.compile(re.escape(name)))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(shots / f"account-{lang}-{size}-signed-in.png"), full_page=True)
