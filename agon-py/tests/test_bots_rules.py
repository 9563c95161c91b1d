"""The bots, the analysis and the balance command under rule sets other than the standard
one: every bot plays only legal moves, passes when that is the move, and places a
captured queen for the side that chooses (the captor under ``queen-placer=captor``)."""

from __future__ import annotations

from typing import List

import pytest

import agon
import agon.balance
import agon.bots
import agon.data
import agon.generate
import agon.tournament

SPECS = ["random", "greedy", "mcts:32", "alphabeta:2", "engine:n500"]
RULES = ["ludii", "standard+between=trapped", "standard+guard-return=next-ring+capture=same-ring"]

# White to move has no step (R12 under the standard rules); under ludii it passes.
STUCK = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 w"
# White's queen is captured: under captor rules Black places her.
QUEEN_CAPTURED = "Qf1*,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("spec", SPECS)
def test_every_bot_plays_legal_moves_under_the_rules(spec: str, rules: str) -> None:
    bot = agon.bots.Bot.from_name(spec, seed=4)
    game = agon.Game(rules=rules)
    for _ in range(30):
        if game.is_over():
            break
        move = bot.choose(game)
        assert move is not None and game.is_legal(move), (spec, rules, str(move))
        game.push(move)
    assert game.rules == agon.Rules(rules)


@pytest.mark.parametrize("spec", SPECS)
def test_every_bot_passes_when_the_pass_is_the_move(spec: str) -> None:
    position = agon.Position(STUCK, rules="ludii")
    assert [str(m) for m in position.legal_moves()] == ["pass"]
    assert agon.bots.Bot.from_name(spec, seed=1).choose(position) == agon.Move.PASS
    # The same board under the standard rules is lost: no move to choose.
    assert agon.bots.Bot.from_name(spec, seed=1).choose(agon.Position(STUCK)) is None


def test_the_captor_is_the_player_to_act_and_the_bots_place_the_queen() -> None:
    captor = agon.Rules("standard+queen-placer=captor")
    position = agon.Position(QUEEN_CAPTURED, rules=captor)
    assert position.turn == agon.Side.WHITE and position.chooser == agon.Side.BLACK
    assert agon.Position(QUEEN_CAPTURED).chooser == agon.Side.WHITE
    for spec in SPECS:
        move = agon.bots.Bot.from_name(spec, seed=2).choose(position)
        assert move is not None and move.is_return and position.is_legal(move)


def test_analyse_follows_the_game_rules() -> None:
    position = agon.Position(STUCK, rules="ludii")
    lines = agon.analyse(position, depth=2)
    assert [str(line.move) for line in lines] == ["pass"]
    game = agon.Game(rules="standard+between=trapped")
    best = agon.analyse(game, nodes=2000)[0].move
    assert game.is_legal(best)


def test_the_balance_command_runs_the_engine_under_ludii(capsys: pytest.CaptureFixture[str]) -> None:
    agon.balance.main(
        ["--rules", "ludii", "--spec", "engine:n200", "--games", "2", "--random-games", "20",
         "--no-progress"]
    )
    out = capsys.readouterr().out
    rows: List[str] = [line for line in out.splitlines() if line.startswith("| `ludii`")]
    assert len(rows) == 2, out
    assert "python -m agon.balance --rules ludii" in out


def test_the_facts_come_from_the_crates() -> None:
    # The end reasons are agon-core's list; the datasets add "unfinished" and forfeits.
    assert agon.END_REASONS == [
        "throne", "ring-without-queen", "no-legal-action", "repetition", "two-passes",
        "move-limit",
    ]
    assert agon.data.END_REASONS == tuple(agon.END_REASONS) + ("unfinished",) + agon.data.FORFEIT_REASONS
    # The forfeits of UGI engines are agon-bots' list.
    assert agon.data.FORFEIT_REASONS == ("illegal-move", "unreadable-move", "time-forfeit", "crash", "hang")
    # One ply cap for the arena, the tournaments and the datasets.
    assert agon.generate.DEFAULT_MAX_PLIES == agon.tournament.DEFAULT_MAX_PLIES == agon.MAX_GAME_PLIES


def test_the_study_list_of_rule_sets_is_agon_core_s() -> None:
    sets = agon.Rules.presets_and_variants(60)
    assert sets[:2] == [agon.Rules.STANDARD, agon.Rules.LUDII]
    assert str(sets[-1]) == "standard+limit=60" and len(sets) == 12
    # Every other one differs from the standard rules in exactly one option.
    for rules in sets[2:]:
        assert sum(getattr(rules, o.replace("-", "_")) != getattr(agon.Rules.STANDARD, o.replace("-", "_"))
                   for o in agon.Rules.OPTIONS) == 1, str(rules)
    for bad in (0, -1, agon.Rules.MAX_LIMIT + 1):
        with pytest.raises(ValueError):
            agon.Rules.presets_and_variants(bad)
