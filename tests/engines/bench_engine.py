#!/usr/bin/env python3
"""A deterministic UCI engine for `challenge bench` tests (no chess knowledge needed).

Usage: bench_engine.py GO PLACEMENT=MOVE...
  GO is the exact `go` line the engine expects; any other `go` is answered with
  `bestmove 0000` and no info, so a test sees at once that the limit did not arrive.
  The answer in a position is the MOVE of the pair whose PLACEMENT is the position's
  FEN piece placement, or of the pair `*=MOVE` (so answers survive a restart). Special
  moves:
    hang     never answer that `go` (only `stop`), to test the hung-engine timeout;
    crash    exit with status 3 at that `go`, to test the restart;
    nonodes  answer `a2a3` with an info line that has no node count.
  The info line is `info depth D nodes N` where D is the requested depth (1 otherwise)
  and N is the requested node limit, or 1000 * depth + the position's FEN length: the
  same on every run, and different for a different limit or position.
"""
import sys

expected_go = sys.argv[1]
answers = dict(pair.split("=", 1) for pair in sys.argv[2:])
fen = ""


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def limit(words, name):
    return int(words[words.index(name) + 1]) if name in words else None


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "uci":
        send("id name bench-engine")
        send("uciok")
    elif words[0] == "isready":
        send("readyok")
    elif words[0] == "position":
        fen = " ".join(words[2:8]) if len(words) > 2 and words[1] == "fen" else "startpos"
    elif words[0] == "go":
        move = answers.get(fen.split(" ")[0], answers.get("*", "0000"))
        if raw.strip() != expected_go:
            send("bestmove 0000")
            continue
        if move == "hang":
            continue
        if move == "crash":
            sys.exit(3)
        depth = limit(words, "depth") or 1
        nodes = limit(words, "nodes") or 1000 * depth + len(fen)
        if move == "nonodes":
            send(f"info depth {depth} score cp 0 pv a2a3")
            send("bestmove a2a3")
            continue
        send(f"info depth {depth} score cp 10 nodes {nodes} pv {move}")
        send(f"bestmove {move}")
    elif words[0] == "stop":
        send("bestmove 0000")
    elif words[0] == "quit":
        break
