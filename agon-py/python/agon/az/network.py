"""The policy-value network in JAX, and its safetensors files.

The parameters are a flat dict of arrays named as the file stores them and as
``agon_bots::Network`` reads them (``stem.weight``, ``blocks.0.conv1.weight``, ...,
``policy.dense.weight``, ``value.out.bias``): convolution kernels ``(out, in, kh, kw)``,
dense weights ``(in, out)``. The input is a batch of observations in the axial layout,
float32 ``(B, 11, 11, 11)`` (``Position.observation(axial=True)``); the outputs are the
logits of the 3337 actions ``(B, 3337)`` and the value for the player to act ``(B,)``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Tuple, Union

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt
from safetensors.numpy import load_file, save_file

from .. import _agon

Params = Dict[str, jax.Array]
"""The network's parameters, by name."""

SIDE = 11
"""The side of the axial layout's square."""


@dataclass(frozen=True)
class Shape:
    """The sizes of a network: residual blocks, channels of the tower, channels of the
    policy and value heads, and the value head's hidden width."""

    blocks: int = 4
    channels: int = 32
    policy_channels: int = 2
    value_channels: int = 1
    hidden: int = 64

    @staticmethod
    def of(params: Mapping[str, Any]) -> "Shape":
        """The shape of ``params`` (as read from a file)."""
        blocks = 0
        while f"blocks.{blocks}.conv1.weight" in params:
            blocks += 1
        return Shape(
            blocks=blocks,
            channels=int(params["stem.weight"].shape[0]),
            policy_channels=int(params["policy.conv.weight"].shape[0]),
            value_channels=int(params["value.conv.weight"].shape[0]),
            hidden=int(params["value.hidden.weight"].shape[1]),
        )


def init(shape: Shape, seed: int = 0, *, residual_scale: float = 0.1) -> Params:
    """Parameters drawn at random: He-normal kernels, zero biases; the second
    convolution of each block scaled by ``residual_scale`` so that the tower starts near
    the identity (there is no normalisation layer)."""
    planes = len(_agon.OBSERVATION_CHANNELS)
    squares = SIDE * SIDE
    actions = _agon.ACTION_COUNT
    c = shape.channels
    sizes: Dict[str, Tuple[Tuple[int, ...], float]] = {
        "stem.weight": ((c, planes, 3, 3), 1.0),
    }
    for i in range(shape.blocks):
        sizes[f"blocks.{i}.conv1.weight"] = ((c, c, 3, 3), 1.0)
        sizes[f"blocks.{i}.conv2.weight"] = ((c, c, 3, 3), residual_scale)
    p, v, h = shape.policy_channels, shape.value_channels, shape.hidden
    sizes["policy.conv.weight"] = ((p, c, 1, 1), 1.0)
    sizes["policy.dense.weight"] = ((p * squares, actions), 0.5)
    sizes["value.conv.weight"] = ((v, c, 1, 1), 1.0)
    sizes["value.hidden.weight"] = ((v * squares, h), 1.0)
    sizes["value.out.weight"] = ((h, 1), 0.5)
    keys = jax.random.split(jax.random.PRNGKey(seed), len(sizes))
    params: Params = {}
    for key, (name, (size, scale)) in zip(keys, sizes.items()):
        fan_in = int(np.prod(size[1:])) if len(size) == 4 else size[0]
        std = scale * float(np.sqrt(2.0 / fan_in))
        params[name] = std * jax.random.normal(key, size, dtype=jnp.float32)
        params[name.replace(".weight", ".bias")] = jnp.zeros((size[0] if len(size) == 4 else size[1],), jnp.float32)
    return params


def _conv(x: jax.Array, params: Params, name: str) -> jax.Array:
    w = params[f"{name}.weight"]
    y = jax.lax.conv_general_dilated(
        x, w, window_strides=(1, 1), padding="SAME",
        dimension_numbers=("NCHW", "OIHW", "NCHW"),
    )
    return y + params[f"{name}.bias"][None, :, None, None]


def _dense(x: jax.Array, params: Params, name: str) -> jax.Array:
    return x @ params[f"{name}.weight"] + params[f"{name}.bias"]


def apply(params: Params, observations: jax.Array) -> Tuple[jax.Array, jax.Array]:
    """The logits ``(B, 3337)`` and values ``(B,)`` of a batch of axial observations
    ``(B, 11, 11, 11)``."""
    x = jax.nn.relu(_conv(observations, params, "stem"))
    i = 0
    while f"blocks.{i}.conv1.weight" in params:
        y = jax.nn.relu(_conv(x, params, f"blocks.{i}.conv1"))
        x = jax.nn.relu(_conv(y, params, f"blocks.{i}.conv2") + x)
        i += 1
    n = x.shape[0]
    p = jax.nn.relu(_conv(x, params, "policy.conv")).reshape(n, -1)
    logits = _dense(p, params, "policy.dense")
    v = jax.nn.relu(_conv(x, params, "value.conv")).reshape(n, -1)
    v = jax.nn.relu(_dense(v, params, "value.hidden"))
    value = jnp.tanh(_dense(v, params, "value.out"))[:, 0]
    return logits, value


def save(params: Mapping[str, Any], path: Union[str, "os.PathLike[str]"],
         metadata: Union[Mapping[str, str], None] = None) -> None:
    """Writes ``params`` as a safetensors file (float32), atomically: a temporary file
    renamed into place."""
    arrays = {k: np.ascontiguousarray(np.asarray(v, dtype=np.float32)) for k, v in params.items()}
    target = os.fspath(path)
    temporary = target + ".tmp"
    save_file(arrays, temporary, metadata=dict(metadata or {}))
    os.replace(temporary, target)


def load(path: Union[str, "os.PathLike[str]"]) -> Params:
    """Reads a safetensors file written by ``save``."""
    arrays: Dict[str, npt.NDArray[Any]] = load_file(os.fspath(path))
    return {k: jnp.asarray(v, dtype=jnp.float32) for k, v in arrays.items()}


def warm_start(params: Params, source: Mapping[str, Any]) -> Tuple[Params, List[str]]:
    """``params`` with each array that ``source`` (another network's parameters) has under
    the same name and shape taken from it: a network of another head (say, a wider value
    head) started from a trained one. Returns the parameters and the names kept fresh.

    >>> small = init(Shape(blocks=1, channels=8, value_channels=1))
    >>> wider = init(Shape(blocks=1, channels=8, value_channels=4), seed=1)
    >>> started, fresh = warm_start(wider, small)
    >>> fresh
    ['value.conv.bias', 'value.conv.weight', 'value.hidden.weight']
    >>> bool((started["stem.weight"] == small["stem.weight"]).all())
    True
    """
    out: Params = {}
    fresh = []
    for name, array in params.items():
        other = source.get(name)
        if other is not None and tuple(other.shape) == tuple(array.shape):
            out[name] = jnp.asarray(other, dtype=jnp.float32)
        else:
            out[name] = array
            fresh.append(name)
    return out, sorted(fresh)


def parameter_count(params: Mapping[str, Any]) -> int:
    """The number of parameters."""
    return int(sum(int(np.prod(v.shape)) for v in params.values()))
