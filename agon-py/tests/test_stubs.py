"""The stubs of the native module cannot drift from it: stubtest passes, every class,
method, property and function of ``_agon.pyi`` has a docstring, and where the module has
its own docstring (written once, in Rust) the stub's is the same text."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
import types
from pathlib import Path
from typing import Iterator, List, Optional, Tuple, Union

import pytest

import agon
import agon.bots
from agon import _agon

PACKAGE = Path(__file__).resolve().parent.parent
STUB = PACKAGE / "python" / "agon" / "_agon.pyi"
ALLOWLIST = PACKAGE / "stubtest-allowlist.txt"

Definition = Union[ast.ClassDef, ast.FunctionDef]


def definitions() -> Iterator[Tuple[str, Optional[str], Definition]]:
    """Every public class, and every function and method (with the dunder methods) of
    the stub: (qualified name, class name or None, node)."""
    tree = ast.parse(STUB.read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            if node.name.startswith("_"):
                continue
            yield node.name, None, node
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef):
                    yield f"{node.name}.{sub.name}", node.name, sub
        elif isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            yield node.name, None, node


def is_setter(node: Definition) -> bool:
    return isinstance(node, ast.FunctionDef) and any(
        isinstance(d, ast.Attribute) and d.attr == "setter" for d in node.decorator_list
    )


def runtime_doc(name: str, cls: Optional[str], node: Definition) -> Optional[str]:
    """The module's own docstring of a stub definition, or None where it has none of its
    own: the slots (``__eq__``, ``__hash__``...) and ``__new__``, whose docstrings Python
    and pyo3 provide, and the setters, which share their getter's."""
    if cls is None:
        return inspect.getdoc(getattr(_agon, name))
    if is_setter(node):
        return None
    value = vars(getattr(_agon, cls))[node.name]
    if isinstance(value, staticmethod):
        value = value.__func__
    if isinstance(value, types.WrapperDescriptorType) or node.name == "__new__":
        return None
    doc = value.__doc__
    assert doc, f"{name} has no docstring in the module: add one in Rust"
    return inspect.cleandoc(doc)


def test_stubtest_passes() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "agon._agon", "--allowlist", str(ALLOWLIST)],
        capture_output=True,
        text=True,
        cwd=PACKAGE,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_stub_definition_has_a_docstring() -> None:
    names = [name for name, _, _ in definitions()]
    assert "Cell.__new__" in names and "Bot.__reduce__" in names and "svg" in names
    missing = [name for name, _, node in definitions() if not ast.get_docstring(node)]
    assert not missing, f"stub definitions without a docstring: {missing}"


def test_stub_docstrings_are_the_modules() -> None:
    different: List[str] = []
    for name, cls, node in definitions():
        expected = runtime_doc(name, cls, node)
        if expected is not None and inspect.cleandoc(ast.get_docstring(node) or "") != expected:
            different.append(name)
    assert not different, f"stub docstrings that differ from the module's: {different}"


def test_stub_all_is_the_modules() -> None:
    tree = ast.parse(STUB.read_text())
    declared = next(
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
    )
    assert ast.literal_eval(declared) == _agon.__all__


@pytest.mark.parametrize(
    "cls, parameter, spec",
    [(agon.bots.MCTS, "playouts", "mcts"), (agon.bots.AlphaBeta, "depth", "alphabeta")],
)
def test_signature_defaults_are_the_rust_bots(cls: type, parameter: str, spec: str) -> None:
    """The text signatures spell the defaults out; they must be the Rust bots' own."""
    default = inspect.signature(cls).parameters[parameter].default
    assert cls().name == agon.bots.Bot.from_name(spec).name == f"{spec}:{default}"
