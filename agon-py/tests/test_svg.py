"""Pictures: SVG that parses as XML and shows the board, pieces and marks, drawn by the
Rust crate agon-svg (the web game's drawing): the same text, and checked arguments."""

from __future__ import annotations

import importlib.util
import inspect
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Dict, List

import pytest

import agon
from conftest import CAPTURE, QUEEN_CAPTURED

# Reference pictures written by agon-svg's own tests (agon-svg/tests/svg.rs).
GOLDEN = Path(__file__).resolve().parents[2] / "agon-svg" / "tests" / "golden"

NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def with_class(root: ET.Element, name: str) -> List[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def test_board_and_pieces() -> None:
    root = parse(agon.svg(agon.Position(), size=360))
    assert root.get("width") == "360"
    cells = with_class(root, "cell")
    assert len(cells) == 91
    assert len({c.get("data-cell") for c in cells}) == 91
    assert len(with_class(root, "ring-5")) == 30 and len(with_class(root, "ring-0")) == 1
    assert len(with_class(root, "throne")) == 1
    pieces = with_class(root, "piece")
    assert len(pieces) == 14
    assert len(with_class(root, "queen")) == 2 and len(with_class(root, "white")) == 7
    queens = {e.get("data-cell") for e in with_class(root, "queen")}
    assert queens == {"f1", "f11"}
    labels = [t.text for t in with_class(root, "coordinate")]
    assert len(labels) == 77 and "f6" in labels and "f1" not in labels
    title = root.find(f"{NS}title")
    assert title is not None and title.text == agon.STARTING_TEXT
    assert with_class(root, "last-move") == [] and with_class(root, "arrow") == []


def test_last_move_arrows_and_captures() -> None:
    pos = agon.Position(CAPTURE).play("f1-e1")
    root = parse(agon.svg(pos, last_move="f1-e1", arrows=["d1>a1", ("e1", "e2")]))
    assert sorted(e.get("data-cell") or "" for e in with_class(root, "last-move")) == ["e1", "f1"]
    arrows = with_class(root, "arrow")
    assert [(a.get("data-from"), a.get("data-to")) for a in arrows] == [("d1", "a1"), ("e1", "e2")]
    captured = with_class(root, "captured")
    assert [e.get("data-cell") for e in captured] == ["d1"]
    assert [e.get("data-cell") for e in with_class(root, "captured-mark")] == ["d1"]


def test_flipped_and_unsized() -> None:
    pos = agon.Position()

    def centre(root: ET.Element, name: str) -> float:
        for e in with_class(root, "piece"):
            if e.get("data-cell") == name:
                circle = e.find(f"{NS}circle")
                assert circle is not None
                return float(circle.get("cy") or "nan")
        raise AssertionError(name)

    plain, flipped = parse(agon.svg(pos)), parse(agon.svg(pos, flipped=True, size=None))
    assert centre(plain, "f1") > centre(plain, "f11")  # White at the bottom
    assert centre(flipped, "f1") < centre(flipped, "f11")
    assert flipped.get("width") is None
    no_labels = parse(agon.svg(pos, coordinates=False))
    assert with_class(no_labels, "coordinate") == []


def test_repr_svg() -> None:
    pos = agon.Position()
    assert pos._repr_svg_() == agon.svg(pos)
    game = agon.Game(moves=["f1-e1"])
    root = parse(game._repr_svg_())
    assert sorted(e.get("data-cell") or "" for e in with_class(root, "last-move")) == ["e1", "f1"]
    assert game._repr_svg_() == agon.svg(game)
    assert agon.svg(game) == agon.svg(game.position, last_move=game.last_move)


def golden(name: str) -> str:
    return (GOLDEN / name).read_text(encoding="utf-8")


def test_same_text_as_rust() -> None:
    """agon.svg gives exactly what agon-svg draws for the same options (the reference
    pictures of agon-svg's tests), whatever form the arguments take."""
    assert agon.svg(agon.Position()) == golden("start.svg")
    assert agon.Position()._repr_svg_() == golden("start.svg")

    expected = golden("capture-flipped.svg")
    pos = agon.Position(CAPTURE).play("f1-e1")
    assert agon.svg(
        pos, size=None, last_move="f1-e1", arrows=["d1>a1", ("e1", "e2")], flipped=True
    ) == expected
    assert agon.svg(
        pos,
        size=None,
        last_move=agon.Move.step("f1", "e1"),
        arrows=[agon.Move.parse("d1>a1"), (agon.Cell("e1"), agon.Cell("e2").index)],
        flipped=True,
        coordinates=True,
    ) == expected
    # A game's last move is highlighted unless another is given.
    # Any iterable of arrows; a pair of cells may also be a list.
    game = agon.Game(CAPTURE, ["f1-e1"])
    pair: Any = ["e1", "e2"]
    assert agon.svg(game, size=None, arrows=iter(["d1a1", pair]), flipped=True) == expected

    expected = golden("queen-captured.svg")
    assert agon.svg(agon.Position(QUEEN_CAPTURED), size=360, coordinates=False) == expected


def test_drawn_natively_with_the_documented_signature() -> None:
    assert agon.svg is agon._agon.svg
    assert importlib.util.find_spec("agon._svg") is None
    params = inspect.signature(agon.svg).parameters
    assert [(p.name, p.kind) for p in params.values()] == [
        ("position", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        ("size", inspect.Parameter.KEYWORD_ONLY),
        ("last_move", inspect.Parameter.KEYWORD_ONLY),
        ("arrows", inspect.Parameter.KEYWORD_ONLY),
        ("flipped", inspect.Parameter.KEYWORD_ONLY),
        ("coordinates", inspect.Parameter.KEYWORD_ONLY),
    ]
    defaults = [p.default for p in params.values()][1:]
    assert defaults == [400, None, (), False, True]
    assert (agon.svg.__doc__ or "").startswith("Draws a position (or a game's current position)")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"size": "400"},
        {"size": 400.0},
        {"size": True},
        {"last_move": 5},
        {"last_move": ("f1", "e1")},
        {"arrows": 5},
        {"arrows": None},
        {"arrows": "f1-e1"},
        {"arrows": [5]},
        {"arrows": [("f1",)]},
        {"arrows": [("f1", "e1", "d1")]},
        {"arrows": [("f1", 4.5)]},
        {"flipped": 1},
        {"flipped": None},
        {"coordinates": "yes"},
    ],
)
def test_wrong_types_raise_type_error(kwargs: Dict[str, Any]) -> None:
    with pytest.raises(TypeError):
        agon.svg(agon.Position(), **kwargs)


def test_wrong_position_or_positional_options_raise_type_error() -> None:
    with pytest.raises(TypeError):
        agon.svg(agon.STARTING_TEXT)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        agon.svg(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        agon.svg(agon.Position(), 400)  # type: ignore[call-arg]


@pytest.mark.parametrize("size", [0, -1, -400, 100_001, 10**30, -(10**30)])
def test_bad_sizes_raise_value_error(size: int) -> None:
    with pytest.raises(ValueError) as info:
        agon.svg(agon.Position(), size=size)
    assert type(info.value) is ValueError


def test_extreme_sizes() -> None:
    for size, height in [(1, "1"), (100_000, "111662")]:
        root = parse(agon.svg(agon.Position(), size=size))
        assert root.get("width") == str(size) and root.get("height") == height


def test_bad_moves_and_cells_raise_the_package_errors() -> None:
    pos = agon.Position()
    with pytest.raises(agon.ParseError) as parse_info:
        agon.svg(pos, last_move="f1-")
    assert parse_info.value.text == "f1-"
    with pytest.raises(agon.ParseError):
        agon.svg(pos, last_move="zz")
    with pytest.raises(agon.ParseError):
        agon.svg(pos, arrows=["f1-e1", "f1-x9"])
    with pytest.raises(agon.ParseError):
        agon.svg(pos, arrows=[("f1", "z9")])
    # A step between cells that are not adjacent is no move in any position.
    cases: List[Dict[str, Any]] = [
        {"last_move": "f1-f9"},
        {"last_move": agon.Move("f1", "f9")},
        {"arrows": ["f1-f1"]},
        {"arrows": ["f1f9"]},
    ]
    for kwargs in cases:
        with pytest.raises(agon.IllegalMoveError) as illegal:
            agon.svg(pos, **kwargs)
        assert illegal.value.reason == "not-adjacent"
    with pytest.raises(ValueError, match="no cell has index 91"):
        agon.svg(pos, arrows=[("f1", 91)])
    # Moves are drawn, not checked against the position: a return anywhere, a threat of
    # the side not to move, and two cells of any distance.
    root = parse(agon.svg(pos, arrows=["f1>f6", "f11-f10", ("a1", "l6")]))
    assert [(a.get("data-from"), a.get("data-to")) for a in with_class(root, "arrow")] == [
        ("f1", "f6"), ("f11", "f10"), ("a1", "l6")
    ]


def test_no_style_and_accessible_name() -> None:
    pos = agon.Position(QUEEN_CAPTURED)
    text = agon.svg(pos, last_move="f9-f10", arrows=["f10>f6"], flipped=True)
    assert "style" not in text
    root = parse(text)
    assert root.get("role") == "img" and root.get("aria-label") == QUEEN_CAPTURED
