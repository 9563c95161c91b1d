"""The learning curve of a run: ``python -m agon.az.plot DIR --out curve.svg``.

Reads ``DIR/log.jsonl`` (of ``agon.az.loop``, of ``agon.az.pretrain`` whose chunks
stand for generations, or of ``agon.az.curve``) and draws, for each fixed opponent of the
evaluation, the network's score by generation with its 95% interval (the arena's), as an
SVG picture: no plotting library needed.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from html import escape
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]


def _score_of_elo(elo: float) -> float:
    if not math.isfinite(elo):
        return 1.0 if elo > 0 else 0.0
    return float(1.0 / (1.0 + 10.0 ** (-elo / 400.0)))


def curves(log: List[Dict[str, Any]]) -> Dict[str, List[Tuple[int, float, float, float]]]:
    """For each opponent: (generation, score, low, high) of each logged generation."""
    out: Dict[str, List[Tuple[int, float, float, float]]] = {}
    for entry in log:
        for opponent, e in entry.get("evaluation", {}).items():
            if "score_low" in e:
                low, high = e["score_low"], e["score_high"]
            else:  # a log of an older version: the bounds from its Elo interval
                low, high = _score_of_elo(e["elo_low"]), _score_of_elo(e["elo_high"])
            out.setdefault(opponent, []).append((entry["generation"], e["score"], low, high))
    return out


def svg(log: List[Dict[str, Any]], title: str = "agon.az learning curve",
        x_label: str = "generation", y_label: str = "score of the best network") -> str:
    """The picture of ``curves(log)``, ``x_label`` under its horizontal axis and
    ``y_label`` beside its vertical one (texts are escaped for SVG)."""
    title, x_label, y_label = (escape(t) for t in (title, x_label, y_label))
    data = curves(log)
    width, height, left, right, top, bottom = 640, 360, 56, 150, 36, 44
    last = max([g for c in data.values() for g, _, _, _ in c] + [1])

    def x(g: float) -> float:
        return left + (width - left - right) * g / last

    def y(s: float) -> float:
        return top + (height - top - bottom) * (1.0 - s)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>',
    ]
    for s in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(s)}" y2="{y(s)}" '
                     f'stroke="#ddd"/><text x="{left - 6}" y="{y(s) + 4}" '
                     f'text-anchor="end">{s:.2f}</text>')
    step = max(1, last // 10)
    for g in range(0, last + 1, step):
        parts.append(f'<text x="{x(g)}" y="{height - bottom + 16}" text-anchor="middle">{g}</text>')
    parts.append(f'<text x="{(left + width - right) / 2}" y="{height - 8}" '
                 f'text-anchor="middle">{x_label}</text>')
    parts.append(f'<text x="14" y="{height / 2}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {height / 2})">{y_label}</text>')
    for i, (opponent, points) in enumerate(sorted(data.items())):
        colour = COLOURS[i % len(COLOURS)]
        line = " ".join(f"{x(g):.1f},{y(s):.1f}" for g, s, _, _ in points)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for g, s, low, high in points:
            parts.append(f'<line x1="{x(g):.1f}" x2="{x(g):.1f}" y1="{y(low):.1f}" '
                         f'y2="{y(high):.1f}" stroke="{colour}" opacity="0.5"/>'
                         f'<circle cx="{x(g):.1f}" cy="{y(s):.1f}" r="3" fill="{colour}"/>')
        ly = top + 16 * i + 8
        parts.append(f'<line x1="{width - right + 12}" x2="{width - right + 32}" y1="{ly}" '
                     f'y2="{ly}" stroke="{colour}" stroke-width="2"/><text '
                     f'x="{width - right + 38}" y="{ly + 4}">{escape(opponent)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line; returns the exit status."""
    p = argparse.ArgumentParser(prog="python -m agon.az.plot", description=__doc__.split("\n\n")[0])
    p.add_argument("run", help="the run directory of agon.az.loop")
    p.add_argument("--out", required=True, help="the SVG file to write")
    p.add_argument("--title", default="agon.az learning curve")
    p.add_argument("--x-label", default="generation", help="the horizontal axis' name")
    p.add_argument("--y-label", default="score of the best network",
                   help="the vertical axis' name (for a pretraining run: each chunk's network)")
    a = p.parse_args(argv)
    try:
        lines = (Path(a.run) / "log.jsonl").read_text().splitlines()
        log = [json.loads(line) for line in lines if line.strip()]
        Path(a.out).write_text(svg(log, a.title, a.x_label, a.y_label))
    except (OSError, ValueError, KeyError) as error:
        print(f"agon.az.plot: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
