#!/usr/bin/env python3
"""A UCI engine that misbehaves on cue, for the match runner's fault tests.

Usage: faulty.py FAULT [AT]
  FAULT is one of: none, crash, stall, late, illegal, garbage, null, memlimit, nostart,
  signal (late: answers after 0.8 s, past a short clock; null: `bestmove 0000`, as a kit
  bot's `think` returning `Move::NULL` answers), or one of the hostile ones:
    longline     an `info string` line of 100 KiB
    endless      stdout without a newline, without end
    stderrflood  20 MB of stderr without a newline, then a crash
    stderrjunk   stderr lines with terminal escapes, bidi overrides and NULs, then a crash
    leakpaths    stderr lines naming where it runs (its own path, the interpreter's, its
                 working and home directories, the host name), as a panic would, then a crash
    junkmove     `bestmove` with terminal escapes and a bidi override
    badname      an `id name` with terminal escapes and a bidi override (otherwise plays)
    hugescore    `info score cp -2147483648` and huge depth/nodes (otherwise plays)
    slowready    sleeps 0.6 s before its AT-th `readyok` (a slow bot construction)
    breach       reports a construction-limit breach before its AT-th `readyok`, as the
                 bots' host does
  AT is the number of this engine's `go` (1-based) at which it misbehaves (default 1);
  for slowready and breach, the number of its `isready`.

Until then it plays legal moves (python-chess), always the first in sorted UCI order,
so games are reproducible.
"""
import os
import signal
import sys
import time

import chess

fault = sys.argv[1] if len(sys.argv) > 1 else "none"
at = int(sys.argv[2]) if len(sys.argv) > 2 else 1

if fault == "nostart":
    sys.stderr.write("bot error: refusing to start\n")
    sys.exit(3)

board = chess.Board()
searches = 0
readies = 0


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        if fault == "badname":
            send("id name \x1b]0;owned\x07faulty\u202eeman\x00")
        else:
            send("id name faulty-" + fault)
        send("uciok")
    elif cmd == "isready":
        readies += 1
        if readies == at and fault == "slowready":
            time.sleep(0.6)
        if readies == at and fault == "breach":
            send("info string limit breach: constructing the bot took 6001 ms; the limit is 5000 ms")
        send("readyok")
    elif cmd == "position":
        if words[1] == "startpos":
            board = chess.Board()
            rest = words[2:]
        else:
            end = words.index("moves") if "moves" in words else len(words)
            board = chess.Board(" ".join(words[2:end]))
            rest = words[end:]
        if rest and rest[0] == "moves":
            for m in rest[1:]:
                board.push_uci(m)
    elif cmd == "go":
        searches += 1
        if searches >= at and fault != "none":
            if fault == "crash":
                sys.stderr.write("bot error: panicked at 'index out of bounds'\n")
                sys.stderr.flush()
                sys.exit(101)
            if fault == "memlimit":
                sys.stderr.write("bot error: memory limit of 256 MiB exceeded\n")
                sys.stderr.flush()
                sys.exit(86)
            if fault == "signal":
                sys.stderr.write("thread 'bot' has overflowed its stack\n")
                sys.stderr.flush()
                os.kill(os.getpid(), signal.SIGABRT)
            if fault == "stall":
                # Never answer; wait for the runner to give up and kill us.
                for _ in sys.stdin:
                    pass
                sys.exit(0)
            if fault == "late":
                time.sleep(0.8)
            if fault == "longline":
                send("info string " + "x" * (100 * 1024))
                send("bestmove " + sorted(m.uci() for m in board.legal_moves)[0])
                continue
            if fault == "endless":
                try:
                    while True:
                        sys.stdout.write("y" * 65536)
                        sys.stdout.flush()
                except (BrokenPipeError, OSError):
                    sys.exit(0)
            if fault == "stderrflood":
                chunk = "e" * (1 << 20)
                for _ in range(20):
                    sys.stderr.write(chunk)
                sys.stderr.write("\nthe last words\n")
                sys.stderr.flush()
                sys.exit(101)
            if fault == "stderrjunk":
                for i in range(100):
                    sys.stderr.write("junk %d \x1b[2J\u202eevil\x00 [Result \"1-0\"]\r\n" % i)
                sys.stderr.flush()
                sys.exit(101)
            if fault == "leakpaths":
                import socket
                here = os.path.abspath(__file__)
                sys.stderr.write("thread 'main' panicked at %s:12:5:\n" % here)
                sys.stderr.write("exe %s interpreter %s\n" % (os.path.realpath("/proc/self/exe"), sys.executable))
                sys.stderr.write("cwd %s home %s host %s\n" % (os.getcwd(), os.path.expanduser("~"), socket.gethostname()))
                sys.stderr.write("the author's own words\n")
                sys.stderr.write("note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n")
                sys.stderr.flush()
                sys.exit(101)
            if fault == "junkmove":
                send("bestmove \x1b[31me2e4\u202e" + "z" * 5000)
                continue
            if fault == "hugescore":
                send("info depth 99999999999 score cp -2147483648 nodes 999999999999999999999 pv")
                send("info score mate -2147483648")
            if fault == "illegal":
                send("bestmove e1e8")
                continue
            if fault == "garbage":
                send("bestmove banana")
                continue
            if fault == "null":
                send("bestmove 0000")
                continue
        moves = sorted(m.uci() for m in board.legal_moves)
        send("info depth 1 score cp 0 nodes 1 pv " + moves[0])
        send("bestmove " + moves[0])
    elif cmd == "quit":
        break
