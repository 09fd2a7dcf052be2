#!/usr/bin/env python3
"""Independent reference figures for the rating tests (tests/e2e/challenge_ratings.rs).

Computes, with scipy's general-purpose optimiser rather than the kit's Fisher scoring:

1. The 16-player ladder: each player meets the next one down 20 times (15 wins, 4
   draws, 1 loss for the stronger) and the one two steps down 10 times (9 wins, 1 draw),
   colours alternating. The maximum-likelihood ratings under the kit's model (draw
   parameter fitted, no colour), with --prior 0 and with the default prior 2.
2. A small field rated with BayesElo's `mm` defaults: White advantage 32.8, drawelo
   97.3, prior 2 spread as CCondensedResults::AddPrior does, mean 0, printed as
   scale * elo with scale = 4x/(1+x)^2, x = 10^(-drawelo/400), and the intervals of
   CBradleyTerry::GetVariance (1.96 * scale / sqrt(diagonal of the Hessian)).

Run: python3 -m venv /tmp/venv && /tmp/venv/bin/pip install scipy
     /tmp/venv/bin/python scripts/ladder_ml.py
"""

import math

import numpy as np
from scipy.optimize import minimize


def f(z):
    """BayesElo's f: the probability of scoring against a rating gap of -z Elo."""
    return 1.0 / (1.0 + 10.0 ** (-z / 400.0))


def ladder_games():
    """(white, black, score) triples, player 0 strongest."""
    games = []
    for i in range(16):
        for gap, results in ((1, [1.0] * 15 + [0.5] * 4 + [0.0]), (2, [1.0] * 9 + [0.5])):
            j = i + gap
            if j >= 16:
                continue
            for k, score in enumerate(results):
                games.append((i, j, score) if k % 2 == 0 else (j, i, 1.0 - score))
    return games


def kit_fit(players, games, prior):
    """The kit model: P(win) = f(x - d), P(loss) = f(-x - d), colours ignored."""
    pairs = {}
    for w, b, s in games:
        a, c, s = (w, b, s) if w < b else (b, w, 1.0 - s)
        rec = pairs.setdefault((a, c), [0.0, 0.0, 0.0])
        rec[0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
    opponents = [0] * players
    for a, c in pairs:
        opponents[a] += 1
        opponents[c] += 1
    if prior > 0:
        for (a, c), rec in pairs.items():
            rec[1] += prior / (2 * opponents[a]) + prior / (2 * opponents[c])
    keys = list(pairs)
    a_idx = np.array([a for a, _ in keys])
    c_idx = np.array([c for _, c in keys])
    w, dr, l = (np.array([pairs[k][i] for k in keys]) for i in range(3))
    k = math.log(10) / 400

    def nll(theta):
        """Minus the log-likelihood and its gradient (player 0 fixed at 0)."""
        elo = np.concatenate([[0.0], theta[: players - 1]])
        d = theta[players - 1]
        x = elo[a_idx] - elo[c_idx]
        pw, pl = f(x - d), f(-x - d)
        pd = 1 - pw - pl
        total = np.sum(w * np.log(pw) + l * np.log(pl) + dr * np.log(pd))
        sw, sl = k * pw * (1 - pw), k * pl * (1 - pl)
        gx = w * k * (1 - pw) - l * k * (1 - pl) + dr * (sl - sw) / pd
        gd = np.sum(-w * k * (1 - pw) - l * k * (1 - pl) + dr * (sw + sl) / pd)
        if prior > 0:  # one virtual win, draw and loss for the draw parameter
            p0 = f(-d)
            s0 = k * p0 * (1 - p0)
            total += 2 * math.log(p0) + math.log(1 - 2 * p0)
            gd += -2 * k * (1 - p0) + 2 * s0 / (1 - 2 * p0)
        grad = np.zeros(players)
        np.add.at(grad, a_idx, gx)
        np.add.at(grad, c_idx, -gx)
        return -total, -np.concatenate([grad[1:], [gd]])

    x0 = np.concatenate([np.linspace(0, -300 * (players - 1), players)[1:], [100.0]])
    res = minimize(nll, x0, jac=True, method="BFGS", options={"gtol": 1e-10, "maxiter": 100000})
    elo = np.concatenate([[0.0], res.x[: players - 1]])
    return elo - elo.mean(), res.x[players - 1], res


def bayeselo_field():
    """A small field: (white, black, score) with colours unbalanced on purpose."""
    spec = [  # white, black, white wins, draws, black wins
        (0, 1, 3, 2, 1), (1, 0, 1, 2, 2),
        (0, 2, 4, 1, 0), (2, 0, 1, 1, 2),
        (1, 2, 2, 2, 1), (2, 1, 1, 3, 1),
        (2, 3, 3, 1, 1), (3, 2, 0, 2, 2),
        (1, 3, 4, 0, 0), (3, 0, 0, 1, 3),
    ]
    games = []
    for w, b, ww, d, bw in spec:
        games += [(w, b, 1.0)] * ww + [(w, b, 0.5)] * d + [(w, b, 0.0)] * bw
    return games


def bayeselo_fit(players, games, advantage=32.8, draw_elo=97.3, prior=2.0):
    # Condensed results: key (i, j) = games with i White against j: [wins, draws, losses].
    rec = {}
    true_games = [0] * players
    between = {}
    for w, b, s in games:
        r = rec.setdefault((w, b), [0.0, 0.0, 0.0])
        r[0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
        true_games[w] += 1
        true_games[b] += 1
        key = (min(w, b), max(w, b))
        between[key] = between.get(key, 0) + 1
    # AddPrior: for each player i and each opponent j, ThisPrior = prior*0.25/games(i)*games(i,j)
    # virtual draws with i White and as many with j White.
    for i in range(players):
        for (a, c), n in between.items():
            if i not in (a, c):
                continue
            this = prior * 0.25 / true_games[i] * n
            for key in ((a, c), (c, a)):
                rec.setdefault(key, [0.0, 0.0, 0.0])[1] += this

    def nll(theta):
        elo = np.concatenate([[0.0], theta])
        total = 0.0
        for (w, b), (ww, d, bw) in rec.items():
            pw = f(elo[w] - elo[b] + advantage - draw_elo)
            pb = f(elo[b] - elo[w] - advantage - draw_elo)
            total += ww * math.log(pw) + bw * math.log(pb) + d * math.log(1 - pw - pb)
        return -total

    res = minimize(nll, np.zeros(players - 1), method="BFGS", options={"gtol": 1e-10})
    elo = np.concatenate([[0.0], res.x])
    elo -= elo.mean()
    # GetVariance: the Hessian's diagonal in gamma form, converted to Elo.
    tw, td = 10 ** (advantage / 400), 10 ** (draw_elo / 400)
    gamma = 10 ** (elo / 400)
    diag = np.zeros(players)
    for (w, b), (ww, d, bw) in rec.items():
        gw, gb = gamma[w], gamma[b]
        d1 = tw * gw + td * gb
        d2 = td * tw * gw + gb
        h = ((ww + d) / d1**2 + (bw + d) / d2**2) * gw * gb * td * tw
        diag[w] += h
        diag[b] += h
    x = math.log(10) / 400
    sd = 1 / np.sqrt(diag * x * x)
    xs = 10 ** (-draw_elo / 400)
    scale = 4 * xs / (1 + xs) ** 2
    return scale * elo, scale * 1.959963984540054 * sd, scale, res


def main():
    games = ladder_games()
    for prior in (0.0, 2.0):
        elo, d, res = kit_fit(16, games, prior)
        grad = np.abs(res.jac).max()
        print(f"ladder, kit model, prior {prior}: converged {res.success}, |grad| {grad:.1e}")
        print(f"  drawelo {d:.4f}")
        print("  elo " + ", ".join(f"{e:.4f}" for e in elo))
    elo, interval, scale, res = bayeselo_fit(4, bayeselo_field())
    print(f"bayeselo field: converged {res.success}, scale {scale:.6f}")
    print("  elo " + ", ".join(f"{e:.4f}" for e in elo))
    print("  interval " + ", ".join(f"{e:.4f}" for e in interval))


if __name__ == "__main__":
    main()
