"""Pictures: SVG that parses as XML and shows the board, pieces and marks."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import List

import agon
from conftest import CAPTURE

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
