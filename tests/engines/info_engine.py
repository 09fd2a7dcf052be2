#!/usr/bin/env python3
"""A UCI engine with scripted `info` lines, for the search-statistics tests.

Usage: info_engine.py MODE [LOG]
  It plays the first legal move in UCI order (python-chess), so every game is legal and
  the same every time. What it says before each `bestmove` depends on MODE:
    talk      `info depth 7 seldepth 9 score cp 12 nodes 7000 nps 70000 time 100 pv MOVE`
    silent    nothing at all
    mismatch  as talk, but the PV starts with `0000`, never the move it plays
    hostile   a volley of malformed, overlong and absurd `info` lines (numbers past every
              integer type, negative counts, control characters, bytes that are not UTF-8,
              a PV of thousands of words), ending with one that claims the largest depth
              and node count there are, with the move played as its PV
  LOG, when given, is a file every line the engine reads is appended to, so a test can
  check the options and limits the runner sent.
"""
import sys

import chess

mode = sys.argv[1]
log = open(sys.argv[2], "a") if len(sys.argv) > 2 else None
board = chess.Board()


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def hostile(move):
    send("info depth 340282366920938463463374607431768211456 nodes 99999999999999999999999999")
    send("info depth -3 nodes -1 time -5 nps abc score cp 2147483648 pv")
    send("info score mate -2147483648 depth")
    send("info depth 5 nodes")
    send("info \x1b[2J\x07 depth 3 nodes 12 pv \x1b[31m" + move)
    send("info string depth 9 nodes 1 pv a1a1")
    send("info pv " + " ".join([move] * 5000))
    send("info depth 2 " + "nodes " * 5000)
    sys.stdout.buffer.write(b"info depth 6 \xff\xfe nodes 10 pv \xc3\x28\n")
    sys.stdout.flush()
    send(f"info depth 4294967295 nodes 18446744073709551615 time 0 nps 0 pv {move}")


for raw in sys.stdin:
    if log:
        log.write(raw)
        log.flush()
    words = raw.split()
    if not words:
        continue
    if words[0] == "uci":
        send("id name info-engine")
        send("option name Skill Level type spin default 20 min 0 max 20")
        send("uciok")
    elif words[0] == "isready":
        send("readyok")
    elif words[0] == "position":
        if words[1] == "startpos":
            board = chess.Board()
            rest = words[2:]
        else:
            board = chess.Board(" ".join(words[2:8]))
            rest = words[8:]
        for uci in rest[1:] if rest[:1] == ["moves"] else []:
            board.push_uci(uci)
    elif words[0] == "go":
        move = min(m.uci() for m in board.legal_moves)
        if mode == "talk":
            send(f"info depth 7 seldepth 9 score cp 12 nodes 7000 nps 70000 time 100 pv {move}")
        elif mode == "mismatch":
            send("info depth 7 score cp 12 nodes 7000 pv 0000")
        elif mode == "hostile":
            hostile(move)
        send(f"bestmove {move}")
    elif words[0] == "quit":
        break
