"""axe-core on every page the server serves: no violation of impact "serious" or "critical"
in any of the six languages, in the light and the dark theme, at a desktop's and a phone's
size.

axe-core is the npm package pinned in agon-web/package.json (`npm ci --prefix agon-web`
installs it); its script is injected into each page as a Playwright init script, which
the page's Content-Security-Policy (no inline scripts) does not cover.

Kept quick: one server and one browser for the whole file, one page per language that
goes through every view, and each view loaded once and checked in its four looks (the
theme and the size change in place, without reloading).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import REPO, api
from test_browser import TIMEOUT, wait_moves

AXE = REPO / "agon-web" / "node_modules" / "axe-core" / "axe.min.js"
LANGUAGES = ["en", "pt", "pl", "tr", "ms", "ar"]
LOOKS = [
    (scheme, size, viewport)
    for scheme in ("light", "dark")
    for size, viewport in (("desktop", {"width": 1280, "height": 800}), ("phone", {"width": 390, "height": 844}))
]
BLOCKING = {"serious", "critical"}
# Every rule (WCAG 2.x A and AA and axe's best practices) in the first look; in the others
# only the rules whose answer can change with the theme or the size: colours, and the names
# and labels that a narrow layout could hide.
FULL_RUN = {"resultTypes": ["violations"]}
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
    against the computer in play, one over (resigned, with its clocks), and a friend game
    in play with a draw offered by Black (no clock: it would run out during the test)."""
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
    state = friend["state"]
    for ply in range(3):
        move = next(m for m in api(server, "GET", f"/api/games/{fid}")[1]["legal_moves"] if "-" in m)
        state = post(server, f"/api/games/{fid}/moves", {"token": tokens[ply % 2], "move": move})
    post(server, f"/api/games/{fid}/draw", {"token": tokens[1], "answer": "offer"})
    del state
    return {
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


def check_looks(views, found):
    """Runs axe on each page of `views` (name to page) as it is in each look (theme and
    size), collecting the serious and critical violations into `found`. The pages are
    checked side by side: each run is started in every page before any is awaited."""
    for i, (scheme, size, viewport) in enumerate(LOOKS):
        for page in views.values():
            page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
            page.set_viewport_size(viewport)
            page.evaluate("options => { window.agonAxe = axe.run(document, options); }", LOOK_RUN if i else FULL_RUN)
        for where, page in views.items():
            # Only what the assertion reports crosses back to Python.
            for v in page.evaluate(BRIEF):
                found.append((f"{where} [{scheme}, {size}]", v))


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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_no_serious_violation(server, new_context, games, lang):
    if not AXE.exists():
        pytest.fail(f"no {AXE}: run `npm ci --prefix agon-web`")
    cid, ctoken = games["computer"]
    oid, otoken = games["over"]
    fid, (white_token, black_token) = games["friend"]
    # White's browser: the computer games and the friend game's White seat; Black's: the
    # friend game's Black seat, and a watcher of the game against the computer.
    white = seat_context(new_context, [(cid, ctoken), (oid, otoken), (fid, white_token)])
    black = seat_context(new_context, [(fid, black_token)])
    views = {}

    def view(ctx, name, path):
        page = ctx.new_page()
        page.goto(f"{server}{path}?lang={lang}")
        views[name] = page
        return page

    page = view(white, "new game", "/")
    expect(page.locator("#new-game")).to_be_visible(timeout=TIMEOUT)
    page.locator("input[name=opponent][value=friend]").check()
    page.locator("#rules-options > summary").click()
    expect(page.locator("#name-row")).to_be_visible()

    page = view(white, "rules", "/rules")
    expect(page.locator("#rules-board svg")).to_be_visible(timeout=TIMEOUT)

    page = view(white, "game against the computer", f"/g/{cid}")
    wait_moves(page, 2)
    expect(page.locator("#move-input")).to_be_enabled(timeout=TIMEOUT)

    page = view(white, "game over", f"/g/{oid}")
    expect(page.locator("#outcome")).to_be_visible(timeout=TIMEOUT)

    page = view(white, "friend game, White", f"/g/{fid}")
    wait_moves(page, 3)
    expect(page.locator("#offer-accept")).to_be_visible(timeout=TIMEOUT)

    page = view(black, "friend game, Black", f"/g/{fid}")
    wait_moves(page, 3)
    expect(page.locator("#offer-box")).to_be_visible(timeout=TIMEOUT)

    page = view(black, "watching", f"/g/{cid}")
    expect(page.locator("#watch-note")).to_be_visible(timeout=TIMEOUT)
    wait_moves(page, 2)

    found = []
    check_looks(views, found)
    assert not found, f"axe-core, {lang}: serious or critical violations:\n{violations_text(found)}"
