"""SVG pictures of Agon positions, for notebooks and documents.

``svg(position)`` draws the hexagonal board: 91 flat-topped cells shaded by ring, the
throne marked with a star, each empty cell labelled with its name, the pieces (discs,
queens with a crown, guards with a ring; White light, Black dark), captured pieces faded
and crossed out, the last move highlighted and optional arrows. Only geometry from the
native module is used here; nothing of the rules.
"""

from __future__ import annotations

import math
from typing import Iterable, List, Optional, Tuple, Union
from xml.sax.saxutils import escape

from ._agon import Cell, Game, Kind, Move, Position, Side

CellLike = Union[Cell, str, int]
ArrowLike = Union[Move, str, Tuple[CellLike, CellLike]]

#: Fill of the cells of each ring, the throne (ring 0) first.
RING_COLOURS = ("#e0b43c", "#f8ecd0", "#f0dfb5", "#e7d19b", "#ddc282", "#cfae6a")
_EDGE = "#8a6d3b"
_LABEL = "#7d6541"
_HIGHLIGHT = "#f5d830"
_ARROW = "#2e7d32"
_CAPTURED = "#c62828"

_R = 20.0  # the radius of a cell (centre to corner) in picture units
_MARGIN = 6.0
_SQ3 = math.sqrt(3.0)


def _centre(cell: Cell, flipped: bool) -> Tuple[float, float]:
    q, r, _ = cell.cube
    x = 1.5 * _R * q
    y = _SQ3 * _R * (r + q / 2.0)
    if flipped:
        x, y = -x, -y
    return x, y


def _points(values: Iterable[Tuple[float, float]]) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in values)


def _hexagon(cx: float, cy: float, radius: float) -> str:
    return _points(
        (cx + radius * math.cos(math.pi / 3 * k), cy + radius * math.sin(math.pi / 3 * k))
        for k in range(6)
    )


def _star(cx: float, cy: float, outer: float, inner: float) -> str:
    pts = []
    for k in range(12):
        radius = outer if k % 2 == 0 else inner
        angle = math.pi / 6 * k - math.pi / 2
        pts.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return _points(pts)


_CROWN = ((-0.36, 0.2), (0.36, 0.2), (0.42, -0.24), (0.18, -0.02), (0.0, -0.3),
          (-0.18, -0.02), (-0.42, -0.24))


def _as_cell(value: CellLike) -> Cell:
    return value if isinstance(value, Cell) else Cell(value)


def _as_pair(position: Position, arrow: ArrowLike) -> Tuple[Cell, Cell]:
    if isinstance(arrow, Move):
        return arrow.from_cell, arrow.to_cell
    if isinstance(arrow, str):
        m = position.parse_move(arrow)
        return m.from_cell, m.to_cell
    a, b = arrow
    return _as_cell(a), _as_cell(b)


def svg(
    position: Union[Position, Game],
    *,
    size: Optional[int] = 400,
    last_move: Union[Move, str, None] = None,
    arrows: Iterable[ArrowLike] = (),
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
    """
    if isinstance(position, Game):
        if last_move is None:
            last_move = position.last_move
        position = position.position
    if isinstance(last_move, str):
        last_move = position.parse_move(last_move)
    highlighted = set()
    if last_move is not None:
        highlighted = {last_move.from_cell, last_move.to_cell}

    half_w = 7.5 * _R + _R + _MARGIN
    half_h = 5.5 * _SQ3 * _R + _MARGIN
    width, height = 2 * half_w, 2 * half_h
    size_attrs = ""
    if size is not None:
        size_attrs = f' width="{size}" height="{round(size * height / width)}"'
    out: List[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1"{size_attrs} '
        f'viewBox="{-half_w:.2f} {-half_h:.2f} {width:.2f} {height:.2f}">',
        f"<title>{escape(position.to_text())}</title>",
        "<defs>"
        f'<marker id="agon-arrowhead" viewBox="0 0 10 10" refX="5" refY="5" '
        f'markerWidth="3" markerHeight="3" orient="auto-start-reverse">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{_ARROW}"/></marker>'
        "</defs>",
    ]

    pieces = position.pieces()
    captured = set(position.captured())
    font = _R * 0.42
    for cell in Cell.all():
        cx, cy = _centre(cell, flipped)
        ring = cell.ring
        out.append(
            f'<polygon class="cell ring-{ring}" data-cell="{cell.name}" '
            f'points="{_hexagon(cx, cy, _R)}" fill="{RING_COLOURS[ring]}" '
            f'stroke="{_EDGE}" stroke-width="1"/>'
        )
        if cell in highlighted:
            out.append(
                f'<polygon class="last-move" data-cell="{cell.name}" '
                f'points="{_hexagon(cx, cy, _R * 0.94)}" fill="{_HIGHLIGHT}" '
                f'fill-opacity="0.85"/>'
            )
        if ring == 0:
            out.append(
                f'<polygon class="throne" points="{_star(cx, cy, _R * 0.8, _R * 0.45)}" '
                f'fill="#fff3c4" fill-opacity="0.7" stroke="{_EDGE}" stroke-width="0.8"/>'
            )
        if coordinates and cell not in pieces:
            out.append(
                f'<text class="coordinate" x="{cx:.2f}" y="{cy + font * 0.35:.2f}" '
                f'font-family="sans-serif" font-size="{font:.1f}" text-anchor="middle" '
                f'fill="{_LABEL}">{cell.name}</text>'
            )

    for cell, piece in pieces.items():
        cx, cy = _centre(cell, flipped)
        white = piece.side == Side.WHITE
        body, line = ("#fbfaf5", "#222222") if white else ("#262626", "#000000")
        mark = "#262626" if white else "#f2f2f2"
        side = "white" if white else "black"
        kind = "queen" if piece.kind == Kind.QUEEN else "guard"
        is_captured = cell in captured
        extra = ' opacity="0.55"' if is_captured else ""
        cls = f"piece {side} {kind}" + (" captured" if is_captured else "")
        out.append(f'<g class="{cls}" data-cell="{cell.name}"{extra}>')
        out.append(
            f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{_R * 0.66:.2f}" fill="{body}" '
            f'stroke="{line}" stroke-width="1.5"/>'
        )
        if piece.kind == Kind.QUEEN:
            crown = _points((cx + dx * _R, cy + dy * _R) for dx, dy in _CROWN)
            out.append(f'<polygon points="{crown}" fill="{mark}"/>')
        else:
            out.append(
                f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{_R * 0.36:.2f}" fill="none" '
                f'stroke="{mark}" stroke-width="1.6"/>'
            )
        out.append("</g>")
        if is_captured:
            d = _R * 0.5
            out.append(
                f'<path class="captured-mark" data-cell="{cell.name}" '
                f'd="M{cx - d:.2f},{cy - d:.2f} L{cx + d:.2f},{cy + d:.2f} '
                f'M{cx - d:.2f},{cy + d:.2f} L{cx + d:.2f},{cy - d:.2f}" '
                f'stroke="{_CAPTURED}" stroke-width="3" stroke-linecap="round"/>'
            )

    for arrow in arrows:
        a, b = _as_pair(position, arrow)
        (x1, y1), (x2, y2) = _centre(a, flipped), _centre(b, flipped)
        length = math.hypot(x2 - x1, y2 - y1)
        if length == 0:
            continue
        shorten = min(_R * 0.45, length / 3)
        x2 -= (x2 - x1) / length * shorten
        y2 -= (y2 - y1) / length * shorten
        out.append(
            f'<line class="arrow" data-from="{a.name}" data-to="{b.name}" '
            f'x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" stroke="{_ARROW}" '
            f'stroke-width="{_R * 0.2:.2f}" stroke-opacity="0.8" stroke-linecap="round" '
            f'marker-end="url(#agon-arrowhead)"/>'
        )

    out.append("</svg>")
    return "\n".join(out)
