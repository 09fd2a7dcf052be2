"""Drive a bot engine with python-chess under each search limit a GUI sets.

Usage: uci_limits.py ENGINE_EXE

Checks, from the start position and a middlegame: Limit(depth=2) gets a
depth-2 answer (the `info depth` lines go no deeper than 2 and reach it);
Limit(nodes=N) gives the same move every time; Limit(time=T) thinks about T.
Prints one line per check and exits non-zero with a message on any failure.
"""
import sys
import time

import chess
import chess.engine

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"


def depths_seen(engine, board, limit):
    """The depths of every info line of a search under `limit`, and its move."""
    depths = []
    with engine.analysis(board, limit) as analysis:
        for info in analysis:
            if "depth" in info:
                depths.append(info["depth"])
        best = analysis.wait()
    return depths, best.move


def main(path):
    engine = chess.engine.SimpleEngine.popen_uci(path, timeout=20)
    for board in (chess.Board(), chess.Board(MIDDLEGAME)):
        played = engine.play(board, chess.engine.Limit(depth=2), info=chess.engine.INFO_ALL)
        assert played.move in board.legal_moves, played
        assert played.info.get("depth") == 2, f"play(depth=2) answered with {played.info}"
        depths, move = depths_seen(engine, board, chess.engine.Limit(depth=2))
        assert move in board.legal_moves, move
        assert depths and max(depths) == 2, f"depth=2 search reported depths {depths}"
        print(f"depth 2: {move} after info depths {depths}")

        # Each search as a new game (`ucinewgame`), so none starts from another's table.
        moves = {
            engine.play(board, chess.engine.Limit(nodes=20000), game=object()).move
            for _ in range(3)
        }
        assert len(moves) == 1, f"nodes=20000 gave different moves: {moves}"
        print(f"nodes 20000: {moves.pop()} three times")

        start = time.monotonic()
        played = engine.play(board, chess.engine.Limit(time=0.4))
        spent = time.monotonic() - start
        assert played.move in board.legal_moves, played
        assert 0.3 < spent < 1.0, f"time=0.4 took {spent:.3f} s"
        print(f"time 0.4: {played.move} in {spent:.3f} s")
    engine.quit()
    print("search limits: ok")


if __name__ == "__main__":
    main(sys.argv[1])
