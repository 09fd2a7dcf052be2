#!/usr/bin/env python3
"""Builds openings/default.epd: the kit's default suite of balanced opening positions.

Each line below is a well-known opening played for 6-10 plies. The script replays it
with python-chess (so a typo fails loudly), evaluates the final position with Stockfish
at a modest depth and keeps it when |eval| <= MAX_CP, so neither colour starts with a
clear advantage. Pairs of games with swapped colours remove what bias is left.

Usage: python3 scripts/make_openings.py [--stockfish /usr/games/stockfish] [--depth 14]
Writes openings/default.epd (one EPD line per position, with `hmvc` and `fmvn` its move
counters, so a bot sees the game's real ply count, `id` naming the opening and `ce` the
Stockfish evaluation, from White's point of view, in centipawns).
"""
import argparse
import os
import sys

import chess
import chess.engine

MAX_CP = 60

LINES = [
    ("Ruy Lopez, Morphy Defence", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6"),
    ("Ruy Lopez, Berlin Defence", "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4"),
    ("Ruy Lopez, Closed", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7"),
    ("Italian Game, Giuoco Piano", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6"),
    ("Italian Game, Two Knights", "e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Be7"),
    ("Scotch Game", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6"),
    ("Four Knights Game", "e4 e5 Nf3 Nc6 Nc3 Nf6 Bb5 Bb4"),
    ("Petrov Defence", "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4"),
    ("Philidor Defence", "e4 e5 Nf3 d6 d4 Nf6 Nc3 Nbd7"),
    ("Vienna Game", "e4 e5 Nc3 Nf6 g3 d5 exd5 Nxd5"),
    ("King's Gambit Declined", "e4 e5 f4 Bc5 Nf3 d6 c3 Nf6"),
    ("Bishop's Opening", "e4 e5 Bc4 Nf6 d3 c6 Nf3 d5"),
    ("Sicilian, Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"),
    ("Sicilian, Dragon", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6"),
    ("Sicilian, Scheveningen", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nf6 Nc3 d6"),
    ("Sicilian, Taimanov", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6 Nc3 Qc7"),
    ("Sicilian, Sveshnikov", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 e5"),
    ("Sicilian, Kan", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 a6 Bd3 Nf6"),
    ("Sicilian, Alapin", "e4 c5 c3 Nf6 e5 Nd5 d4 cxd4"),
    ("Sicilian, Closed", "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7 d3 d6"),
    ("Sicilian, Rossolimo", "e4 c5 Nf3 Nc6 Bb5 g6 O-O Bg7"),
    ("French, Winawer", "e4 e6 d4 d5 Nc3 Bb4 e5 c5"),
    ("French, Classical", "e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7"),
    ("French, Tarrasch", "e4 e6 d4 d5 Nd2 Nf6 e5 Nfd7"),
    ("French, Advance", "e4 e6 d4 d5 e5 c5 c3 Nc6"),
    ("French, Exchange", "e4 e6 d4 d5 exd5 exd5 Nf3 Nf6"),
    ("Caro-Kann, Classical", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6"),
    ("Caro-Kann, Advance", "e4 c6 d4 d5 e5 Bf5 Nf3 e6"),
    ("Caro-Kann, Exchange", "e4 c6 d4 d5 exd5 cxd5 Bd3 Nc6"),
    ("Pirc Defence", "e4 d6 d4 Nf6 Nc3 g6 Nf3 Bg7"),
    ("Modern Defence", "e4 g6 d4 Bg7 Nc3 d6 Be3 a6"),
    ("Scandinavian Defence", "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6"),
    ("Alekhine Defence", "e4 Nf6 e5 Nd5 d4 d6 Nf3 Bg4"),
    ("Queen's Gambit Declined", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7"),
    ("Queen's Gambit Declined, Exchange", "d4 d5 c4 e6 Nc3 Nf6 cxd5 exd5"),
    ("Queen's Gambit Accepted", "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6"),
    ("Slav Defence", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4"),
    ("Semi-Slav Defence", "d4 d5 c4 c6 Nf3 Nf6 Nc3 e6"),
    ("Tarrasch Defence", "d4 d5 c4 e6 Nc3 c5 cxd5 exd5"),
    ("Nimzo-Indian, Rubinstein", "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O"),
    ("Nimzo-Indian, Classical", "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O"),
    ("Queen's Indian Defence", "d4 Nf6 c4 e6 Nf3 b6 g3 Bb7"),
    ("Bogo-Indian Defence", "d4 Nf6 c4 e6 Nf3 Bb4+ Bd2 Qe7"),
    ("Catalan Opening", "d4 Nf6 c4 e6 g3 d5 Bg2 Be7"),
    ("King's Indian, Classical", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O"),
    ("King's Indian, Fianchetto", "d4 Nf6 c4 g6 Nf3 Bg7 g3 O-O Bg2 d6"),
    ("Grunfeld Defence", "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5"),
    ("Benoni Defence", "d4 Nf6 c4 c5 d5 e6 Nc3 exd5 cxd5 d6"),
    ("Dutch, Leningrad", "d4 f5 g3 Nf6 Bg2 g6 Nf3 Bg7"),
    ("Dutch, Stonewall", "d4 e6 c4 f5 g3 Nf6 Bg2 d5"),
    ("London System", "d4 d5 Bf4 Nf6 e3 e6 Nf3 c5"),
    ("Trompowsky Attack", "d4 Nf6 Bg5 e6 e4 h6 Bxf6 Qxf6"),
    ("Colle System", "d4 d5 Nf3 Nf6 e3 e6 Bd3 c5"),
    ("English, Symmetrical", "c4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7"),
    ("English, Reversed Sicilian", "c4 e5 Nc3 Nf6 g3 d5 cxd5 Nxd5"),
    ("English, Four Knights", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5"),
    ("English, Anglo-Indian", "c4 Nf6 Nc3 e6 e4 d5 e5 d4"),
    ("Reti Opening", "Nf3 d5 c4 e6 g3 Nf6 Bg2 Be7"),
    ("King's Indian Attack", "Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4"),
    ("Reti, Symmetrical", "Nf3 Nf6 g3 g6 Bg2 Bg7 O-O O-O"),
    ("Bird Opening", "f4 d5 Nf3 Nf6 e3 g6 Be2 Bg7"),
    ("Larsen Opening", "b3 e5 Bb2 Nc6 e3 d5 Bb5 Bd6"),
    ("Sokolsky Opening", "b4 e5 Bb2 Bxb4 Bxe5 Nf6 c4 O-O"),
    ("Nimzowitsch Defence", "e4 Nc6 Nf3 d6 d4 Nf6 Nc3 Bg4"),
    ("Owen Defence", "e4 b6 d4 Bb7 Bd3 e6 Nf3 c5"),
    ("Budapest Gambit", "d4 Nf6 c4 e5 dxe5 Ng4 Bf4 Nc6"),
    ("Old Indian Defence", "d4 Nf6 c4 d6 Nc3 Nbd7 e4 e5"),
    ("Benko Gambit Declined", "d4 Nf6 c4 c5 d5 b5 Nf3 g6"),
    ("Chigorin Defence", "d4 d5 c4 Nc6 Nc3 dxc4 Nf3 Nf6"),
    ("Ponziani Opening", "e4 e5 Nf3 Nc6 c3 Nf6 d4 Nxe4"),
    ("Center Game", "e4 e5 d4 exd4 Qxd4 Nc6 Qe3 Nf6"),
    ("Torre Attack", "d4 Nf6 Nf3 e6 Bg5 c5 e3 h6"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "openings", "default.epd"))
    args = parser.parse_args()

    kept, dropped = [], []
    with chess.engine.SimpleEngine.popen_uci(args.stockfish) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        for name, line in LINES:
            board = chess.Board()
            for san in line.split():
                board.push_san(san)
            info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
            cp = info["score"].white().score(mate_score=100000)
            (kept if abs(cp) <= MAX_CP else dropped).append((name, board, cp))

    with open(args.out, "w") as out:
        for name, board, cp in kept:
            counters = f"hmvc {board.halfmove_clock}; fmvn {board.fullmove_number};"
            out.write(f'{board.epd()} {counters} ce {cp}; id "{name}";\n')
    for name, _, cp in dropped:
        print(f"dropped (eval {cp:+d} cp): {name}", file=sys.stderr)
    print(f"kept {len(kept)} of {len(LINES)} positions in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
