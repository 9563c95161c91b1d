"""agon.ugi_check passes the minimal engine of examples/ugi and fails broken ones, on the
line of the check they break."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agon import ugi_check

from test_engine import COMMAND, broken


def run(command: list[str], *extra: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "agon.ugi_check", "--games", "1", *extra, "--", *command],
        capture_output=True, text=True, timeout=120,
    )
    return done.returncode, done.stdout


def test_the_minimal_engine_passes_every_check() -> None:
    code, out = run(COMMAND)
    assert code == 0, out
    lines = out.splitlines()
    assert lines[-1] == "passed: 0 failed checks"
    assert not [l for l in lines if l.startswith("FAIL")]
    for check in ("handshake: ugiok", "queries at the start: gameover, p1turn, result agree",
                  "go infinite: no bestmove before stop", "isready during go infinite: readyok",
                  "stop: a legal bestmove", "hostile line 'bogus command': still answers isready",
                  "go p1time 5000 p2time 5000 p1inc 100 p2inc 100: legal bestmove",
                  "game 1 (engine White): "):
        assert any(l.startswith("ok   " + check) for l in lines), (check, out)


def test_the_minimal_engine_passes_under_ludii_and_a_clock() -> None:
    code, out = run(COMMAND, "--rules", "ludii", "--tc", "5+0.05")
    assert code == 0, out


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("game.chooser == agon.Side.WHITE", "game.chooser != agon.Side.WHITE",
         "FAIL queries at the start: query p1turn at ply 0: response 'false', expected 'true'"),
        ("rng.choice(moves) if moves else 'none'", "'f1-f3'",
         "FAIL go movetime 100: illegal bestmove f1-f3 at ply 5"),
        ('if "infinite" not in words:', "if True:", "FAIL go infinite: no bestmove before stop"),
        ('elif words[:1] == ["isready"]:\n            say("readyok")',
         'elif words[:1] == ["isready"]:\n            say("readyok") if not pending else None',
         "FAIL isready during go infinite: no readyok within 2 s"),
        ('elif words[:1] == ["isready"]:\n            say("readyok")',
         'elif words[:1] == ["isready"]:\n            say(f"{pending}\\nreadyok" if pending else "readyok")\n            pending = None',
         "FAIL isready during go infinite: the search ended (bestmove before stop)"),
        ('elif words[:1] == ["stop"] and pending:', 'elif words[:1] == ["bogus"] and pending:',
         "FAIL stop: no bestmove within 2 s"),
        ('elif words[:1] == ["quit"]:', 'elif words[:1] == ["bogus"]:\n            sys.exit(1)\n        elif words[:1] == ["quit"]:',
         "FAIL hostile line 'bogus command': the engine exited (exit code 1)"),
    ],
)
def test_a_broken_engine_fails_on_the_line_of_its_fault(tmp_path: Path, old: str, new: str, line: str) -> None:
    code, out = run(broken(tmp_path, old, new))
    assert code == 1, out
    assert line in out.splitlines(), out
    assert out.splitlines()[-1].startswith("FAILED: ")


def test_time_controls_parse() -> None:
    assert ugi_check.parse_tc("2+0.5").clock is not None
    assert ugi_check.parse_tc("100ms").time == 0.1
