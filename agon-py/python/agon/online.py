"""Put a bot online: ``python -m agon.online --server URL --token-file F --bot SPEC``.

What lichess-bot is for chess, for agon-web's Bot API (agon-web/README.md, "Bots"): it
connects to the server with a bot account's API token (read from a file, sent only in
``Authorization: Bearer``), accepts the challenges its settings allow, plays each game
with the given bot spec (any spec of ``agon.bots.Bot.from_name``), and logs each game.
Standard library HTTP only.

- The bot's event stream (``GET /api/bot/stream/event``) says which challenges wait and
  which games begin and end. When it drops, the client reconnects (waiting 1 s, then up
  to 30 s); the server announces the games in progress again on every connection, so no
  game is lost.
- Each game is played in its own thread from the game's stream
  (``GET /api/bot/game/stream/{id}``): whenever the bot's side chooses, it replays the
  game's moves (so the bot sees the history, repetition included), asks the bot, and posts
  the move. A dropped game stream is reopened; its first event is the whole state, so no
  move is lost either.
- Clock management: a search without a time limit in its spec (``alphabeta:5``,
  ``mcts:2000``) is given one per move from the clock: a 30th of the time left plus most
  of the increment, at least 50 ms. A spec with its own limit keeps it; ``random`` and
  ``greedy`` take none.

A notebook user puts any function from a position to a move online with ``play_online``:

>>> import agon.online
>>> callable(agon.online.play_online)
True
>>> agon.online.move_budget_ms({"white_ms": 60000, "black_ms": 1000, "increment_ms": 2000}, "white")
3600
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import agon
import agon.bots

log = logging.getLogger("agon.online")

#: A function choosing a move (its text) in a game, given the game as `agon.Game` and the
#: milliseconds it may take; `None` resigns.
Chooser = Callable[["agon.Game", int], Optional[str]]

#: How long a stream may stay silent before it is taken as dropped: the server sends a
#: keep-alive comment every 15 s.
STREAM_TIMEOUT = 45.0


class Client:
    """The Bot API of one server, for the holder of `token`."""

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.token = token.strip()

    def _request(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server + path, data=data, method=method)
        # The token goes in this header only, never in an address.
        request.add_header("Authorization", "Bearer " + self.token)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Tuple[int, Any]:
        """Sends a request: the status and the JSON answer (an error's body too)."""
        try:
            with urllib.request.urlopen(self._request(method, path, body), timeout=30) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            text = e.read()
            try:
                return e.code, json.loads(text or b"null")
            except ValueError:
                return e.code, {"error": "unreadable", "message": text.decode(errors="replace")}

    def events(self, path: str) -> Iterator[Tuple[str, Any]]:
        """The Server-Sent Events of `path`, as (name, data), until the stream ends;
        raises `OSError` (or `urllib.error.HTTPError`) when it cannot open or drops."""
        request = self._request("GET", path)
        request.add_header("Accept", "text/event-stream")
        with urllib.request.urlopen(request, timeout=STREAM_TIMEOUT) as response:
            name, data = "message", []  # type: Tuple[str, List[str]]
            for raw in response:
                line = raw.decode().rstrip("\r\n")
                if not line:
                    if data:
                        yield name, json.loads("\n".join(data))
                    name, data = "message", []
                elif line.startswith(":"):
                    continue
                elif line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())


def move_budget_ms(clock: Optional[Dict[str, Any]], side: str) -> int:
    """The milliseconds a move may take: a 30th of `side`'s time left plus 80% of the
    increment, at least 50 ms; 2 s without a clock."""
    if not clock:
        return 2000
    left = int(clock.get(f"{side}_ms") or 0)
    increment = int(clock.get("increment_ms") or 0)
    return max(50, left // 30 + increment * 4 // 5)


def bot_chooser(spec: str, seed: int = 0) -> Chooser:
    """The chooser of a bot spec (`agon.bots.Bot.from_name`); a spec without a time limit
    gets the clock's budget as one, move by move."""
    agon.bots.Bot.from_name(spec, seed)  # A spec it cannot read fails now, not mid-game.
    # Only the searches take a time limit; one given in the spec stays.
    searches = spec.split(":")[0] in ("mcts", "alphabeta")
    timed = not searches or spec.endswith("ms")

    def choose(game: "agon.Game", budget_ms: int) -> Optional[str]:
        bot = agon.bots.Bot.from_name(spec if timed else f"{spec}:{budget_ms}ms", seed)
        move = bot.choose(game)
        return None if move is None else str(move)

    return choose


class Player:
    """Plays the bot's games on one server with `choose`, accepting the challenges that
    `accept` allows (all, by default)."""

    def __init__(
        self,
        client: Client,
        choose: Chooser,
        accept: Callable[[Dict[str, Any]], bool] = lambda challenge: True,
    ) -> None:
        self.client = client
        self.choose = choose
        self.accept = accept
        self.playing: Dict[str, threading.Thread] = {}
        self.lock = threading.Lock()

    def run(self, stop: Optional[threading.Event] = None) -> None:
        """Follows the bot's event stream until `stop` is set, reconnecting after a drop."""
        stop = stop or threading.Event()
        wait = 1.0
        while not stop.is_set():
            try:
                for name, data in self.client.events("/api/bot/stream/event"):
                    wait = 1.0
                    self.on_event(name, data)
                    if stop.is_set():
                        return
                log.warning("the event stream ended: reconnecting")
            except urllib.error.HTTPError as e:
                if e.code in (400, 401, 403):
                    log.error("the server refuses the token: %s %s", e.code, e.read().decode(errors="replace"))
                    raise
                log.warning("the event stream failed (%s): reconnecting in %.0f s", e, wait)
            except (OSError, ValueError) as e:
                log.warning("the event stream dropped (%s): reconnecting in %.0f s", e, wait)
            stop.wait(wait)
            wait = min(30.0, wait * 2)

    def on_event(self, name: str, data: Dict[str, Any]) -> None:
        if name == "challenge":
            challenge = data["challenge"]
            verb = "accept" if self.accept(challenge) else "decline"
            status, answer = self.client.call("POST", f"/api/challenge/{challenge['id']}/{verb}", {})
            log.info("challenge %s from %s: %s (%s)", challenge["id"], challenge.get("player"), verb, status)
        elif name == "gameStart":
            game = data["game"]
            with self.lock:
                thread = self.playing.get(game["id"])
                if thread is None or not thread.is_alive():
                    log.info("game %s begins: %s against %s", game["id"], game["side"], game.get("opponent"))
                    thread = threading.Thread(target=self.play, args=(game["id"], game["side"]), daemon=True)
                    self.playing[game["id"]] = thread
                    thread.start()
        elif name == "gameFinish":
            game = data["game"]
            outcome = game.get("outcome") or {}
            log.info("game %s over: %s (%s)", game["id"], outcome.get("score"), outcome.get("reason"))

    def play(self, game_id: str, side: str) -> None:
        """Plays game `game_id` as `side` until it is over, reopening its stream after a drop."""
        moved_at = -1
        wait = 1.0
        while True:
            try:
                for name, data in self.client.events(f"/api/bot/game/stream/{game_id}"):
                    wait = 1.0
                    if name == "change":
                        # A change is a difference: read the whole state instead.
                        status, data = self.client.call("GET", f"/api/games/{game_id}?view={side}")
                        if status != 200:
                            continue
                    elif name != "state":
                        continue
                    if data.get("outcome"):
                        return
                    if data["chooser"] != side or data["version"] <= moved_at:
                        continue
                    moved_at = data["version"]
                    self.move(game_id, side, data)
                return
            except (OSError, ValueError) as e:
                log.warning("game %s: the stream dropped (%s): reopening", game_id, e)
                time.sleep(wait)
                wait = min(30.0, wait * 2)

    def move(self, game_id: str, side: str, state: Dict[str, Any]) -> None:
        game = agon.Game(None, state["moves"], rules=state["rules"])
        budget = move_budget_ms(state.get("clock"), side)
        text = self.choose(game, budget)
        if text is None:
            status, _ = self.client.call("POST", f"/api/bot/game/{game_id}/resign", {})
            log.info("game %s: resigned (%s)", game_id, status)
            return
        status, answer = self.client.call("POST", f"/api/bot/game/{game_id}/move/{urllib.parse.quote(text)}", {})
        if status != 200:
            log.warning("game %s: move %s refused: %s", game_id, text, answer)


def play_online(server: str, token: str, choose: Chooser, stop: Optional[threading.Event] = None) -> None:
    """Plays every game offered to the bot of `token` on `server` with `choose` (a
    function of an `agon.Game` and the milliseconds it may take, answering a move's text),
    until `stop` is set."""
    Player(Client(server, token), choose).run(stop)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agon.online", description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the server's address, http://host:port")
    parser.add_argument("--token-file", required=True, help="a file holding the bot's API token")
    parser.add_argument("--bot", required=True, help="a bot spec: alphabeta:5, mcts:2000:500ms, ugi:COMMAND, ...")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--casual-only", action="store_true", help="decline rated challenges")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    with open(args.token_file) as f:
        token = f.read().strip()
    choose = bot_chooser(args.bot, args.seed)
    accept = (lambda c: not c.get("rated")) if args.casual_only else (lambda c: True)
    try:
        Player(Client(args.server, token), choose, accept).run()
    except urllib.error.HTTPError:
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
