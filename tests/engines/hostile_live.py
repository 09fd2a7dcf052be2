#!/usr/bin/env python3
"""A UCI engine for the live pages' tests: it plays legal moves slowly (0.25 s a move, so
a game can be watched move by move) and says hostile text in its `info` lines: a PV of
markup words and an `info string` with a script tag, which the pages must show as text.

Usage: hostile_live.py
"""
import random
import sys
import time

import chess

board = chess.Board()
rng = random.Random(7)


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "uci":
        send("id name hostile")
        send("uciok")
    elif words[0] == "isready":
        send("readyok")
    elif words[0] == "position":
        if words[1] == "fen":
            end = words.index("moves") if "moves" in words else len(words)
            board = chess.Board(" ".join(words[2:end]))
        else:
            board = chess.Board()
        if "moves" in words:
            for mv in words[words.index("moves") + 1:]:
                board.push_uci(mv)
    elif words[0] == "go":
        time.sleep(0.25)
        moves = sorted(m.uci() for m in board.legal_moves)
        send("info string <script>document.title='owned'</script>")
        send("info depth 4 score cp 17 nodes 1234 pv <img/src=x> <b>bold</b> e2e4")
        send("bestmove " + (rng.choice(moves) if moves else "0000"))
    elif words[0] == "quit":
        break
