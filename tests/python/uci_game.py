"""Drive bot engines with python-chess, a real UCI client.

Usage: uci_game.py PLAYER_EXE STOPPER_EXE

PLAYER_EXE plays a whole game against itself under a ticking clock; every move
must be legal. STOPPER_EXE searches until told to stop, to check `stop`,
`info` lines and clock handling. Exits non-zero with a message on any failure.
"""
import sys
import time

import chess
import chess.engine


def whole_game(path):
    engine = chess.engine.SimpleEngine.popen_uci(path, timeout=20)
    assert engine.id.get("name"), engine.id
    board = chess.Board()
    clocks = {chess.WHITE: 5.0, chess.BLACK: 5.0}
    increment = 0.05
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE],
            black_clock=clocks[chess.BLACK],
            white_inc=increment,
            black_inc=increment,
        )
        start = time.monotonic()
        result = engine.play(board, limit)
        spent = time.monotonic() - start
        clocks[board.turn] += increment - spent
        assert clocks[board.turn] > 0, f"lost on time at ply {board.ply()}"
        assert result.move in board.legal_moves, f"illegal {result.move} in {board.fen()}"
        board.push(result.move)
    engine.quit()
    print(f"game over after {board.ply()} plies: {board.result(claim_draw=True)}")


def stop_and_clock(path):
    engine = chess.engine.SimpleEngine.popen_uci(path, timeout=20)
    board = chess.Board()
    board.push_san("e4")
    # An infinite analysis ends with `stop`, and info lines come through.
    with engine.analysis(board) as analysis:
        depth = 0
        for info in analysis:
            depth = info.get("depth", depth)
            if depth >= 3:
                break
        analysis.stop()
        best = analysis.wait()
    assert depth >= 3, "no info lines from the bot"
    assert best.move in board.legal_moves, best
    # With 300 ms on its clock the bot answers with a legal move in time.
    result = engine.play(board, chess.engine.Limit(white_clock=0.3, black_clock=0.3))
    assert result.move in board.legal_moves, result
    engine.quit()
    print("stop, info and clock: ok")


if __name__ == "__main__":
    whole_game(sys.argv[1])
    stop_and_clock(sys.argv[2])
