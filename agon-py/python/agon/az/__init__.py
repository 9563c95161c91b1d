"""AlphaZero-style training for Agon (extra ``az``: JAX, optax, safetensors).

- ``agon.az.network``: the policy-value network in JAX, the same architecture as
  ``agon_bots::Network`` in Rust (a residual tower over the axial observation planes, a
  policy head to the 3337 actions, a value head through tanh), and its safetensors files;
- ``agon.az.train``: training steps on ``agon.data.training_batches(..., policy=True,
  symmetries=True, axial=True)`` (policy cross-entropy on the visit counts over the legal
  actions, value squared error on the game's result, L2);
- ``agon.az.loop``: ``python -m agon.az.loop --out DIR --generations N --games G``, the
  loop of self-play (``agon.generate`` with the ``az`` bot), training and gating (the
  arena's SPRT against the best network so far), resumable and logged; ``--init MODEL``
  starts it from a trained network;
- ``agon.az.pretrain``: ``python -m agon.az.pretrain --data DIR ... --out RUN``, the
  supervised start: a network trained on existing datasets of stronger players (their
  visit counts, or the moves they played), resumable and logged as the loop is;
- ``agon.az.curve``: ``python -m agon.az.curve MODEL... --out DIR``, a learning curve
  after the fact: a run's checkpoints against fixed opponents, logged for
  ``agon.az.plot``.

The Rust bot plays the exported files: ``Bot.from_name("az:DIR/best.safetensors:800")``.
"""

from .._extras import require

require("jax", "az", "agon.az")
require("optax", "az", "agon.az")
require("safetensors", "az", "agon.az")
