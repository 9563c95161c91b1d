"""The research frameworks are optional extras: ``import agon`` never imports them, and a
missing one is an ImportError that names the extra to install."""

from __future__ import annotations

import subprocess
import sys

import pytest

# (module of the package, the framework module it needs, the extra that brings it)
EXTRAS = [
    ("agon.pettingzoo", "pettingzoo", "pettingzoo"),
    ("agon.gymnasium", "gymnasium", "gymnasium"),
    ("agon.openspiel", "pyspiel", "openspiel"),
    ("agon.data", "pyarrow", "data"),
    ("agon.generate", "pyarrow", "data"),
    ("agon.cluster", "ray", "ray"),
    ("agon.az", "jax", "az"),
    ("agon.az", "optax", "az"),
    ("agon.az", "safetensors", "az"),
]


def run_python(code: str) -> "subprocess.CompletedProcess[str]":
    """``code`` in a fresh interpreter, whose imports are its own."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_import_agon_imports_no_framework() -> None:
    modules = [name for extra in EXTRAS for name in extra[:2]]
    result = run_python(
        "import sys, agon, agon.bots\n"
        f"print(sorted(m for m in {modules!r} if m in sys.modules))"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("module, framework, extra", EXTRAS)
def test_a_missing_framework_names_its_extra(module: str, framework: str, extra: str) -> None:
    result = run_python(
        "import sys\n"
        f"sys.modules[{framework!r}] = None  # as if not installed\n"
        "try:\n"
        f"    import {module}\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    assert result.returncode == 0, result.stderr
    assert f"{module} needs the optional dependency {framework!r}" in result.stdout
    assert f"pip install 'agon-rules[{extra}]'" in result.stdout


@pytest.mark.parametrize("module, framework, extra", EXTRAS)
def test_each_framework_module_imports_with_its_extra(module: str, framework: str, extra: str) -> None:
    # The test command installs every extra: here the modules import, and register.
    result = run_python(f"import {module}, sys; print({framework!r} in sys.modules)")
    assert (result.returncode, result.stdout.strip()) == (0, "True"), result.stderr
