#!/usr/bin/env python3
"""A UCI engine that answers from a script, for the analyser's hand-computed tests.

Usage: scripted.py GO ANSWER...
  GO is the exact `go` line the engine expects (anything else gets no score, so the
  analysis fails and the test shows why).
  ANSWER number i (from 0) is the reply for the position after i moves, as
  KIND:VALUE:BESTMOVE with KIND `cp` or `mate`, e.g. `cp:-30:e7e5`; it is given from the
  side to move, as UCI scores are. A position beyond the script gets no score.
  The answer `hang` never answers `go`, only `stop` (to test Ctrl-C).
"""
import sys

expected_go = sys.argv[1]
answers = [a.split(":") for a in sys.argv[2:]]
ply = 0


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "uci":
        send("id name scripted")
        send("uciok")
    elif words[0] == "isready":
        send("readyok")
    elif words[0] == "position":
        ply = len(words) - words.index("moves") - 1 if "moves" in words else 0
    elif words[0] == "go":
        if raw.strip() != expected_go or ply >= len(answers):
            send("bestmove 0000")
            continue
        if answers[ply] == ["hang"]:
            continue
        kind, value, best = answers[ply]
        send(f"info depth 1 score {kind} {value} nodes 1 pv {best}")
        send(f"bestmove {best}")
    elif words[0] == "stop":
        send("bestmove 0000")
    elif words[0] == "quit":
        break
