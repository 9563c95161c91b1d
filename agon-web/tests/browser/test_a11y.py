"""axe-core on every page the server serves: no violation of impact "serious" or "critical"
in any of the six languages, in the light and the dark theme, at a desktop's and a phone's
size.

axe-core is the npm package pinned in agon-web/package.json (`npm ci --prefix agon-web`
installs it); its script is injected into each page as a Playwright init script, which
the page's Content-Security-Policy (no inline scripts) does not cover.

Kept quick (axe and a dozen pages in Chromium are most of the browser step's time): one
server, one browser and one set of games for the whole file; a test per language opens its
views side by side, each loaded once and checked in its looks (the theme and the size
change in place, without reloading), every axe rule in the first look and the
look-dependent ones (colours, names, labels) in the others.

- English and Arabic (left to right, right to left): all fourteen views (one of them the
  game in the screen-reader mode), in all four looks
  (light and dark, each at a desktop's and a phone's size).
- Portuguese, Polish, Turkish and Malay: the eight views that between them show every
  control and box of the others (the new-game form with its rule options, the rules, the
  account page, a game over, a friend game with a draw offered, the analysis board, the
  leaderboard, the lobby), light at a desktop's size and dark at a phone's: each language in both
  themes and both sizes. Their colours and layout are English's; what differs is text,
  whose length can move and wrap it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import REPO, api
from test_browser import RETURN, TIMEOUT, wait_moves

AXE = REPO / "agon-web" / "node_modules" / "axe-core" / "axe.min.js"
LANGUAGES = ["en", "pt", "pl", "tr", "ms", "ar"]
# Every view in every look in these; the others in two looks and eight views (see above).
EVERY_LOOK = {"en", "ar"}
DESKTOP = ("desktop", {"width": 1280, "height": 800})
PHONE = ("phone", {"width": 390, "height": 844})
LOOKS = [(scheme, *size) for scheme in ("light", "dark") for size in (DESKTOP, PHONE)]
TWO_LOOKS = [("light", *DESKTOP), ("dark", *PHONE)]
# The views whose controls and boxes the other five repeat.
FEWER_VIEWS = {"new game", "rules", "account, signed out", "game over", "friend game, Black",
               "analysis board, a game's moves", "leaderboard", "lobby"}
BLOCKING = {"serious", "critical"}
# Every rule (WCAG 2.x A and AA and axe's best practices) in the first look; in the others
# only the rules whose answer can change with the theme or the size: colours, and the names
# and labels that a narrow layout could hide.
FULL_CONTEXT = {"exclude": []}
FULL_RUN = {"resultTypes": ["violations"]}
# The board's drawing has the same colours in every look (agon-svg's, under the page's
# marks) and its cells' names do not depend on the look: checked in the first look only.
LOOK_CONTEXT = {"exclude": [["#board"], ["#rules-board"]]}
LOOK_RUN = {
    "resultTypes": ["violations"],
    "runOnly": {"type": "rule", "values": [
        "color-contrast", "link-in-text-block", "button-name", "link-name", "label", "select-name",
        "input-button-name", "aria-command-name", "scrollable-region-focusable", "aria-hidden-focus",
    ]},
}


def post(server, path, body):
    status, answer = api(server, "POST", path, body)
    assert status in (200, 201), (path, answer)
    return answer


@pytest.fixture(scope="module")
def games(server):
    """The games the pages show, made through the API once for every language: a game
    against the computer in play, one where a captured piece must be returned, one over
    (resigned, with its clocks), a friend game waiting for its second player, and one in
    play with a draw offered by Black (no clock: it would run out during the test)."""
    computer = post(server, "/api/games", {"side": "white", "level": "easy"})
    cid, ctoken = computer["id"], computer["token"]
    legal = computer["state"]["legal_moves"]
    # The computer's reply comes with the move (or the page asks for it).
    post(server, f"/api/games/{cid}/moves", {"token": ctoken, "move": next(m for m in legal if "-" in m)})

    over = post(server, "/api/games", {"side": "black", "level": "easy", "clock": "1+0"})
    post(server, f"/api/games/{over['id']}/resign", {"token": over["token"]})

    friend = post(server, "/api/games", {"opponent": "friend", "side": "white"})
    fid = friend["id"]
    joined = post(server, f"/api/games/{fid}/join", {})
    tokens = [friend["token"], joined["token"]]
    legal = friend["state"]["legal_moves"]
    for ply in range(3):
        move = next(m for m in legal if "-" in m)
        legal = post(server, f"/api/games/{fid}/moves", {"token": tokens[ply % 2], "move": move})["legal_moves"]
    post(server, f"/api/games/{fid}/draw", {"token": tokens[1], "answer": "offer"})
    waiting = post(server, "/api/games", {"opponent": "friend", "side": "black"})
    returning = post(server, "/api/games", {"side": "white", "level": "easy", "position": RETURN})
    return {
        "waiting": (waiting["id"], waiting["token"]),
        "return": (returning["id"], returning["token"]),
        "computer": (cid, ctoken),
        "over": (over["id"], over["token"]),
        "friend": (fid, tokens),
    }


def violations_text(found):
    """The violations, briefly: one line each with its rule, impact, count and a target
    or two."""
    lines = []
    for where, v in found:
        shown = ", ".join(v["targets"][:2]) + (f" (+{v['count'] - 2} more)" if v["count"] > 2 else "")
        lines.append(f"{where}: {v['id']} ({v['impact']}, {v['count']}x): {shown}: {v['help']}")
    return "\n".join(lines)


def check_looks(views, looks, found):
    """Runs axe on each page of `views` (name to page) as it is in each of `looks` (theme
    and size), collecting the serious and critical violations into `found`. The pages are
    checked side by side: each run is started in every page before any is awaited."""
    backgrounds = {}
    for i, (scheme, size, viewport) in enumerate(looks):
        for page in views.values():
            page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
            page.set_viewport_size(viewport)
            backgrounds.setdefault(scheme, set()).add(
                page.evaluate("() => getComputedStyle(document.body).backgroundImage"))
            page.evaluate("([context, options]) => { window.agonAxe = axe.run(context, options); }",
                          [FULL_CONTEXT, FULL_RUN] if i == 0 else [LOOK_CONTEXT, LOOK_RUN])
        for where, page in views.items():
            # Only what the assertion reports crosses back to Python.
            for v in page.evaluate(BRIEF):
                found.append((f"{where} [{scheme}, {size}]", v))
    assert not backgrounds["light"] & backgrounds["dark"], "the dark theme changes the page's colours"


# The serious and critical violations of the run started last, with at most three targets.
BRIEF = """() => window.agonAxe.then(r => r.violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => ({id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
              targets: v.nodes.slice(0, 3).map(n => n.target.join(' '))})))"""


def seat_context(new_context, tokens):
    """A browser context holding the given games' tokens (its seats) in its storage."""
    ctx = new_context(reduced_motion="reduce")
    # axe-core in every page of the context before the page's own script (an init script
    # is not a page script: the Content-Security-Policy does not apply to it).
    ctx.add_init_script(path=str(AXE))
    sets = " ".join(f"localStorage.setItem('agon-token:{gid}', '{token}');" for gid, token in tokens)
    ctx.add_init_script(f"if (location.protocol === 'http:') {{ {sets} }}")
    return ctx


def open_rule_options(page):
    """The new-game form with a friend chosen and its rule options open."""
    expect(page.locator("#new-game")).to_be_visible(timeout=TIMEOUT)
    page.locator("input[name=opponent][value=friend]").check()
    page.locator("#rules-options > summary").click()
    expect(page.locator("#name-row")).to_be_visible()


def moves_then(count, selector, state="visible"):
    """Waits for a game page to show `count` moves, then for `selector` in `state`."""
    def ready(page):
        wait_moves(page, count)
        shown = expect(page.locator(selector))
        if state == "enabled":
            shown.to_be_enabled(timeout=TIMEOUT)
        else:
            shown.to_be_visible(timeout=TIMEOUT)
    return ready


def visible(selector):
    """Waits for `selector` to be visible."""
    return lambda page: expect(page.locator(selector)).to_be_visible(timeout=TIMEOUT)


# What each view shows once it is ready to be checked.
READY = {
    "new game": open_rule_options,
    "rules": visible("#rules-board svg"),
    "account, signed out": visible("#signed-out"),
    "game against the computer": moves_then(2, "#move-input", "enabled"),
    # The screen-reader mode (?blind=1, this page only): the text board instead of the drawing.
    "game against the computer, screen-reader mode": lambda page: (
        moves_then(2, "#move-input", "enabled")(page),
        expect(page.locator("#blind-cells li")).to_have_count(91, timeout=TIMEOUT)),
    "a return to make": visible("#return-box"),
    "friend game, waiting for a friend": visible("#invite"),
    "game over": visible("#outcome"),
    "friend game, White": moves_then(3, "#offer-accept"),
    "friend game, Black": moves_then(3, "#offer-box"),
    "watching": moves_then(2, "#watch-note"),
    "analysis board, a game's moves": lambda page: (
        expect(page.locator("#tree .tree-move")).to_have_count(2, timeout=TIMEOUT),
        expect(page.locator("#board svg")).to_be_visible(timeout=TIMEOUT)),
    "leaderboard": visible("#leaderboard-speed"),
    "lobby": visible("#quick-buttons"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_no_serious_violation(server, new_context, games, lang):
    if not AXE.exists():
        pytest.fail(f"no {AXE}: run `npm ci --prefix agon-web`")
    cid, ctoken = games["computer"]
    oid, otoken = games["over"]
    fid, (white_token, black_token) = games["friend"]
    # White's browser: the computer games and the friend game's White seat; Black's: the
    # friend game's Black seat, and a watcher of the game against the computer.
    white = seat_context(new_context, [(cid, ctoken), (oid, otoken), (fid, white_token),
                                       games["waiting"], games["return"]])
    black = seat_context(new_context, [(fid, black_token)])
    # Every view opened at once (each page loads while the next is opened).
    paths = {
        "new game": (white, "/"),
        "rules": (white, "/rules"),
        "account, signed out": (black, "/account"),
        "lobby": (black, "/lobby"),
        "game against the computer": (white, f"/g/{cid}"),
        "game against the computer, screen-reader mode": (white, f"/g/{cid}?blind=1"),
        "a return to make": (white, f"/g/{games['return'][0]}"),
        "friend game, waiting for a friend": (white, f"/g/{games['waiting'][0]}"),
        "game over": (white, f"/g/{oid}"),
        "friend game, White": (white, f"/g/{fid}"),
        "friend game, Black": (black, f"/g/{fid}"),
        "watching": (black, f"/g/{cid}"),
        "analysis board, a game's moves": (black, f"/analysis?game={cid}"),
        "leaderboard": (black, "/leaderboard"),
    }
    every_look = lang in EVERY_LOOK
    if not every_look:
        paths = {name: where for name, where in paths.items() if name in FEWER_VIEWS}
    views = {}
    for name, (ctx, path) in paths.items():
        views[name] = ctx.new_page()
        views[name].goto(f"{server}{path}{'&' if '?' in path else '?'}lang={lang}", wait_until="commit")

    # Each view waited for until it shows what it is there for.
    for name, page in views.items():
        READY[name](page)

    found = []
    check_looks(views, LOOKS if every_look else TWO_LOOKS, found)
    assert not found, f"axe-core, {lang}: serious or critical violations:\n{violations_text(found)}"
