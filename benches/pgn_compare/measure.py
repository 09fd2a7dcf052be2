#!/usr/bin/env python3
"""Measures issue 33's figures in one run: `challenge ratings` (both models, and
`--results-only`) against BayesElo on a 30,000-game file and on ten copies of it, in
time and peak memory; and PGN reading alone, the kit's reader against pgn-reader +
shakmaty, in time and in callgrind instructions.

Every figure is a median over interleaved repetitions (each repetition runs every
command once, in turn), quoted as a ratio to the reference measured in the same run.
Time is wall-clock and CPU (user + system) from /usr/bin/time; peak memory is its
maximum resident set size.

BayesElo is C++ and GPL, and pgn-reader and shakmaty are GPL: none of them is in the
repository. BayesElo is built here from a source folder you give (the folder holding
`bayeselo.cpp`, from Rémi Coulom's BayesElo distribution), and pgn-reader is built
only into this folder's benchmark crate, which is no member of the kit's workspace.

Usage (from the repository's root):
    python3 benches/pgn_compare/measure.py --bayeselo-src PATH/TO/bayeselo/src [--runs 5]
        [--games FILE.pgn]   (default: written by scripts/wide_field_pgn.py)
        [--ratings-only]     (the ratings table alone: a short run for a quiet moment)
Needs: g++, valgrind, python-chess (for scripts/wide_field_pgn.py).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "target" / "pgn_compare"
CHALLENGE = ROOT / "target" / "release" / "challenge"
COMPARE = ROOT / "target" / "release" / "pgn_compare"


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def setup(args):
    WORK.mkdir(parents=True, exist_ok=True)
    bayeselo = WORK / "bayeselo"
    src = Path(args.bayeselo_src)
    if not (src / "bayeselo.cpp").exists():
        sys.exit(f"{src} has no bayeselo.cpp: give the folder of BayesElo's sources")
    # BayesElo's own Makefile: static, -O3.
    run(["g++", "-Os", "-O3", "-static", "-o", str(bayeselo), "bayeselo.cpp"], cwd=src)
    run(["cargo", "build", "--release", "--bin", "challenge"], cwd=ROOT)
    env = dict(os.environ, CARGO_TARGET_DIR=str(ROOT / "target"))
    run(["cargo", "build", "--release"], cwd=ROOT / "benches" / "pgn_compare", env=env)
    one = Path(args.games) if args.games else WORK / "wide30k.pgn"
    if not one.exists():
        run([sys.executable, str(ROOT / "scripts" / "wide_field_pgn.py"), str(one)])
    text = one.read_bytes()
    ten = WORK / "wide30k_x10.pgn"
    if not ten.exists() or ten.stat().st_size != 10 * len(text):
        ten.write_bytes(text * 10)
    # pgn-reader refuses unescaped quotes inside tag values (the kit and BayesElo read
    # them as python-chess does), so the reading comparison escapes them: same games.
    std = WORK / "wide30k_escaped.pgn"
    escaped = re.sub(rb'^(\[\w+ ")(.*)("\]\r?)$', lambda m: m.group(1)
                     + m.group(2).replace(b'\\', b'\\\\').replace(b'"', b'\\"') + m.group(3),
                     text, flags=re.M)
    std.write_bytes(escaped)
    return bayeselo, one, ten, std


def timed(cmd, stdin=None):
    """(wall s, cpu s, peak KB) of one run."""
    out = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M"] + cmd, input=stdin,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    wall, user, system, rss = out.stderr.decode().strip().splitlines()[-1].split()
    return float(wall), float(user) + float(system), int(rss)


def interleaved(commands, runs):
    """Median (wall, cpu, rss) of each named command over interleaved repetitions."""
    samples = {name: [] for name in commands}
    for _ in range(runs):
        for name, (cmd, stdin) in commands.items():
            samples[name].append(timed(cmd, stdin))
    return {name: tuple(statistics.median(s[i] for s in runs_) for i in range(3))
            for name, runs_ in samples.items()}


def ratings_table(bayeselo, files, runs):
    rows = []
    for label, pgn in files:
        script = f"readpgn {pgn}\nelo\nmm\nratings\nx\nx\n".encode()
        commands = {
            "BayesElo readpgn, elo, mm, ratings": ([str(bayeselo)], script),
            "challenge ratings (kit model)": ([str(CHALLENGE), "ratings", str(pgn)], None),
            "challenge ratings --model bayeselo":
                ([str(CHALLENGE), "ratings", "--model", "bayeselo", str(pgn)], None),
            "challenge ratings --results-only":
                ([str(CHALLENGE), "ratings", "--results-only", str(pgn)], None),
        }
        medians = interleaved(commands, runs)
        ref = medians["BayesElo readpgn, elo, mm, ratings"]
        for name, (wall, cpu, rss) in medians.items():
            rows.append(f"| {label} | {name} | {wall:.2f} s ({wall / ref[0]:.2f}x) | "
                        f"{cpu:.2f} s ({cpu / ref[1]:.2f}x) | {rss / 1024:.1f} MB "
                        f"({rss / ref[2]:.2f}x) |")
    return rows


def instructions(cmd):
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
                         + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    refs = re.search(rb"refs:\s+([\d,]+)", out.stderr)
    return int(refs.group(1).replace(b",", b""))


def reading_table(std, runs):
    commands = {
        "pgn-reader + shakmaty": ([str(COMPARE), "pgn-reader", str(std)], None),
        "kit (notation::stream)": ([str(COMPARE), "kit", str(std)], None),
    }
    for name, (cmd, _) in commands.items():
        said = subprocess.run(cmd, capture_output=True, check=True).stdout.decode().strip()
        print(f"  {name}: {said}")
    medians = interleaved(commands, runs)
    ref = medians["pgn-reader + shakmaty"]
    irs = {name: instructions(cmd) for name, (cmd, _) in commands.items()}
    ref_ir = irs["pgn-reader + shakmaty"]
    rows = []
    for name, (wall, cpu, rss) in medians.items():
        rows.append(f"| {name} | {wall:.2f} s ({wall / ref[0]:.2f}x) | {cpu:.2f} s "
                    f"({cpu / ref[1]:.2f}x) | {irs[name] / 1e9:.3f} G ({irs[name] / ref_ir:.3f}x) "
                    f"| {rss / 1024:.1f} MB |")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bayeselo-src", required=True)
    parser.add_argument("--games")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--ratings-only", action="store_true",
                        help="skip the reading comparison (and its callgrind runs)")
    args = parser.parse_args()
    bayeselo, one, ten, std = setup(args)
    print(f"load average at the start: {os.getloadavg()}")
    print("\nratings (median of interleaved runs; ratio to BayesElo in the same run)")
    print("| file | command | wall | CPU | peak RSS |\n|---|---|---|---|---|")
    size = one.stat().st_size / 1e6
    for row in ratings_table(bayeselo, [(f"1x ({size:.1f} MB)", one),
                                        (f"10x ({10 * size:.0f} MB)", ten)], args.runs):
        print(row)
    if args.ratings_only:
        print(f"\nload average at the end: {os.getloadavg()}")
        return
    print("\nPGN reading alone, every move replayed (ratio to pgn-reader + shakmaty)")
    print("| reader | wall | CPU | instructions (callgrind) | peak RSS |\n|---|---|---|---|---|")
    for row in reading_table(std, args.runs):
        print(row)
    print(f"\nload average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
