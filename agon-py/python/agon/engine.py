"""Driving engines that speak UGI (the Universal Game Interface), shaped after
python-chess's ``chess.engine``.

>>> import sys, agon, agon.engine
>>> command = [sys.executable, "examples/ugi/random_engine.py"]
>>> with agon.engine.UgiEngine.popen(command) as engine:  # doctest: +SKIP
...     result = engine.play(agon.Game(), agon.engine.Limit(time=0.1))
...     agon.Game().is_legal(result.move)
True

- ``UgiEngine.popen(command, timeout=10.0)``: starts the engine (a command line as a
  list, or a string split as a shell would) and walks the handshake (``ugi`` ... ``ugiok``);
  a context manager that quits the engine (and kills it if it does not exit).
- ``engine.play(game, Limit(...))``: the engine's move in ``game`` (an ``agon.Game``, sent
  whole as ``position startpos moves ...``), checked for legality, with the last
  ``info`` line it sent: a ``PlayResult(move, info)``.
- ``engine.analyse(game, limit)``: the last ``info`` of the search, a dict of ``depth``,
  ``seldepth``, ``score`` (a ``Score``: ``cp`` or ``mate``), ``nodes``, ``nps``, ``time``
  (seconds), ``hashfull``, ``pv`` (a list of ``agon.Move``) and ``string``.
- ``engine.configure({"Hash": 64})``: ``setoption`` for each option the engine offers
  (``engine.options``); an option it does not offer is an ``EngineError``.
- ``Limit(time=, depth=, nodes=, clock=)``: ``clock`` a ``Clock(p1time, p2time,
  p1inc, p2inc)`` in seconds (player 1 is White). With no limit, ``movetime`` is 0.1 s.
- ``AsyncUgiEngine``: the same API, ``async`` (``await AsyncUgiEngine.popen(...)``,
  ``async with``); ``UgiEngine`` runs it on an event loop of its own.
- ``engine_bot(command, spec_limits="")``: the engine as an ``agon.bots.Bot`` (the spec
  ``ugi:COMMAND``), for ``agon.tournament``, ``agon.generate`` and ``agon.balance``.

Every read waits at most a timeout (the move's time plus a grace, else ``timeout``): an
engine that hangs, exits or closes its output is an ``EngineError`` (an
``EngineTerminatedError`` when the process ended), never a hang. The rule set of the game
is sent as the ``Rules`` option when it is not the standard one.
"""

from __future__ import annotations

import asyncio
import shlex
from dataclasses import dataclass, field
from types import TracebackType
from typing import Dict, List, Mapping, Optional, Sequence, Type, Union

from . import _agon

__all__ = [
    "AsyncUgiEngine",
    "Clock",
    "EngineError",
    "EngineTerminatedError",
    "Info",
    "Limit",
    "Option",
    "PlayResult",
    "Score",
    "UgiEngine",
    "engine_bot",
    "parse_info",
]

#: Extra time past a move's limit before the engine counts as hung, in seconds.
GRACE = 1.0
#: The move time sent when a limit sets none (that of the project's engine), in seconds.
DEFAULT_MOVETIME = 0.1


class EngineError(RuntimeError):
    """The engine broke the protocol: no answer in time, an unreadable or illegal move,
    an unknown option."""


class EngineTerminatedError(EngineError):
    """The engine process exited or closed its output."""


@dataclass(frozen=True)
class Score:
    """A search's score for the side to act: ``cp`` centipoints, or ``mate`` plies to a
    win (negative: to a loss)."""

    cp: Optional[int] = None
    mate: Optional[int] = None


@dataclass(frozen=True)
class Clock:
    """Both players' remaining times and increments, in seconds (player 1 is White)."""

    p1time: float
    p2time: float
    p1inc: float = 0.0
    p2inc: float = 0.0


@dataclass(frozen=True)
class Limit:
    """When the engine should stop thinking: any of a time per move (seconds), a depth, a
    node budget, a game clock."""

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    clock: Optional[Clock] = None

    def go(self) -> str:
        """The ``go`` command of this limit.

        >>> Limit(time=0.25, depth=3).go()
        'go movetime 250 depth 3'
        >>> Limit(clock=Clock(10, 9.5, 0.1, 0.1)).go()
        'go p1time 10000 p2time 9500 p1inc 100 p2inc 100'
        """
        parts = ["go"]
        c = self.clock
        if c is not None:
            parts += [f"p1time {_ms(c.p1time)} p2time {_ms(c.p2time)}",
                      f"p1inc {_ms(c.p1inc)} p2inc {_ms(c.p2inc)}"]
        if self.time is not None:
            parts.append(f"movetime {_ms(self.time)}")
        if self.depth is not None:
            parts.append(f"depth {int(self.depth)}")
        if self.nodes is not None:
            parts.append(f"nodes {int(self.nodes)}")
        if len(parts) == 1:
            parts.append(f"movetime {_ms(DEFAULT_MOVETIME)}")
        return " ".join(parts)

    def seconds(self, p1_to_act: bool) -> Optional[float]:
        """The time the move may take: the actor's clock, else the move time, else None
        (a depth or node budget only)."""
        if self.clock is not None:
            return self.clock.p1time if p1_to_act else self.clock.p2time
        if self.time is not None:
            return self.time
        if self.depth is None and self.nodes is None:
            return DEFAULT_MOVETIME
        return None


def _ms(seconds: float) -> int:
    return max(0, int(round(seconds * 1000)))


#: An ``info`` line read: see ``parse_info``.
Info = Dict[str, object]


@dataclass(frozen=True)
class PlayResult:
    """The engine's move and the last ``info`` it sent before it."""

    move: _agon.Move
    info: Info = field(default_factory=dict)


@dataclass(frozen=True)
class Option:
    """An option the engine offers: ``option name NAME type TYPE [default D] ...``."""

    name: str
    type: str
    default: Optional[str] = None


_INT_FIELDS = ("depth", "seldepth", "nodes", "nps", "hashfull", "multipv", "currmovenumber")


def parse_info(line: str) -> Info:
    """The fields of an ``info`` line; malformed fields are left out.

    >>> info = parse_info("info depth 3 score cp -12 nodes 400 time 20 pv f1-e1 f11-g10")
    >>> info["depth"], info["score"], info["nodes"], info["time"], [str(m) for m in info["pv"]]
    (3, Score(cp=-12, mate=None), 400, 0.02, ['f1-e1', 'f11-g10'])
    >>> parse_info("info string hello world")
    {'string': 'hello world'}
    """
    words = line.split()[1:]
    info: Info = {}
    i = 0
    while i < len(words):
        key = words[i]
        if key == "string":
            info["string"] = " ".join(words[i + 1:])
            break
        if key == "pv":
            pv: List[_agon.Move] = []
            for text in words[i + 1:]:
                try:
                    pv.append(_agon.Move.parse(text))
                except ValueError:
                    break
            info["pv"] = pv
            i += 1 + len(pv)
            continue
        if key == "score" and i + 2 < len(words) and words[i + 1] in ("cp", "mate"):
            try:
                n = int(words[i + 2])
                info["score"] = Score(cp=n) if words[i + 1] == "cp" else Score(mate=n)
            except ValueError:
                pass
            i += 3
            continue
        if i + 1 < len(words) and (key in _INT_FIELDS or key == "time"):
            try:
                n = int(words[i + 1])
                info[key] = n / 1000 if key == "time" else n
            except ValueError:
                pass
            i += 2
            continue
        i += 1
    return info


def split_command(command: Union[str, Sequence[str]]) -> List[str]:
    """A command line as a list of words: a string is split as a shell would.

    >>> split_command("python3 'my engine.py' --fast")
    ['python3', 'my engine.py', '--fast']
    """
    words = shlex.split(command) if isinstance(command, str) else [str(w) for w in command]
    if not words:
        raise ValueError("an empty engine command")
    return words


class AsyncUgiEngine:
    """A UGI engine process driven with asyncio: see the module's docstring."""

    def __init__(self, process: asyncio.subprocess.Process, timeout: float) -> None:
        self._process = process
        self.timeout = timeout
        #: ``id`` lines of the handshake: ``{"name": ..., "author": ...}``.
        self.id: Dict[str, str] = {}
        #: The options the engine offers, by name.
        self.options: Dict[str, Option] = {}
        self._rules: str = "standard"
        self._game_start: Optional[str] = None

    @classmethod
    async def popen(cls, command: Union[str, Sequence[str]], timeout: float = 10.0) -> AsyncUgiEngine:
        """Starts the engine and walks the handshake; ``EngineError`` if it fails."""
        words = split_command(command)
        try:
            process = await asyncio.create_subprocess_exec(
                *words,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
                limit=1 << 20,
            )
        except OSError as e:
            raise EngineTerminatedError(f"cannot start {words[0]!r}: {e}") from e
        engine = cls(process, timeout)
        try:
            await engine._initialize()
        except BaseException:
            await engine._kill()
            raise
        return engine

    async def __aenter__(self) -> AsyncUgiEngine:
        return self

    async def __aexit__(
        self,
        kind: Optional[Type[BaseException]],
        value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        await self.quit()

    async def send(self, line: str) -> None:
        """Writes one line to the engine; ``EngineTerminatedError`` if it is gone."""
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line.encode() + b"\n")
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as e:
            raise EngineTerminatedError(f"the engine exited (writing {line[:40]!r})") from e

    async def readline(self, timeout: Optional[float] = None) -> str:
        """The engine's next line, within ``timeout`` seconds (``self.timeout`` if None):
        ``EngineError`` past it, ``EngineTerminatedError`` at the end of its output."""
        stdout = self._process.stdout
        assert stdout is not None
        wait = self.timeout if timeout is None else max(0.0, timeout)
        try:
            raw = await asyncio.wait_for(stdout.readline(), wait)
        except asyncio.TimeoutError:
            raise EngineError(f"no answer from the engine within {wait:.2f} s") from None
        except (ValueError, asyncio.LimitOverrunError) as e:
            raise EngineError(f"a line from the engine too long: {e}") from e
        if not raw:
            code = await self._exit_code()
            raise EngineTerminatedError(f"the engine exited (exit code {code})")
        return raw.decode(errors="replace").strip()

    async def _exit_code(self) -> Optional[int]:
        try:
            return await asyncio.wait_for(self._process.wait(), 1.0)
        except asyncio.TimeoutError:
            return None

    async def read_until(self, word: str, timeout: Optional[float] = None) -> List[str]:
        """Lines up to the first whose first word is ``word`` (included), all within
        ``timeout`` seconds in total."""
        loop = asyncio.get_running_loop()
        end = loop.time() + (self.timeout if timeout is None else timeout)
        lines: List[str] = []
        while True:
            line = await self.readline(end - loop.time())
            lines.append(line)
            if line.split()[:1] == [word]:
                return lines

    async def _initialize(self) -> None:
        await self.send("ugi")
        for line in await self.read_until("ugiok"):
            words = line.split()
            if words[:1] == ["id"] and len(words) >= 3:
                self.id[words[1]] = " ".join(words[2:])
            elif words[:2] == ["option", "name"] and "type" in words:
                t = words.index("type")
                name = " ".join(words[2:t])
                kind = words[t + 1] if t + 1 < len(words) else ""
                default = None
                if "default" in words:
                    d = words.index("default")
                    default = " ".join(words[d + 1:d + 2])
                self.options[name] = Option(name, kind, default)

    async def ping(self) -> None:
        """``isready`` ... ``readyok``."""
        await self.send("isready")
        await self.read_until("readyok")

    async def configure(self, options: Mapping[str, object]) -> None:
        """``setoption`` for each option; ``EngineError`` for one the engine lacks."""
        for name, value in options.items():
            known = {n.lower(): n for n in self.options}
            if name.lower() not in known:
                raise EngineError(f"the engine has no option {name!r}: it has {sorted(self.options)}")
            text = str(value).lower() if isinstance(value, bool) else str(value)
            await self.send(f"setoption name {known[name.lower()]} value {text}")
        await self.ping()

    async def _setup(self, game: _agon.Game) -> None:
        rules = str(game.rules)
        if rules != self._rules:
            await self.send(f"setoption name Rules value {rules}")
            self._rules = rules
        start = game.start.to_text() + " " + rules
        if start != self._game_start:
            await self.send("uginewgame")
            await self.ping()
            self._game_start = start
        standard = _agon.Game(rules=game.rules).start
        command = "position startpos" if game.start == standard else f"position fen {game.start.to_text()}"
        if game.moves:
            command += " moves " + " ".join(str(m) for m in game.moves)
        await self.send(command)

    async def _search(self, game: _agon.Game, limit: Limit) -> tuple[str, Info]:
        if game.is_over():
            raise EngineError("the game is over: there is no move to ask for")
        await self._setup(game)
        await self.send(limit.go())
        allowed = limit.seconds(game.chooser == _agon.Side.WHITE)
        wait = self.timeout if allowed is None else allowed + GRACE
        info: Info = {}
        for line in await self.read_until("bestmove", wait):
            if line.startswith("info"):
                parsed = parse_info(line)
                if set(parsed) - {"string"}:
                    info = parsed
        return line, info

    async def play(self, game: _agon.Game, limit: Limit) -> PlayResult:
        """The engine's move in ``game`` with its last ``info``; ``EngineError`` for an
        unreadable or illegal move."""
        line, info = await self._search(game, limit)
        text = line.split()[1] if len(line.split()) > 1 else ""
        try:
            move = _agon.Move.parse(text)
        except ValueError as e:
            raise EngineError(f"unreadable bestmove {line[:60]!r}: {e}") from e
        if not game.is_legal(move):
            raise EngineError(f"illegal bestmove {move} at ply {len(game.moves)}")
        return PlayResult(move, info)

    async def analyse(self, game: _agon.Game, limit: Limit) -> Info:
        """The last ``info`` of a search of ``game`` (its move is dropped)."""
        return (await self._search(game, limit))[1]

    async def quit(self) -> None:
        """``quit``, then kills the engine if it has not exited within a second."""
        if self._process.returncode is None:
            try:
                await self.send("quit")
            except EngineError:
                pass
        try:
            await asyncio.wait_for(self._process.wait(), 1.0)
        except asyncio.TimeoutError:
            await self._kill()

    async def _kill(self) -> None:
        if self._process.returncode is None:
            try:
                self._process.kill()
            except ProcessLookupError:
                pass
        await self._process.wait()


class UgiEngine:
    """The blocking API: ``AsyncUgiEngine`` run on an event loop of this object's own
    (so it is not called from a running event loop)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, engine: AsyncUgiEngine) -> None:
        self._loop = loop
        self.engine = engine

    @classmethod
    def popen(cls, command: Union[str, Sequence[str]], timeout: float = 10.0) -> UgiEngine:
        """Starts the engine and walks the handshake; ``EngineError`` if it fails."""
        loop = asyncio.new_event_loop()
        try:
            engine = loop.run_until_complete(AsyncUgiEngine.popen(command, timeout))
        except BaseException:
            loop.close()
            raise
        return cls(loop, engine)

    @property
    def id(self) -> Dict[str, str]:
        """``id`` lines of the handshake."""
        return self.engine.id

    @property
    def options(self) -> Dict[str, Option]:
        """The options the engine offers, by name."""
        return self.engine.options

    def send(self, line: str) -> None:
        """Writes one line (for tools that speak the protocol themselves)."""
        self._loop.run_until_complete(self.engine.send(line))

    def readline(self, timeout: Optional[float] = None) -> str:
        """The next line within ``timeout`` seconds (see ``AsyncUgiEngine.readline``)."""
        return self._loop.run_until_complete(self.engine.readline(timeout))

    def read_until(self, word: str, timeout: Optional[float] = None) -> List[str]:
        """Lines up to the first starting with ``word``, within ``timeout`` seconds."""
        return self._loop.run_until_complete(self.engine.read_until(word, timeout))

    def ping(self) -> None:
        """``isready`` ... ``readyok``."""
        self._loop.run_until_complete(self.engine.ping())

    def configure(self, options: Mapping[str, object]) -> None:
        """``setoption`` for each option."""
        self._loop.run_until_complete(self.engine.configure(options))

    def play(self, game: _agon.Game, limit: Limit) -> PlayResult:
        """The engine's move in ``game`` with its last ``info``."""
        return self._loop.run_until_complete(self.engine.play(game, limit))

    def analyse(self, game: _agon.Game, limit: Limit) -> Info:
        """The last ``info`` of a search of ``game``."""
        return self._loop.run_until_complete(self.engine.analyse(game, limit))

    def quit(self) -> None:
        """Quits the engine (killing it if needed) and closes the event loop."""
        if self._loop.is_closed():
            return
        try:
            self._loop.run_until_complete(self.engine.quit())
        finally:
            self._loop.close()

    def __enter__(self) -> UgiEngine:
        return self

    def __exit__(
        self,
        kind: Optional[Type[BaseException]],
        value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.quit()


def engine_bot(command: Union[str, Sequence[str]], limits: str = "", seed: int = 0) -> _agon.Bot:
    """The engine as a ``Bot`` of the package (the spec ``ugi:[LIMITS:]COMMAND``, played
    by agon-bots' harness, which checks every move): ``limits`` like ``"100ms"``,
    ``"n5000"`` or ``"d6"``. When the engine fails to give a legal move in time (a crash,
    a hang, an illegal or unreadable move), ``choose`` raises ``RuntimeError`` naming the
    forfeit; the tools that play games (the arena, ``agon.tournament``,
    ``agon.generate``, ``agon.balance``) score it as the engine's loss, the reason
    recorded, and go on with a fresh engine process.

    >>> engine_bot("./my-engine --fast", "n5000").name
    'ugi:n5000:./my-engine --fast'
    """
    words = split_command(command)
    prefix = f"{limits}:" if limits else ""
    return _agon.Bot.from_name(f"ugi:{prefix}{shlex.join(words)}", seed)
