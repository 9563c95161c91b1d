"""agon.online against a real agon-web (issue 33, point 4): a bot (`random`) accepts a
person's challenge, plays the game to its end, and survives its streams being cut
mid-game (a proxy between it and the server drops every connection once).

Needs the server binary (`cargo build -p agon-web`; `AGON_WEB` names another): skipped
without it. The bot account, its token and the person's session are written into the
server's SQLite file directly (a passkey ceremony has no place here).
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import random
import re
import socket
import sqlite3
import subprocess
import threading
import time
import urllib.error
import urllib.request
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

import agon.online

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVER = pathlib.Path(os.environ.get("AGON_WEB", ROOT / "target" / "debug" / "agon-web"))

pytestmark = pytest.mark.skipif(not SERVER.exists(), reason=f"no agon-web binary at {SERVER}")


class Proxy:
    """A TCP proxy to `target` whose `cut()` drops every connection open through it."""

    def __init__(self, target: Tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.open: List[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> int:
        with self.lock:
            cut, self.open = self.open, []
        for s in cut:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        return len(cut) // 2


def secret(alphabet: str = "0123456789abcdefghjkmnpqrstvwxyz") -> str:
    return "".join(random.choice(alphabet) for _ in range(32))


@pytest.fixture
def server(tmp_path: pathlib.Path) -> Iterator[Tuple[str, int, pathlib.Path]]:
    db = tmp_path / "games.sqlite3"
    process = subprocess.Popen(
        [str(SERVER), "--addr", "127.0.0.1:0", "--db", str(db), "--workers", "1",
         "--create-limit", "off", "--create-global", "off",
         "--action-limit", "off", "--action-global", "off"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"listening on ([0-9.]+):(\d+)", line)
        assert match, line
        yield match.group(1), int(match.group(2)), db
    finally:
        process.terminate()
        process.wait(10)


def call(base: str, method: str, path: str, body: Optional[Dict[str, Any]] = None,
         cookie: Optional[str] = None) -> Tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("Origin", base.replace("127.0.0.1", "localhost"))
    if cookie:
        request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def test_a_bot_online_accepts_a_challenge_plays_it_and_survives_a_cut(
    server: Tuple[str, int, pathlib.Path], tmp_path: pathlib.Path
) -> None:
    host, port, db = server
    base = f"http://{host}:{port}"
    token, session = "agon_" + secret(), secret()
    now = int(time.time() * 1000)
    with sqlite3.connect(db) as conn:
        for id, name, bot in (("00000000000000d4", "Robo", 1), ("00000000000000a1", "Zoe", 0)):
            conn.execute(
                "INSERT INTO accounts (id, username, username_key, skeleton, user_handle, created_ms, bot) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (id, name, name.lower(), name.lower(), bytes([ord(id[-1])]) * 32, now, bot),
            )
        conn.execute(
            "INSERT INTO api_tokens (digest, id, account_id, name, created_ms) VALUES (?, ?, ?, ?, ?)",
            (hashlib.sha256(token.encode()).digest(), "00000000000000f1", "00000000000000d4", "test", now),
        )
        conn.execute(
            "INSERT INTO sessions (digest, account_id, label, created_ms, last_used_ms) VALUES (?, ?, ?, ?, ?)",
            (hashlib.sha256(session.encode()).digest(), "00000000000000a1", "test", now, now),
        )
    token_file = tmp_path / "token"
    token_file.write_text(token + "\n")
    proxy = Proxy((host, port))
    stop = threading.Event()
    cut_once = threading.Event()
    player = agon.online.Player(
        agon.online.Client(f"http://127.0.0.1:{proxy.port}", token_file.read_text()),
        agon.online.bot_chooser("random", seed=3),
    )
    runner = threading.Thread(target=player.run, args=(stop,), daemon=True)
    runner.start()
    time.sleep(0.5)  # the bot's stream opens

    cookie = f"agon_session={session}"
    # Casual, with a move limit: the game ends within 40 moves whatever is played.
    status, posted = call(base, "POST", "/api/lobby/challenges",
                          {"username": "Robo", "control": "5+3", "rules": "standard+limit=40", "colour": "white"},
                          cookie)
    assert status == 201, posted
    seat = posted["token"]
    game_id = None
    for _ in range(100):
        status, games = call(base, "GET", "/api/players/zoe/games", cookie=cookie)
        if status == 200 and games["games"]:
            game_id = games["games"][0]["id"]
            break
        time.sleep(0.1)
    assert game_id, "the bot accepted the challenge"
    rng = random.Random(5)
    deadline = time.time() + 60
    while time.time() < deadline:
        status, state = call(base, "GET", f"/api/games/{game_id}")
        assert status == 200
        if state["outcome"]:
            break
        if state["chooser"] == "white":
            if len(state["moves"]) >= 6 and not cut_once.is_set():
                # Mid-game, every stream of the bot is cut: it must reconnect and go on.
                assert proxy.cut() >= 2
                cut_once.set()
            move = rng.choice(state["legal_moves"])
            status, answer = call(base, "POST", f"/api/games/{game_id}/moves",
                                  {"token": seat, "move": move}, cookie)
            assert status == 200, answer
        else:
            time.sleep(0.05)
    stop.set()
    assert state["outcome"], "the game ended"
    assert state["outcome"]["reason"] not in ("time-forfeit", "aborted"), state["outcome"]
    assert cut_once.is_set()
    assert len(state["moves"]) >= 7, "the bot moved after the cut"
    # The bot played Black's moves: every other move, all legal (the server checked).
    assert state["players"]["black"]["username"] == "Robo"
    replay = agon.Game(None, state["moves"], rules="standard+limit=40")
    assert replay.ply == len(state["moves"])
