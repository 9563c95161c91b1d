"""Rule sets (RULES.md section 8) from Python: `agon.Rules`, `rules=` wherever a position or
a game is made and in perft, the pass, the chooser, traps, the new end and illegal-move
reasons, records with a Rules tag, and pickles that keep the rules.

The perft figures are agon-core's (computed by `agon_core::perft` under each rule set)."""

from __future__ import annotations

import copy
import pickle
from typing import Any, Dict, List

import pytest

import agon
from conftest import RING_WITHOUT_QUEEN_IN_ONE, START

# Black to move; after b6-b5 White has no action (agon-core's tests/perft.rs NO_ACTION).
WALLED = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b"
# Black's d1-e2 steps between White's d2 and f2 and captures nothing: it traps itself
# under between=trapped (and is forbidden under the standard rules).
TRAP = "Qf2,Gb4,Gc8,Gd2,Gf5,Gg5,Gl5/qf11,gb2,gc6,gd1,gi2,gi6,gl1 b"
# White's queen is captured: White must return her.
WHITE_QUEEN_CAPTURED = "Qf1*,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"
TRAPPED = "standard+between=trapped"


# ---------------------------------------------------------------------------------------
# Rules: construction, text, properties


def test_presets_and_defaults() -> None:
    assert agon.Rules() == agon.Rules.STANDARD == agon.Rules.standard() == agon.Rules("standard")
    assert agon.Rules("ludii") == agon.Rules.LUDII == agon.Rules.ludii()
    assert agon.Rules.parse("ludii") == agon.Rules.LUDII
    assert agon.Rules.PRESET_NAMES == ["standard", "ludii"]
    assert agon.Rules.MAX_LIMIT == 100000
    assert agon.Rules.OPTIONS == [
        "capture",
        "between",
        "guard-return",
        "queen-return",
        "queen-placer",
        "empty-throne-ring",
        "stuck",
        "repetition",
        "limit",
    ]
    standard = agon.Rules.STANDARD
    assert standard.is_standard and standard.preset == "standard"
    assert (
        standard.capture,
        standard.between,
        standard.guard_return,
        standard.queen_return,
        standard.queen_placer,
        standard.empty_throne_ring,
        standard.stuck,
        standard.repetition,
        standard.limit,
    ) == ("any", "forbidden", "outer", "any", "owner", "loses", "loses", "third", None)
    ludii = agon.Rules.LUDII
    assert (ludii.stuck, ludii.repetition, ludii.limit) == ("pass", "off", 2500)
    assert not ludii.is_standard and ludii.preset == "ludii"
    assert ludii.capture == "any" and ludii.between == "forbidden"


def test_values_lists_every_option_standard_first() -> None:
    values = agon.Rules.values()
    assert list(values) == agon.Rules.OPTIONS
    for option, names in values.items():
        if option != "limit":
            assert agon.Rules.STANDARD.to_dict()[option] == names[0]
    assert values["between"] == ["forbidden", "allowed", "trapped"]


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("standard", "standard"),
        ("ludii", "ludii"),
        ("standard+capture=same-ring", "standard+capture=same-ring"),
        ("standard+limit=300+capture=same-ring", "standard+capture=same-ring+limit=300"),
        ("ludii+limit=none", "ludii+limit=none"),
        ("standard+stuck=pass+repetition=off+limit=2500", "ludii"),
        ("ludii+stuck=loses+repetition=third+limit=none", "standard"),
        ("standard+between=trapped+guard-return=next-ring", "standard+between=trapped+guard-return=next-ring"),
    ],
)
def test_text_round_trips_to_the_canonical_form(text: str, canonical: str) -> None:
    rules = agon.Rules(text)
    assert str(rules) == rules.to_text() == canonical
    assert repr(rules) == f"Rules('{canonical}')"
    assert agon.Rules(str(rules)) == rules
    assert eval(repr(rules), {"Rules": agon.Rules}) == rules
    assert agon.Rules(rules) == rules


def test_keywords_build_and_replace() -> None:
    rules = agon.Rules.standard().replace(capture="same-ring", limit=300)
    assert str(rules) == "standard+capture=same-ring+limit=300"
    assert agon.Rules(capture="same-ring", limit=300) == rules
    assert rules.capture == "same-ring" and rules.limit == 300
    assert rules.replace(limit=None).limit is None
    assert rules.replace(limit="none").limit is None
    assert rules.replace(limit="42").limit == 42
    assert rules.replace() == rules
    # None for another option means "not given".
    assert rules.replace(capture=None) == rules
    every = agon.Rules.STANDARD.replace(
        capture="same-ring",
        between="trapped",
        guard_return="next-ring",
        queen_return="not-throne",
        queen_placer="captor",
        empty_throne_ring="draw",
        stuck="pass",
        repetition="off",
        limit=100000,
    )
    assert every.to_dict() == {
        "capture": "same-ring",
        "between": "trapped",
        "guard-return": "next-ring",
        "queen-return": "not-throne",
        "queen-placer": "captor",
        "empty-throne-ring": "draw",
        "stuck": "pass",
        "repetition": "off",
        "limit": 100000,
    }
    assert agon.Rules(str(every)) == every
    assert agon.Rules("ludii", limit=None) == agon.Rules("ludii+limit=none")
    assert agon.Rules("ludii", stuck="loses").stuck == "loses"
    # The original is unchanged: rules are values.
    assert agon.Rules.STANDARD.is_standard


def test_equality_hash_pickle_copy() -> None:
    a = agon.Rules("standard+capture=same-ring")
    b = agon.Rules(capture="same-ring")
    assert a == b and hash(a) == hash(b) and a != agon.Rules.STANDARD
    assert len({a, b, agon.Rules.STANDARD, agon.Rules.LUDII}) == 3
    assert a != "standard+capture=same-ring"
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(a, protocol=protocol))
        assert again == a and type(again) is agon.Rules
    assert copy.copy(a) is a and copy.deepcopy(a) is a
    with pytest.raises(AttributeError):
        a.capture = "any"  # type: ignore[misc]


@pytest.mark.parametrize(
    "text, reason, offset",
    [
        ("chess", "unknown-preset", 0),
        ("", "unknown-preset", 0),
        ("Standard", "unknown-preset", 0),
        ("standard+colour=white", "unknown-rule-option", 9),
        ("standard+capture=diagonal", "unknown-rule-value", 17),
        ("standard+capture", "expected", 16),
        ("ludii+stuck=pass+stuck=loses", "duplicate-rule-option", 17),
        ("standard+limit=0", "limit-out-of-range", 15),
        ("standard+limit=100001", "limit-out-of-range", 15),
        ("standard+limit=-3", "unknown-rule-value", 15),
        ("standard+limit=many", "unknown-rule-value", 15),
        ("standard+", "unknown-rule-option", 9),
    ],
)
def test_bad_text_raises_parse_error_with_reason_and_offset(
    text: str, reason: str, offset: int
) -> None:
    for parse in (agon.Rules, agon.Rules.parse):
        with pytest.raises(agon.ParseError) as info:
            parse(text)
        assert isinstance(info.value, ValueError)
        assert (info.value.reason, info.value.offset, info.value.text) == (reason, offset, text)
    # Wherever rules= takes a text, the same error.
    with pytest.raises(agon.ParseError) as info:
        agon.Position(rules=text)
    assert info.value.reason == reason


@pytest.mark.parametrize(
    "keywords, reason, offset",
    [
        ({"capture": "diagonal"}, "unknown-rule-value", 0),
        ({"between": ""}, "unknown-rule-value", 0),
        ({"stuck": "pass+repetition=off"}, "unknown-rule-value", 4),
        ({"limit": 0}, "limit-out-of-range", 0),
        ({"limit": 100001}, "limit-out-of-range", 0),
        ({"limit": -1}, "limit-out-of-range", 0),
        ({"limit": 2**70}, "limit-out-of-range", 0),
        ({"limit": "0"}, "limit-out-of-range", 0),
        ({"limit": "ten"}, "unknown-rule-value", 0),
    ],
)
def test_bad_keyword_values_raise_parse_error(
    keywords: Dict[str, Any], reason: str, offset: int
) -> None:
    with pytest.raises(agon.ParseError) as info:
        agon.Rules(**keywords)
    assert (info.value.reason, info.value.offset) == (reason, offset)
    with pytest.raises(agon.ParseError):
        agon.Rules.LUDII.replace(**keywords)


@pytest.mark.parametrize(
    "keywords", [{"capture": 1}, {"limit": True}, {"limit": 3.0}, {"stuck": b"pass"}]
)
def test_keyword_values_of_the_wrong_type_raise_type_error(keywords: Dict[str, Any]) -> None:
    with pytest.raises(TypeError):
        agon.Rules(**keywords)


def test_unknown_keywords_and_rules_of_the_wrong_type() -> None:
    with pytest.raises(TypeError):
        agon.Rules(colour="white")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        agon.Rules(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        agon.Position(rules=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        agon.Game(rules=agon.Rules.LUDII.to_dict())  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# Positions and games under a rule set


def test_positions_carry_their_rules() -> None:
    ludii = agon.Position(rules="ludii")
    assert ludii.rules == agon.Rules.LUDII
    assert agon.Position().rules == agon.Rules.STANDARD
    assert agon.Position.start(rules=agon.Rules.LUDII) == ludii
    assert agon.Position(START, rules="ludii") == ludii
    assert agon.Position.from_text(START, rules="ludii") == ludii
    assert agon.Position.from_text(START).rules.is_standard
    pieces = agon.Position().pieces()
    built = agon.Position.from_pieces(pieces, agon.WHITE, rules="ludii")
    assert built == ludii
    # Equality includes the rules; the hash is the pieces'.
    assert ludii != agon.Position() and hash(ludii) == hash(agon.Position())
    assert ludii.to_text() == START
    assert repr(ludii) == f"Position('{START}', rules='ludii')"
    assert repr(agon.Position()) == f"Position('{START}')"
    assert eval(repr(ludii), {"Position": agon.Position}) == ludii
    assert ludii.with_rules(agon.Rules.STANDARD) == agon.Position()
    assert agon.Position().with_rules("ludii") == ludii
    # The next position keeps the rules.
    assert ludii.play("f1-e1").rules == agon.Rules.LUDII
    assert ludii._repr_svg_() == agon.Position()._repr_svg_()


def test_positions_pickle_with_their_rules() -> None:
    for rules in ["standard", "ludii", TRAPPED, "standard+limit=7"]:
        position = agon.Position(TRAP, rules=rules)
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            again = pickle.loads(pickle.dumps(position, protocol=protocol))
            assert again == position and again.rules == agon.Rules(rules)


def test_captured_pieces_of_both_sides_need_trapping_rules() -> None:
    trapped = agon.Position(TRAP, rules=TRAPPED).play("d1-e2").play("l5-l4")
    assert trapped.is_captured("e2") and trapped.must_return()
    both = agon.Position(TRAP, rules=TRAPPED).play("d1-e2")
    assert both.captured() == [agon.Cell("e2")]
    assert both.rules.between == "trapped"
    with pytest.raises(agon.ParseError) as info:
        agon.Position(
            "Qf2,Gb4,Gc8,Gd2*,Gf5,Gg5,Gl5/qf11,gb2,gc6,ge2*,gi2,gi6,gl1 w", rules="standard"
        )
    assert info.value.position_reason == "captured-both-sides"
    ok = agon.Position(
        "Qf2,Gb4,Gc8,Gd2*,Gf5,Gg5,Gl5/qf11,gb2,gc6,ge2*,gi2,gi6,gl1 w", rules=TRAPPED
    )
    assert set(ok.captured()) == {agon.Cell("d2"), agon.Cell("e2")}
    assert ok.captured_side == agon.WHITE
    with pytest.raises(agon.InvalidPositionError) as raised:
        ok.with_rules("standard")
    assert raised.value.reason == "captured-both-sides"


def test_games_carry_their_rules() -> None:
    game = agon.Game(rules="ludii")
    assert game.rules == agon.Rules.LUDII and game.position.rules == agon.Rules.LUDII
    assert agon.Game().rules.is_standard
    # A Position start brings its rules; rules= overrides them.
    assert agon.Game(agon.Position(rules="ludii")).rules == agon.Rules.LUDII
    assert agon.Game(agon.Position(rules="ludii"), rules="standard").rules.is_standard
    assert agon.Game(START, ["f1-e1"], rules=agon.Rules.LUDII).position.rules.stuck == "pass"
    game.push("f1-e1")
    assert repr(game) == f"Game('{START}', ['f1-e1'], rules='ludii')"
    assert game != agon.Game(START, ["f1-e1"])
    assert game == agon.Game(START, ["f1-e1"], "ludii")
    copied = game.copy()
    assert copied == game and copied.rules == game.rules
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(game, protocol=protocol))
        assert again == game and again.rules == agon.Rules.LUDII
    # restart keeps the game's rules unless told otherwise.
    game.restart()
    assert game.rules == agon.Rules.LUDII and game.ply == 0
    game.restart(START)
    assert game.rules == agon.Rules.LUDII
    game.restart(rules="standard+limit=9")
    assert game.rules.limit == 9
    game.restart(agon.Position())
    assert game.rules.is_standard


def test_move_limit_draws() -> None:
    game = agon.Game(rules=agon.Rules(limit=3))
    for m in ["f1-e1", "f11-e10", "e1-f1"]:
        assert not game.is_over()
        game.push(m)
    outcome = game.outcome()
    assert outcome == agon.Outcome(None, "move-limit")
    assert outcome is not None and outcome.reason == "move-limit" and outcome.is_draw
    assert game.result == "1/2-1/2" and game.legal_moves() == []
    with pytest.raises(agon.IllegalMoveError) as info:
        game.push("f11-e10")
    assert info.value.reason == "game-over"
    again = agon.Game.from_record(game.to_record())
    assert again == game and again.outcome() == outcome
    assert '[Rules "standard+limit=3"]' in game.to_record()


def test_repetition_off_plays_on() -> None:
    shuffle = ["f1-e1", "f11-e10", "e1-f1", "e10-f11"] * 2
    standard = agon.Game(START, shuffle)
    assert standard.outcome() == agon.Outcome(None, "repetition")
    off = agon.Game(START, shuffle, rules="standard+repetition=off")
    assert off.outcome() is None and off.repetitions() == 3


# ---------------------------------------------------------------------------------------
# The pass


def test_the_pass_move() -> None:
    p = agon.Move.PASS
    assert p == agon.Move.parse("pass") and p.is_pass
    assert not p.is_step and not p.is_return
    assert p.from_cell is None and p.to_cell is None
    assert str(p) == "pass" and p.pair == "pass" and repr(p) == "Move.parse('pass')"
    assert not agon.Move.parse("f1-e1").is_pass
    assert pickle.loads(pickle.dumps(p)) == p
    assert copy.copy(p) == p
    assert agon.Position(rules="ludii").parse_move("pass") == p


def test_a_pass_is_refused_with_its_reason() -> None:
    with pytest.raises(agon.IllegalMoveError) as info:
        agon.Position().play(agon.Move.PASS)
    assert (info.value.reason, info.value.move) == ("no-pass", "pass")
    with pytest.raises(agon.IllegalMoveError) as info:
        agon.Position(rules="ludii").play("pass")
    assert info.value.reason == "pass-with-actions"
    with pytest.raises(agon.IllegalMoveError) as info:
        agon.Game(rules="ludii").push(agon.Move.PASS)
    assert info.value.reason == "pass-with-actions"
    assert not agon.Position(rules="ludii").is_legal("pass")


def test_a_stuck_side_passes_under_ludii_and_loses_under_standard() -> None:
    standard = agon.Position(WALLED).play("b6-b5")
    assert standard.legal_moves() == []
    assert standard.outcome() == agon.Outcome(agon.BLACK, "no-legal-action")
    ludii = agon.Position(WALLED, rules="ludii").play("b6-b5")
    assert ludii.legal_moves() == [agon.Move.PASS]
    assert ludii.count_legal_moves() == 1 and ludii.has_legal_move()
    assert ludii.outcome() is None and ludii.is_legal(agon.Move.PASS)
    after = ludii.play(agon.Move.PASS)
    assert after.turn == agon.BLACK and after.rules == agon.Rules.LUDII
    assert after.to_text() == ludii.with_turn(agon.BLACK).to_text()


def test_a_ludii_game_with_a_pass_replays_through_its_record() -> None:
    game = agon.Game(WALLED, rules="ludii")
    game.push("b6-b5")
    assert game.legal_moves() == [agon.Move.PASS]
    assert game.push(agon.Move.PASS) == []
    game.push("f11-e10")
    # White is still walled in: it passes again (not two passes in a row: Black moved).
    assert game.legal_moves() == [agon.Move.PASS]
    game.push("pass")
    game.push("b5-b6")
    assert not game.is_over()
    assert [m.is_pass for m in game.moves] == [False, True, False, True, False]
    record = game.to_record()
    assert '[Rules "ludii"]' in record and "pass" in record
    replayed = agon.Game.from_record(record)
    assert replayed == game and replayed.rules == agon.Rules.LUDII
    assert replayed.moves == game.moves and replayed.position == game.position
    assert "Rules" not in replayed.tags
    # The record names its rules: read without them, White has lost when walled in.
    with pytest.raises(agon.ParseError) as info:
        agon.Game.from_record(record.replace('[Rules "ludii"]\n', ""))
    assert info.value.reason == "illegal-move"
    assert info.value.move_reason == "game-over"
    assert pickle.loads(pickle.dumps(game)) == game


def test_outcomes_of_the_new_end_reasons() -> None:
    for reason in ["two-passes", "move-limit", "repetition", "ring-without-queen"]:
        outcome = agon.Outcome(None, reason)
        assert outcome.is_draw and outcome.reason == reason and outcome.score == "1/2-1/2"
        assert pickle.loads(pickle.dumps(outcome)) == outcome
        assert repr(outcome) == f"Outcome(None, '{reason}')"
    with pytest.raises(ValueError):
        agon.Outcome(agon.WHITE, "two-passes")
    with pytest.raises(ValueError):
        agon.Outcome(None, "throne")
    with pytest.raises(ValueError):
        agon.Outcome(None, "stalemate")


def test_empty_throne_ring_draw() -> None:
    standard = agon.Position(RING_WITHOUT_QUEEN_IN_ONE).play("h6-g6")
    assert standard.outcome() == agon.Outcome(agon.BLACK, "ring-without-queen")
    drawn = agon.Position(RING_WITHOUT_QUEEN_IN_ONE, rules="standard+empty-throne-ring=draw")
    after = drawn.play("h6-g6")
    assert after.outcome() == agon.Outcome(None, "ring-without-queen")
    game = agon.Game(drawn, ["h6-g6"])
    assert game.result == "1/2-1/2"


# ---------------------------------------------------------------------------------------
# Traps, returns and the chooser


def test_traps() -> None:
    standard = agon.Position(TRAP)
    with pytest.raises(agon.IllegalMoveError) as info:
        standard.traps("d1-e2")
    assert info.value.reason == "between-enemies"
    trapped = agon.Position(TRAP, rules=TRAPPED)
    assert trapped.traps("d1-e2") and trapped.captures("d1-e2") == []
    assert not trapped.traps("d1-c1")
    after = trapped.play("d1-e2")
    assert after.is_captured("e2") and after.captured_side == agon.BLACK
    assert not after.must_return()
    # White steps; then Black must return its trapped guard.
    white = after.play("l5-l4")
    assert white.must_return() and white.captured_side == agon.BLACK
    assert all(m.is_return for m in white.legal_moves())
    with pytest.raises(agon.IllegalMoveError):
        agon.Position(TRAP, rules="standard+between=allowed").traps("d1-d5")
    assert not agon.Position(TRAP, rules="standard+between=allowed").traps("d1-e2")


def test_guard_and_queen_return_reasons() -> None:
    guard_inside = "Qf1,Ga5,Gb1,Gd9,Ge5*,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"
    assert agon.Position(guard_inside).is_legal("e5>a1")
    next_ring = agon.Position(guard_inside, rules="standard+guard-return=next-ring")
    with pytest.raises(agon.IllegalMoveError) as info:
        next_ring.play("e5>a1")
    assert info.value.reason == "guard-to-next-ring"
    assert {m.to_cell.ring for m in next_ring.legal_moves() if m.to_cell} == {2}
    assert agon.Position(WHITE_QUEEN_CAPTURED).is_legal("f1>f6")
    not_throne = agon.Position(WHITE_QUEEN_CAPTURED, rules="standard+queen-return=not-throne")
    with pytest.raises(agon.IllegalMoveError) as info:
        not_throne.check_move("f1>f6")
    assert info.value.reason == "queen-to-throne"
    assert agon.Move.returning("f1", "f6") not in not_throne.legal_moves()


def test_the_chooser() -> None:
    owner = agon.Position(WHITE_QUEEN_CAPTURED)
    assert (owner.turn, owner.chooser) == (agon.WHITE, agon.WHITE)
    captor = agon.Position(WHITE_QUEEN_CAPTURED, rules="standard+queen-placer=captor")
    assert (captor.turn, captor.chooser) == (agon.WHITE, agon.BLACK)
    game = agon.Game(captor)
    assert game.chooser == agon.BLACK and game.turn == agon.WHITE
    game.push("f1>f6")
    assert game.chooser == agon.BLACK == game.turn
    assert agon.Position().chooser == agon.WHITE


# ---------------------------------------------------------------------------------------
# perft under a rule set: agon-core's figures


PERFT: List[tuple[str, str, List[int]]] = [
    ("standard", START, [27, 713, 18417, 466557]),
    ("ludii", START, [27, 713, 18417, 466557]),
    (TRAPPED, START, [27, 713, 18417, 466853]),
    ("standard+between=allowed", START, [27, 713, 18417, 466853]),
    ("standard+capture=same-ring", START, [27, 713, 18417, 466381]),
    ("standard", WALLED, [21, 49, 981, 8040]),
    ("ludii", WALLED, [21, 54, 1086, 8299]),
    (TRAPPED, WALLED, [21, 121, 2446, 31676]),
    ("standard+between=allowed", WALLED, [21, 121, 2446, 23962]),
    ("standard+capture=same-ring", WALLED, [21, 49, 971, 7352]),
]


@pytest.mark.parametrize("rules, text, counts", PERFT, ids=lambda x: str(x)[:30])
def test_perft_under_a_rule_set_is_the_cores(rules: str, text: str, counts: List[int]) -> None:
    position = agon.Position(text, rules=rules)
    for depth, count in enumerate(counts, start=1):
        assert position.perft(depth) == count
        assert agon.perft(text, depth, rules=rules) == count
        assert agon.perft(position, depth) == count
    assert agon.Position(text).perft(len(counts), rules=agon.Rules(rules)) == counts[-1]
    assert agon.perft(agon.Position(text), len(counts), rules=rules) == counts[-1]
    assert sum(position.perft_divide(2).values()) == counts[1]


def test_perft_divide_counts_the_pass() -> None:
    standard = agon.Position(WALLED).perft_divide(2)
    ludii = agon.Position(WALLED, rules="ludii").perft_divide(2)
    walled = [str(m) for m, n in standard.items() if n == 0]
    assert walled == ["b6-b5", "d2-c2", "f11-e10", "f11-f10", "f11-g10"]
    # After each move that leaves White walled in, White's pass is one leaf.
    for m, n in ludii.items():
        assert n == (1 if str(m) in walled else standard[m])


def test_bad_rules_in_perft() -> None:
    with pytest.raises(agon.ParseError):
        agon.perft(START, 1, rules="standard+limit=0")
    with pytest.raises(agon.ParseError):
        agon.Position().perft(1, rules="nope")




