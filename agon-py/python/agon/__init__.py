"""Agon (Queen's Guard, London 1842): the reference rules engine, from Python.

The whole engine is agon-core, in Rust; this package gives it Pythonic names. Nothing of
the rules is implemented in Python: legality, captures, returns and the end of the game
all come from the core.

>>> import agon
>>> game = agon.Game()
>>> len(game.legal_moves())
27
>>> game.push("f1-e1")
[]
>>> game.position
Position('Qe1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b')

Classes: ``Cell``, ``Side`` (``WHITE``, ``BLACK``), ``Kind`` (``QUEEN``, ``GUARD``),
``Piece``, ``Move``, ``Position``, ``Game``, ``Outcome``, ``Symmetry``, ``Rules``, ``VecEnv``;
``Variation``, a game record's variation (``Game.from_record`` keeps them, ``to_record``
writes them back, ``Game.variations(ply)`` reads them).

Rule sets: ``Rules`` is one choice for each option of RULES.md section 8 (V1-V9), with
the presets ``Rules.STANDARD`` (the default everywhere) and ``Rules.LUDII``; its text form
is ``"ludii"``, ``"standard+capture=same-ring+limit=300"``. Positions and games carry their
rules (``rules=`` a ``Rules`` or its text wherever a position or game is made, and in
``perft``), and ``Move.PASS`` is the move of a stuck side under ``stuck="pass"``.

>>> game = agon.Game(rules="ludii")
>>> game.rules, game.rules.limit
(Rules('ludii'), 2500)
>>> agon.Rules.STANDARD.replace(capture="same-ring", limit=300)
Rules('standard+capture=same-ring+limit=300')

Errors: ``IllegalMoveError``, ``ParseError``, ``InvalidPositionError`` (all ``ValueError``)
with the core's reason in ``.reason`` (see "Contract" below for every exception a call can
raise). Pictures: ``svg(position, ...)``, and positions and
games draw themselves in notebooks (drawn by the Rust crate agon-svg, like the web game's
board). Bots: ``agon.bots`` (random, greedy, MCTS, alpha-beta). Analysis: ``analyse(position,
depth=...)`` (or ``time=``, ``nodes=``; ``multipv=``) returns the engine's best lines as
``AnalysisLine`` objects: ``move``, ``score`` (a ``Score``: centipoints, or win or loss in
N moves), ``pv``, ``depth``, ``nodes``, ``nps``.

>>> [line] = agon.analyse(agon.Position("Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh6/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"), depth=2)
>>> line.move, line.score
(Move.parse('h6-g6'), Score(win_in=1))

Game review: ``review(game, nodes=...)`` searches every position of a game with the engine
at a fixed node budget (the same figures on any machine) and judges every action by the
expected score it cost its player: a ``Review`` of ``ReviewPosition`` objects (``score``,
``best``, ``white``: White's expected score, the curve of a review's graph) and
``ReviewPly`` objects (``move``, ``best``, ``loss``, ``judgement``: ``"inaccuracy"``,
``"mistake"``, ``"blunder"`` or ``None``), with ``tally(side)``.

>>> game = agon.Game(agon.Position("Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b"), ["b4-c5"])
>>> [ply] = agon.review(game, nodes=2000).plies
>>> ply.judgement, ply.before
('blunder', 1.0)

Research frameworks, each an optional extra that ``import agon`` never imports (a missing
one raises an ``ImportError`` naming its extra): ``agon.pettingzoo`` (extra
``pettingzoo``: ``env()``, a PettingZoo AEC environment), ``agon.gymnasium`` (extra
``gymnasium``: registers ``Agon-v0``, one side against a bot) and ``agon.openspiel``
(extra ``openspiel``: registers the game ``python_agon`` with ``pyspiel``). Datasets, also
optional: ``agon.data`` (extra ``data``: games as Parquet shards, read back as ``Game``
objects or as numpy training batches rebuilt in Rust), ``python -m agon.generate`` and
``python -m agon.tournament`` (games between bots on threads, or as Ray tasks on a cluster
with ``--ray``: extra ``ray``). AlphaZero-style training: ``agon.az`` (extra ``az``: JAX;
``python -m agon.az.loop`` trains the network that the bot ``az:MODEL:VISITS`` plays).

Action space
------------
``ACTION_COUNT`` = 3337 actions in three blocks, so that a policy has a fixed output:

- ``0 <= a < 546``: a step of the piece on cell ``c`` in direction ``d``:
  ``a = c * 6 + d``, with the cell index ``c`` (0-90) and the directions clockwise from
  north (``NORTH`` = 0, ``NORTH_EAST``, ``SOUTH_EAST``, ``SOUTH``, ``SOUTH_WEST``,
  ``NORTH_WEST`` = 5).
- ``546 <= a < 3276``: the return of the captured piece on cell ``c`` to the outer-ring
  cell ``o``: ``a = 546 + c * 30 + k``, where ``k`` is the rank of ``o`` among the 30
  outer-ring cells in index order.
- ``3276 <= a < 3337``: the return of the side's captured queen to the inner cell ``i``
  (rings 0-4, the throne included): ``a = 3276 + j``, where ``j`` is the rank of ``i``
  among the 61 inner cells in index order.

Why: a step is a piece and one of six directions. A return needs its piece and its
destination; a guard returns only to the outer ring, and only the queen may return off
it, and a side has one queen, so returns to inner cells need no origin. Every legal move of
every position has exactly one action; ``move_to_action`` needs no position, and
``action_to_move(position, a)`` uses it only to find the queen of an inner return. Each of
the twelve symmetries keeps the rings, so it permutes the actions, block by block:
``action_symmetries()`` is the (12, 3337) array of these permutations (row ``s`` maps an
action to its image under ``Symmetry(s)``), and ``cell_symmetries()`` the (12, 91) array
of cell permutations.

Under rule sets (RULES.md section 8) the standard actions keep these numbers, and
``action_count(rules)`` is the width of the rule set's masks: 3337 (``ACTION_COUNT``)
for most, 3338 under ``stuck=pass`` (the ``ludii`` preset), where the pass is
``PASS_ACTION`` = 3337, and ``MAX_ACTION_COUNT`` = 8889 under ``guard-return=next-ring``,
whose captured guards may return to inner cells: the return of the captured guard on
cell ``c`` to the inner cell ``i`` is ``NEXT_RING_RETURN_BASE + c * 61 + j`` (3338 and
on). Only there does a move's action depend on the position (a return to an inner cell
is the queen's or a guard's): ``move_to_action(move, position)``. ``Position.legal_actions()``,
``action_mask()``, ``action_to_move`` and ``VecEnv(..., rules=...)`` follow the
position's rules; packed masks are ``packed_mask_bytes(rules)`` bytes (418, the pass in
the padding, or 1112 under ``next-ring``), and ``unpack_masks(masks, rules)`` unpacks
them.

>>> agon.action_count("ludii"), agon.PASS_ACTION in agon.Position(rules="ludii").action_mask().nonzero()[0]
(3338, False)

Observations
------------
``Position.observation()`` is a float32 array of shape (11, 91) (channels by cell index),
and ``observation(axial=True)`` of shape (11, 11, 11), where cell (q, r, s) sits at row
``r + 5`` and column ``q + 5`` (``axial_coordinates()``); the six neighbours of a cell
are then the offsets (-1, 0), (-1, +1), (0, +1), (+1, 0), (+1, -1), (0, -1) in (row, column),
six of the eight around it in a 3 x 3 kernel. The 30 squares that are not cells are 0 in
every channel but the last. The channels (``OBSERVATION_CHANNELS``), from the view of the side to move:

0. own queen, 1. own guards, 2. opponent queen, 3. opponent guards (captured or not),
4. own captured pieces, 5. opponent captured pieces,
6. forbidden: the cells the side to move may not step to (between two opponent pieces),
7. the throne, 8. the throne ring (ring 1), 9. the board (every cell),
10. White to move (all ones) or Black to move (all zeros).

The board is not turned for Black: cells keep their index, so actions and observations
share one geometry; channel 10 tells the colours apart.

For training at scale, ``VecEnv(n, obs_dtype=numpy.uint8, packed_masks=True)`` writes the
same observations as uint8 and the masks bit-packed (``PACKED_MASK_BYTES`` = 418 bytes a
game, as ``numpy.packbits`` packs them; ``unpack_masks`` unpacks them): about 1.4 KB a
game and step instead of 7.3 KB.

Contract
--------
Whatever it is given, every public function and method of the package either returns or
raises one of these exceptions, and nothing else: no crash, no abort, and no hang beyond
the work the arguments ask for (see the bounds below):

- ``ValueError``: a value the argument does not allow (out of its range or bound, an
  unknown name, a decided start position...), including its subclasses
  ``IllegalMoveError``, ``ParseError`` and ``InvalidPositionError`` and, for a ``str``
  that is not valid Unicode (a lone surrogate), ``UnicodeEncodeError``.
- ``TypeError``: an argument of the wrong type. Where an integer is expected, an ``int``
  or any object with ``__index__`` (numpy integers) is accepted, and never a ``bool``, a
  float or a str; where a flag is expected, only a ``bool``.
- ``IndexError``: ``Game.pop()`` with no move to take back, and a game number out of
  range in ``VecEnv.position(i)`` and ``VecEnv.game(i)``.
- ``OverflowError``: an int too large for its argument's 64-bit type (signed for
  counts, sizes, depths, indices and actions, so 2**63 and beyond; unsigned for seeds,
  which are 0 to 2**64 - 1, so also any negative seed).
- ``MemoryError``: only when the machine has less memory than a call within the bounds
  below needs.
- An exception raised by code of the caller's that a call runs (an ``__index__``,
  ``__iter__`` or ``__array__``, a mapping's ``items``) passes through unchanged.
- ``RuntimeError``, in one case only: a finaliser of the caller's (``__del__``, run by
  the garbage collector in the middle of a call) that uses a ``Game`` or ``VecEnv`` while
  a call on that same object is running in the same thread: the inner call is refused and
  changes nothing. (Callbacks that run while arguments are read, such as ``__index__``
  or ``__array__``, may use the object freely: arguments are read first.)

The exceptions of the package always carry all their attributes: ``reason``, ``move``,
``env`` and ``action`` for ``IllegalMoveError``; ``reason``, ``offset``, ``text``,
``move_reason`` and ``position_reason`` for ``ParseError``; ``reason`` for
``InvalidPositionError`` (those that do not apply are ``None``).

**A call that fails changes nothing**: games, environments (their games and their random
generator), bots, and the caller's ``out`` arrays, which are all checked before anything is
written or any game changes.

**Bounds.** Every argument that sizes memory or work has an upper bound, checked before
anything is allocated or started; beyond it the call raises ``ValueError``:

- ``MAX_ENVS`` = 65536 games in a ``VecEnv`` (a step writes about 9 KB per game);
- ``MAX_PERFT_DEPTH`` = 64 for ``perft`` and ``Position.perft``/``perft_divide``;
- ``MAX_RANDOM_PLAYOUTS`` = 10**9 games in one ``random_playouts`` call;
- ``MAX_PLAYOUTS`` = 10**6 playouts per move of ``bots.MCTS`` (over a minute of search);
- ``MAX_DEPTH`` = 64 plies of ``bots.AlphaBeta``;
- ``MAX_TIME_LIMIT`` = 86400 seconds (a day) for a bot's time limit and ``analyse``'s
  ``time``;
- ``analyse``: ``depth`` 1 to 100 plies, 1 to 64 ``threads``, a table of 1 to 4096 MiB
  (``hash_mib``), and ``multipv`` up to the number of legal moves;
- ``MAX_SVG_SIZE`` = 100000 pixels and ``MAX_ARROWS`` = 10000 arrows for ``svg``;
- ``CELL_COUNT`` = 91 entries in ``Position.from_pieces``'s pieces and captured cells;
- 1 to 256 ``threads`` for ``VecEnv`` and ``random_playouts``.

Iterables are read one item at a time, so an endless one fails at its first item too many
(or, for the moves of ``Game(start, moves)``, at the first illegal move: every game ends).
The bounds keep memory and the stack safe; they do not make every call short: perft grows
about 25-fold per ply, and a bot's search grows with its budget unless it has a time
limit.

**Time.** Parsers (cells, moves, positions, game records) run in time linear in their
input. There is no length limit on their input, but error messages quote at most its first
80 characters (the exception's ``text`` keeps it all).

**Strict inputs.** ``VecEnv.step``'s actions are an array of shape ``(n,)`` of a numpy
integer dtype (any width, sign and byte order), or what ``numpy.asarray`` makes one of
(a list of ``n`` Python ints); anything else is refused before any game changes:
``TypeError`` for bool, float, complex, str, bytes, object, datetime and timedelta
dtypes and for masked arrays (their mask would be ignored), ``ValueError`` for a wrong
shape, and ``IllegalMoveError`` (with ``env`` and ``action``) for an action not legal in
its game. An ``out`` array must be a writeable C-contiguous numpy array of exactly the
documented shape and dtype, sharing memory with no other ``out`` array nor the actions.

**Threads.** Cells, moves, positions and the other values are immutable and may be shared
freely. Threads may share a ``Game``, a ``VecEnv`` or a bot: each has a lock, calls on it
take turns (one waits for the other, without the GIL), and the long ones
(``VecEnv.step``, ``reset``, ``observe``, ``random_actions``, a bot's ``choose``, ``perft``,
``random_playouts``, ``analyse``) run without the GIL. ``VecEnv`` and ``random_playouts`` work on
several threads of their own (``threads=``, every core by default), and their results do
not depend on how many: each game draws from its own random generator.
"""

from ._agon import (
    ACTION_COUNT,
    CELL_COUNT,
    END_REASONS,
    MAX_GAME_PLIES,
    MAX_ACTION_COUNT,
    NEXT_RING_RETURN_BASE,
    PASS_ACTION,
    INNER_RETURN_BASE,
    MAX_ARROWS,
    MAX_DEPTH,
    MAX_ENVS,
    MAX_LEGAL_MOVES,
    MAX_PERFT_DEPTH,
    MAX_PLAYOUTS,
    MAX_RANDOM_PLAYOUTS,
    MAX_SVG_SIZE,
    MAX_TIME_LIMIT,
    OBSERVATION_CHANNELS,
    AnalysisLine,
    OUTER_RETURN_BASE,
    PACKED_MASK_BYTES,
    STEP_ACTIONS,
    Cell,
    Game,
    IllegalMoveError,
    InvalidPositionError,
    Kind,
    Move,
    Outcome,
    ParseError,
    Piece,
    Position,
    Review,
    ReviewPly,
    ReviewPosition,
    Rules,
    Score,
    Side,
    Symmetry,
    Variation,
    VecEnv,
    __version__,
    action_count,
    action_symmetries,
    analyse,
    action_to_move,
    axial_coordinates,
    cell_symmetries,
    move_to_action,
    packed_mask_bytes,
    perft,
    random_playouts,
    review,
    svg,
    unpack_masks,
)
from . import bots

WHITE = Side.WHITE
"""White, who moves first."""
BLACK = Side.BLACK
"""Black."""
QUEEN = Kind.QUEEN
"""The queen."""
GUARD = Kind.GUARD
"""A guard."""

NORTH = 0
"""Up the file (towards higher ranks)."""
NORTH_EAST = 1
"""Up and right."""
SOUTH_EAST = 2
"""Down and right."""
SOUTH = 3
"""Down the file."""
SOUTH_WEST = 4
"""Down and left."""
NORTH_WEST = 5
"""Up and left."""

CELLS = Cell.all()
"""The 91 cells in index order."""
THRONE = Cell("f6")
"""The throne, the centre of the board."""
STARTING_TEXT = Position().to_text()
"""The text of the start position."""

__all__ = [
    "ACTION_COUNT",
    "END_REASONS",
    "MAX_GAME_PLIES",
    "AnalysisLine",
    "BLACK",
    "CELLS",
    "CELL_COUNT",
    "Cell",
    "GUARD",
    "Game",
    "Variation",
    "INNER_RETURN_BASE",
    "IllegalMoveError",
    "InvalidPositionError",
    "Kind",
    "MAX_ACTION_COUNT",
    "MAX_ARROWS",
    "MAX_DEPTH",
    "MAX_ENVS",
    "MAX_LEGAL_MOVES",
    "MAX_PERFT_DEPTH",
    "MAX_PLAYOUTS",
    "MAX_RANDOM_PLAYOUTS",
    "MAX_SVG_SIZE",
    "MAX_TIME_LIMIT",
    "Move",
    "NEXT_RING_RETURN_BASE",
    "NORTH",
    "NORTH_EAST",
    "NORTH_WEST",
    "OBSERVATION_CHANNELS",
    "OUTER_RETURN_BASE",
    "PACKED_MASK_BYTES",
    "PASS_ACTION",
    "Outcome",
    "ParseError",
    "Piece",
    "Position",
    "QUEEN",
    "Review",
    "ReviewPly",
    "ReviewPosition",
    "Rules",
    "SOUTH",
    "SOUTH_EAST",
    "SOUTH_WEST",
    "STARTING_TEXT",
    "Score",
    "STEP_ACTIONS",
    "Side",
    "Symmetry",
    "THRONE",
    "VecEnv",
    "WHITE",
    "__version__",
    "action_count",
    "action_symmetries",
    "action_to_move",
    "analyse",
    "axial_coordinates",
    "bots",
    "cell_symmetries",
    "move_to_action",
    "packed_mask_bytes",
    "perft",
    "random_playouts",
    "review",
    "svg",
    "unpack_masks",
]
