"""Writes az-fixture.safetensors, the fixture of agon-bots' test that the Rust network
(candle) computes what the JAX network of agon.az computes: a small network with random
weights (stored as float16, which the Rust side reads as it reads any float type), the
axial observations of a few positions (``fixture.observations``) and JAX's outputs on
them (``fixture.logits``, ``fixture.values``).

Run from the checkout with the ``az`` extra installed:
``.venv/bin/python agon-bots/tests/data/make_az_fixture.py``.
"""

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from safetensors.numpy import save_file

import agon
from agon.az import network

SHAPE = network.Shape(blocks=2, channels=8, policy_channels=1, value_channels=2, hidden=16)


def positions() -> list:
    """The start, a position a few plies in, one with a captured piece, and Black to
    move: moves drawn with a fixed generator."""
    rng = np.random.default_rng(3)
    game = agon.Game()
    chosen = [game.position]
    for ply in range(40):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[int(rng.integers(len(moves)))])
        if ply in (4, 17, 38):
            chosen.append(game.position)
    return chosen


def main() -> None:
    params = network.init(SHAPE, seed=11, residual_scale=1.0)
    key = jax.random.PRNGKey(5)
    for name in sorted(params):
        if name.endswith(".bias"):
            key, sub = jax.random.split(key)
            params[name] = 0.1 * jax.random.normal(sub, params[name].shape)
    stored = {k: np.asarray(v, dtype=np.float16) for k, v in params.items()}
    as_read = {k: jnp.asarray(v, dtype=jnp.float32) for k, v in stored.items()}
    observations = np.stack([p.observation(axial=True) for p in positions()]).astype(np.float32)
    logits, values = network.apply(as_read, jnp.asarray(observations))
    out = dict(stored)
    out["fixture.observations"] = observations
    out["fixture.logits"] = np.asarray(logits, dtype=np.float32)
    out["fixture.values"] = np.asarray(values, dtype=np.float32)
    path = Path(__file__).with_name("az-fixture.safetensors")
    save_file(out, str(path))
    print(f"wrote {path}: {len(observations)} positions, values {np.asarray(values)}")


if __name__ == "__main__":
    main()
