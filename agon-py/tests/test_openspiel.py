"""agon.openspiel: OpenSpiel's own random-simulation test and playthrough replay, the
game's behaviour (actions and notation, observations, returns, repetition, the length cap,
clones, serialisation) and the OpenSpiel MCTS example.

The playthrough ``tests/data/python_agon.txt`` was made by OpenSpiel's own playthrough
tool (``open_spiel.python.algorithms.generate_playthrough.playthrough``) from the moves
``PLAYTHROUGH_MOVES``; after a deliberate change of the game's strings or tensors,
regenerate it from the repository root with

    .venv/bin/python agon-py/tests/test_openspiel.py

which runs ``regenerate()`` below, that is
``generate_playthrough.playthrough("python_agon", PLAYTHROUGH_MOVES, seed=0)`` (the seed
is unused: every action is given), and review the diff.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, List, Sequence

import numpy as np
import pytest

import agon
import agon.bots

pyspiel: Any = pytest.importorskip("pyspiel")

import agon.openspiel  # noqa: E402
from open_spiel.python.observation import make_observation  # type: ignore[import-untyped]  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PLAYTHROUGH = Path(__file__).resolve().parent / "data" / "python_agon.txt"
EXAMPLE = ROOT / "examples" / "python" / "openspiel_mcts.py"

# A 56-ply game (Random, White, against Greedy, Black, found among seeded games for being
# short): a capture of Black's queen, her return to the throne (f10>f6), a guard's return
# to the outer ring (k2>l6), and Black's win by the throne ring.
PLAYTHROUGH_MOVES = (
    "h9-g9 f11-f10 d9-e10 f10>f6 a5-a4 b7-c7 g9-f10 c7-d7 f10-f9 d7-e7 k1-k2 e7-e6 k2-i2 "
    "a2-b3 f1-f2 b3-c4 a4-a3 c4-d4 i2-k2 d4-e5 f2-g2 h1-h2 e10-f10 h2-i2 k2>l6 k7-k6 "
    "a3-b3 i2-h3 f9-f8 h3-g4 b1-a1 g4-g5 f8-e7 l2-k3 f10-g9 k3-i4 b3-c3 i4-h5 c3-d4 "
    "h5-g6 g2-g3 d1-d2 e7-d6 d2-e3 a1-a2 e3-f4 g9-g8 f4-f5 l5-k5 k6-i6 g3-g4 i6-h6 "
    "a2-b3 h6-g7 b3-b2 g7-f7"
).split()
# The queens' shuffle: twice brings the start position back a third time (R11).
SHUFFLE = ["f1-e1", "f11-e10", "e1-f1", "e10-f11"]


def new_state(game_string: str = "python_agon") -> Any:
    return pyspiel.load_game(game_string).new_initial_state()


def play(state: Any, moves: Sequence[str]) -> Any:
    """Plays moves given in notation through OpenSpiel's own string_to_action."""
    for move in moves:
        state.apply_action(state.string_to_action(state.current_player(), move))
    return state


def playthrough_tool() -> Any:
    """OpenSpiel's playthrough tool, imported on demand: it imports all of OpenSpiel's
    Python games (a second or two)."""
    return importlib.import_module("open_spiel.python.algorithms.generate_playthrough")


def regenerate() -> None:
    """Writes the playthrough with OpenSpiel's tool (see the module docstring)."""
    text = playthrough_tool().playthrough("python_agon", list(PLAYTHROUGH_MOVES), seed=0)
    PLAYTHROUGH.parent.mkdir(parents=True, exist_ok=True)
    PLAYTHROUGH.write_text(text, encoding="utf-8")


def test_doctests() -> None:
    assert doctest.testmod(agon.openspiel).failed == 0


def test_game_type_and_info() -> None:
    game = pyspiel.load_game("python_agon")
    kind = game.get_type()
    assert kind.short_name == "python_agon"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == 2
    assert game.num_distinct_actions() == agon.ACTION_COUNT == 3337
    assert game.max_chance_outcomes() == 0
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.max_game_length() == agon.openspiel.DEFAULT_MAX_GAME_LENGTH == 10_000
    assert game.observation_tensor_shape() == [11, 11, 11]
    assert str(game) == "python_agon(max_game_length=10000,rules=standard)"
    assert isinstance(game, agon.openspiel.AgonGame)
    assert agon.openspiel.load_game(7).max_game_length() == 7
    # Player 0 is White, who moves first.
    assert game.new_initial_state().current_player() == 0 == int(agon.Position().turn)
    assert agon.Position().turn == agon.WHITE


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="max_game_length"):
        pyspiel.load_game("python_agon(max_game_length=0)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("python_agon(moves=3)")


# OpenSpiel's own checks.


def test_random_sim_test() -> None:
    # OpenSpiel's C++ checks along random games: sorted legal actions, unique action
    # strings, clones, serialisation round trips, observations, returns, the length cap.
    pyspiel.random_sim_test(pyspiel.load_game("python_agon"), num_sims=2, serialize=True,
                            verbose=False)


def test_random_sim_test_with_a_small_cap() -> None:
    pyspiel.random_sim_test(pyspiel.load_game("python_agon(max_game_length=9)"), num_sims=5,
                            serialize=True, verbose=False)


def test_playthrough_replays() -> None:
    from absl import flags

    if not flags.FLAGS.is_parsed():  # OpenSpiel's replay reads an absl flag
        flags.FLAGS.mark_as_parsed()
    original, reproduced = playthrough_tool().replay(str(PLAYTHROUGH))
    assert original == reproduced
    assert original.startswith("game: python_agon\n")
    assert original.rstrip().endswith("Returns() = [-1, 1]")
    assert re.findall(r'# Apply action "(.*)"', original) == PLAYTHROUGH_MOVES


# Actions, notation, observations.


def states_along(moves: Sequence[str]) -> List[Any]:
    """The states of a game, the start and the end included (clones)."""
    state = new_state()
    states = [state.clone()]
    for move in moves:
        play(state, [move])
        states.append(state.clone())
    return states


def random_moves(plies: int, seed: int) -> List[str]:
    rng = random.Random(seed)
    game = agon.Game()
    while len(game) < plies and not game.is_over():
        game.push(rng.choice(game.legal_moves()))
    return [str(move) for move in game.moves]


def test_legal_actions_and_notation_are_the_positions() -> None:
    returns_seen = 0
    for state in states_along(PLAYTHROUGH_MOVES) + states_along(random_moves(120, seed=3)):
        position = state.position
        if state.is_terminal():
            assert state.legal_actions() == []
            continue
        assert state.current_player() == int(position.turn)
        actions = state.legal_actions()
        assert actions == position.legal_actions().tolist() == sorted(actions)
        assert state.legal_actions_mask() == position.action_mask().astype(int).tolist()
        strings = [state.action_to_string(state.current_player(), a) for a in actions]
        assert strings == [str(position.action_to_move(a)) for a in actions]
        assert sorted(strings) == sorted(str(move) for move in position.legal_moves())
        returns_seen += position.must_return()
    assert returns_seen >= 2  # the queen's return to the throne and a guard's return


def test_action_to_string_decodes_for_either_player() -> None:
    state = new_state()
    # Black's move, asked while White is to move, decodes in Black's view.
    assert state.action_to_string(1, agon.move_to_action("f11-e10")) == "f11-e10"
    assert state.action_to_string(0, agon.move_to_action("f1-e1")) == "f1-e1"
    # A return to an inner cell is the queen's: whose queen depends on the player.
    to_throne = agon.move_to_action("f1>f6")
    assert state.action_to_string(0, to_throne) == "f1>f6"
    assert state.action_to_string(1, to_throne) == "f11>f6"
    assert state.action_to_string(0, 5) == "action 5"  # a step off the board
    assert state.action_to_string(0, agon.ACTION_COUNT) == f"action {agon.ACTION_COUNT}"
    assert state.string_to_action("f1-e1") == agon.move_to_action("f1-e1")


def test_observation_tensor_is_the_positions_planes() -> None:
    observation = make_observation(pyspiel.load_game("python_agon"))
    for state in states_along(PLAYTHROUGH_MOVES)[::5] + [play(new_state(), SHUFFLE * 2)]:
        planes = state.position.observation(axial=True)
        for player in (0, 1):
            tensor = np.array(state.observation_tensor(player), dtype=np.float32)
            assert np.array_equal(tensor.reshape(11, 11, 11), planes)
            observation.set_from(state, player)
            assert np.array_equal(observation.dict["observation"], planes)
            assert state.observation_string(player) == state.position.to_text()
        assert state.information_state_string(0) == state.history_str()


# Returns, repetition, the length cap.


def bot_game(white: str, black: str, seed: int) -> Any:
    bots = [agon.bots.Bot.from_name(name, seed=seed) for name in (white, black)]
    state = new_state()
    while not state.is_terminal():
        assert state.rewards() == [0.0, 0.0] and state.returns() == [0.0, 0.0]
        move = bots[state.current_player()].choose(state.game)
        assert move is not None
        action = agon.move_to_action(move)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


@pytest.mark.parametrize(
    ("white", "black", "returns", "winner"),
    [
        ("greedy", "random", [1.0, -1.0], agon.WHITE),
        ("random", "greedy", [-1.0, 1.0], agon.BLACK),
    ],
)
def test_a_won_game_returns_plus_and_minus_one(
    white: str, black: str, returns: List[float], winner: agon.Side
) -> None:
    state = bot_game(white, black, seed=4)
    assert state.returns() == returns and state.rewards() == returns
    assert [state.player_return(p) for p in (0, 1)] == returns
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert not state.is_truncated()
    # The same moves, replayed by the core alone, end the same way.
    replay = agon.Game()
    for action in state.history():
        replay.push_action(action)
    outcome = replay.outcome()
    assert outcome is not None and outcome.winner == winner
    assert state.outcome() == outcome
    assert f"Game over: {outcome.score} ({outcome.reason})" in str(state)


def test_repetition_is_a_draw() -> None:
    state = play(new_state(), SHUFFLE * 2)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "repetition" and outcome.winner is None
    assert state.is_terminal() and not state.is_truncated()
    assert state.returns() == [0.0, 0.0] and state.rewards() == [0.0, 0.0]
    assert state.legal_actions() == []
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    # One ply earlier the start has occurred only twice: the game goes on.
    earlier = play(new_state(), (SHUFFLE * 2)[:-1])
    assert not earlier.is_terminal() and earlier.outcome() is None


def test_the_length_cap_truncates_as_an_openspiel_only_draw() -> None:
    state = play(new_state("python_agon(max_game_length=3)"), ["f1-e1", "f11-e10"])
    assert not state.is_terminal()
    play(state, ["e1-f1"])
    assert state.is_terminal() and state.is_truncated()
    assert state.outcome() is None  # no result of the rules
    assert state.returns() == [0.0, 0.0] and state.legal_actions() == []
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert "Stopped at max_game_length = 3 plies (not a rule)" in str(state)
    assert state.to_record().rstrip().endswith("*")
    with pytest.raises(ValueError, match="over"):
        state.apply_action(agon.move_to_action("e10-f11"))
    assert len(state.history()) == 3
    # A game the rules end on the cap's last ply keeps the rules' result.
    ended = play(new_state("python_agon(max_game_length=8)"), SHUFFLE * 2)
    assert not ended.is_truncated()
    outcome = ended.outcome()
    assert outcome is not None and outcome.reason == "repetition"


def test_an_illegal_action_changes_nothing() -> None:
    state = play(new_state(), ["f1-e1"])
    before = (state.history(), str(state))
    with pytest.raises(agon.IllegalMoveError):
        state.apply_action(agon.move_to_action("f1-e1"))  # White's move, Black to move
    with pytest.raises(agon.IllegalMoveError):
        state.apply_action(5)  # a step off the board
    assert (state.history(), str(state)) == before


# Clones and serialisation.


def test_clones_are_independent() -> None:
    state = play(new_state(), PLAYTHROUGH_MOVES[:10])
    clone = state.clone()
    assert clone.history() == state.history() and str(clone) == str(state)
    play(clone, [clone.action_to_string(clone.current_player(), clone.legal_actions()[0])])
    assert len(state.history()) == 10 and len(clone.history()) == 11
    assert state.position != clone.position
    play(state, [PLAYTHROUGH_MOVES[10]])
    assert clone.history()[:10] == state.history()[:10]
    assert clone.history()[10] != state.history()[10]
    # The agon.Game a state hands out is a copy too.
    copy = state.game
    copy.push(copy.legal_moves()[0])
    assert len(state.game) == 11


def test_serialisation_round_trips() -> None:
    game = pyspiel.load_game("python_agon(max_game_length=500)")
    for moves in (PLAYTHROUGH_MOVES[:5], PLAYTHROUGH_MOVES, SHUFFLE * 2):
        state = game.new_initial_state()
        play(state, moves)
        loaded_game, loaded = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state)
        )
        unpickled = pickle.loads(pickle.dumps(state))
        for again in (loaded, unpickled, game.deserialize_state(state.serialize())):
            assert isinstance(again, agon.openspiel.AgonState)
            assert again.history() == state.history() and str(again) == str(state)
            assert again.game == state.game and again.returns() == state.returns()
            assert again.get_game().max_game_length() == 500
        assert str(loaded_game) == str(game)
        record = game.state_from_record(state.to_record())
        assert record.history() == state.history() and record.game == state.game


def test_state_from_record_refuses_what_openspiel_cannot_hold() -> None:
    game = pyspiel.load_game("python_agon(max_game_length=2)")
    with pytest.raises(ValueError, match="over max_game_length"):
        game.state_from_record("1. f1-e1 f11-e10 2. e1-f1 *")
    with pytest.raises(ValueError, match="start position"):
        start = agon.Position().play("f1-e1").to_text()
        game.state_from_record(agon.Game(start).to_record())
    with pytest.raises(agon.ParseError):
        game.state_from_record("1. f1-f9 *")


# The example: OpenSpiel's MCTS against agon's bots.


def check_example_output(output: str, games: int) -> None:
    """Every printed game is legal, over, and scored as printed."""
    results = re.findall(r"^game \d+: .*: (\S+) \((\S+)\), returns \[(.*?)\], (\d+) plies",
                         output, flags=re.M)
    moves = re.findall(r"^moves: (.*)$", output, flags=re.M)
    assert len(results) == len(moves) == games
    for (score, reason, returns, plies), line in zip(results, moves):
        game = agon.Game(moves=line.split())  # raises on an illegal move
        outcome = game.outcome()
        assert outcome is not None and (outcome.score, outcome.reason) == (score, reason)
        assert len(game) == int(plies)
        expected = {"1-0": "1.0, -1.0", "0-1": "-1.0, 1.0"}.get(score, "0.0, 0.0")
        assert returns == expected
    assert re.search(rf"scored [\d.]+/{games} against greedy", output)


def test_example_runs_with_openspiel_rollouts() -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--games", "1", "--simulations", "2"],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    check_example_output(result.stdout, games=1)


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("openspiel_mcts", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_runs_with_engine_playouts(capsys: pytest.CaptureFixture[str]) -> None:
    load_example().main(["--games", "2", "--simulations", "20", "--evaluator", "agon"])
    check_example_output(capsys.readouterr().out, games=2)


if __name__ == "__main__":
    regenerate()
