"""Rule sets in a real browser: a ludii game started from the New game panel, its rules on
the game page and in the downloaded record, the Pass button, the captor placing the
computer's queen, a bad move limit refused, and the rules page's section.

Run from the repository root (see test_browser.py).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from conftest import api
from test_browser import TIMEOUT, click_cell, create, game_page, wait_idle, wait_moves, with_token

# White's pieces are hemmed in on files a and b: White has no action (a loss under the
# standard rules, a pass under stuck=pass).
STUCK = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gc2 w"
# White's e9-f9 captures Black's queen on f10.
QUEEN_CAPTURE = "Qf1,Ga5,Gb1,Ge9,Gf11,Gk1,Gl5/qf10,ga2,gb7,gd1,gh1,gk7,gl2 w"


def create_under(server, rules, position=None, side="white", level="easy"):
    body = {"side": side, "level": level, "rules": rules}
    if position:
        body["position"] = position
    status, answer = api(server, "POST", "/api/games", body)
    assert status == 201, answer
    return answer


def test_a_ludii_game_from_the_new_game_panel(server, new_context, shots, catalogues):
    en = catalogues["en"]
    ctx = new_context(accept_downloads=True)
    page = ctx.new_page()
    page.goto(server + "/")
    expect(page.locator("#new-game")).to_be_visible(timeout=TIMEOUT)
    # Standard is chosen, and the summary says what it is.
    expect(page.locator("#rules-preset")).to_have_value("standard")
    expect(page.locator("#rules-summary")).to_have_text(en["new-game.rules.about-standard"])
    expect(page.locator("#rules-options")).not_to_have_attribute("open", "")
    # Choosing ludii sets every option to its values.
    page.select_option("#rules-preset", "ludii")
    expect(page.locator("#rules-summary")).to_have_text(en["new-game.rules.about-ludii"])
    page.locator("#rules-options summary").click()
    expect(page.locator("#rule-stuck")).to_have_value("pass")
    expect(page.locator("#rule-repetition")).to_have_value("off")
    expect(page.locator("#rule-limit")).to_have_value("2500")
    expect(page.locator("#rule-capture")).to_have_value("any")
    expect(page.locator("#rules-text")).to_have_text("ludii")
    # A changed option is marked and composed into the text form; changing it back
    # leaves the preset alone.
    page.select_option("#rule-capture", "same-ring")
    expect(page.locator("#rules-text")).to_have_text("ludii+capture=same-ring")
    expect(page.locator(".rule-row.changed")).to_have_count(1)
    page.mouse.move(5, 5)
    page.locator("#new-game").screenshot(path=str(shots / "new-game-rules.png"))
    page.select_option("#rule-capture", "any")
    expect(page.locator("#rules-text")).to_have_text("ludii")
    expect(page.locator(".rule-row.changed")).to_have_count(0)

    page.locator("#start-btn").click()
    page.wait_for_url(re.compile(r"/g/[0-9a-f]+$"), timeout=TIMEOUT)
    expect(page.locator("#game")).to_be_visible(timeout=TIMEOUT)
    # The game page says which rules are in force.
    expect(page.locator("#game-rules-text")).to_have_text("Rules: Ludii.")
    expect(page.locator("#game-rules")).to_have_attribute("data-rules", "ludii")
    # Play a move, then download the record: it names the rules.
    page.locator('#board g.piece[data-cell="a5"]').click()
    click_cell(page, "a4")
    wait_moves(page, 2)
    wait_idle(page)
    with page.expect_download() as info:
        page.locator("#record-link").click()
    record = open(info.value.path(), encoding="utf-8").read()
    assert '[Rules "ludii"]' in record, record
    assert "1. a5-a4" in record, record
    # Switching the language rewords the rules line.
    page.select_option("#lang-select", "pt")
    expect(page.locator("#game-rules-text")).to_have_text("Regras: Ludii.")


def test_the_game_page_lists_changed_options(server, new_context, catalogues):
    game = create_under(server, "standard+capture=same-ring+limit=300")
    page = game_page(server, new_context, game)
    expect(page.locator("#game-rules-text")).to_have_text(
        "Rules: Standard, with capture: only along a ring; move limit: 300 moves."
    )
    # Mid-sentence, an option is named without the capital its label has at the start of
    # a line, in every language.
    game = create_under(server, "standard+queen-placer=captor")
    page = game_page(server, new_context, game)
    expect(page.locator("#game-rules-text")).to_have_text(
        "Rules: Standard, with a captured queen is placed by: her captor."
    )
    for lang, cat in catalogues.items():
        page.select_option("#lang-select", lang)
        change = cat["rules.change.queen-placer"]
        phrase = cat["rules.with-changes"].format(
            preset=cat["preset.standard"], changes=f"{change}: {cat['rule.queen-placer.captor']}"
        )
        expect(page.locator("#game-rules-text")).to_have_text(cat["game.rules"].format(rules=phrase))
        # The label (used at the start of the option's row) keeps its capital.
        label = cat["rule.queen-placer"]
        assert change == label if lang == "ar" else change == label[0].lower() + label[1:], lang
    # The New game panel's summary says the same.
    page.goto(server + "/?lang=en")
    page.locator("#rules-options summary").click()
    page.select_option("#rule-queen-placer", "captor")
    expect(page.locator("#rules-summary")).to_have_text("Standard, with a captured queen is placed by: her captor")
    expect(page.locator('label[for="rule-queen-placer"]')).to_have_text("A captured queen is placed by")


def test_pass_button(server, new_context, shots, catalogues):
    en = catalogues["en"]
    # Under the standard rules there is never a Pass button.
    page = game_page(server, new_context, create(server))
    expect(page.locator("#pass-btn")).to_be_hidden()
    game = create_under(server, "ludii", STUCK)
    page = game_page(server, new_context, game)
    expect(page.locator("#pass-btn")).to_be_visible()
    expect(page.locator("#pass-btn")).to_have_text(en["actions.pass"])
    expect(page.locator("#status")).to_have_text(en["status.must-pass"])
    page.screenshot(path=str(shots / "game-pass.png"))
    page.locator("#pass-btn").click()
    wait_moves(page, 2)
    wait_idle(page)
    assert page.locator("#moves .mv").first.text_content() == "pass"


def test_under_captor_the_person_places_the_computers_queen(server, new_context, shots, catalogues):
    en = catalogues["en"]
    game = create_under(server, "standard+queen-placer=captor", QUEEN_CAPTURE)
    page = game_page(server, new_context, game)
    page.locator('#board g.piece[data-cell="e9"]').click()
    click_cell(page, "f9")
    # Black's queen is captured: Black's turn, but the person chooses her cell.
    expect(page.locator("#return-box")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#return-box h2")).to_have_text(en["return.captor-title"])
    expect(page.locator("#return-explain")).to_have_text(en["return.captor-explain"])
    page.locator('#board g.piece[data-cell="f10"]').click()
    click_cell(page, "a1")
    # Black's turn was spent on the return: White, the person, is to move again.
    wait_moves(page, 2)
    wait_idle(page)
    moves = [m.text_content() for m in page.locator("#moves .mv:not(.mv-none)").all()]
    assert moves == ["e9-f9", "f10>a1"], moves
    expect(page.locator("#return-box")).to_be_hidden()
    expect(page.locator("#status")).to_have_text(en["status.your-turn"])


def test_a_bad_move_limit_is_refused_in_the_panel(server, new_context, catalogues):
    en = catalogues["en"]
    ctx = new_context()
    page = ctx.new_page()
    page.goto(server + "/")
    expect(page.locator("#new-game")).to_be_visible(timeout=TIMEOUT)
    page.locator("#rules-options summary").click()
    page.fill("#rule-limit", "0")
    expect(page.locator("#rules-text")).to_have_text("standard+limit=0")
    page.locator("#start-btn").click()
    expect(page.locator("#new-game-error")).to_have_text(en["error.limit-out-of-range"], timeout=TIMEOUT)
    assert page.url == server + "/"


def test_the_rules_page_explains_every_option(server, new_context, shots, catalogues):
    for lang in ("en", "ar"):
        cat = catalogues[lang]
        ctx = new_context()
        page = ctx.new_page()
        page.goto(f"{server}/rules?lang={lang}#variants")
        expect(page.locator("#variants")).to_have_text(cat["rules.variants.title"])
        for option in ("capture", "between", "guard-return", "queen-return", "queen-placer",
                       "empty-throne-ring", "stuck", "repetition", "limit"):
            expect(page.locator(f'dd[data-i18n="rules.variant.{option}"]')).to_have_text(
                cat[f"rules.variant.{option}"]
            )
        page.locator("#variants").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"rules-variants-{lang}.png"))


# Both queens captured (possible when a trapped piece is captured: between=trapped), White
# to return hers.
QUEENS_CAPTURED = "Qf10*,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qe2*,ga2,gb7,gd1,gh1,gk7,gl2 w"

# The captured queens' crowns: over their crosses (later in the picture), with no faded
# group around them, so that nothing is drawn over them and they keep their full colour.
CROWNS_ON_TOP = """() => [...document.querySelectorAll('#board g.piece.queen.captured')].map((g) => {
  const crown = g.querySelector('polygon');
  const mark = document.querySelector(`#board .captured-mark[data-cell="${g.dataset.cell}"]`);
  let faded = false;
  for (let el = crown; el && el.tagName !== 'svg'; el = el.parentElement) {
    if (parseFloat(getComputedStyle(el).opacity) < 1) faded = true;
  }
  const after = !!(mark && crown && (mark.compareDocumentPosition(crown) & Node.DOCUMENT_POSITION_FOLLOWING));
  return [g.dataset.cell, after, faded, crown && crown.getAttribute('fill')];
})"""


def test_a_captured_queen_keeps_a_readable_crown(server, new_context, shots):
    game = create_under(server, "standard+between=trapped", QUEENS_CAPTURED)
    for name, size in (("", {"width": 1280, "height": 800}), ("-phone", {"width": 390, "height": 844})):
        ctx = new_context(viewport=size, device_scale_factor=2)
        with_token(ctx, game)
        page = ctx.new_page()
        page.goto(f"{server}/g/{game['id']}")
        expect(page.locator("#return-box")).to_be_visible(timeout=TIMEOUT)
        crowns = sorted(page.evaluate(CROWNS_ON_TOP))
        # Black's crown light on her dark disc, White's dark on her light one.
        assert crowns == [["e2", True, False, "#f2f2f2"], ["f10", True, False, "#262626"]], crowns
        page.locator("#board").screenshot(path=str(shots / f"captured-queens{name}.png"))


# Whether every occurrence of `needle` in the element's text reads left to right on the
# screen: each character right of the one before it on the same line.
READS_LEFT_TO_RIGHT = """([selector, needle]) => {
  const found = [];
  for (const el of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = n.data.indexOf(needle); i >= 0; i = n.data.indexOf(needle, i + 1)) {
        let ok = true;
        let prev = null;
        for (let k = i; k < i + needle.length; k++) {
          const r = document.createRange();
          r.setStart(n, k);
          r.setEnd(n, k + 1);
          const box = r.getBoundingClientRect();
          if (prev && Math.abs(box.top - prev.top) < 2 && box.left < prev.left) ok = false;
          prev = box;
        }
        found.push(ok);
      }
    }
  }
  return found;
}"""


def test_rule_set_texts_read_left_to_right_in_arabic(server, new_context, shots):
    """The text forms of rule sets stay left-to-right islands in the right-to-left page
    (the reversed `option=value+` players saw), wherever the page shows them, on a wide
    screen and a phone."""
    for width in (1280, 360):
        ctx = new_context(viewport={"width": width, "height": 800})
        page = ctx.new_page()
        page.goto(f"{server}/rules?lang=ar#variants")
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        for selector, needle in (
            ('[data-i18n="rules.variants.text-form"]', "+option=value"),
            ('[data-i18n="rules.variants.text-form"]', "standard+capture=same-ring+limit=300"),
            (".rule-list dt code", "queen-placer"),
        ):
            assert page.evaluate(READS_LEFT_TO_RIGHT, [selector, needle]) == [True], (width, needle)
        page.goto(f"{server}/?lang=ar")
        page.locator("#rules-options summary").click()
        page.select_option("#rule-queen-placer", "captor")
        page.fill("#rule-limit", "300")
        text = "standard+queen-placer=captor+limit=300"
        expect(page.locator("#rules-text")).to_have_text(text)
        assert page.evaluate(READS_LEFT_TO_RIGHT, ["#rules-text", text]) == [True], width
        if width == 360:
            page.locator(".rules-text-row").screenshot(path=str(shots / "rules-text-ar-phone.png"))


def test_right_to_left_catalogues_isolate_their_rule_set_texts(catalogues):
    """In a right-to-left catalogue, a rule set's text form (`ludii+capture=same-ring`,
    `+option=value`) in the prose sits between LRI and PDI: without them its leading `+`
    moves to the other end (`option=value+`)."""
    text_form = re.compile(r"\+?[a-z][a-z0-9-]*(?:[+=][a-z0-9-]+)+")
    rtl = [lang for lang, cat in catalogues.items() if cat["meta.dir"] == "rtl"]
    assert rtl == ["ar"]
    for lang in rtl:
        for key, text in catalogues[lang].items():
            outside = re.sub("\u2066[^\u2069]*\u2069", "", text)
            assert not text_form.search(outside), (lang, key, text_form.search(outside).group())
        assert "\u2066+option=value\u2069" in catalogues[lang]["rules.variants.text-form"]
