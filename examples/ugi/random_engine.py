#!/usr/bin/env python3
"""A minimal UGI engine for Agon: plays a random legal move. It passes
``python -m agon.ugi_check`` and shows that the protocol takes a few dozen lines; the
``agon`` package gives the rules (positions, legal moves, the end of the game)."""

import random
import sys

import agon

rules, game, rng, pending = agon.Rules.STANDARD, agon.Game(), random.Random(0), None


def say(line: str) -> None:
    print(line, flush=True)


for line in sys.stdin:
    words = line.split()
    try:
        if words[:1] == ["ugi"]:
            say("id name random-engine\nid author agon examples")
            say("option name Rules type string default standard")
            say("option name Seed type spin default 0 min 0 max 4294967295\nugiok")
        elif words[:1] == ["isready"]:
            say("readyok")
        elif words[:4] == ["setoption", "name", "Rules", "value"]:
            rules = agon.Rules(" ".join(words[4:]))
        elif words[:4] == ["setoption", "name", "Seed", "value"]:
            rng = random.Random(int(words[4]))
        elif words[:1] == ["position"]:
            at = words.index("moves") if "moves" in words else len(words)
            start = " ".join(words[2:at]) if words[1:2] == ["fen"] else None
            if start is None and words[1:2] != ["startpos"]:
                raise ValueError("expected startpos or fen")
            game = agon.Game(start and agon.Position(start, rules=rules), words[at + 1:], rules=rules)
        elif words[:1] == ["go"]:
            moves = game.legal_moves()
            pending = f"bestmove {rng.choice(moves) if moves else 'none'}"
            if "infinite" not in words:
                say(pending)
                pending = None
        elif words[:1] == ["stop"] and pending:
            say(pending)
            pending = None
        elif words[:2] == ["query", "gameover"]:
            say(f"response {str(game.is_over()).lower()}")
        elif words[:2] == ["query", "p1turn"]:
            say(f"response {str(game.chooser == agon.Side.WHITE).lower()}")
        elif words[:2] == ["query", "result"]:
            outcome = game.outcome()
            winner = outcome and outcome.winner
            say("response " + ("none" if outcome is None else "draw" if winner is None
                               else "p1win" if winner == agon.Side.WHITE else "p2win"))
        elif words[:1] == ["quit"]:
            break
        elif words and words[0] not in ("uginewgame", "stop", "setoption"):
            say(f"info string error: unknown command {words[0][:40]}")
    except (ValueError, IndexError) as e:
        say(f"info string error: {str(e)[:200]}")
