#!/usr/bin/env python3
"""The workspace's Rust tests, as `cargo test --workspace` runs them, but agon-web's test
programs with more threads (scripts/test.sh calls this).

Why: agon-web's tests mostly wait (servers starting, clocks, timers, event streams), each
program using about a sixth of the CPU its run lasts (measured: 4 s of CPU in a 27 s run).
Run with two threads, as libtest does on two cores, they took 250 s; with six, 150 s. The
other crates' tests are CPU-bound and keep libtest's default. `cargo test -p agon-web --
--test-threads 6` after the workspace's run would build agon-web again: cargo unifies
features over the packages it is given (agon-py turns on agon-bots' `az`), so the programs
are built once, with the workspace's features, and run here from the list cargo gives.

Each program runs in its package's folder, as cargo runs it; the doctests run through
cargo (`--doc`). Exits 1 after the last program if any failed, naming them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import List, Tuple

# Test threads for agon-web's programs (see above).
WEB_THREADS = "6"


def programs() -> List[Tuple[str, str, str, str]]:
    """Builds every test program; gives (package, kind, name, executable) for each."""
    build = subprocess.run(
        ["cargo", "test", "--workspace", "--no-run", "--message-format=json-render-diagnostics"],
        stdout=subprocess.PIPE,
        text=True,
    )
    if build.returncode != 0:
        sys.exit(build.returncode)
    found = []
    for line in build.stdout.splitlines():
        message = json.loads(line)
        if message.get("reason") != "compiler-artifact" or not message.get("executable"):
            continue
        if not message["profile"]["test"]:
            continue  # an example or a binary built for the tests, not a test program
        package = os.path.dirname(message["manifest_path"])
        found.append((package, message["target"]["kind"][0], message["target"]["name"], message["executable"]))
    return sorted(found)


def main() -> int:
    failed = []
    for package, kind, name, executable in programs():
        web = os.path.basename(package) == "agon-web"
        args = [executable] + (["--test-threads", WEB_THREADS] if web else [])
        print(f"\n     Running {os.path.basename(package)} {kind} {name}", flush=True)
        env = dict(os.environ, CARGO_MANIFEST_DIR=package)
        if subprocess.run(args, cwd=package, env=env).returncode != 0:
            failed.append(f"{os.path.basename(package)} {kind} {name}")
    print("\n     Running the doctests (cargo test --workspace --doc)", flush=True)
    if subprocess.run(["cargo", "test", "--workspace", "--doc"]).returncode != 0:
        failed.append("doctests")
    if failed:
        print("\nfailed: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
