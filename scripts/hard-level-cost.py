#!/usr/bin/env python3
"""What a hard-level move costs a core, before and after a change of the engine.

    python3 scripts/hard-level-cost.py OLD_AGON_UGI NEW_AGON_UGI [POSITIONS] [BUDGET_MS]

Both arguments are `agon-ugi` binaries (release builds of two commits). The web game's hard
level is the engine with a deadline of `Level::HARD_BUDGET` (1500 ms) and a fresh hash
table for every move. For every tenth position of the opening book (POSITIONS of them, 30
by default), on one thread, this script asks:

1. OLD for a move at the deadline (`go movetime BUDGET_MS`): the nodes it searched are its
   strength on this machine (one thread: the same nodes give the same search);
2. NEW for a move at exactly those nodes (`go nodes N`): the same strength; the move must
   be OLD's if the search is unchanged (counted);
3. NEW at the same deadline: the nodes and depth it reaches instead.

It prints, per engine and way, the mean time a move and the moves a second one core
serves (1000 / mean ms), the mean nodes, and the mean depth reached at the deadline. The
times are wall clock: run it on a quiet machine, or as root under `chrt -f 10` (real-time
scheduling: the search keeps its core whatever else runs). Python's standard library only.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

BOOK = Path(__file__).resolve().parent.parent / "agon-bots" / "book" / "openings.txt"


class Engine:
    """One agon-ugi process, spoken to line by line."""

    def __init__(self, command: str) -> None:
        self.proc = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("ugi")
        self.wait_for("ugiok")
        self.send("setoption name Threads value 1")
        # The web level searches in process: no time kept back for a pipe.
        self.send("setoption name MoveOverhead value 0")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")

    def wait_for(self, word: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        for line in self.proc.stdout:
            lines.append(line.strip())
            if line.split()[:1] == [word]:
                return lines
        raise SystemExit(f"the engine ended before {word!r}")

    def search(self, position: str, go: str) -> tuple[str, int, int, float]:
        """(best move, nodes, depth, wall ms) of one search from a fresh table."""
        self.send("uginewgame")
        self.send(f"position fen {position}")
        self.send("isready")
        self.wait_for("readyok")
        start = time.perf_counter()
        self.send(go)
        lines = self.wait_for("bestmove")
        ms = (time.perf_counter() - start) * 1000
        nodes = depth = 0
        for line in lines:
            words = line.split()
            if words[:1] == ["info"] and "nodes" in words and "depth" in words:
                nodes = int(words[words.index("nodes") + 1])
                depth = int(words[words.index("depth") + 1])
        return lines[-1].split()[1], nodes, depth, ms

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def line(name: str, times: list[float], depths: list[int], nodes: list[int]) -> str:
    mean = statistics.fmean(times)
    # A search stopped by its node budget reports the depth it was in, not one it finished:
    # the depth is only told for the searches that stop at the deadline.
    depth = f" mean_depth={statistics.fmean(depths):.2f}" if "deadline" in name else ""
    return (
        f"{name}: mean_ms={mean:.0f} moves_per_second_per_core={1000 / mean:.2f}"
        f"{depth} mean_nodes={statistics.fmean(nodes):.0f}"
    )


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    old, new = Engine(sys.argv[1]), Engine(sys.argv[2])
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    budget = int(sys.argv[4]) if len(sys.argv) > 4 else 1500
    book = [t for t in BOOK.read_text().splitlines() if t and not t.startswith("#")]
    positions = book[::10][:count]
    runs: dict[str, tuple[list[float], list[int], list[int]]] = {
        k: ([], [], []) for k in ("old_deadline", "new_same_nodes", "new_deadline")
    }
    same_moves = same_nodes = 0
    for position in positions:
        old_move, nodes, depth, ms = old.search(position, f"go movetime {budget}")
        runs["old_deadline"][0].append(ms)
        runs["old_deadline"][1].append(depth)
        runs["old_deadline"][2].append(nodes)
        new_move, new_nodes, new_depth, ms = new.search(position, f"go nodes {nodes}")
        same_moves += new_move == old_move
        same_nodes += new_nodes == nodes
        runs["new_same_nodes"][0].append(ms)
        runs["new_same_nodes"][1].append(new_depth)
        runs["new_same_nodes"][2].append(new_nodes)
        _, new_nodes, new_depth, ms = new.search(position, f"go movetime {budget}")
        runs["new_deadline"][0].append(ms)
        runs["new_deadline"][1].append(new_depth)
        runs["new_deadline"][2].append(new_nodes)
    old.close()
    new.close()
    print(f"positions={len(positions)} budget_ms={budget}")
    print(line(f"OLD at the deadline ({sys.argv[1]})", *runs["old_deadline"]))
    print(line(f"NEW at OLD's nodes ({sys.argv[2]})", *runs["new_same_nodes"]))
    print(line("NEW at the deadline", *runs["new_deadline"]))
    print(f"NEW at OLD's nodes: the same move in {same_moves} of {len(positions)}, "
          f"the same node count in {same_nodes}")


if __name__ == "__main__":
    main()
