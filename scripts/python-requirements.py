"""Prints the third-party requirements of the `agon` package (agon-py/pyproject.toml), one
a line: its dependencies and those of the extras named as arguments.

scripts/test.sh installs them in the background while the Rust steps compile, so that the
package step later only builds and installs agon itself. pyproject.toml stays the one list
of them. Needs Python 3.11 (tomllib); on an older Python it prints nothing, and the
package's own install fetches them all as before.

    python3 scripts/python-requirements.py test az
"""

import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11: nothing to prefetch
    sys.exit(0)

project = tomllib.loads((Path(__file__).resolve().parent.parent / "agon-py" / "pyproject.toml").read_text())["project"]
extras = project.get("optional-dependencies", {})
unknown = [name for name in sys.argv[1:] if name not in extras]
if unknown:
    sys.exit(f"no such extra in agon-py/pyproject.toml: {', '.join(unknown)}")
requirements = list(project.get("dependencies", []))
for name in sys.argv[1:]:
    requirements += [r for r in extras[name] if r not in requirements]
print("\n".join(requirements))
