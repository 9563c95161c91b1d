"""The example notebook's saved outputs are what a fresh run prints.

The test runs ``examples/notebook.ipynb`` in a Jupyter kernel (nbclient) and compares
every code cell's outputs with the saved ones, so the notebook cannot go stale. After a
deliberate change, rewrite the saved outputs with::

    AGON_NOTEBOOK_BLESS=1 .venv/bin/python -m pytest agon-py/tests/test_notebook.py
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, List

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "notebook.ipynb"
# What a reader sees: text and pictures. Other MIME types (widgets, html copies) are not
# saved, and metadata (timings, ids) is not compared.
SHOWN = ("text/plain", "image/svg+xml")


def shown(output: Dict[str, Any]) -> Dict[str, Any]:
    """The visible part of one output."""
    kind = output["output_type"]
    if kind == "stream":
        return {"stream": output["name"], "text": output["text"]}
    if kind == "error":
        return {"error": output["ename"], "value": output["evalue"]}
    return {"output": kind, **{m: output["data"][m] for m in SHOWN if m in output["data"]}}


def visible(outputs: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The visible outputs of a cell, with a stream's consecutive chunks joined: how a
    print is cut into messages depends on timing, not on what it prints."""
    joined: List[Dict[str, Any]] = []
    for output in map(shown, outputs):
        last = joined[-1] if joined else None
        if last is not None and "stream" in output and last.get("stream") == output["stream"]:
            last["text"] += output["text"]
        else:
            joined.append(output)
    return joined


def run(notebook: Any) -> Any:
    executed = nbformat.from_dict(notebook)  # type: ignore[no-untyped-call]
    NotebookClient(executed, timeout=300, kernel_name="python3", allow_errors=True).execute(
        cwd=str(NOTEBOOK.parent)
    )
    return executed


def test_the_notebook_prints_what_it_shows() -> None:
    saved = nbformat.read(NOTEBOOK, as_version=4)  # type: ignore[no-untyped-call]
    fresh = run(saved)
    cells = [(i, c) for i, c in enumerate(fresh.cells) if c.cell_type == "code"]
    errors = [(i, o) for i, c in cells for o in c.outputs if o["output_type"] == "error"]
    assert not errors, f"cells raised: {errors}"
    if os.environ.get("AGON_NOTEBOOK_BLESS"):
        for cell in fresh.cells:
            if cell.cell_type == "code":
                for output in cell.outputs:
                    if "data" in output:
                        output["data"] = {m: output["data"][m] for m in SHOWN if m in output["data"]}
        nbformat.write(fresh, NOTEBOOK)  # type: ignore[no-untyped-call]
        return
    stale: List[str] = []
    for (i, cell), old in zip(cells, [c for c in saved.cells if c.cell_type == "code"]):
        now = visible(cell.outputs)
        before = visible(old.outputs)
        if now != before:
            stale.append(f"cell {i}:\n  saved: {before!r:.600}\n  fresh: {now!r:.600}")
    assert not stale, (
        "the notebook's saved outputs differ from a fresh run (run with AGON_NOTEBOOK_BLESS=1 "
        "after checking the change):\n" + "\n".join(stale)
    )
