"""Type stubs of the native module ``agon._agon`` (see the package docstring).

``python -m mypy.stubtest agon._agon --allowlist agon-py/stubtest-allowlist.txt`` checks
them against the module, and ``tests/test_stubs.py`` that every docstring here is the
module's own (written once, in Rust)."""

from typing import (
    Any,
    ClassVar,
    Dict,
    Iterable,
    List,
    Literal,
    Mapping,
    Optional,
    Tuple,
    Type,
    TypedDict,
    Union,
    final,
)

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

__all__ = [
    "Cell",
    "Side",
    "Kind",
    "Piece",
    "Move",
    "Outcome",
    "Symmetry",
    "Rules",
    "Position",
    "Game",
    "Variation",
    "VecEnv",
    "IllegalMoveError",
    "ParseError",
    "InvalidPositionError",
    "move_to_action",
    "action_to_move",
    "action_symmetries",
    "action_count",
    "packed_mask_bytes",
    "cell_symmetries",
    "axial_coordinates",
    "svg",
    "perft",
    "random_playouts",
    "unpack_masks",
    "_seed_of",
    "_player_seeds",
    "CELL_COUNT",
    "ACTION_COUNT",
    "STEP_ACTIONS",
    "OUTER_RETURN_BASE",
    "INNER_RETURN_BASE",
    "PACKED_MASK_BYTES",
    "PASS_ACTION",
    "NEXT_RING_RETURN_BASE",
    "MAX_ACTION_COUNT",
    "MAX_LEGAL_MOVES",
    "OBSERVATION_CHANNELS",
    "MAX_ENVS",
    "MAX_PERFT_DEPTH",
    "MAX_RANDOM_PLAYOUTS",
    "MAX_PLAYOUTS",
    "MAX_DEPTH",
    "MAX_TIME_LIMIT",
    "MAX_SVG_SIZE",
    "MAX_ARROWS",
    "__version__",
    "END_REASONS",
    "Bot",
    "Random",
    "Greedy",
    "MCTS",
    "AlphaBeta",
    "opening_book",
    "_arena_match",
    "_score_interval",
    "MAX_GAME_PLIES",
    "FORFEIT_REASONS",
    "_az_evaluate",
    "_book_match",
    "_replay_games",
    "_game_actions",
    "_training_arrays",
    "_play_games",
    "MAX_TRAINING_SAMPLES",
    "Score",
    "AnalysisLine",
    "analyse",
    "Review",
    "ReviewPosition",
    "ReviewPly",
    "review",
]

# Argument types that accept several forms: only in the stubs (private, not at runtime).
_CellLike = Union["Cell", str, int]
_MoveLike = Union["Move", str]
_PieceLike = Union["Piece", str]
_PositionLike = Union["Position", str]
_ArrowLike = Union["Move", str, Tuple[_CellLike, _CellLike]]
_RulesLike = Union["Rules", str]
_EndReason = Literal[
    "throne", "ring-without-queen", "no-legal-action", "repetition", "two-passes", "move-limit"
]
# A keyword value of an option of `Rules` (`limit`: a number of plies, `None` or its text).
_LimitLike = Union[int, str, None]

CELL_COUNT: int
"""The number of cells: 91."""
ACTION_COUNT: int
"""The number of actions: 3337 (see the package docstring, "Action space")."""
STEP_ACTIONS: int
"""The number of step actions, the first block: 546 (91 cells x 6 directions)."""
OUTER_RETURN_BASE: int
"""The first action of the returns to the outer ring: 546."""
INNER_RETURN_BASE: int
"""The first action of the queen's returns to the inner cells: 3276."""
PACKED_MASK_BYTES: int
"""The bytes of one bit-packed mask: 418 (`ACTION_COUNT` bits, 8 a byte; see
`unpack_masks`)."""
MAX_LEGAL_MOVES: int
"""The most legal moves of any position: 180 (six captured guards, 30 cells each)."""
MAX_ENVS: int
"""The most games in a `VecEnv`: 65536."""
MAX_PERFT_DEPTH: int
"""The deepest `perft`: 64 plies."""
MAX_RANDOM_PLAYOUTS: int
"""The most games of one `random_playouts` call: 10**9."""
MAX_PLAYOUTS: int
"""The most playouts per move of `bots.MCTS`: 10**6."""
MAX_DEPTH: int
"""The deepest search of `bots.AlphaBeta`: 64 plies."""
MAX_TIME_LIMIT: float
"""The longest time limit of a bot: 86400 seconds (a day)."""
MAX_SVG_SIZE: int
"""The largest `size` of `svg`: 100000 pixels."""
MAX_ARROWS: int
"""The most arrows of one `svg` call: 10000."""
END_REASONS: List[str]
"""The names of the end reasons, in agon-core's order (`EndReason::ALL`): throne,
ring-without-queen, no-legal-action, repetition, two-passes, move-limit."""
MAX_GAME_PLIES: int
"""The ply cap of the arena and of the Python tournaments and datasets: 2000 (a game still
going then is stopped)."""
FORFEIT_REASONS: List[str]
"""Why a UGI engine (a `ugi:` bot spec) loses a game outside the rules, as agon-bots'
harness names it: `["illegal-move", "unreadable-move", "time-forfeit", "crash", "hang"]`
(the end reasons of such games in tournaments and datasets)."""
OBSERVATION_CHANNELS: List[str]
"""The names of the 11 observation channels, in order."""
PASS_ACTION: int
"""The action of the pass: 3337, only in rule sets with `stuck=pass` (see
`action_count`)."""
NEXT_RING_RETURN_BASE: int
"""The first action of the block of guard returns to inner cells: 3338, only under
`guard-return=next-ring` (the guard on cell `c` to the inner cell of rank `j`:
`3338 + c * 61 + j`)."""
MAX_ACTION_COUNT: int
"""The size of the largest action space: 8889 (`guard-return=next-ring`)."""
__version__: str
"""The version of the package."""

class IllegalMoveError(ValueError):
    """A move that the rules forbid in the position (or after the end of the game).

    Attributes (always present): `reason` (a name such as "between-enemies"), `move`
    (the move's text, or None for an action that names no move), and `env` and `action`
    (for `VecEnv.step`, the first game whose action was refused and that action; else
    None)."""

    reason: str
    """Why the move is illegal: a name such as `"between-enemies"`."""
    move: Optional[str]
    """The move's text, or `None` for an action that names no move."""
    env: Optional[int]
    """For `VecEnv.step`: the first game whose action was refused, else `None`."""
    action: Optional[int]
    """For `VecEnv.step`: the refused action, else `None`."""

class ParseError(ValueError):
    """A text that does not parse: a cell, move, position, rule set or game record.

    Attributes (always present): `reason` (a name such as "no-such-cell"), `offset`
    (the byte offset of the fault in `text`), `text` (the whole text), and `move_reason`
    and `position_reason` (the reason of an illegal move or an invalid position in the
    text, else None)."""

    reason: str
    """Why the text does not parse: a name such as `"no-such-cell"`."""
    offset: int
    """The byte offset of the fault in `text`."""
    text: str
    """The whole text that does not parse."""
    move_reason: Optional[str]
    """Why a record's move is illegal (with reason `"illegal-move"`), else `None`."""
    position_reason: Optional[str]
    """Why a text's position is invalid (with reason `"invalid-position"`), else `None`."""

class InvalidPositionError(ValueError):
    """Pieces that do not form a position any game can reach.

    Attribute (always present): `reason` (a name such as "two-pieces-on-cell")."""

    reason: str
    """What is wrong with the pieces: a name such as `"two-pieces-on-cell"`."""

@final
class Cell:
    """One of the 91 cells of the board.

    Build one from its name or its index: `Cell("f6")`, `Cell(45)`. Cells are named like
    Glinski's hexagonal chess: eleven files `a`-`l` (no `j`), ranks from 1 at the bottom of
    each file; `f6` is the throne. The index counts file by file, `a1 = 0` to `l6 = 90`.
    Cells compare and sort by index, hash, and convert to their index with `int()` (so they
    index numpy arrays directly)."""

    def __new__(cls, cell: _CellLike) -> Cell:
        """The cell with this name (`"f6"`) or index (`45`)."""
    @staticmethod
    def from_cube(q: int, r: int, s: int) -> Optional[Cell]:
        """The cell at cube coordinates `(q, r, s)`, or `None` off the board."""
    @staticmethod
    def from_file_rank(file: int, rank: int) -> Optional[Cell]:
        """The cell of a file (0-10, `a` to `l`) and rank (from 1), or `None`."""
    @staticmethod
    def between(a: _CellLike, b: _CellLike) -> Optional[Cell]:
        """The middle cell of the straight line from `a` to `b`, if they are its two ends."""
    @staticmethod
    def all() -> List[Cell]:
        """All 91 cells in index order."""
    @property
    def name(self) -> str:
        """The name, like `"f6"`."""
    @property
    def index(self) -> int:
        """The index, 0-90, file by file (`a1` = 0, the throne `f6` = 45, `l6` = 90)."""
    @property
    def file(self) -> int:
        """The file, 0-10 (`a` = 0, ..., `l` = 10)."""
    @property
    def rank(self) -> int:
        """The rank, from 1 at the bottom of the file."""
    @property
    def ring(self) -> int:
        """The ring: the distance from the throne, 0 (the throne) to 5 (the outer ring)."""
    @property
    def cube(self) -> Tuple[int, int, int]:
        """The cube coordinates `(q, r, s)`, with `q + r + s == 0`."""
    def neighbour(self, direction: int) -> Optional[Cell]:
        """The adjacent cell in `direction` (0-5 clockwise from north, see `agon.NORTH`...),
        or `None` off the board."""
    def neighbours(self) -> List[Cell]:
        """The adjacent cells (3, 4 or 6), in index order."""
    def is_adjacent(self, other: _CellLike) -> bool:
        """Whether `other` is adjacent to this cell."""
    def distance(self, other: _CellLike) -> int:
        """The distance to `other`, in steps."""
    def __index__(self) -> int:
        """The index, so that a cell indexes lists and numpy arrays."""
    def __int__(self) -> int:
        """The index."""
    def __eq__(self, other: object, /) -> bool:
        """Whether `other` is the same cell."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` is not the same cell."""
    def __lt__(self, other: Cell, /) -> bool:
        """Compares by index."""
    def __le__(self, other: Cell, /) -> bool:
        """Compares by index."""
    def __gt__(self, other: Cell, /) -> bool:
        """Compares by index."""
    def __ge__(self, other: Cell, /) -> bool:
        """Compares by index."""
    def __hash__(self) -> int:
        """A hash of the cell."""
    def __reduce__(self) -> Tuple[Type[Cell], Tuple[str]]:
        """Pickles as the cell's name."""
    def __copy__(self) -> Cell:
        """Itself: the value is immutable."""
    def __deepcopy__(self, _memo: Any) -> Cell:
        """Itself: the value is immutable."""

@final
class Side:
    """One of the two sides: `Side.WHITE` (moves first) or `Side.BLACK`. Compares equal to 0
    and 1 respectively."""

    WHITE: ClassVar[Side]
    """White, who moves first (equal to 0)."""
    BLACK: ClassVar[Side]
    """Black (equal to 1)."""
    def other(self) -> Side:
        """The opponent."""
    def __invert__(self) -> Side:
        """The opponent, as `other()`."""
    @property
    def char(self) -> str:
        """The letter in position text: `"w"` or `"b"`."""
    @property
    def name(self) -> str:
        """The name, `"White"` or `"Black"`."""
    @staticmethod
    def from_char(c: str) -> Side:
        """The side of a letter `"w"` or `"b"`."""
    def __int__(self) -> int:
        """0 for White, 1 for Black."""
    def __eq__(self, other: object, /) -> bool:
        """Whether `other` is the same side (or its number, 0 or 1)."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` is not the same side."""
    def __hash__(self) -> int:
        """A hash of the side."""
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        """Pickles as the member `Side.WHITE` or `Side.BLACK`."""
    def __copy__(self) -> Side:
        """Itself: the value is immutable."""
    def __deepcopy__(self, _memo: Any) -> Side:
        """Itself: the value is immutable."""

@final
class Kind:
    """The kind of a piece: `Kind.QUEEN` or `Kind.GUARD`."""

    QUEEN: ClassVar[Kind]
    """The queen (equal to 0)."""
    GUARD: ClassVar[Kind]
    """A guard (equal to 1)."""
    @property
    def name(self) -> str:
        """The name, `"queen"` or `"guard"`."""
    def __int__(self) -> int:
        """0 for the queen, 1 for a guard."""
    def __eq__(self, other: object, /) -> bool:
        """Whether `other` is the same kind (or its number, 0 or 1)."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` is not the same kind."""
    def __hash__(self) -> int:
        """A hash of the kind."""
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        """Pickles as the member `Kind.QUEEN` or `Kind.GUARD`."""
    def __copy__(self) -> Kind:
        """Itself: the value is immutable."""
    def __deepcopy__(self, _memo: Any) -> Kind:
        """Itself: the value is immutable."""

@final
class Piece:
    """A piece: its side and kind. Its symbol is `Q`/`G` for White, `q`/`g` for Black."""

    def __new__(cls, side: Side, kind: Kind) -> Piece:
        """The piece of `side` and `kind`."""
    @staticmethod
    def from_symbol(symbol: str) -> Piece:
        """The piece of a symbol: `Q`, `G` (White), `q`, `g` (Black)."""
    @property
    def side(self) -> Side:
        """The side of the piece."""
    @property
    def kind(self) -> Kind:
        """The kind of the piece."""
    @property
    def symbol(self) -> str:
        """The symbol: `Q`, `G`, `q` or `g`."""
    def __eq__(self, other: object, /) -> bool:
        """Whether `other` is the same piece (side and kind)."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` is not the same piece."""
    def __hash__(self) -> int:
        """A hash of the piece."""
    def __reduce__(self) -> Tuple[Type[Piece], Tuple[Side, Kind]]:
        """Pickles as the side and the kind."""
    def __copy__(self) -> Piece:
        """Itself: the value is immutable."""
    def __deepcopy__(self, _memo: Any) -> Piece:
        """Itself: the value is immutable."""

@final
class Move:
    """One action: a step (`f1-e1`), the return of a captured piece (`f4>l1`), or a pass
    (`pass`, `Move.PASS`: only under `stuck="pass"`, for a side with no other action).

    `Move(from_cell, to_cell, is_return=False)`, `Move.step(a, b)`, `Move.returning(a, b)`
    or `Move.parse("f1-e1")`. For a return, `from_cell` is the cell where the captured piece
    stands; a pass has no cells (`None`). Moves are immutable, compare, sort and hash by value; `str()` gives the
    notation and `pair` the from-to pair engines exchange (`f1e1`)."""

    def __new__(cls, from_cell: _CellLike, to_cell: _CellLike, is_return: bool = False) -> Move:
        """A step (or, with `is_return=True`, a return) from `from_cell` to `to_cell`."""
    @staticmethod
    def step(from_cell: _CellLike, to_cell: _CellLike) -> Move:
        """A step of the piece on `from_cell` to `to_cell`."""
    @staticmethod
    def returning(from_cell: _CellLike, to_cell: _CellLike) -> Move:
        """The return of the captured piece on `from_cell` to `to_cell`."""
    PASS: ClassVar[Move]
    """The pass (`"pass"`): the only action of a side with no other under `stuck="pass"`."""
    @staticmethod
    def parse(text: str) -> Move:
        """Parses a step (`"f1-e1"`), a return (`"f4>l1"`) or a pass (`"pass"`). A bare pair
        (`"f1e1"`) needs a position to tell its kind: use `Position.parse_move`."""
    @property
    def from_cell(self) -> Optional[Cell]:
        """The cell the piece leaves (for a return: where the captured piece stands; `None`
        for a pass)."""
    @property
    def to_cell(self) -> Optional[Cell]:
        """The cell the piece enters (`None` for a pass)."""
    @property
    def is_return(self) -> bool:
        """Whether this is a return."""
    @property
    def is_step(self) -> bool:
        """Whether this is a step."""
    @property
    def is_pass(self) -> bool:
        """Whether this is a pass (only rule sets where a stuck side passes have one)."""
    @property
    def pair(self) -> str:
        """The from-to pair, like `"f1e1"` (`"pass"` for a pass)."""
    def transform(self, symmetry: Symmetry) -> Move:
        """The image of the move under a symmetry."""
    def __eq__(self, other: object, /) -> bool:
        """Whether `other` is the same move."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` is not the same move."""
    def __lt__(self, other: Move, /) -> bool:
        """Compares steps before returns, then by the cells' indices."""
    def __le__(self, other: Move, /) -> bool:
        """Compares steps before returns, then by the cells' indices."""
    def __gt__(self, other: Move, /) -> bool:
        """Compares steps before returns, then by the cells' indices."""
    def __ge__(self, other: Move, /) -> bool:
        """Compares steps before returns, then by the cells' indices."""
    def __hash__(self) -> int:
        """A hash of the move."""
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        """Pickles as its cells and kind, read back by the constructor; a pass as its text,
        read back by `Move.parse`."""
    def __copy__(self) -> Move:
        """Itself: the value is immutable."""
    def __deepcopy__(self, _memo: Any) -> Move:
        """Itself: the value is immutable."""

@final
class Rules:
    """A rule set: one value for each option of RULES.md section 8 (V1-V9).

    `Rules()` is the standard rule set (R1-R12); `Rules("ludii")` or
    `Rules("standard+capture=same-ring+limit=300")` parses the text form (a preset, then
    `+option=value` for each option that differs from it); keywords override options:
    `Rules("ludii", limit=None)`, `Rules.STANDARD.replace(between="trapped")`. The presets
    are `Rules.STANDARD` and `Rules.LUDII`. `str()` gives the canonical text (the nearest
    preset, then the options that differ from it, in `Rules.OPTIONS` order). Rules are
    immutable, compare and hash by value, and pickle as their text. A bad text or value
    raises `ParseError` (a `ValueError`) with the reason (`"unknown-preset"`,
    `"unknown-rule-option"`, `"unknown-rule-value"`, `"duplicate-rule-option"`,
    `"limit-out-of-range"`) and the byte offset of the fault."""

    STANDARD: ClassVar[Rules]
    """The standard rules (R1-R12)."""
    LUDII: ClassVar[Rules]
    """The rules of Ludii 1.3's Agon.lud."""
    OPTIONS: ClassVar[List[str]]
    """The option names of the text form, in its order."""
    PRESET_NAMES: ClassVar[List[str]]
    """The preset names of the text form."""
    MAX_LIMIT: ClassVar[int]
    """The largest move limit (V9): 100000 plies."""

    def __new__(
        cls,
        text: Optional[_RulesLike] = None,
        *,
        capture: Optional[str] = ...,
        between: Optional[str] = ...,
        guard_return: Optional[str] = ...,
        queen_return: Optional[str] = ...,
        queen_placer: Optional[str] = ...,
        empty_throne_ring: Optional[str] = ...,
        stuck: Optional[str] = ...,
        repetition: Optional[str] = ...,
        limit: _LimitLike = ...,
    ) -> Rules:
        """The rules of `text` (a preset with options, or a `Rules`; the standard rules if
        omitted), with the options given as keywords replaced (see `replace`)."""
    @staticmethod
    def standard() -> Rules:
        """The standard rules (R1-R12), as `Rules()` and `Rules.STANDARD`."""
    @staticmethod
    def ludii() -> Rules:
        """The rules of Ludii 1.3's Agon.lud, as `Rules("ludii")` and `Rules.LUDII`: a stuck
        side passes and two passes draw, no draw by repetition, a draw after 2500 plies."""
    @staticmethod
    def presets_and_variants(limit: int = 300) -> List[Rules]:
        """The rule sets a study of the variants compares: the presets, then every
        single-option variant of the standard rules, in `Rules.OPTIONS` order, the move
        limit at `limit` plies (1 to `Rules.MAX_LIMIT`, else `ValueError`)."""
    @staticmethod
    def parse(text: str) -> Rules:
        """Parses the text form (`"ludii"`, `"standard+capture=same-ring"`), raising
        `ParseError`."""
    @staticmethod
    def values() -> Dict[str, List[str]]:
        """The values each option may take (the limit: `"none"` or a number of plies), by
        option name of the text form, the standard value first."""
    def replace(
        self,
        *,
        capture: Optional[str] = ...,
        between: Optional[str] = ...,
        guard_return: Optional[str] = ...,
        queen_return: Optional[str] = ...,
        queen_placer: Optional[str] = ...,
        empty_throne_ring: Optional[str] = ...,
        stuck: Optional[str] = ...,
        repetition: Optional[str] = ...,
        limit: _LimitLike = ...,
    ) -> Rules:
        """The same rules with the options given as keywords replaced: a value's name as a str
        (`capture="same-ring"`), and for `limit` a number of plies (1 to `MAX_LIMIT`), or
        `None` for no limit. Raises `ParseError` for an unknown value or a limit out of
        range, `TypeError` for a value of the wrong type."""
    @property
    def capture(self) -> Literal["any", "same-ring"]:
        """V1, which lines capture: `"any"` (standard) or `"same-ring"`."""
    @property
    def between(self) -> Literal["forbidden", "allowed", "trapped"]:
        """V2, a step between two enemy pieces: `"forbidden"` (standard), `"allowed"` or
        `"trapped"`."""
    @property
    def guard_return(self) -> Literal["outer", "next-ring"]:
        """V3, where a captured guard returns: `"outer"` (standard) or `"next-ring"`."""
    @property
    def queen_return(self) -> Literal["any", "not-throne"]:
        """V4, where a captured queen returns: `"any"` (standard) or `"not-throne"`."""
    @property
    def queen_placer(self) -> Literal["owner", "captor"]:
        """V5, who places a returning queen: `"owner"` (standard) or `"captor"`."""
    @property
    def empty_throne_ring(self) -> Literal["loses", "draw"]:
        """V6, guards on the throne ring without their queen on the throne: `"loses"`
        (standard) or `"draw"`."""
    @property
    def stuck(self) -> Literal["loses", "pass"]:
        """V7, a side with no legal action: `"loses"` (standard) or `"pass"`."""
    @property
    def repetition(self) -> Literal["third", "off"]:
        """V8, the draw by repetition: `"third"` (standard) or `"off"`."""
    @property
    def limit(self) -> Optional[int]:
        """V9, the move limit in plies (a draw after that many actions), or `None`."""
    @property
    def preset(self) -> Optional[str]:
        """The name of the preset these rules are (`"standard"`, `"ludii"`), or `None`."""
    @property
    def is_standard(self) -> bool:
        """Whether these are the standard rules."""
    def to_text(self) -> str:
        """The canonical text form."""
    def to_dict(self) -> Dict[str, Union[str, int, None]]:
        """Every option's value by its name in the text form (`"guard-return"`...), in
        `OPTIONS` order; the limit as an int or `None`."""
    def __eq__(self, other: object, /) -> bool:
        """Whether `other` is the same rule set."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` is another rule set."""
    def __hash__(self) -> int:
        """A hash of the rule set."""
    def __reduce__(self) -> Tuple[Type[Rules], Tuple[str]]:
        """Pickles as the canonical text."""
    def __copy__(self) -> Rules:
        """Itself: the value is immutable."""
    def __deepcopy__(self, _memo: Any) -> Rules:
        """Itself: the value is immutable."""

@final
class Outcome:
    """How a game ended: the `winner` (`None` for a draw) and the `reason`: `"throne"`,
    `"ring-without-queen"` (a draw under `empty_throne_ring="draw"`), `"no-legal-action"`,
    `"repetition"`, `"two-passes"` or `"move-limit"` (always draws)."""

    def __new__(cls, winner: Optional[Side], reason: str) -> Outcome:
        """An outcome: `Outcome(Side.WHITE, "throne")`, or `Outcome(None, "repetition")`.
        Repetition, two passes and the move limit are draws (winner `None`); the throne and
        no legal action have a winner; the ring without the queen either (a draw under
        `empty_throne_ring="draw"`)."""
    @property
    def winner(self) -> Optional[Side]:
        """The side that won, or `None` for a draw."""
    @property
    def reason(self) -> _EndReason:
        """Why the game ended: `"throne"`, `"ring-without-queen"`, `"no-legal-action"`,
        `"repetition"`, `"two-passes"` or `"move-limit"`."""
    @property
    def score(self) -> str:
        """The result as records write it: `"1-0"`, `"0-1"` or `"1/2-1/2"`."""
    @property
    def is_draw(self) -> bool:
        """Whether the game was drawn."""
    def __eq__(self, other: object, /) -> bool:
        """Whether `other` has the same winner and reason."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` differs in winner or reason."""
    def __hash__(self) -> int:
        """A hash of the outcome."""
    def __reduce__(self) -> Tuple[Type[Outcome], Tuple[Optional[Side], str]]:
        """Pickles as the winner and the reason."""
    def __copy__(self) -> Outcome:
        """Itself: the value is immutable."""
    def __deepcopy__(self, _memo: Any) -> Outcome:
        """Itself: the value is immutable."""

@final
class Symmetry:
    """One of the twelve symmetries of the board: a mirror through the f file (if
    `is_mirror`), then a clockwise rotation by `rotation` sixths of a turn. Numbered 0-11
    as `rotation + 6 * mirror`; 0 is the identity, 3 the half turn. Colours are not
    swapped."""

    def __new__(cls, index: int) -> Symmetry:
        """The symmetry with this number (0-11)."""
    @staticmethod
    def from_rotation(rotation: int, mirror: bool = False) -> Symmetry:
        """The symmetry that mirrors (if `mirror`), then rotates clockwise by `rotation`
        sixths of a turn (any int: taken modulo 6, so -1 is 5)."""
    @staticmethod
    def all() -> List[Symmetry]:
        """All twelve symmetries, by number."""
    @property
    def index(self) -> int:
        """The number, `rotation + 6 * mirror`."""
    @property
    def rotation(self) -> int:
        """The clockwise rotation in sixths of a turn."""
    @property
    def is_mirror(self) -> bool:
        """Whether the symmetry mirrors the board."""
    def cell(self, cell: _CellLike) -> Cell:
        """The image of a cell."""
    def move(self, move: _MoveLike) -> Move:
        """The image of a move (given as a `Move` or a step or return text)."""
    def position(self, position: Position) -> Position:
        """The image of a position."""
    def inverse(self) -> Symmetry:
        """The symmetry that undoes this one."""
    def then(self, then: Symmetry) -> Symmetry:
        """The symmetry that applies this one, then `then`."""
    def __int__(self) -> int:
        """The number, 0-11."""
    def __eq__(self, other: object, /) -> bool:
        """Whether `other` is the same symmetry."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` is not the same symmetry."""
    def __lt__(self, other: Symmetry, /) -> bool:
        """Compares by number."""
    def __le__(self, other: Symmetry, /) -> bool:
        """Compares by number."""
    def __gt__(self, other: Symmetry, /) -> bool:
        """Compares by number."""
    def __ge__(self, other: Symmetry, /) -> bool:
        """Compares by number."""
    def __hash__(self) -> int:
        """A hash of the symmetry."""
    def __reduce__(self) -> Tuple[Type[Symmetry], Tuple[int]]:
        """Pickles as the symmetry's number."""
    def __copy__(self) -> Symmetry:
        """Itself: the value is immutable."""
    def __deepcopy__(self, _memo: Any) -> Symmetry:
        """Itself: the value is immutable."""

@final
class Position:
    """A position: where every piece stands, which are captured, and who is to move.

    `Position()` is the start; `Position(text)` parses the one-line text form
    (`"Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"`). Every position
    carries its rule set (`rules`, the standard rules unless `rules=` says otherwise; the
    text does not hold it), which its moves, captures, returns and end follow. Positions are
    immutable: `play(move)` returns the next position. They compare by value (the rules
    included) and hash by their pieces; `str()` draws the board and `repr()` gives the text
    (and the rules, when not standard)."""

    def __new__(cls, text: Optional[str] = None, rules: Optional[_RulesLike] = None) -> Position:
        """The start position, or the position of a text, under `rules` (a `Rules` or its
        text; the standard rules if omitted)."""
    @staticmethod
    def start(rules: Optional[_RulesLike] = None) -> Position:
        """The start position (White to move) under `rules` (the standard rules if omitted)."""
    @staticmethod
    def from_text(text: str, rules: Optional[_RulesLike] = None) -> Position:
        """Parses the one-line text form under `rules` (the text does not carry them; the
        standard rules if omitted), raising `ParseError`."""
    @property
    def rules(self) -> Rules:
        """The rule set the position follows (its moves, captures, returns and end)."""
    def with_rules(self, rules: _RulesLike) -> Position:
        """The same pieces and side to move under other rules (a `Rules` or its text); raises
        `InvalidPositionError` (reason `"captured-both-sides"`) when both sides hold
        captured pieces and the new rules do not trap (`between` other than `"trapped"`)."""
    @property
    def chooser(self) -> Side:
        """The side that chooses the next action: the side to move, except under
        `queen_placer="captor"` when it must return its captured queen: its opponent then
        chooses where she goes (the turn is still the owner's). Bots and environments name
        it "the player to act"."""
    @staticmethod
    def from_pieces(
        pieces: Mapping[Any, _PieceLike],
        turn: Side = ...,
        captured: Optional[Iterable[_CellLike]] = None,
        rules: Optional[_RulesLike] = None,
    ) -> Position:
        """Builds a position from a mapping of cells to pieces (`{"f1": "Q", ...}` or `Cell`
        and `Piece` objects; at most 91 entries), the side to move and the captured cells
        (an iterable of at most 91); raises `InvalidPositionError` for what no game can
        reach under `rules` (the standard rules if omitted)."""
    def to_text(self) -> str:
        """The one-line text form."""
    @property
    def turn(self) -> Side:
        """The side to move."""
    @property
    def zobrist_hash(self) -> int:
        """The 64-bit Zobrist hash (stable across runs and platforms)."""
    def with_turn(self, turn: Side) -> Position:
        """The same position with `turn` to move (a null move, for analysis)."""
    def piece_at(self, cell: _CellLike) -> Optional[Piece]:
        """The piece on `cell` (captured or not), or `None`."""
    def pieces(self) -> Dict[Cell, Piece]:
        """Every piece by its cell, in cell index order."""
    def queen(self, side: Side) -> Cell:
        """The cell of `side`'s queen."""
    def guards(self, side: Side) -> List[Cell]:
        """The cells of `side`'s guards (captured or not)."""
    def pieces_of(self, side: Side) -> List[Cell]:
        """The cells of `side`'s pieces (captured or not)."""
    def occupied(self) -> List[Cell]:
        """The cells holding a piece."""
    def empty(self) -> List[Cell]:
        """The empty cells."""
    def captured(self) -> List[Cell]:
        """The cells of the captured pieces (all of one side, except under
        `between="trapped"`)."""
    @property
    def captured_side(self) -> Optional[Side]:
        """The side whose pieces are captured, if any (under `between="trapped"`, where both
        may be, the side to move if it has some)."""
    def is_captured(self, cell: _CellLike) -> bool:
        """Whether the piece on `cell` is captured."""
    def forbidden_cells(self, side: Side) -> List[Cell]:
        """The cells between two opponent pieces on a line (R4): those `side` may not step to
        under the standard `between="forbidden"` (under `"trapped"`, a step there traps the
        stepping piece unless it captures; under `"allowed"` they are no different)."""
    def must_return(self) -> bool:
        """Whether the side to move must return a captured piece instead of stepping."""
    def legal_moves(self) -> List[Move]:
        """The legal moves, steps by the cell moved from then the cell moved to (returns
        alike); empty when the game is over."""
    def legal_moves_from(self, cell: _CellLike) -> List[Move]:
        """The legal moves of the piece on `cell`."""
    def count_legal_moves(self) -> int:
        """The number of legal moves."""
    def has_legal_move(self) -> bool:
        """Whether the side to move has a legal move."""
    def parse_move(self, text: str) -> Move:
        """Reads a move in any form: a step `"f1-e1"`, a return `"f4>l1"`, or a pair `"f1e1"`
        (a return when the piece on its first cell is captured). Not checked for legality."""
    def is_legal(self, move: _MoveLike) -> bool:
        """Whether `move` (a `Move` or its text) is legal."""
    def check_move(self, move: _MoveLike) -> None:
        """Raises `IllegalMoveError` with the reason if `move` is illegal; returns `None` if it
        is legal."""
    def play(self, move: _MoveLike) -> Position:
        """The next position after `move` (a `Move` or its text); raises `IllegalMoveError`."""
    def captures(self, move: _MoveLike) -> List[Cell]:
        """The cells of the pieces that the legal `move` captures (empty for a return); raises
        `IllegalMoveError` if it is illegal."""
    def traps(self, move: _MoveLike) -> bool:
        """Whether the legal `move` traps the piece that steps (under `between="trapped"`: a
        step between two enemy pieces that captures nothing); raises `IllegalMoveError` if
        it is illegal."""
    def outcome(self) -> Optional[Outcome]:
        """The end of the game in this position (throne ring, then no legal action), or
        `None`. Repetition, two passes and the move limit need a game's history: see
        `Game.outcome()`."""
    def is_over(self) -> bool:
        """Whether the game is over in this position."""
    def throne_ring_side(self) -> Optional[Side]:
        """The side whose guards hold all six ring-1 cells, if one does."""
    def perft(self, depth: int, rules: Optional[_RulesLike] = None) -> int:
        """The number of leaves of the tree of legal moves `depth` plies deep (0 to
        `agon.MAX_PERFT_DEPTH`; computed without holding the GIL), under the position's
        rules or `rules` if given (passes count; repetition, two passes and the move limit
        do not apply)."""
    def perft_divide(self, depth: int) -> Dict[Move, int]:
        """perft split by the first move: a dict from each legal move to its leaves, which
        sum to `perft(depth)`. `depth` is 1 to `agon.MAX_PERFT_DEPTH`: perft(0) = 1 counts
        the position itself, which has no first move to split by."""
    def transform(self, symmetry: Symmetry) -> Position:
        """The image of the position under a symmetry."""
    def symmetries(self) -> List[Position]:
        """The twelve images of the position, by symmetry number."""
    def canonical(self) -> Tuple[Position, Symmetry]:
        """The canonical image among the twelve and the symmetry that gives it."""
    def legal_actions(self) -> npt.NDArray[np.int64]:
        """The legal actions (see `agon.ACTION_COUNT`), ascending, as an int64 array, in the
        action space of the position's rules (`agon.action_count(rules)`: the pass is
        `agon.PASS_ACTION`)."""
    def action_mask(self) -> npt.NDArray[np.bool_]:
        """The mask of legal actions: a bool array of `agon.action_count(self.rules)` entries
        (`agon.ACTION_COUNT` under the standard rules)."""
    def observation(self, axial: bool = False) -> npt.NDArray[np.float32]:
        """The observation planes from the side to move's view, float32: shape (11, 91), or
        (11, 11, 11) with `axial=True` (see `agon.OBSERVATION_CHANNELS`)."""
    def observation_axial(self) -> npt.NDArray[np.float32]:
        """The observation in the axial (11, 11, 11) layout."""
    def action_to_move(self, action: int) -> Move:
        """The move an action stands for here (not checked for legality)."""
    def play_action(self, action: int) -> Position:
        """The next position after an action; raises `IllegalMoveError`."""
    def __eq__(self, other: object, /) -> bool:
        """Whether `other` is the same position (pieces, captures, side to move and rules)."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` is not the same position."""
    def __hash__(self) -> int:
        """A hash of the position."""
    def __reduce__(self) -> Tuple[Type[Position], Tuple[str, str]]:
        """Pickles as the position's text and its rules' text, parsed (and so checked) again
        on load."""
    def __copy__(self) -> Position:
        """Itself: the value is immutable."""
    def __deepcopy__(self, _memo: Any) -> Position:
        """Itself: the value is immutable."""
    def _repr_svg_(self) -> str:
        """The board as SVG, for notebooks (see `agon.svg`)."""

@final
class Game:
    """A game: the positions from a start, the moves between them, and how it ended.

    `Game()` starts from the start position; `Game(start, moves)` from any position (or its
    text), playing the moves given (`Move`s or texts); `Game(rules="ludii")` under a rule
    set (a `Rules` or its text; else the start position's, standard for a text). A game
    knows what a lone position cannot: the draw by repetition (the third occurrence of a
    position), by two passes in a row and by the move limit, as its rules say. `push`/`play`
    plays a move, `pop`/`undo` takes one back; a failed call leaves the game unchanged.
    `tags` holds a record's tag pairs and `result` its written result; `variations(ply)`
    the variations a record gave for a move of the game (kept while that move is, written
    back by `to_record`).

    Threads may share a game: its calls take turns. A finaliser that uses a game while a
    call on that game runs in the same thread gets `RuntimeError`, and changes nothing."""

    def __new__(
        cls,
        start: Optional[_PositionLike] = None,
        moves: Optional[Iterable[_MoveLike]] = None,
        rules: Optional[_RulesLike] = None,
    ) -> Game:
        """A game from `start` (a `Position`, its text, or the start position if omitted),
        playing `moves` (an iterable of `Move`s or texts, read one at a time; not one str),
        under `rules` (a `Rules` or its text; if omitted, those of a `Position` start, else
        the standard rules)."""
    @staticmethod
    def from_record(text: str) -> Game:
        """Parses and replays a game record (tags, numbered moves with their variations,
        result); raises `ParseError` (reason `"illegal-move"` for an illegal move, with
        `move_reason`). The variations are kept (`variations(ply)`) and written back by
        `to_record`: reading a canonical record and writing it gives the same text."""
    def to_record(self) -> str:
        """The game record: tags, `Rules` (if not standard), `Position` (if not the standard
        start), `Result`, moves with their variations."""
    def variations(self, ply: int) -> List[Variation]:
        """The variations a record gave instead of move `ply` of the game (from 0), in their
        order: a list of `Variation`s, empty if none. Raises `IndexError` if the game has
        no move `ply`."""
    @property
    def tags(self) -> Dict[str, str]:
        """The tag pairs of the record (a dict of str to str, kept in order)."""
    @tags.setter
    def tags(self, tags: Dict[str, str]) -> None:
        """Replaces the tag pairs (a dict of str to str)."""
    @property
    def result(self) -> str:
        """The result: `"1-0"`, `"0-1"`, `"1/2-1/2"` when the game is over; else `"*"` or a
        result set by hand (a resignation or an agreement), cleared by the next move."""
    @result.setter
    def result(self, result: str) -> None:
        """Sets the written result: `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"` (kept only while the game goes on)."""
    @property
    def position(self) -> Position:
        """The current position."""
    @property
    def rules(self) -> Rules:
        """The rule set the game follows."""
    @property
    def chooser(self) -> Side:
        """The side that chooses the next action (see `Position.chooser`)."""
    @property
    def start(self) -> Position:
        """The position the game started from."""
    @property
    def turn(self) -> Side:
        """The side to move."""
    @property
    def moves(self) -> List[Move]:
        """The moves played so far."""
    @property
    def positions(self) -> List[Position]:
        """Every position of the game, the start first and the current one last."""
    @property
    def last_move(self) -> Optional[Move]:
        """The last move played, or `None` at the start."""
    @property
    def ply(self) -> int:
        """The number of moves played."""
    def __len__(self) -> int:
        """The number of moves played."""
    def legal_moves(self) -> List[Move]:
        """The legal moves: empty once the game is over (repetition included)."""
    def is_legal(self, move: _MoveLike) -> bool:
        """Whether `move` is legal now (false once the game is over)."""
    def push(self, move: _MoveLike) -> List[Cell]:
        """Plays `move` (a `Move` or its text), returning the cells of the pieces it
        captured; raises `IllegalMoveError` (reason `"game-over"` after the end), leaving
        the game unchanged."""
    def play(self, move: _MoveLike) -> List[Cell]:
        """The same as `push`."""
    def push_action(self, action: int) -> List[Cell]:
        """Plays an action (see `agon.ACTION_COUNT`), returning the captured cells."""
    def pop(self) -> Move:
        """Takes back the last move and returns it; raises `IndexError` at the start."""
    def undo(self) -> Optional[Move]:
        """Takes back the last move and returns it, or returns `None` at the start."""
    def restart(
        self, start: Optional[_PositionLike] = None, rules: Optional[_RulesLike] = None
    ) -> None:
        """Starts again from `start` (the start position if omitted), keeping the tags, under
        `rules` if given (else those of a `Position` start, or the game's own for a text or
        no start)."""
    def outcome(self) -> Optional[Outcome]:
        """How the game ended, or `None` while it goes on."""
    def is_over(self) -> bool:
        """Whether the game is over."""
    def repetitions(self) -> int:
        """How many times the current position has occurred (1 the first time)."""
    def legal_actions(self) -> npt.NDArray[np.int64]:
        """The legal actions now, ascending (empty once the game is over)."""
    def action_mask(self) -> npt.NDArray[np.bool_]:
        """The mask of legal actions now (all false once the game is over)."""
    def observation(self, axial: bool = False) -> npt.NDArray[np.float32]:
        """The observation planes of the current position (see `Position.observation`)."""
    def copy(self) -> Game:
        """A copy of the game (tags included)."""
    def __copy__(self) -> Game:
        """A copy of the game, as `copy()`."""
    def __deepcopy__(self, _memo: Any) -> Game:
        """A copy of the game, as `copy()` (moves, positions and tags are values)."""
    def __reduce__(
        self,
    ) -> Tuple[Type[Game], Tuple[str, List[str], str], Tuple[Dict[str, str], str, str]]:
        """Pickles as the start position's text, the moves' texts, the rules' text, and the
        tags, the result and the variations (the record's text if there are any, else "")."""
    def __setstate__(
        self, state: Union[Tuple[Dict[str, str], str], Tuple[Dict[str, str], str, str]]
    ) -> None:
        """Restores the tags, the result and the variations of a pickled game (see
        `__reduce__`; a state of two items, tags and result, has no variations)."""
    def __eq__(self, other: object, /) -> bool:
        """Games are equal when they start from the same position under the same rules and
        play the same moves."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` differs in its start or its moves."""
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def _repr_svg_(self) -> str:
        """The current position as SVG with the last move marked, for notebooks (see `agon.svg`)."""

# The dtypes are chosen when the VecEnv is made: float32 or uint8 observations, bool or
# bit-packed (uint8) masks.
_Observations = npt.NDArray[Union[np.float32, np.uint8]]
_Masks = npt.NDArray[Union[np.bool_, np.uint8]]
_StepResult = Tuple[_Observations, npt.NDArray[np.float32], npt.NDArray[np.bool_], _Masks]

@final
class Variation:
    """A variation of a game record: moves played instead of a move of the line it branches
    from (the position before that move is its start), each move with the variations that
    replace it in turn. A record's variations come from `Game.from_record` and are read
    with `Game.variations(ply)`; `moves` are the variation's moves, `variations(i)` those
    that replace its move `i`."""

    @property
    def moves(self) -> List[Move]:
        """The variation's moves, in order (a list of `Move`s, never empty)."""
    def variations(self, i: int) -> List[Variation]:
        """The variations that replace move `i` of this one (from 0): a list of
        `Variation`s, empty if none. Raises `IndexError` if it has no move `i`."""

@final
class VecEnv:
    """A batch of `n` games for reinforcement learning, stepped by action numbers on every
    core.

    `VecEnv(n, seed=0, axial=False, start=None, *, threads=None, obs_dtype=None,
    packed_masks=False, rules=None)`: `n` is 1 to `agon.MAX_ENVS`; the games are played
    under `rules` (a `Rules` or its text; by default those of a `Position` start, else the
    standard rules). `step(actions)` plays one action in every game and returns
    `(observations, rewards, terminations, masks)`:

    - `observations`: float32 `(n, 11, 91)`, or `(n, 11, 11, 11)` with `axial=True`: each
      game's next position from the view of its player to act (`Position.observation`;
      `player_to_act(i)`, the chooser: the side to move but for a queen placed by her
      captor under `queen-placer=captor`); uint8
      with `obs_dtype=numpy.uint8` (the same 0s and 1s in a quarter of the memory);
    - `rewards`: float32 `(n,)`: +1 if the action won the game for the player that chose
      it, -1 if it lost it (a ring of guards without the queen on the throne), 0 otherwise
      (draws included);
    - `terminations`: bool `(n,)`: whether the action ended the game;
    - `masks`: the legal actions of the next position: bool `(n, action_count)` (the
      rules' `agon.action_count(rules)`: `ACTION_COUNT` under the standard rules); or with
      `packed_masks=True`, uint8 `(n, packed_mask_bytes)` (`PACKED_MASK_BYTES` but under
      `guard-return=next-ring`), bit-packed as `numpy.packbits` packs them (action `a` is
      bit `7 - a % 8` of byte `a // 8`, the padding bits are 0 but for the pass), which
      `agon.unpack_masks(masks, rules)`, that is
      `numpy.unpackbits(masks, axis=-1, count=action_count).view(bool)`, unpacks.

    `actions` is a 1-dimensional array of shape `(n,)` of any numpy integer dtype (any
    width and sign, either byte order), or a sequence of `n` Python ints. Anything else is
    refused before any game changes: `TypeError` for a dtype that is not an integer (bool,
    float, complex, str, object, datetime and timedelta included) and for masked arrays
    (their mask would be ignored), `ValueError` for a wrong shape, and `IllegalMoveError`
    (with `env` and `action` of the first game refused, and the reason `"illegal-action"`,
    or `"no-such-action"` for a number that names no move) when an action is not legal in
    its game.

    A game that ends is started again at once (from `start`): its observation and mask
    are those of the new game. Pass `out=(observations, rewards, terminations, masks)`,
    writeable C-contiguous numpy arrays of exactly those shapes and dtypes that share no
    memory, to have them filled in place instead of allocated; they are all checked before
    anything is written or any game changes.

    The work runs without the GIL, on `threads` threads (the calling one included). The
    results do not depend on their number: game `i` draws its random actions from its own
    generator, seeded from `seed` and `i`. Threads that share a `VecEnv` take turns (a call
    waits for the one running). For the draw by repetition a game keeps its moves and a
    table of its positions' fingerprints (11 to 22 bytes a ply, about a tenth of what a
    `Game` holds: see agon-rl's `vecenv` module), and it ends exactly when a `Game` would."""

    def __new__(
        cls,
        n: int,
        seed: int = 0,
        axial: bool = False,
        start: Optional[_PositionLike] = None,
        *,
        threads: Optional[int] = None,
        obs_dtype: Optional[npt.DTypeLike] = None,
        packed_masks: bool = False,
        rules: Optional[_RulesLike] = None,
    ) -> VecEnv:
        """`n` games (1 to `agon.MAX_ENVS`) from `start` (the start position by default; not
        a decided one); `seed` seeds `random_actions`; `axial` selects the (11, 11, 11)
        observation layout; `threads` (1 to 256, all cores by default) step the batch;
        `obs_dtype` is `numpy.float32` (the default) or `numpy.uint8`; `packed_masks`
        packs the masks 8 actions a byte; `rules` (a `Rules` or its text) is the rule set
        of the games if given, else that of `start` (standard for a text or no start)."""
    @property
    def num_envs(self) -> int:
        """The number of games."""
    def __len__(self) -> int:
        """The number of games."""
    @property
    def observation_shape(self) -> Tuple[int, ...]:
        """The shape of one game's observation."""
    @property
    def obs_dtype(self) -> np.dtype[Union[np.float32, np.uint8]]:
        """The dtype of the observations: `numpy.float32` or `numpy.uint8`."""
    @property
    def packed_masks(self) -> bool:
        """Whether the masks are bit-packed (uint8, 8 actions a byte) rather than one bool
        per action."""
    @property
    def mask_shape(self) -> Tuple[int]:
        """The shape of one game's mask: `(action_count,)`, or `(packed_mask_bytes,)` when
        packed (`(ACTION_COUNT,)` and `(PACKED_MASK_BYTES,)` under the standard rules)."""
    @property
    def rules(self) -> Rules:
        """The rule set of the games."""
    @property
    def packed_mask_bytes(self) -> int:
        """The bytes of a game's bit-packed mask: `agon.packed_mask_bytes(self.rules)`."""
    def player_to_act(self, i: int) -> Side:
        """The player to act in game `i` (0 to `n - 1`, else `IndexError`): the side that
        chooses its next action (`Position.chooser`), whose view the observation takes and
        whose reward the next step gives."""
    def players_to_act(self) -> npt.NDArray[np.int8]:
        """The players to act of every game, as an int8 array of shape `(n,)`: 0 where White
        chooses the next action, 1 where Black does (`player_to_act`)."""
    @property
    def threads(self) -> int:
        """The number of threads that step the batch (the calling one included)."""
    @property
    def action_count(self) -> int:
        """The number of actions of the games' rule set (`agon.action_count(self.rules)`; the
        width of a bool mask)."""
    def reset(
        self, seed: Optional[int] = None, out: Optional[Tuple[_Observations, _Masks]] = None
    ) -> Tuple[_Observations, _Masks]:
        """Starts every game again (reseeding `random_actions` if `seed` is given) and
        returns `(observations, masks)`; `out=(observations, masks)` fills arrays in place.
        The arrays are checked before anything changes."""
    def observe(
        self, out: Optional[Tuple[_Observations, _Masks]] = None
    ) -> Tuple[_Observations, _Masks]:
        """The current `(observations, masks)`; `out=(observations, masks)` fills arrays in
        place."""
    def step(
        self, actions: npt.ArrayLike, out: Optional[_StepResult] = None
    ) -> _StepResult:
        """Plays one action in every game: `actions` of shape `(n,)` and an integer dtype
        (see the class and the package's "Contract")."""
    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for every game (int64 `(n,)`): game `i`'s from its
        own generator, seeded from `seed` and `i`."""
    def position(self, i: int) -> Position:
        """The current position of game `i` (0 to `n - 1`, else `IndexError`)."""
    def game(self, i: int) -> Game:
        """A copy of game `i` since its last start (0 to `n - 1`, else `IndexError`)."""

class _PlayoutStats(TypedDict):
    games: int
    plies: int
    plies_mean: float
    plies_median: float
    plies_min: int
    plies_max: int
    white_wins: int
    black_wins: int
    draws: int
    capped: int
    reasons: Dict[str, int]
    lengths: Dict[int, int]

def perft(position: _PositionLike, depth: int, rules: Optional[_RulesLike] = None) -> int:
    """The number of leaves of the tree of legal moves from `position`, `depth` plies deep
    (0 to `MAX_PERFT_DEPTH`), computed without holding the GIL, under `rules` (a `Rules`
    or its text) if given, else the position's (standard for a text). Passes count;
    repetition, two passes and the move limit belong to games and do not apply."""
def random_playouts(
    n: int,
    seed: int = 0,
    start: Optional[_PositionLike] = None,
    threads: Optional[int] = None,
    *,
    rules: Optional[_RulesLike] = None,
    max_plies: Optional[int] = None,
) -> _PlayoutStats:
    """Plays `n` games (0 to `MAX_RANDOM_PLAYOUTS`) of uniformly random legal moves from
    `start` (the start position by default), on `threads` threads (1 to 256; all cores by
    default), without holding the GIL, and returns their statistics: `games`, `plies`
    (total), `plies_mean`, `plies_median`, `plies_min`, `plies_max`, `white_wins`,
    `black_wins`, `draws`, `capped` (the games stopped at `max_plies` before they ended),
    `reasons` (a dict from each end reason to its count) and `lengths` (a dict from each
    length that occurred, in plies, to its number of games). Game `k` draws its moves from
    its own generator, seeded from `seed` and `k` (Rust's `agon_rl::game_rng`), so the same
    seed gives the same games on any number of threads, in Python and in Rust
    (`agon_rl::random_playouts_capped`, which computes these statistics). The games are
    played under `rules` (a `Rules` or its text) if given, else those of `start` (standard
    for a text or no start). `max_plies` (1 or more; None for no cap) stops a game that has
    not ended after that many moves: give it for rule sets where a game need not end
    (`repetition=off` without a `limit`); a capped game counts in `games`, `plies` and the
    lengths, not as a win, a draw or a reason."""
def unpack_masks(
    packed: npt.NDArray[Any], rules: Optional[_RulesLike] = None
) -> npt.NDArray[np.bool_]:
    """Unpacks bit-packed masks (`VecEnv(..., packed_masks=True)`): a uint8 numpy array of
    shape `(..., packed_mask_bytes(rules))` into a bool array of shape `(...,
    action_count(rules))` (`rules` a `Rules` or its text, standard by default: then
    `(..., PACKED_MASK_BYTES)` into `(..., ACTION_COUNT)`), the same as
    `numpy.unpackbits(packed, axis=-1, count=action_count(rules)).view(bool)`: action `a`
    is bit `7 - a % 8` of byte `a // 8`, and the bits after the last action are ignored.
    Raises `TypeError` for anything but a uint8 array (masked arrays included) and
    `ValueError` for another last dimension."""
def move_to_action(move: _MoveLike, position: Optional[_PositionLike] = None) -> int:
    """The action of a move (see `agon.ACTION_COUNT`; the pass is `agon.PASS_ACTION`). Needs
    no position but under `guard-return=next-ring`, where a guard's return to an inner cell
    has its own action (from `agon.NEXT_RING_RETURN_BASE`): give the `position` it is
    played in (a `Position` or its text) to number it in the action space of that
    position's rules. Raises `IllegalMoveError` for a step between cells that are not
    adjacent."""
def action_to_move(position: _PositionLike, action: int) -> Move:
    """The move an action stands for in `position` (not checked for legality), in the action
    space of the position's rules; raises `IllegalMoveError` (reason `"no-such-action"`)
    for a number out of that range or a step off the board."""
def action_count(rules: Optional[_RulesLike] = None) -> int:
    """The number of actions of a rule set (`rules` a `Rules` or its text; standard by
    default), the width of its masks: `ACTION_COUNT` (3337), 3338 under `stuck=pass` (the
    pass, `PASS_ACTION`), `MAX_ACTION_COUNT` (8889) under `guard-return=next-ring`."""
def packed_mask_bytes(rules: Optional[_RulesLike] = None) -> int:
    """The bytes of a bit-packed mask of a rule set (`rules` a `Rules` or its text; standard
    by default): `PACKED_MASK_BYTES` (418, the pass in its padding), 1112 under
    `guard-return=next-ring`."""
def action_symmetries(rules: Optional[_RulesLike] = None) -> npt.NDArray[np.int64]:
    """The action maps of the twelve symmetries: an int64 array of shape
    (12, action_count(rules)) (`rules` standard by default: (12, ACTION_COUNT)) whose row
    `s` maps each action to its image under symmetry `s` (the pass is its own image)."""
def cell_symmetries() -> npt.NDArray[np.int64]:
    """The cell maps of the twelve symmetries: an int64 array of shape (12, 91) whose row `s`
    maps each cell index to the index of its image under symmetry `s`."""
def axial_coordinates() -> npt.NDArray[np.int64]:
    """The (row, column) of each cell in the axial (11, 11) layout of observations: an int64
    array of shape (91, 2), with row = r + 5 and column = q + 5 for cube coordinates
    (q, r, s)."""
def svg(
    position: Union[Position, Game],
    *,
    size: Optional[int] = 400,
    last_move: Union[Move, str, None] = None,
    arrows: Iterable[_ArrowLike] = (),
    flipped: bool = False,
    coordinates: bool = True,
) -> str:
    """Draws a position (or a game's current position) as SVG text.

    - ``size``: the width in pixels (the height follows the board's shape); ``None``
      leaves the size to the container.
    - ``last_move``: a move (``Move`` or text) whose two cells are highlighted; for a
      ``Game`` it defaults to the game's last move.
    - ``arrows``: moves, texts or ``(from, to)`` pairs of cells to draw as arrows.
    - ``flipped``: turn the board half round (Black at the bottom).
    - ``coordinates``: write each empty cell's name in it.

    Raises ``TypeError`` for an argument of the wrong type, ``ValueError`` for a size that
    is not 1 to 100000 (``agon.MAX_SVG_SIZE``) or more than ``agon.MAX_ARROWS`` arrows,
    ``ParseError`` for a move or cell text that does not parse, and
    ``IllegalMoveError`` for a step between cells that are not adjacent. Moves are not
    otherwise checked against the position. The drawing is the Rust crate agon-svg's, the
    same as the web game's."""

def opening_book(rules: Optional[_RulesLike] = None) -> List[Position]:
    """The opening book of agon-bots (`agon_bots::book::standard`): 300 varied, balanced
    start positions (a few plies in, nothing captured, not over), in file order, under
    `rules` (a `Rules` or its text; the standard rules if omitted). Arena matches play
    each twice, colours swapped."""

@disjoint_base
class Bot:
    """A bot: `choose(position_or_game)` returns a legal move, or `None` when there is none.

    Build one with `agon.bots.Random(seed)`, `Greedy(seed)`, `MCTS(playouts, seed)`,
    `AlphaBeta(depth, seed)` or `Bot.from_name("mcts:500", seed)`. A bot is deterministic
    under its seed unless given a time limit. Given a `Game`, a bot sees its history (and so
    repetition); given a `Position`, only the position. Threads may share a bot: their
    searches take turns.

    A bot is its spec (`name`) and its `seed`: bots with both equal are equal (and hash
    alike), and a bot pickles and copies as `Bot.from_name(name, seed)`. A bot keeps
    nothing from one choice to the next (each depends only on its settings, its seed and
    what it is shown), so a copy or an unpickled bot chooses exactly what the original
    would, whatever the original chose before."""

    @staticmethod
    def from_name(spec: str, seed: int = 0) -> Bot:
        """A reference bot from its spec: `random`, `greedy`, `mcts:PLAYOUTS` or
        `alphabeta:DEPTH`, optionally followed by a time limit like `:500ms`; an instance of
        `Random`, `Greedy`, `MCTS` or `AlphaBeta`; or the network player
        `az:MODEL:VISITS[:noise][:tPLIES][:bBATCH][:cPERMILLE][:gK][:sPERMILLE]` (a `Bot`; MODEL a safetensors file of
        `agon.az` or a shipped network, `agon-az-2x32` or `agon-az-2x32-gumbel`); or a UGI engine process
        `ugi:[TIMEms:][nNODES:][dDEPTH:]COMMAND` (a `Bot`, see `agon.engine`). Raises `ValueError` for a spec it cannot
        read or out of the package's bounds, and for a model file that is missing, corrupt
        or of the wrong shape."""
    @property
    def name(self) -> str:
        """The bot's spec, like `"mcts:2000"` or `"alphabeta:5:500ms"`: every setting but the
        seed."""
    @property
    def seed(self) -> int:
        """The seed the bot was made with."""
    def choose(self, position: Union[Position, Game]) -> Optional[Move]:
        """Chooses a legal move in a `Position` or in the current position of a `Game`, or
        returns `None` when there is none. Thinks without holding the GIL. A UGI engine
        (a `ugi:` spec) that gives no legal move in time raises `RuntimeError` naming its
        forfeit (`crash`, `hang`, `time-forfeit`, `illegal-move`, `unreadable-move`)."""
    def __eq__(self, other: object, /) -> bool:
        """Whether `other` is a bot of the same spec (`name`) and `seed`."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` differs in spec or seed."""
    def __hash__(self) -> int:
        """A hash of the spec and the seed."""
    def __reduce__(self) -> Tuple[Any, Tuple[str, int]]:
        """Pickles as `Bot.from_name(name, seed)`, which reads (and so checks) the spec again
        on load. A copy is a new bot with the same settings."""

@final
class Random(Bot):
    """Plays a uniformly random legal move."""

    def __new__(cls, seed: int = 0) -> Random:
        """A random bot with this seed."""

@final
class Greedy(Bot):
    """Looks one ply ahead and plays the move whose result the evaluation likes best."""

    def __new__(cls, seed: int = 0) -> Greedy:
        """A greedy bot with this seed (for breaking ties)."""

@final
class MCTS(Bot):
    """Monte Carlo tree search (UCT) with `playouts` random playouts per move (1 to
    `agon.MAX_PLAYOUTS`), optionally stopped after `time_limit` seconds (0 to
    `agon.MAX_TIME_LIMIT`, rounded to the millisecond)."""

    def __new__(
        cls, playouts: int = 2000, seed: int = 0, time_limit: Optional[float] = None
    ) -> MCTS:
        """A bot of `playouts` playouts per move (1 to `agon.MAX_PLAYOUTS`), stopped after
        `time_limit` seconds if given (0 to `agon.MAX_TIME_LIMIT`)."""
    def choose_with_stats(self, position: Union[Position, Game]) -> Tuple[Move, Dict[int, int], float]:
        """Chooses a move as `choose` does, with the statistics of its search: returns `(move,
        visits, value)`. `visits` maps the action (`agon.move_to_action(move, position)`) of each move the
        search visited to its visit count, in the order of `legal_moves()`: the counts sum
        to the playouts run (`playouts`, unless the time limit stopped the search first),
        and the move is the most visited. `value` is the mean result of the playouts for
        the side to move, from -1 (all lost) to 1 (all won). Unlike `choose`, it searches
        also when a single move is legal. An `agon.data.StatsPlayer`: `agon.data.play_record`
        and `python -m agon.generate` record these statistics. Raises `ValueError` when the
        game is over. Thinks without holding the GIL."""

@final
class AlphaBeta(Bot):
    """Iterative-deepening alpha-beta search to `depth` plies (1 to `agon.MAX_DEPTH`),
    optionally stopped after `time_limit` seconds (0 to `agon.MAX_TIME_LIMIT`, rounded to
    the millisecond)."""

    def __new__(
        cls, depth: int = 5, seed: int = 0, time_limit: Optional[float] = None
    ) -> AlphaBeta:
        """A bot searching `depth` plies (1 to `agon.MAX_DEPTH`), stopped after
        `time_limit` seconds if given (0 to `agon.MAX_TIME_LIMIT`)."""
    def choose_with_stats(self, position: Union[Position, Game]) -> Tuple[Move, Dict[int, int], float]:
        """Chooses a move as `choose` does, with the statistics of its search: returns `(move,
        visits, value)`. `visits` is `{action: 1}` for the move chosen (an alpha-beta search
        ranks only its best move), `value` the search's score for the side to move as a
        value from -1 to 1 (`tanh(score / 300)`, ±1 for a forced win or loss). Unlike
        `choose`, it searches also when a single move is legal. An
        `agon.data.StatsPlayer`: `agon.data.play_record` and `python -m agon.generate`
        record these statistics (the targets of `agon.az.pretrain --value-target search`).
        Raises `ValueError` when the game is over, `RuntimeError` if the time limit stopped
        the first iteration. Thinks without holding the GIL."""

# --- The engine's analysis (agon.analyse).

@final
class Score:
    """A score for the side to move: `cp` centipoints (`Score(cp=123)`, shown `+1.23`), or a
    forced result: `win_in` N moves (`Score(win_in=2)`, shown `win in 2`: the side to move
    wins with its N-th move from now, whatever the opponent does) or `loss_in` N moves
    (the opponent wins with its N-th move). Exactly one of the three is set; the others
    are `None`. A score of `s` centipoints predicts an expected result of
    `1 / (1 + 10 ** (-s / 400))` for the side to move.

    Scores compare from worst to best: losses (later is better), then centipoints, then
    wins (sooner is better), so `max(scores)` is the best. They are immutable, hash, and
    pickle."""

    def __new__(
        cls, cp: Optional[int] = None, win_in: Optional[int] = None, loss_in: Optional[int] = None
    ) -> Score:
        """A score from exactly one of `cp` (centipoints, -2**31 to 2**31 - 1), `win_in` or
        `loss_in` (moves, 1 to 2**32 - 1)."""
    @property
    def cp(self) -> Optional[int]:
        """The score in centipoints, or `None` for a forced result."""
    @property
    def win_in(self) -> Optional[int]:
        """N when the side to move wins with its N-th move, else `None`."""
    @property
    def loss_in(self) -> Optional[int]:
        """N when the opponent wins with its N-th move, else `None`."""
    def __eq__(self, other: object, /) -> bool:
        """Whether `other` is the same score."""
    def __ne__(self, other: object, /) -> bool:
        """Whether `other` is another score."""
    def __lt__(self, other: Score, /) -> bool:
        """Compares from worst to best."""
    def __le__(self, other: Score, /) -> bool:
        """Compares from worst to best."""
    def __gt__(self, other: Score, /) -> bool:
        """Compares from worst to best."""
    def __ge__(self, other: Score, /) -> bool:
        """Compares from worst to best."""
    def __hash__(self) -> int:
        """A hash of the score."""
    def __reduce__(
        self,
    ) -> Tuple[Type[Score], Tuple[Optional[int], Optional[int], Optional[int]]]:
        """Pickles as `Score(cp, win_in, loss_in)`."""
    def __copy__(self) -> Score:
        """Itself: the value is immutable."""
    def __deepcopy__(self, _memo: Any) -> Score:
        """Itself: the value is immutable."""

@final
class AnalysisLine:
    """One line of an analysis (`agon.analyse`): its first move (`move`), its `score` for the
    side to move, and its principal variation `pv` (the move, then the expected
    continuation, possibly short); `multipv` is its rank, 1 for the best line. The search's
    statistics are the same on every line of one analysis: `depth` (the deepest iteration
    completed, 0 if none finished), `seldepth` (the deepest ply reached), `nodes`
    (positions visited, on all threads), `nps` (nodes per second) and `time` (seconds).
    Immutable."""

    @property
    def move(self) -> Move:
        """The first move of the line: the move the line is about."""
    @property
    def score(self) -> Score:
        """The score of the line for the side to move."""
    @property
    def pv(self) -> List[Move]:
        """The moves of the line from the analysed position, a new list each time: a legal
        sequence, `move` first."""
    @property
    def multipv(self) -> int:
        """The rank of the line: 1 for the best, then 2, ..."""
    @property
    def depth(self) -> int:
        """The deepest iteration the search completed, in plies (0 if none finished)."""
    @property
    def seldepth(self) -> int:
        """The deepest ply the search reached, quiescence included."""
    @property
    def nodes(self) -> int:
        """The positions the search visited, on all threads."""
    @property
    def nps(self) -> int:
        """Nodes per second (0 for a search too short to time)."""
    @property
    def time(self) -> float:
        """How long the search took, in seconds."""

def analyse(
    position: Union[Position, Game],
    *,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    multipv: int = 1,
    threads: int = 1,
    hash_mib: int = 16,
) -> List[AnalysisLine]:
    """Analyses a `Position` or the current position of a `Game` (whose history counts for
    repetition) with the engine, without holding the GIL, and returns its best `multipv`
    lines as `AnalysisLine`s, best first (the first is the engine's choice; fewer lines
    only if a time or node limit stopped the search before it found them all).

    The search stops at the first of its limits, of which at least one is needed: `time`
    (seconds, 0 to `MAX_TIME_LIMIT`), `nodes` (at least 1) and `depth` (plies, 1 to 100).
    `multipv` is 1 to the number of legal moves; `threads` (1 to 64) search together, and
    `hash_mib` (1 to 4096) sizes the engine's transposition table, made for the call. With
    one thread and no time limit the analysis is deterministic: the same call gives the
    same lines and node count.

    Raises `ValueError` for a finished game, no limit, or a number out of its range
    (before any search), and `TypeError` for a position that is neither a `Position` nor
    a `Game`."""

@final
class ReviewPosition:
    """One position of a reviewed game (`Review.positions`): the player to act (`side`), the
    engine's `score` for that player and its move `best` (both `None` where the game is
    over), its expected line `pv`, and `white`, White's expected score there from 0 to 1
    (the evaluation's, or the result where the game is over). Immutable."""

    @property
    def side(self) -> Side:
        """The player to act: the side to move, or the captor placing a queen."""
    @property
    def score(self) -> Optional[Score]:
        """The engine's score for `side`, or `None` where the game is over."""
    @property
    def best(self) -> Optional[Move]:
        """The engine's move, or `None` where the game is over."""
    @property
    def pv(self) -> List[Move]:
        """The line the engine expects from here, a new list each time (`best` first; empty
        where the game is over)."""
    @property
    def white(self) -> float:
        """White's expected score here, from 0 to 1."""

@final
class ReviewPly:
    """One action of a reviewed game (`Review.plies`): its index `ply` (from 0), the player
    who took it (`side`), the action (`move`), the engine's choice in the same position
    (`best`), the player's expected score `before` and `after` it (0 to 1), what it gave
    away (`loss`: `before - after`, at least 0, and 0 for the engine's own choice), and its
    `judgement`: `"inaccuracy"` (a loss of at least 0.05), `"mistake"` (0.10), `"blunder"`
    (0.15) or `None`. Immutable."""

    @property
    def ply(self) -> int:
        """The action's index in the game's moves, from 0."""
    @property
    def side(self) -> Side:
        """The player who took the action."""
    @property
    def move(self) -> Move:
        """The action taken."""
    @property
    def best(self) -> Move:
        """The engine's choice in the same position."""
    @property
    def before(self) -> float:
        """The player's expected score before the action, from 0 to 1."""
    @property
    def after(self) -> float:
        """The player's expected score after the action, from 0 to 1."""
    @property
    def loss(self) -> float:
        """What the action gave away, in expected score (0 to 1)."""
    @property
    def judgement(self) -> Optional[Literal["inaccuracy", "mistake", "blunder"]]:
        """`"inaccuracy"`, `"mistake"`, `"blunder"`, or `None`."""

class _Tally(TypedDict):
    actions: int
    inaccuracies: int
    mistakes: int
    blunders: int
    mean_loss: float

@final
class Review:
    """A game reviewed by the engine (`agon.review`): `positions`, one `ReviewPosition` per
    position of the game (the start first, one more than its actions), `plies`, one
    `ReviewPly` per action, and `nodes`, the budget each position was searched with.
    `tally(side)` counts a player's inaccuracies, mistakes and blunders. Immutable."""

    @property
    def nodes(self) -> int:
        """The node budget each position was searched with."""
    @property
    def positions(self) -> List[ReviewPosition]:
        """Every position of the game, the start first, a new list each time."""
    @property
    def plies(self) -> List[ReviewPly]:
        """Every action of the game, in order, a new list each time."""
    def tally(self, side: Side) -> _Tally:
        """A player's tally, as a dict: `actions`, `inaccuracies`, `mistakes`, `blunders`
        (each action counted once, under its judgement) and `mean_loss` (the mean loss per
        action in expected score, 0 without actions)."""
    def __len__(self) -> int:
        """The number of actions reviewed."""
    def _repr_svg_(self) -> str:
        """The evaluation graph as SVG, for notebooks: White's expected score from the start
        to the end, each judged action a dot (drawn by agon-svg, as the web game's review)."""

def review(game: Game, *, nodes: int = 50000) -> Review:
    """Reviews a `Game` with the engine, without holding the GIL: each of its positions is
    searched by a fresh single-threaded engine to `nodes` nodes (1 to 10,000,000; the
    default is agon-bots' `Review::DEFAULT_NODES`, 50,000), and each action is judged by
    the expected score it cost its player. The same game and budget give the same review
    on any machine. The time grows with the game's length times `nodes`: about a second
    per 20 plies at the default on one core.

    Raises `TypeError` for anything but a `Game`, and `ValueError` for `nodes` out of its
    range."""

# --- The native half of agon.data (private: agon.data is the API).

MAX_TRAINING_SAMPLES: int
"""The most samples one call of `_training_arrays` writes (`agon.data.training_batches`
keeps each batch within it)."""

class _TrainingArrays(TypedDict, total=False):
    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]
    results: npt.NDArray[np.float32]
    games: npt.NDArray[np.int64]
    plies: npt.NDArray[np.int64]
    symmetries: npt.NDArray[np.int64]
    policies: npt.NDArray[np.float32]
    has_policy: npt.NDArray[np.bool_]
    winners: List[Optional[str]]
    reasons: List[str]

class _PlayedGamesBase(TypedDict):
    actions: npt.NDArray[np.uint16]
    offsets: npt.NDArray[np.int64]
    winners: List[Optional[str]]
    reasons: List[str]
    forfeits: List[Optional[str]]

class _PlayedGames(_PlayedGamesBase, total=False):
    has_stats: npt.NDArray[np.bool_]
    values: npt.NDArray[np.float32]
    visit_offsets: npt.NDArray[np.int64]
    visit_actions: npt.NDArray[np.uint16]
    visit_counts: npt.NDArray[np.uint32]

_GameVisitActions = Optional[List[Optional[List[int]]]]

def _replay_games(
    starts: List[str],
    offsets: npt.NDArray[np.int64],
    actions: npt.NDArray[np.uint16],
    rules: Optional[List[str]] = None,
) -> List[Game]:
    """The games of a batch (start texts, int64 offsets into uint16 actions) replayed through
    `Game`, each move checked, under `rules` (one rule set's text per game; the standard
    rules for all if None); raises `ValueError` naming the first game, ply and action that
    cannot be played."""
def _game_actions(game: Game) -> npt.NDArray[np.uint16]:
    """The action numbers of a game's moves: a uint16 array (what a dataset stores)."""
def _training_arrays(
    starts: List[str],
    offsets: npt.NDArray[np.int64],
    actions: npt.NDArray[np.uint16],
    ply_begin: Optional[npt.NDArray[np.int64]] = None,
    ply_end: Optional[npt.NDArray[np.int64]] = None,
    *,
    axial: bool = False,
    symmetries: bool = False,
    policy: bool = False,
    visit_actions: Optional[List[_GameVisitActions]] = None,
    visit_counts: Optional[List[_GameVisitActions]] = None,
    rules: Optional[List[str]] = None,
) -> _TrainingArrays:
    """The training arrays of a batch of games (start texts, int64 offsets into uint16
    actions), replayed in Rust without the GIL: for each game `i`, the positions before its
    moves `ply_begin[i]` to `ply_end[i] - 1` (all of them when both are None), under the
    twelve symmetries if `symmetries`. Returns a dict of numpy arrays: `observations`
    (float32, (B, 11, 91) or (B, 11, 11, 11) with `axial`), `masks` (bool, (B,
    action_count(rules))), `actions`, `games` (the game's number in the batch), `plies`,
    `symmetries` (int64, (B,)), `results` (float32, (B,): +1 if the mover won the game, -1
    if it lost, 0 for a draw or an unfinished game) and, with `policy`, `policies` (float32,
    (B, action_count(rules)): the visit counts over their sum) and `has_policy` (bool, (B,)) from
    `visit_actions` and `visit_counts` (per game None or, per ply, None or a list); and the
    replayed games' `winners` and `reasons` (lists). `rules` gives each game's rule set (its
    text; all standard if None): the games of one call share one. At most
    MAX_TRAINING_SAMPLES samples;
    raises `ValueError` for a game that does not replay or statistics that do not fit it."""
def _seed_of(run_seed: int, path: List[int]) -> int:
    """The seed of an item numbered by `path` in a run seeded `run_seed`: agon-core's one
    seeding scheme (`agon_core::random::seed_of`), shared by agon-rl's random games, the
    arena and the Python tools (`agon._games`)."""
def _player_seeds(seed: int) -> Tuple[int, int]:
    """The seeds of White's and Black's bots in a game seeded `seed`
    (`agon_core::random::player_seeds`)."""
def _arena_match(
    a: str,
    b: str,
    games: int,
    seed: int,
    max_plies: Optional[int] = None,
    rules: Optional[_RulesLike] = None,
) -> List[Tuple[bool, Optional[str], str, int]]:
    """Plays a match of agon-bots' arena (`agon_bots::arena::run_match_with`) between the bots
    of the specs `a` and `b`: `games` games (A has White in even ones) from the start
    position of `rules` (standard if omitted), seeded `seed` by the one seeding scheme
    (`agon_core::random::seed_of`), each capped at `max_plies` (`MAX_GAME_PLIES` if None).
    Returns one tuple per game: (A had White, winner, end reason or `"unfinished"`, plies);
    a game a UGI engine forfeits is won by the other side, its reason the forfeit's
    (`"crash"`, `"hang"`, `"time-forfeit"`, `"illegal-move"`, `"unreadable-move"`).
    Without the GIL. For tests that a Python tournament plays the arena's games. Raises
    `ValueError` for a bad spec or limit, `RuntimeError` (naming the game and the bot) if
    a bot breaks the rules."""
def _score_interval(wins: int, draws: int, losses: int) -> Tuple[float, float, float]:
    """A's score over `wins`, `draws` and `losses`, with its 95% interval as the arena reports
    it (`agon_bots::arena::MatchStats::confidence_interval`: Wilson's score interval,
    extended to draws): `(score, low, high)`, `(0, 0, 1)` without games. Raises
    `OverflowError` for a negative count and `ValueError` for more than 2^32 - 1 games."""
def _az_evaluate(
    model: str, observations: npt.NDArray[np.float32]
) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Evaluates the network of the safetensors file `model` with agon-bots' Rust inference
    (`agon_bots::Network`) on a batch of axial observations, float32 `(B, 11, 11, 11)`.
    Returns `(logits, values)`: float32 `(B, 3337)` and `(B,)`. Raises `ValueError` for a
    file that is missing, corrupt or of the wrong shape, or observations of another shape."""

def _book_match(
    a: str,
    b: str,
    games: int,
    seed: int,
    sprt: Optional[Tuple[float, float, float, float]] = None,
    concurrency: int = 1,
) -> Dict[str, Any]:
    """Plays a match of the arena for `agon.az.loop` (its gating and its learning curve):
    bot `a` against bot `b` (any specs), pairs of games from the arena's opening book with
    colours swapped, at most `games` games on `concurrency` threads; with `sprt`
    (`(elo0, elo1, alpha, beta)`, `agon_bots::Sprt`), stopped once the test decides.
    Returns a dict: `games`, `wins`, `draws`, `losses` (for A), `score`, `elo`, `elo_low`,
    `elo_high` (a 95% interval), `llr` and `decision` (`"H1"`: A is stronger, `"H0"`: it
    is not, `"continue"`: undecided or no test). Without the GIL. Raises `ValueError` for
    a bad spec or limit, `RuntimeError` for a game a bot broke (as `_arena_match`)."""

def _play_games(
    white: str,
    black: str,
    seeds: List[Tuple[int, int]],
    start: Optional[_PositionLike] = None,
    max_plies: int = 2000,
    *,
    stats: bool = False,
    rules: Optional[_RulesLike] = None,
) -> _PlayedGames:
    """Plays one game per pair of `seeds` (white's seed, black's seed) between the reference
    bots of the specs `white` and `black` (as `Bot.from_name`), from `start` (the start
    position by default) until the game ends or `max_plies` plies (1 to 1000000), without
    the GIL. Returns a dict: `actions` (uint16, all games' actions end to end), `offsets`
    (int64, one more than the games), and each game's `winners` (`"white"`, `"black"` or
    None), `reasons` (the end reason, or `"unfinished"`) and `forfeits` (None, or what a
    UGI engine (`ugi:` spec) did to lose the game without the rules ending it: a crash, a
    hang, a late, illegal or unreadable move; the game stops there, is the opponent's win,
    its reason the forfeit's: `"crash"`, `"hang"`, `"time-forfeit"`, `"illegal-move"`,
    `"unreadable-move"`; the next game starts a fresh process). With `stats`, the bots give
    the statistics of their searches (MCTS: its root's visit counts and value), and the
    dict also holds, for each ply of `actions`: `has_stats` (bool: whether its player gave
    statistics), `values` (float32, NaN where none) and `visit_offsets` (int64, one more
    than the plies) into `visit_actions` (uint16) and `visit_counts` (uint32). At most
    65536 games a call. The games are played under `rules` (a `Rules` or its text) if given,
    else those of `start` (standard for a text or no start); each ply's bot is that of the
    player to act, `Position.chooser`."""
