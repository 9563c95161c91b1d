"""Training the network on self-play datasets.

The targets are AlphaZero's: the search's visit counts over the legal actions (policy
cross-entropy, on the plies whose player gave statistics) and the game's result for the
player who moved (value squared error); AdamW adds the L2 term. With
``Settings.value_target`` the value learns instead the search's own value of each
position where its player recorded one (``"search"``: a target the position itself
predicts, unlike the result of a game between unequal players or one cut off by a ply
cap; samples without one then train only the policy), or the mean of the two
(``"mean"``). With
``Settings.played_policy`` a ply whose player gave no visit counts (``alphabeta``,
``greedy``, the engine) has the move played as its policy target (a one-hot: learning to
play as the player did, the supervised start of AlphaGo and expert iteration): every such
ply (``"all"``) or only those of the game's winner (``"winners"``: in games of a strong
player against a weak one, the strong player's moves and not the other's). Samples come from
``agon.data.training_batches(..., policy=True, symmetries=True, axial=True)``: each
position with its twelve symmetric images, rebuilt in Rust from the games' moves.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

import jax
import jax.numpy as jnp
import numpy as np
import optax  # type: ignore[import-untyped]

from .. import data
from . import network
from .network import Params


PLAYED_POLICIES = ("none", "all", "winners")
"""The values of ``Settings.played_policy``."""

VALUE_TARGETS = ("result", "search", "mean")
"""The values of ``Settings.value_target``."""


@dataclass(frozen=True)
class Settings:
    """The optimiser, the batches and the policy target: AdamW's learning rate and weight
    decay, samples per step, positions read at once (each gives 12 samples, shuffled
    together), which plies without visit counts learn the move played: ``"none"``,
    ``"all"`` or ``"winners"`` (those of the side that won the game), what the value
    learns: ``"result"``, ``"search"`` or ``"mean"``, and the learning rate's schedule:
    with ``decay_steps`` it falls from ``learning_rate`` to ``final_learning_rate`` along a
    cosine over that many steps, then stays there."""

    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    batch_samples: int = 256
    read_positions: int = 256
    played_policy: str = "none"
    value_target: str = "result"
    decay_steps: int = 0
    final_learning_rate: float = 0.0

    def __post_init__(self) -> None:
        if self.played_policy not in PLAYED_POLICIES:
            raise ValueError(f"played_policy must be one of {PLAYED_POLICIES}, "
                             f"not {self.played_policy!r}")
        if self.value_target not in VALUE_TARGETS:
            raise ValueError(f"value_target must be one of {VALUE_TARGETS}, "
                             f"not {self.value_target!r}")
        if self.decay_steps < 0 or not 0 <= self.final_learning_rate <= self.learning_rate:
            raise ValueError("decay_steps must be at least 0 and final_learning_rate from 0 "
                             "to learning_rate")


@dataclass
class Figures:
    """What a training run did: steps, samples seen, and the mean losses."""

    steps: int = 0
    samples: int = 0
    policy_loss: float = float("nan")
    value_loss: float = float("nan")


def optimizer(settings: Settings) -> optax.GradientTransformation:
    """AdamW with the settings' rate (and its schedule) and weight decay."""
    rate: Any = settings.learning_rate
    if settings.decay_steps:
        rate = optax.cosine_decay_schedule(
            settings.learning_rate, settings.decay_steps,
            alpha=settings.final_learning_rate / settings.learning_rate if settings.learning_rate else 0.0,
        )
    return optax.adamw(rate, weight_decay=settings.weight_decay)


def losses(params: Params, batch: Dict[str, jax.Array]) -> Tuple[jax.Array, Tuple[jax.Array, jax.Array]]:
    """The loss (policy cross-entropy plus value squared error) of a batch, and its two
    parts, each the mean over the samples that have its target."""
    logits, values = network.apply(params, batch["observations"])
    masks = batch["masks"]
    log_p = jax.nn.log_softmax(jnp.where(masks, logits, -1e9))
    cross = -jnp.sum(jnp.where(masks, batch["policies"] * log_p, 0.0), axis=-1)
    has = batch["has_policy"].astype(jnp.float32)
    policy_loss = jnp.sum(cross * has) / jnp.maximum(jnp.sum(has), 1.0)
    has_value = batch["has_value"].astype(jnp.float32)
    value_loss = jnp.sum(has_value * (values - batch["values"]) ** 2) / jnp.maximum(jnp.sum(has_value), 1.0)
    return policy_loss + value_loss, (policy_loss, value_loss)


def make_step(opt: optax.GradientTransformation) -> Any:
    """A jitted training step: ``(params, opt_state, batch) -> (params, opt_state, policy
    loss, value loss)``."""

    @jax.jit
    def step(params: Params, opt_state: Any, batch: Dict[str, jax.Array]) -> Any:
        (_, (p_loss, v_loss)), grads = jax.value_and_grad(losses, has_aux=True)(params, batch)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, p_loss, v_loss

    return step


def samples(sources: Iterable[Union[str, "os.PathLike[str]"]], settings: Settings,
            seed: int) -> Iterator[Dict[str, Any]]:
    """Minibatches of ``settings.batch_samples`` samples from the datasets ``sources``:
    their games in a random order (so that a run cut short by ``max_steps`` sees all the
    window, not its oldest games), read ``settings.read_positions`` positions at a time
    (with their symmetric images) and shuffled within each read. With
    ``settings.played_policy``, the samples without visit counts (all, or the winner's)
    get the action played (its symmetric image) as a one-hot policy. ``values`` and
    ``has_value`` are the value targets that ``settings.value_target`` names."""
    rng = np.random.default_rng(seed)
    keys = ("observations", "masks", "policies", "has_policy", "results", "values", "has_value")
    tables = [data.read_table(s) for s in sources]
    games = data.pa.concat_tables(tables) if len(tables) > 1 else tables[0]
    games = games.take(rng.permutation(games.num_rows))
    for batch in data.training_batches(games, batch_size=settings.read_positions,
                                       symmetries=True, axial=True, policy=True):
        if settings.played_policy != "none":
            _play_policy(batch, winners=settings.played_policy == "winners")
        _value_targets(batch, settings.value_target)
        order = rng.permutation(len(batch["results"]))
        for start in range(0, len(order), settings.batch_samples):
            rows = order[start:start + settings.batch_samples]
            yield {k: batch[k][rows] for k in keys}


def _value_targets(batch: Dict[str, Any], target: str) -> None:
    """Sets ``batch["values"]`` and ``batch["has_value"]`` for ``target``: the results
    (every sample), the search values (the samples that have one), or the mean of both
    (the result alone where there is no search value)."""
    results, searched = batch["results"], batch["search_values"]
    has_search = ~np.isnan(searched)
    if target == "result":
        batch["values"], batch["has_value"] = results, np.ones(len(results), dtype=bool)
    elif target == "search":
        batch["values"], batch["has_value"] = np.where(has_search, searched, 0.0).astype(np.float32), has_search
    else:
        mean = np.where(has_search, (searched + results) / 2, results).astype(np.float32)
        batch["values"], batch["has_value"] = mean, np.ones(len(results), dtype=bool)


def _play_policy(batch: Dict[str, Any], winners: bool) -> None:
    """Gives the samples of ``batch`` that have no policy (and, with ``winners``, whose
    player won) the move played as one."""
    missing = ~batch["has_policy"]
    if winners:
        missing &= batch["results"] > 0
    missing = np.flatnonzero(missing)
    batch["policies"][missing] = 0.0
    batch["policies"][missing, batch["actions"][missing]] = 1.0
    batch["has_policy"][missing] = True


def train(params: Params, opt_state: Any, sources: List[Union[str, "os.PathLike[str]"]],
          settings: Settings, *, epochs: int = 1, max_steps: Optional[int] = None,
          seed: int = 0) -> Tuple[Params, Any, Figures]:
    """Trains ``params`` for ``epochs`` passes over ``sources`` (at most ``max_steps``
    steps); returns the new parameters, optimiser state and figures."""
    step = make_step(optimizer(settings))
    figures = Figures()
    p_sum = v_sum = 0.0
    for epoch in range(epochs):
        for batch in samples(sources, settings, seed * 1000 + epoch):
            if max_steps is not None and figures.steps >= max_steps:
                break
            arrays = {k: jnp.asarray(v) for k, v in batch.items()}
            params, opt_state, p_loss, v_loss = step(params, opt_state, arrays)
            figures.steps += 1
            figures.samples += len(batch["results"])
            p_sum += float(p_loss)
            v_sum += float(v_loss)
    if figures.steps:
        figures.policy_loss = p_sum / figures.steps
        figures.value_loss = v_sum / figures.steps
    return params, opt_state, figures


def save_state(opt_state: Any, path: Union[str, "os.PathLike[str]"]) -> None:
    """Writes the optimiser's state (its arrays, in tree order) atomically."""
    leaves = jax.tree_util.tree_leaves(opt_state)
    target = os.fspath(path)
    with open(target + ".tmp", "wb") as f:
        np.savez(f, *[np.asarray(x) for x in leaves])
    os.replace(target + ".tmp", target)


def load_state(params: Params, settings: Settings, path: Union[str, "os.PathLike[str]"]) -> Any:
    """The optimiser state saved by ``save_state`` for ``params``, or a fresh one if the
    file is missing or does not fit."""
    fresh = optimizer(settings).init(params)
    if not os.path.exists(path):
        return fresh
    leaves, tree = jax.tree_util.tree_flatten(fresh)
    with np.load(os.fspath(path)) as saved:
        stored = [saved[f"arr_{i}"] for i in range(len(saved.files))]
    if len(stored) != len(leaves) or any(np.shape(a) != np.shape(b) for a, b in zip(stored, leaves)):
        return fresh
    return jax.tree_util.tree_unflatten(tree, [jnp.asarray(x) for x in stored])
