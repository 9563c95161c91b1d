"""``python -m agon.balance`` on a tiny size, the opening book binding, and ``--rules`` of
``python -m agon.tournament``.

Rule sets other than the standard one are refused by the game-playing tools until the
bots and the learning encoding know every rule set (the ``bots`` branch)."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

import agon
import agon.bots
from agon import balance, tournament


def test_opening_book() -> None:
    book = agon.bots.opening_book()
    assert len(book) == 300
    assert all(not p.is_over() and p.captured() == [] and p.rules.is_standard for p in book)
    ludii = agon.bots.opening_book("ludii")
    assert [p.to_text() for p in ludii] == [p.to_text() for p in book]
    assert all(p.rules == agon.Rules.LUDII for p in ludii)
    with pytest.raises(agon.ParseError):
        agon.bots.opening_book("nope")


def test_default_rule_sets() -> None:
    sets = [str(r) for r in balance.default_rule_sets(300)]
    assert sets == [
        "standard",
        "ludii",
        "standard+capture=same-ring",
        "standard+between=allowed",
        "standard+between=trapped",
        "standard+guard-return=next-ring",
        "standard+queen-return=not-throne",
        "standard+queen-placer=captor",
        "standard+empty-throne-ring=draw",
        "standard+stuck=pass",
        "standard+repetition=off",
        "standard+limit=300",
    ]


def test_balance_tiny_run_prints_a_markdown_table() -> None:
    argv = ["--rules", "standard", "--games", "4", "--random-games", "20",
            "--spec", "engine:n100", "--workers", "2", "--no-progress"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert balance.main(argv) == 0
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0].startswith("| rule set | play | games | White's score [95%]")
    assert lines[2].startswith("| `standard` | engine (engine:n100) | 4 |")
    assert lines[3].startswith("| `standard` | random | 20 |")
    assert "Produced by: `python -m agon.balance --rules standard --games 4" in text
    # The same settings give the same figures on any number of workers.
    again = balance.balance(["standard"], spec="engine:n100", games=4, random_games=20, workers=1)
    assert [r.line() for r in again.rows] == lines[2:4]


def test_balance_bad_arguments() -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert balance.main(["--rules", "chess", "--games", "1", "--random-games", "0"]) == 2
        assert balance.main(["--games", "-1"]) == 2
    assert "error:" in err.getvalue()


def test_tournament_takes_rules() -> None:
    result = tournament.tournament(["random", "greedy"], 2, rules="standard")
    assert result.tournament.rules == "standard" and len(result.games) == 2
    with pytest.raises(agon.ParseError):
        tournament.tournament(["random", "greedy"], 2, rules="standard+limit=0")
    args = tournament.parser().parse_args(["--players", "random", "greedy", "--games-per-pair", "2",
                                           "--rules", "ludii"])
    assert args.rules == "ludii"


def test_random_rows_use_the_capped_playouts() -> None:
    """The random rows under a rule set whose games need not end stop them at the cap,
    and give the 90th percentile of the lengths (numpy's, from the histogram)."""
    import numpy as np

    from agon.balance import _p90

    data = [5, 1, 3, 3, 9, 12, 2, 2, 7, 100]
    histogram = {x: data.count(x) for x in set(data)}
    assert _p90(histogram) == pytest.approx(float(np.percentile(data, 90)))
    result = balance.balance(
        ["standard+repetition=off", "ludii"], games=0, random_games=10, max_plies=50
    )
    [endless, ludii] = result.rows
    assert endless.games == 10 and endless.at_limit > 0 and endless.p90_plies <= 50
    assert ludii.rules == "ludii" and ludii.p90_plies <= 50


VARIANTS = Path(__file__).resolve().parents[2] / "docs" / "VARIANTS.md"


def test_the_committed_slice_of_the_table_is_reproduced() -> None:
    """docs/VARIANTS.md's slice section: each block is a command's output, and running the
    command again prints it again, character for character (the table's random games and
    the first engine games of its standard row, with the current code)."""
    section = VARIANTS.read_text(encoding="utf-8").split("## The slice the test command checks")[1]
    section = section.split("\n## ")[0]
    blocks = re.findall(r"```\n(.*?)\n```", section, flags=re.S)
    assert len(blocks) == 2
    for block in blocks:
        command = re.search(r"Produced by: `python -m agon\.balance (.*)`", block)
        assert command is not None, block[-200:]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert balance.main([*shlex.split(command.group(1)), "--no-progress"]) == 0
        printed = out.getvalue().strip().replace(" --no-progress`", "`")
        assert printed.splitlines() == block.strip().splitlines()
