#!/usr/bin/env python3
"""Writes a large PGN file like a real open challenge's, for timing `challenge ratings`.

Players' true strengths span 4,400 Elo; each round pairs players of similar standing
(strength plus noise), colours at random, results drawn from BayesElo's model (White
advantage 30, drawelo 100). Each game has real legal moves (random play with python-chess,
100 to 200 plies, drawn from a pool of 300 such games so the file is quick to write) and
the usual tags, so the file is about 1 KB per game. Some names are
long or carry unescaped inner quotes, as in the C# challenge's tournament file.

Usage: python3 scripts/wide_field_pgn.py OUT.pgn [PLAYERS [GAMES [SEED]]]
       (defaults 600 players, 30000 games, seed 1)
"""

import random
import sys

import chess


def names(players, rng):
    out = []
    for i in range(players):
        if i % 97 == 5:
            out.append(f"Bot {i} (or, \"winning bot\" as an alternative)")
        elif i % 89 == 7:
            out.append(f"Bot {i} " + "with a very long name " * 20)
        else:
            out.append(f"Bot {i:03d}")
    rng.shuffle(out)
    return out


def moves_text(rng, plies):
    board = chess.Board()
    words = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        san = board.san(move)
        if board.turn == chess.WHITE:
            words.append(f"{board.fullmove_number}. {san}")
        else:
            words.append(san)
        board.push(move)
    lines, line = [], ""
    for w in words:
        if len(line) + len(w) + 1 > 79:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return lines


def main():
    out = sys.argv[1]
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 30000
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    strength = [(i / (players - 1) - 0.5) * 4400 for i in range(players)]
    name = names(players, rng)
    pool = [moves_text(rng, rng.randint(100, 200)) for _ in range(300)]
    written = 0
    with open(out, "w") as f:
        rnd = 0
        while written < games:
            rnd += 1
            order = sorted(range(players), key=lambda i: strength[i] + rng.gauss(0, 250))
            for k in range(0, players - 1, 2):
                if written == games:
                    break
                white, black = order[k], order[k + 1]
                if rng.random() < 0.5:
                    white, black = black, white
                diff = strength[white] - strength[black]
                pw = 1 / (1 + 10 ** (-(diff + 30 - 100) / 400))
                pl = 1 / (1 + 10 ** (-(-diff - 30 - 100) / 400))
                r = rng.random()
                result = "1-0" if r < pw else "0-1" if r < pw + pl else "1/2-1/2"
                tags = [
                    ("Event", "Wide field"), ("Site", "local"), ("Date", "2026.01.01"),
                    ("Round", str(rnd)), ("White", name[white]), ("Black", name[black]),
                    ("Result", result), ("Termination", "adjudication"),
                ]
                for t, v in tags:
                    f.write(f'[{t} "{v}"]\n')
                f.write("\n")
                body = list(rng.choice(pool))
                body[-1] += f" {result}"
                f.write("\n".join(body) + "\n\n")
                written += 1


if __name__ == "__main__":
    main()
