"""agon.az: the JAX network equals the Rust one, the loop runs end to end (self-play,
training, export, gating, evaluation, resume), and bad model files are clear errors.
Skipped without the ``az`` extra (JAX, optax, safetensors, pyarrow)."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any, List

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")
pytest.importorskip("safetensors")
pytest.importorskip("pyarrow")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import agon  # noqa: E402
import agon.bots  # noqa: E402
import agon.generate  # noqa: E402
from agon import _agon  # noqa: E402
from agon.az import curve, loop, network, plot, pretrain, train  # noqa: E402

# 11 channels: the tower then has as many channels as the board is wide (a case candle
# 0.9 reads wrong unless agon-bots works around it).
SMALL = network.Shape(blocks=2, channels=11, policy_channels=2, value_channels=1, hidden=16)


def positions() -> List[agon.Position]:
    rng = np.random.default_rng(1)
    game = agon.Game()
    out = [game.position]
    for _ in range(25):
        moves = game.legal_moves()
        game.play(moves[int(rng.integers(len(moves)))])
        out.append(game.position)
    return out[::6]


def random_params(seed: int) -> network.Params:
    params = network.init(SMALL, seed=seed, residual_scale=1.0)
    key = jax.random.PRNGKey(seed)
    for name in sorted(params):
        if name.endswith(".bias"):
            key, sub = jax.random.split(key)
            params[name] = 0.1 * jax.random.normal(sub, params[name].shape)
    return params


def test_rust_inference_equals_jax(tmp_path: Path) -> None:
    params = random_params(4)
    path = tmp_path / "model.safetensors"
    network.save(params, path)
    observations = np.stack([p.observation(axial=True) for p in positions()])
    logits, values = network.apply(network.load(path), jnp.asarray(observations))
    rust_logits, rust_values = _agon._az_evaluate(str(path), observations)
    assert rust_logits.shape == (len(observations), agon.ACTION_COUNT)
    np.testing.assert_allclose(rust_logits, np.asarray(logits), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(rust_values, np.asarray(values), rtol=1e-4, atol=1e-5)
    assert np.ptp(rust_values) > 1e-3  # real, varied outputs


def test_saved_parameters_load_back(tmp_path: Path) -> None:
    params = random_params(2)
    network.save(params, tmp_path / "m.safetensors")
    loaded = network.load(tmp_path / "m.safetensors")
    assert sorted(loaded) == sorted(params)
    assert network.Shape.of(loaded) == SMALL
    for name in params:
        np.testing.assert_array_equal(np.asarray(loaded[name]), np.asarray(params[name]))


def test_the_bot_plays_a_saved_network(tmp_path: Path) -> None:
    network.save(random_params(3), tmp_path / "m.safetensors")
    bot = agon.bots.Bot.from_name(f"az:{tmp_path / 'm.safetensors'}:16", seed=1)
    assert bot.name == f"az:{tmp_path / 'm.safetensors'}:16"
    game = agon.Game()
    for _ in range(6):
        m = bot.choose(game)
        assert m is not None and m in game.legal_moves()
        game.play(m)


def test_bad_model_files_are_value_errors(tmp_path: Path) -> None:
    missing = tmp_path / "missing.safetensors"
    with pytest.raises(ValueError, match="cannot read"):
        agon.bots.Bot.from_name(f"az:{missing}:10")
    corrupt = tmp_path / "corrupt.safetensors"
    corrupt.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not json}")
    with pytest.raises(ValueError, match="not a safetensors model"):
        agon.bots.Bot.from_name(f"az:{corrupt}:10")
    params = random_params(1)
    params["policy.dense.weight"] = params["policy.dense.weight"][:, :100]
    params["policy.dense.bias"] = params["policy.dense.bias"][:100]
    wrong = tmp_path / "wrong.safetensors"
    network.save(params, wrong)
    with pytest.raises(ValueError, match="policy.dense.weight.*another shape"):
        agon.bots.Bot.from_name(f"az:{wrong}:10")
    observations = np.zeros((1, 11, 11, 11), np.float32)
    with pytest.raises(ValueError, match="another shape"):
        _agon._az_evaluate(str(wrong), observations)
    network.save(random_params(1), tmp_path / "ok.safetensors")
    with pytest.raises(ValueError, match="observations must have shape"):
        _agon._az_evaluate(str(tmp_path / "ok.safetensors"), np.zeros((1, 11, 91, 1), np.float32))
    with pytest.raises(ValueError, match="bad number"):
        agon.bots.Bot.from_name(f"az:{tmp_path / 'ok.safetensors'}:0")


def strict_json_lines(path: Path) -> List[Any]:
    """The lines of a log as JSON, refusing NaN and Infinity (which strict parsers refuse)."""
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in {path}")
    return [json.loads(line, parse_constant=refuse) for line in path.read_text().splitlines()]


def tiny_run(**changes: Any) -> loop.Run:
    settings = dict(games=2, visits=4, temperature_plies=4, max_plies=24, blocks=1, channels=8,
                    max_steps=1, batch_samples=64, gate_games=2, gate_visits=4,
                    eval_opponents=["random"], eval_games=2, eval_visits=4)
    settings.update(changes)
    return loop.Run(**settings)  # type: ignore[arg-type]


def test_a_tiny_loop_runs_end_to_end(short_tmp: Path) -> None:
    out = short_tmp / "run"
    entries = loop.loop(out, 1, tiny_run())
    assert [e["generation"] for e in entries] == [1]
    entry = entries[0]
    assert entry["games"] == 2 and entry["steps"] == 1 and entry["samples"] > 0
    assert np.isfinite(entry["policy_loss"]) and np.isfinite(entry["value_loss"])
    assert entry["gate"]["games"] == 2 and entry["best"] in (0, 1)
    assert entry["evaluation"]["random"]["games"] == 2
    log = strict_json_lines(out / "log.jsonl")
    assert log == [entry]
    # The self-play games carry the search's visit counts: policy targets.
    batch = next(agon.data.training_batches(out / "gen-0001" / "games", policy=True))
    assert batch["has_policy"].all()
    np.testing.assert_allclose(batch["policies"].sum(axis=1), 1.0, rtol=1e-5)
    # The exported network loads in Rust and plays.
    model = out / "gen-0001" / "model.safetensors"
    assert network.Shape.of(network.load(model)) == network.Shape(blocks=1, channels=8)
    game = agon.Game()
    m = agon.bots.Bot.from_name(f"az:{model}:8").choose(game)
    assert m is not None and m in game.legal_moves()
    # Resumed: nothing left to do; a second generation goes on from the first.
    assert loop.loop(out, 1, tiny_run()) == []
    assert [e["generation"] for e in loop.loop(out, 2, tiny_run())] == [2]
    assert len((out / "log.jsonl").read_text().splitlines()) == 2
    # Other settings on the same directory are refused.
    with pytest.raises(ValueError, match="other settings"):
        loop.loop(out, 3, tiny_run(visits=5))
    with pytest.raises(ValueError, match="other settings"):
        loop.loop(out, 2, tiny_run(value_target="mean"))
    # A run written before --value-target existed resumes as a run of results.
    config = out / loop.CONFIG
    settings = json.loads(config.read_text())
    assert settings.pop("value_target") == "result"
    # ... and before --search: a run of PUCT.
    assert (settings.pop("search"), settings.pop("considered")) == ("puct", 16)
    config.write_text(json.dumps(settings))
    assert loop.loop(out, 2, tiny_run()) == []
    # The searches' root values as the value's targets: the self-play games carry them.
    assert tiny_run(value_target="mean").settings().value_target == "mean"
    [searched] = loop.loop(short_tmp / "searched", 1, tiny_run(value_target="search"))
    assert np.isfinite(searched["value_loss"]) and searched["value_loss"] > 0


def test_a_run_moved_with_its_committed_files_resumes_elsewhere(short_tmp: Path) -> None:
    """The run names ``--init`` by the file's contents, so its directory, moved to another
    checkout with only the files a commit keeps (no generation's networks), resumes there;
    another network is another run; a run that recorded a path is upgraded."""
    first = short_tmp / "a"
    (first / "models").mkdir(parents=True)
    net = first / "models" / "init.safetensors"
    network.save(network.init(network.Shape(1, 8), seed=3), net)
    loop.loop(first / "run", 1, tiny_run(init=str(net)))
    config = json.loads((first / "run" / loop.CONFIG).read_text())
    assert config["init"] == loop.network_identity(net)
    assert config["init"].startswith("sha256:") and len(config["init"]) == 7 + 64
    moved = short_tmp / "b"
    shutil.move(first, moved)
    for generation_network in [*(moved / "run").glob("gen-*.safetensors"),
                     *(moved / "run").glob("gen-*/*.safetensors")]:
        generation_network.unlink()
    net = moved / "models" / "init.safetensors"
    [entry] = loop.loop(moved / "run", 2, tiny_run(init=str(net)))
    assert entry["generation"] == 2 and entry["evaluation"]["random"]["games"] == 2
    other = moved / "models" / "other.safetensors"
    network.save(network.init(network.Shape(1, 8), seed=4), other)
    with pytest.raises(ValueError, match="other settings"):
        loop.loop(moved / "run", 3, tiny_run(init=str(other)))
    with pytest.raises(ValueError, match="other settings"):
        loop.loop(moved / "run", 3, tiny_run())
    config_path = moved / "run" / loop.CONFIG
    config_path.write_text(json.dumps({**config, "init": str(net)}))
    assert loop.loop(moved / "run", 2, tiny_run(init=str(net))) == []
    assert json.loads(config_path.read_text())["init"] == loop.network_identity(net)
    assert loop.network_identity("") == ""


def test_a_gumbel_loop_learns_the_improved_policy(short_tmp: Path) -> None:
    out = short_tmp / "gumbel"
    run = tiny_run(search="gumbel", considered=4, temperature_plies=0)
    [entry] = loop.loop(out, 1, run)
    assert entry["games"] == 2 and entry["steps"] == 1 and entry["gate"]["games"] == 2
    config = json.loads((out / loop.CONFIG).read_text())
    assert (config["search"], config["considered"]) == ("gumbel", 4)
    # Each ply's policy target is the improved policy in millionths, over legal moves.
    plies = 0
    for record in agon.data.read_records(out / "gen-0001" / "games"):
        for weights in record.visits or ():
            assert weights is not None
            assert abs(sum(weights.values()) - 1_000_000) <= len(weights)
            plies += 1
    assert plies > 0
    batch = next(agon.data.training_batches(out / "gen-0001" / "games", policy=True))
    assert batch["has_policy"].all()
    np.testing.assert_allclose(batch["policies"].sum(axis=1), 1.0, rtol=1e-5)
    # Resumable; a run of the other search, or of other considered moves, is refused.
    assert loop.loop(out, 1, run) == []
    for other in (tiny_run(temperature_plies=0), tiny_run(search="gumbel", considered=8,
                                                          temperature_plies=0)):
        with pytest.raises(ValueError, match="other settings"):
            loop.loop(out, 2, other)
    with pytest.raises(ValueError, match="search must be one of puct, gumbel"):
        loop.loop(short_tmp / "bad", 1, tiny_run(search="uct"))
    with pytest.raises(ValueError, match="considered must be from 1 to 256"):
        loop.loop(short_tmp / "bad", 1, tiny_run(search="gumbel", considered=0))
    a = loop.parser().parse_args(["--out", "x", "--generations", "1", "--search", "gumbel",
                                  "--considered", "8", "--c-scale", "0.1"])
    assert (a.search, a.considered, a.c_scale) == ("gumbel", 8, 0.1)
    # c_scale: the spec's sPERMILLE, a setting of the run (a run without it had 1.0).
    assert tiny_run(search="gumbel", considered=4).search_option() == ":g4"
    assert tiny_run(search="gumbel", considered=4, c_scale=0.1).search_option() == ":g4:s100"
    assert tiny_run(c_scale=0.1).search_option() == ""
    with pytest.raises(ValueError, match="other settings"):
        loop.loop(out, 2, tiny_run(search="gumbel", considered=4, temperature_plies=0, c_scale=0.1))
    settings = json.loads((out / loop.CONFIG).read_text())
    assert settings.pop("c_scale") == 1.0
    (out / loop.CONFIG).write_text(json.dumps(settings))
    assert loop.loop(out, 1, run) == []
    with pytest.raises(ValueError, match="c_scale must be from 0.001 to 10"):
        loop.loop(short_tmp / "bad", 1, tiny_run(search="gumbel", c_scale=0.0))


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli"
    args = ["--out", str(out), "--generations", "1", "--games", "2", "--visits", "3",
            "--max-plies", "16", "--blocks", "1", "--channels", "4", "--max-steps", "1",
            "--gate-games", "2", "--gate-visits", "2", "--eval", "--eval-games", "0"]
    assert loop.main(args) == 0
    printed = capsys.readouterr().out
    assert "generation 1: self-play 2 games" in printed and "gating" in printed
    assert loop.main(["--out", str(out), "--generations", "1", "--games", "3"]) == 2
    assert "other settings" in capsys.readouterr().err


def test_pretraining_on_games_without_statistics(tmp_path: Path) -> None:
    # Games of bots that record no visit counts: the move played is the policy target.
    agon.generate.generate(3, ["greedy", "random"], tmp_path / "games", max_plies=200)
    batch = next(train.samples([tmp_path / "games"], train.Settings(batch_samples=4096), 0))
    assert not batch["has_policy"].any()
    keys = ("observations", "policies", "has_policy", "results")
    settings = train.Settings(batch_samples=4096, played_policy="all")
    played = next(train.samples([tmp_path / "games"], settings, 0))
    assert played.keys() == batch.keys() and played["has_policy"].all()
    for key in keys:  # the same samples in the same order
        assert played[key].shape == batch[key].shape
    np.testing.assert_array_equal(played["observations"], batch["observations"])
    # The policy is the one-hot of the action played (of its image under the symmetry):
    # the samples rebuilt as train.samples draws them (games, then samples, shuffled).
    rng = np.random.default_rng(0)
    table = agon.data.read_table(tmp_path / "games")
    table = table.take(rng.permutation(table.num_rows))
    expected = next(agon.data.training_batches(table, batch_size=256, symmetries=True,
                                               axial=True))
    order = rng.permutation(len(expected["actions"]))
    assert len(order) == 12 * 202  # all the positions in one read
    np.testing.assert_array_equal(played["observations"], expected["observations"][order])
    rows = np.arange(len(order))
    assert (played["policies"][rows, expected["actions"][order]] == 1.0).all()
    assert (played["policies"].sum(axis=1) == 1.0).all()
    # "winners": only the plies of the side that won the game.
    settings = train.Settings(batch_samples=4096, played_policy="winners")
    won = next(train.samples([tmp_path / "games"], settings, 0))
    np.testing.assert_array_equal(won["has_policy"], won["results"] > 0)
    assert 0 < won["has_policy"].sum() < len(rows)
    np.testing.assert_array_equal(won["policies"][won["has_policy"]],
                                  played["policies"][won["has_policy"]])
    assert not won["policies"][~won["has_policy"]].any()
    with pytest.raises(ValueError, match="played_policy must be one of"):
        train.Settings(played_policy="yes")
    out = tmp_path / "pre"
    run = pretrain.Pretraining(data=[str(tmp_path / "games")], steps=1, chunk_steps=1,
                               blocks=1, channels=8, batch_samples=64,
                               eval_opponents=["random"], eval_games=2, eval_visits=4)
    [entry] = pretrain.pretrain(out, run)
    assert (entry["generation"], entry["steps"], entry["samples"]) == (1, 1, 64)
    assert np.isfinite(entry["policy_loss"]) and np.isfinite(entry["value_loss"])
    assert entry["evaluation"]["random"]["games"] == 2
    assert strict_json_lines(out / "log.jsonl") == [entry]
    # The exported network loads in Rust and plays a legal move.
    model = out / pretrain.MODEL
    assert network.Shape.of(network.load(model)) == network.Shape(blocks=1, channels=8)
    game = agon.Game()
    m = agon.bots.Bot.from_name(f"az:{model}:8").choose(game)
    assert m is not None and m in game.legal_moves()
    # Resumed: nothing left, then a second chunk on from the first; other settings refused.
    assert pretrain.pretrain(out, run) == []
    more = pretrain.Pretraining(**{**run.__dict__, "steps": 2})
    assert pretrain.pretrain(out, more)[0]["steps"] == 2
    log = strict_json_lines(out / "log.jsonl")
    assert [e["steps"] for e in log] == [1, 2]
    assert (out / "chunk-0002.safetensors").read_bytes() == model.read_bytes()
    assert (out / "chunk-0001.safetensors").read_bytes() != model.read_bytes()
    # Its learning curve: a point a chunk for each opponent.
    assert [g for g, _, _, _ in plot.curves(log)["random"]] == [1, 2]
    picture = plot.svg(log, x_label="chunk (1 step)", y_label="score of each <chunk> & its CI")
    assert picture.count("<circle") == 2 and ">chunk (1 step)</text>" in picture
    assert ">score of each &lt;chunk&gt; &amp; its CI</text>" in picture
    with pytest.raises(ValueError, match="other settings"):
        pretrain.pretrain(out, pretrain.Pretraining(**{**run.__dict__, "seed": 1}))
    # The loop starts from the pretrained network.
    trained = network.load(model)
    loop.loop(tmp_path / "run", 0, tiny_run(init=str(model)))
    started = network.load(tmp_path / "run" / "gen-0000.safetensors")
    for name in trained:
        np.testing.assert_array_equal(np.asarray(started[name]), np.asarray(trained[name]))


def test_alphabeta_values_are_value_targets(tmp_path: Path) -> None:
    # The alpha-beta bot records its move (a count of 1) and its score as a value; greedy
    # records nothing.
    bot = agon.bots.AlphaBeta(depth=2, seed=4)
    assert isinstance(bot, agon.data.StatsPlayer)
    game = agon.Game()
    move, visits, value = bot.choose_with_stats(game)
    assert move == agon.bots.AlphaBeta(depth=2, seed=4).choose(game)
    assert visits == {agon.move_to_action(move): 1} and -1.0 < value < 1.0
    agon.generate.generate(2, ["alphabeta:2", "greedy"], tmp_path / "games", max_plies=60)
    records = {r.id: r for r in agon.data.read_records(tmp_path / "games")}
    batch = next(agon.data.training_batches(tmp_path / "games", batch_size=1000, policy=True))
    for game_id, ply, searched in zip(batch["game_ids"], batch["plies"], batch["search_values"]):
        record = records[int(game_id)]
        alphabeta_moves = (ply % 2 == 0) == (record.white == "alphabeta:2")
        assert record.values is not None and (record.values[ply] is None) != alphabeta_moves
        if alphabeta_moves:
            assert searched == pytest.approx(record.values[ply]) and -1.0 <= searched <= 1.0
        else:
            assert np.isnan(searched)
    # The value targets of train.samples (the same samples in the same order each time).
    def drawn(target: str) -> Any:
        settings = train.Settings(batch_samples=4096, read_positions=1000, value_target=target)
        return next(train.samples([tmp_path / "games"], settings, 0))

    result, search, mean = drawn("result"), drawn("search"), drawn("mean")
    np.testing.assert_array_equal(result["observations"], search["observations"])
    assert result["has_value"].all() and mean["has_value"].all()
    np.testing.assert_array_equal(result["values"], result["results"])
    has = search["has_value"]
    assert 0.4 < has.mean() < 0.6  # alpha-beta's plies: half the game
    searched = search["values"][has]
    assert len(np.unique(searched)) > 5 and not (np.abs(searched) == 1).all()
    np.testing.assert_allclose(mean["values"][has], (searched + result["results"][has]) / 2, rtol=1e-6)
    np.testing.assert_array_equal(mean["values"][~has], result["results"][~has])
    with pytest.raises(ValueError, match="value_target must be one of"):
        train.Settings(value_target="outcome")
    # A sample without a value target adds nothing to the value loss.
    params = network.init(network.Shape(blocks=1, channels=8), seed=0)
    arrays = {k: jnp.asarray(v) for k, v in search.items()}
    _, (_, with_targets) = train.losses(params, arrays)
    assert float(with_targets) > 0
    _, (_, without) = train.losses(params, {**arrays, "has_value": jnp.zeros_like(arrays["has_value"])})
    assert float(without) == 0.0
    # Pretraining on the search values, from a network of another value head.
    first = tmp_path / "first.safetensors"
    network.save(network.init(network.Shape(blocks=1, channels=8), seed=2), first)
    run = pretrain.Pretraining(data=[str(tmp_path / "games")], steps=2, chunk_steps=2,
                               blocks=1, channels=8, batch_samples=64, value_target="search",
                               value_channels=3, init=str(first), eval_opponents=[],
                               final_learning_rate=1e-4)
    [entry] = pretrain.pretrain(tmp_path / "pre", run)
    assert np.isfinite(entry["value_loss"]) and entry["value_loss"] > 0
    trained = network.load(tmp_path / "pre" / pretrain.MODEL)
    assert network.Shape.of(trained) == network.Shape(blocks=1, channels=8, value_channels=3)


def test_the_learning_rate_falls_along_a_cosine() -> None:
    settings = train.Settings(learning_rate=1e-3, weight_decay=0.0, decay_steps=10,
                              final_learning_rate=1e-4)
    opt = train.optimizer(settings)
    params = {"w": jnp.zeros(3)}
    state = opt.init(params)
    sizes = []
    for _ in range(14):  # Adam's first steps on a constant gradient move by the rate
        updates, state = opt.update({"w": jnp.ones(3)}, state, params)
        sizes.append(float(-updates["w"][0]))
    assert sizes[0] == pytest.approx(1e-3, rel=1e-3)
    assert all(a > b for a, b in zip(sizes[:10], sizes[1:11]))
    assert sizes[10:] == pytest.approx([1e-4] * 4, rel=1e-3)
    constant = train.optimizer(train.Settings(learning_rate=1e-3, weight_decay=0.0))
    state = constant.init(params)
    for _ in range(12):
        updates, state = constant.update({"w": jnp.ones(3)}, state, params)
    assert float(-updates["w"][0]) == pytest.approx(1e-3, rel=1e-3)
    for bad in ({"decay_steps": -1}, {"final_learning_rate": 2e-3}):
        with pytest.raises(ValueError, match="decay_steps"):
            train.Settings(learning_rate=1e-3, **bad)


def test_the_network_doctests() -> None:
    import doctest

    result = doctest.testmod(network)
    assert result.failed == 0 and result.attempted > 0


def test_the_pretraining_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    agon.generate.generate(2, ["greedy", "greedy"], tmp_path / "games", max_plies=10)
    args = ["--data", str(tmp_path / "games"), "--out", str(tmp_path / "pre"), "--steps", "1",
            "--blocks", "1", "--channels", "4", "--batch-samples", "16", "--eval"]
    assert pretrain.main(args) == 0
    assert "chunk 1: 1 steps, policy loss" in capsys.readouterr().out
    assert pretrain.main(args[:4] + ["--steps", "2", "--seed", "3"]) == 2
    assert "other settings" in capsys.readouterr().err
    wider = args[:3] + [str(tmp_path / "wider")] + args[4:] + [
        "--init", str(tmp_path / "pre" / pretrain.MODEL), "--value-channels", "2",
        "--value-target", "search", "--final-learning-rate", "0.0001"]
    assert pretrain.main(wider) == 0
    out = capsys.readouterr().out
    assert "fresh: value.conv.bias, value.conv.weight, value.hidden.weight" in out
    # A final rate above the rate: refused before anything is written.
    bad = wider[:3] + [str(tmp_path / "bad")] + wider[4:-1] + ["0.01"]
    assert pretrain.main(bad) == 2
    assert "final_learning_rate" in capsys.readouterr().err and not (tmp_path / "bad").exists()


def test_a_curve_after_the_fact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    models = []
    for seed in (1, 2):
        models.append(tmp_path / f"chunk-{seed}.safetensors")
        network.save(random_params(seed), models[-1])
    run = curve.Curve(models=[str(models[0])], opponents=["random", "greedy"], games=2,
                      visits=4, contempt=700, seed=3, first=1)
    [first] = curve.curve(tmp_path / "curve", run)
    assert first["generation"] == 1 and first["spec"] == f"az:{models[0].resolve()}:4:c700"
    assert set(first["evaluation"]) == {"random", "greedy"}
    e = first["evaluation"]["greedy"]
    assert e["games"] == 2 and e["wins"] + e["draws"] + e["losses"] == 2
    assert e["score"] == (e["wins"] + e["draws"] / 2) / 2
    assert (e["score"], e["score_low"], e["score_high"]) == _agon._score_interval(
        e["wins"], e["draws"], e["losses"])
    # The same openings as a match of the arena with the same seed: the same results.
    m = _agon._book_match(first["spec"], "greedy", 2, 3)
    assert (e["wins"], e["draws"], e["losses"]) == (m["wins"], m["draws"], m["losses"])
    # Resumed: nothing to play. A second network added at the end: only it is played.
    assert curve.curve(tmp_path / "curve", run) == []
    more = curve.Curve(**{**run.__dict__, "models": [str(m) for m in models]})
    [second] = curve.curve(tmp_path / "curve", more)
    assert second["generation"] == 2 and "chunk-2" in second["spec"]
    log = strict_json_lines(tmp_path / "curve" / "log.jsonl")
    assert log == [first, second]
    # A random network loses both games to greedy: an Elo of minus infinity, logged as
    # null, and a score interval from 0.
    assert (e["losses"], e["elo"], e["elo_low"], e["score_low"]) == (2, None, None, 0.0)
    assert plot.svg(log).count("<circle") == 4
    assert plot.curves(log)["greedy"][0] == (1, 0.0, 0.0, e["score_high"])
    # A log of an older version, with Elo bounds only (infinite ones included).
    old = [{"generation": 3, "evaluation": {"greedy": {
        "score": 1.0, "elo": math.inf, "elo_low": 0.0, "elo_high": math.inf}}}]
    assert plot.curves(old) == {"greedy": [(3, 1.0, 0.5, 1.0)]}
    # Other settings, or other networks in place of those played: refused.
    for other in [{**run.__dict__, "games": 4},
                  {**run.__dict__, "models": [str(models[1]), str(models[0])]}]:
        with pytest.raises(ValueError, match="other settings or networks"):
            curve.curve(tmp_path / "curve", curve.Curve(**other))
    assert len((tmp_path / "curve" / "log.jsonl").read_text().splitlines()) == 2
    # A curve of the Gumbel search; a curve begun before --considered resumes as PUCT.
    gumbel = curve.Curve(**{**run.__dict__, "considered": 4})
    [g] = curve.curve(tmp_path / "gumbel", gumbel)
    assert g["spec"] == f"az:{models[0].resolve()}:4:c700:g4"
    config = tmp_path / "curve" / curve.CONFIG
    settings = json.loads(config.read_text())
    assert settings.pop("considered") == 0
    config.write_text(json.dumps(settings))
    assert curve.curve(tmp_path / "curve", more) == []
    with pytest.raises(ValueError, match="considered must be from 0"):
        curve.curve(tmp_path / "bad", curve.Curve(**{**run.__dict__, "considered": 257}))
    # The command line, and its errors.
    args = [str(m) for m in models] + ["--out", str(tmp_path / "cli"), "--eval", "random",
                                       "--games", "2", "--visits", "2"]
    assert curve.main(args) == 0
    assert "network 1 (chunk-2.safetensors) against random: " in capsys.readouterr().out
    assert [e["generation"] for e in curve.curve(tmp_path / "cli", curve.Curve(
        models=[str(m) for m in models], opponents=["random"], games=2, visits=2))] == []
    for bad, message in [([str(tmp_path / "none.safetensors")], "no network file"),
                         ([str(models[0]), "--contempt", "1001"], "contempt must be"),
                         ([str(models[0]), "--games", "0"], "games and visits")]:
        assert curve.main(bad + ["--out", str(tmp_path / "bad")]) == 2
        assert message in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()
