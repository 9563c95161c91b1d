"""Checks that an engine speaks UGI to Agon correctly: ``python -m agon.ugi_check
COMMAND [--rules TEXT] [--games N] [--tc TC] [--seed S]``.

COMMAND is the engine's command line (one argument, split as a shell would, or several
words after ``--``). The checker walks the handshake (``ugi`` ... ``ugiok``, ``isready``),
sets the rule set (``setoption name Rules``), sends each command with valid arguments and
hostile ones (an empty line, a 1 MB line, unknown words, bad numbers, unreadable and
illegal moves: the engine must stay alive and answer ``isready``), asks ``isready`` and
``stop`` during ``go infinite``, then plays N games against the project's engine
(``engine:n2000``) from random openings: every ``bestmove`` is checked for legality by
agon-core and against the time given (TC: ``100ms`` per move, the default, ``10+0.1`` a
game clock, ``n5000`` nodes or ``d6`` depth per move), and every ``query gameover``,
``query p1turn`` and ``query result`` answer against agon-core. It prints one line per
check (``ok`` or ``FAIL``, with what was seen) and exits with 1 if any failed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Callable, List, Optional, Sequence

from . import _agon
from .engine import Clock, EngineError, EngineTerminatedError, Limit, UgiEngine, split_command

#: Time a move may take beyond its limit before it counts as late, in seconds.
MARGIN = 0.05
#: The project's engine, the opponent in the games.
OPPONENT = "engine:n2000"
#: How long ``isready`` and ``stop`` during ``go infinite`` may take to be answered, in
#: seconds ("at once", with room for a loaded machine).
INFINITE_ANSWER = 2.0


def parse_tc(text: str) -> Limit:
    """A time control: ``100ms``, ``10+0.1`` (seconds per game + increment), ``n5000``,
    ``d6``.

    >>> parse_tc("10+0.1").clock
    Clock(p1time=10.0, p2time=10.0, p1inc=0.1, p2inc=0.1)
    >>> parse_tc("n500").nodes, parse_tc("d3").depth, parse_tc("250ms").time
    (500, 3, 0.25)
    """
    t = text.strip()
    try:
        if t.endswith("ms"):
            return Limit(time=int(t[:-2]) / 1000)
        if t.startswith("n"):
            return Limit(nodes=int(t[1:]))
        if t.startswith("d"):
            return Limit(depth=int(t[1:]))
        base, _, inc = t.partition("+")
        b, i = float(base), float(inc or 0)
        return Limit(clock=Clock(b, b, i, i))
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad time control {text!r}: expected like 100ms, 10+0.1, n5000 or d6") from None


class Checker:
    """Runs the checks on one engine command, printing a line per check."""

    def __init__(self, command: List[str], rules: _agon.Rules, timeout: float,
                 out: Callable[[str], None] = print) -> None:
        self.command = command
        self.rules = rules
        self.timeout = timeout
        self.out = out
        self.failures = 0
        self.engine: Optional[UgiEngine] = None

    def report(self, ok: bool, what: str) -> bool:
        self.out(f"{'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            self.failures += 1
        return ok

    def start(self) -> UgiEngine:
        """A fresh engine, handshake walked, rules set."""
        if self.engine is not None:
            self.engine.quit()
        began = time.monotonic()
        engine = UgiEngine.popen(self.command, timeout=self.timeout)
        self.engine = engine
        self.report(True, f"handshake: ugiok after {time.monotonic() - began:.2f} s"
                    f" (id name {engine.id.get('name', '?')!r}, {len(engine.options)} options)")
        if self.rules != _agon.Rules.STANDARD:
            if not any(n.lower() == "rules" for n in engine.options):
                self.report(False, "setoption name Rules: the engine offers no Rules option")
            engine.send(f"setoption name Rules value {self.rules}")
        engine.ping()
        return engine

    def query(self, engine: UgiEngine, what: str) -> str:
        engine.send(f"query {what}")
        line = engine.read_until("response")[-1]
        return " ".join(line.split()[1:2])

    def position_command(self, game: _agon.Game) -> str:
        standard = _agon.Game(rules=self.rules).start
        text = "position startpos" if game.start == standard else f"position fen {game.start.to_text()}"
        return text + ("".join(f" {m}" if i else f" moves {m}" for i, m in enumerate(game.moves)))

    def check_queries(self, engine: UgiEngine, game: _agon.Game) -> Optional[str]:
        """The first query answer that disagrees with agon-core, described; else None."""
        engine.send(self.position_command(game))
        outcome = game.outcome()
        winner = outcome.winner if outcome is not None else None
        expected = {
            "gameover": "true" if game.is_over() else "false",
            "p1turn": "true" if game.chooser == _agon.Side.WHITE else "false",
            "result": "none" if outcome is None else "draw" if winner is None
            else "p1win" if winner == _agon.Side.WHITE else "p2win",
        }
        for what, want in expected.items():
            got = self.query(engine, what)
            if got != want:
                return f"query {what} at ply {len(game.moves)}: response {got!r}, expected {want!r}"
        return None

    def check_move(self, engine: UgiEngine, game: _agon.Game, limit: Limit) -> tuple[Optional[_agon.Move], float, str]:
        """Asks a move; returns it (None if bad), the time taken, and a fault or ''."""
        engine.send(self.position_command(game))
        allowed = limit.seconds(game.chooser == _agon.Side.WHITE)
        began = time.monotonic()
        engine.send(limit.go())
        line = engine.read_until("bestmove", self.timeout if allowed is None else allowed + 1.0)[-1]
        took = time.monotonic() - began
        words = line.split()
        try:
            move = _agon.Move.parse(words[1] if len(words) > 1 else "")
        except ValueError:
            return None, took, f"unreadable {line[:60]!r} at ply {len(game.moves)}"
        if not game.is_legal(move):
            return None, took, f"illegal bestmove {move} at ply {len(game.moves)}"
        if allowed is not None and took > allowed + MARGIN:
            return move, took, f"bestmove after {took * 1000:.0f} ms, {allowed * 1000:.0f} ms given"
        return move, took, ""

    def commands(self, engine: UgiEngine) -> None:
        """Each command with valid arguments: queries, go under each limit, go infinite."""
        engine.send("uginewgame")
        engine.ping()
        self.report(True, "uginewgame, isready: readyok")
        game = _agon.Game(rules=self.rules)
        fault = self.check_queries(engine, game)
        self.report(fault is None, f"queries at the start: {fault or 'gameover, p1turn, result agree'}")
        rng = random.Random(1)
        for _ in range(5):
            if game.is_over():
                break
            game.push(rng.choice(game.legal_moves()))
        fault = self.check_queries(engine, game)
        self.report(fault is None, f"queries after 5 plies: {fault or 'agree'}")
        fen = _agon.Game(game.position, rules=self.rules)
        fault = self.check_queries(engine, fen)
        self.report(fault is None, f"position fen {game.position.to_text()}: {fault or 'queries agree'}")
        for limit in (Limit(time=0.1), Limit(depth=1), Limit(nodes=100), Limit(clock=Clock(5, 5, 0.1, 0.1))):
            if game.is_over():
                break
            _, took, fault = self.check_move(engine, game, limit)
            self.report(not fault, f"{limit.go()}: {fault or f'legal bestmove in {took * 1000:.0f} ms'}")
        if not game.is_over():
            self.infinite(engine, game)

    def infinite(self, engine: UgiEngine, game: _agon.Game) -> None:
        """``go infinite``: no ``bestmove`` before ``stop``; ``isready`` answered at once
        during the search, which goes on; ``stop`` answered with a legal ``bestmove``. A
        check that fails leaves a fresh engine for the next."""
        engine.send(self.position_command(game))
        engine.send("go infinite")
        early = self.lines_within(engine, 0.3)
        self.report(not any(l.startswith("bestmove") for l in early),
                    "go infinite: no bestmove before stop")
        began = time.monotonic()
        engine.send("isready")
        lines = self.lines_until(engine, "readyok", INFINITE_ANSWER)
        took = f"{(time.monotonic() - began) * 1000:.0f} ms"
        if lines is None:
            self.report(False, f"isready during go infinite: no readyok within {INFINITE_ANSWER:.0f} s")
            self.start()
            return
        ended = any(l.startswith("bestmove") for l in lines)
        self.report(not ended, "isready during go infinite: "
                    + ("the search ended (bestmove before stop)" if ended else f"readyok in {took}"))
        engine.send("stop")
        lines = self.lines_until(engine, "bestmove", INFINITE_ANSWER)
        if lines is None:
            self.report(False, f"stop: no bestmove within {INFINITE_ANSWER:.0f} s")
            self.start()
            return
        words = lines[-1].split()
        legal = len(words) > 1 and _agon_move_ok(game, words[1])
        self.report(legal, f"stop: {'a legal' if legal else 'no legal'} bestmove ({lines[-1][:40]!r})")

    def lines_until(self, engine: UgiEngine, word: str, seconds: float) -> Optional[List[str]]:
        """The lines up to the first whose first word is ``word`` (included), or None if
        it does not come within ``seconds`` (an engine that exits is an error)."""
        try:
            return engine.read_until(word, seconds)
        except EngineTerminatedError:
            raise
        except EngineError:
            return None

    def lines_within(self, engine: UgiEngine, seconds: float) -> List[str]:
        """The lines the engine sends within ``seconds``."""
        lines: List[str] = []
        end = time.monotonic() + seconds
        while True:
            try:
                lines.append(engine.readline(end - time.monotonic()))
            except EngineError as e:
                if "exited" in str(e):
                    raise
                return lines

    def hostile(self, engine: UgiEngine) -> None:
        """Hostile lines: the engine must stay alive and answer isready after each."""
        hostile = [
            "", " ", "x" * (1 << 20), "bogus command", "position", "position fen",
            "position fen garbage text", "position startpos moves zz-99",
            "position startpos moves f1-f3", "setoption", "setoption name", "setoption name NoSuch value 1",
            "go movetime abc", "go depth -1", "go nodes 99999999999999999999999", "query", "query nonsense",
            "\x00\x01\x02", "ugi extra words",
        ]
        for line in hostile:
            shown = repr(line if len(line) < 40 else line[:20] + f"... ({len(line)} bytes)")
            try:
                engine.send(line)
                if line.startswith("go"):
                    engine.send("stop")
                engine.send("isready")
                engine.read_until("readyok", 5.0)
                self.report(True, f"hostile line {shown}: still answers isready")
            except EngineError as e:
                self.report(False, f"hostile line {shown}: {e}")
                engine = self.start()
        # Searches started by hostile `go` lines may still answer: let them drain.
        self.lines_within(engine, 0.3)

    def games(self, count: int, limit: Limit, seed: int) -> None:
        rng = random.Random(seed)
        for g in range(count):
            engine = self.start()
            opponent = _agon.Bot.from_name(OPPONENT, seed + g)
            game = _agon.Game(rules=self.rules)
            for _ in range(rng.randrange(2, 7)):
                if not game.is_over():
                    game.push(rng.choice(game.legal_moves()))
            engine_side = _agon.Side.WHITE if g % 2 == 0 else _agon.Side.BLACK
            clock = limit.clock
            longest, moves, fault = 0.0, 0, ""
            try:
                engine.send("uginewgame")
                engine.ping()
                while not game.is_over() and len(game.moves) < 400 and not fault:
                    if game.chooser == engine_side:
                        lim = Limit(time=limit.time, depth=limit.depth, nodes=limit.nodes, clock=clock)
                        move, took, fault = self.check_move(engine, game, lim)
                        longest, moves = max(longest, took), moves + 1
                        if clock is not None:
                            p1 = engine_side == _agon.Side.WHITE
                            left = (clock.p1time if p1 else clock.p2time) - took + (clock.p1inc if p1 else clock.p2inc)
                            clock = Clock(left if p1 else clock.p1time, clock.p2time if p1 else left,
                                          clock.p1inc, clock.p2inc)
                        if move is None:
                            break
                    else:
                        move = opponent.choose(game)
                        assert move is not None
                    game.push(move)
                    fault = fault or self.check_queries(engine, game) or ""
            except EngineError as e:
                fault = f"{e} at ply {len(game.moves)}"
            side = "White" if engine_side == _agon.Side.WHITE else "Black"
            end = game.outcome()
            summary = (f"{len(game.moves)} plies, {moves} bestmoves legal and in time (longest "
                       f"{longest * 1000:.0f} ms), queries agree, {end.score if end else 'unfinished'}")
            self.report(not fault, f"game {g + 1} (engine {side}): {fault or summary}")

    def run(self, games: int, limit: Limit, seed: int) -> int:
        try:
            engine = self.start()
            self.commands(engine)
            self.hostile(self.engine or engine)
            self.games(games, limit, seed)
        except EngineError as e:
            self.report(False, f"the engine: {e}")
        finally:
            if self.engine is not None:
                self.engine.quit()
        self.out(f"{'FAILED' if self.failures else 'passed'}: {self.failures} failed checks")
        return 1 if self.failures else 0


def _agon_move_ok(game: _agon.Game, text: str) -> bool:
    try:
        return game.is_legal(_agon.Move.parse(text))
    except ValueError:
        return False


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m agon.ugi_check", description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("command", nargs="+", help="the engine's command line")
    p.add_argument("--rules", default="standard", help="the rule set's text (default standard)")
    p.add_argument("--games", type=int, default=2, help="games against the project's engine (default 2)")
    p.add_argument("--tc", type=parse_tc, default=parse_tc("100ms"), help="100ms, 10+0.1, n5000 or d6")
    p.add_argument("--seed", type=int, default=1, help="the seed of the openings")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for an answer")
    args = p.parse_args(argv)
    try:
        rules = _agon.Rules(args.rules)
        command = split_command(args.command[0]) if len(args.command) == 1 else list(args.command)
    except ValueError as e:
        p.error(str(e))
    return Checker(command, rules, args.timeout).run(args.games, args.tc, args.seed)


if __name__ == "__main__":
    sys.exit(main())
