"""The README's Python examples whose output is shown as trailing `# ` lines print exactly
that output: run them and compare, so that they cannot go stale (the analysis example
depends on the engine's evaluation weights)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import List, Tuple

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def examples_with_output() -> List[Tuple[int, str, str]]:
    """(line, code, expected output) of each ```python block that ends in `# ` lines."""
    text = README.read_text(encoding="utf-8")
    found: List[Tuple[int, str, str]] = []
    for match in re.finditer(r"^```python\n(.*?)^```", text, flags=re.S | re.M):
        lines = match.group(1).rstrip("\n").split("\n")
        shown: List[str] = []
        while lines and lines[-1].startswith("# "):
            shown.insert(0, lines.pop()[2:])
        if shown:
            line = text.count("\n", 0, match.start()) + 1
            found.append((line, "import agon\n" + "\n".join(lines), "\n".join(shown)))
    return found


def test_the_readme_has_such_examples() -> None:
    assert examples_with_output(), "no README example with its output: the test would test nothing"


@pytest.mark.parametrize("line, code, expected", examples_with_output())
def test_readme_example_prints_what_it_shows(line: int, code: str, expected: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"README.md:{line}", "exec"), {})
    assert out.getvalue().rstrip("\n") == expected, f"the example at README.md:{line}"
