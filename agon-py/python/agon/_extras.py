"""One place that turns a missing optional dependency into an error naming its extra."""

from __future__ import annotations

import importlib
from types import ModuleType


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import ``module`` for ``feature``, or raise an ``ImportError`` that names the extra.

    >>> require("math", "none", "agon.test").sqrt(4.0)
    2.0
    """
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            f"{feature} needs the optional dependency {module!r}, which is not installed: "
            f"pip install 'agon-rules[{extra}]'"
        ) from error
