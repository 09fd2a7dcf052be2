#!/usr/bin/env python3
"""Measures the kit's C# translator on the C# challenge's whole field.

Fetches the challenge's public results repository into DIR (a shallow, sparse git clone
of its Bots/, RatingsList.txt and BotMetaData.json; skipped when DIR already has them),
then runs `challenge field DIR`, which ports, checks, builds and plays every entry twice
against evil_bot (resumable: run it again after Ctrl-C and it goes on), counts each
entry's C# tokens with csharp_tokens.py, and writes DIR/field/corpus.md: the headline
(translated, built, played without a fault, the published top 30), the first-failure
histogram, the kit tokens of each port against its C# count, and one row per entry with
its published rank.

The entries carry no licence: everything this script makes stays in DIR. Never run it in
CI (it refuses to fetch when CI is set) and never commit what it writes.

Usage: csharp_corpus.py DIR [--no-fetch] [--challenge CMD] [-j N] [--tc TC] [--top N]
  DIR            the folder of entries (created by the clone)
  --no-fetch     use DIR as it is (e.g. a copy made elsewhere)
  --challenge    the `challenge` command to run (default: `cargo run --release
                 --features port --` in this kit)
  -j N           entries worked on at once (default: the number of cores)
  --tc TC        the clock of the two games against evil_bot (default 5+0.05)
  --top N        only the published list's best N entries
"""

import csv
import json
import os
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

REPOSITORY = "https://github.com/SebLague/Tiny-Chess-Bot-Challenge-Results"
KIT = Path(__file__).resolve().parent.parent
WANTED = ["/Bots/", "/RatingsList.txt", "/BotMetaData.json"]


def in_ci():
    return os.environ.get("CI", "") not in ("", "0", "false")


def fetch(folder):
    """A shallow clone of the repository's entries and lists only (it also holds 19,000
    game files the measurement does not need)."""
    if (folder / "Bots").is_dir() and (folder / "RatingsList.txt").is_file():
        return
    if in_ci():
        sys.exit("error: CI is set: this script never fetches the C# entries in CI")
    if folder.exists() and any(folder.iterdir()):
        sys.exit(f"error: {folder} is not empty and has no Bots/: name a new folder")
    run(["git", "clone", "--depth", "1", "--filter=blob:none", "--sparse", REPOSITORY, str(folder)])
    run(["git", "-C", str(folder), "sparse-checkout", "set", "--no-cone", *WANTED])


def run(command, **kwargs):
    print("$ " + " ".join(shlex.quote(word) for word in command), file=sys.stderr)
    done = subprocess.run(command, **kwargs)
    if done.returncode != 0:
        sys.exit(f"error: `{command[0]}` failed with exit code {done.returncode}")
    return done


def csharp_tokens(folder):
    """Each entry's C# token count, by id (`Bot_12`)."""
    files = sorted(str(p) for p in (folder / "Bots").glob("*.cs"))
    counter = KIT / "scripts" / "csharp_tokens.py"
    done = subprocess.run([sys.executable, str(counter), "--json", *files], capture_output=True, text=True)
    counts = {}
    for line in done.stdout.splitlines():
        item = json.loads(line)
        if "tokens" in item:
            counts[Path(item["file"]).stem] = item["tokens"]
    return counts


def markdown(headline, rows, counts):
    lines = headline + ["", "| rank | id | name | Elo | translated | built | played | first failure | C# tokens | kit tokens | kit/C# |", "|---:|---|---|---:|---|---|---|---|---:|---:|---:|"]
    for row in rows:
        cs = counts.get(row["id"])
        kit = int(row["kit_tokens"]) if row["kit_tokens"] else None
        ratio = f"{kit / cs:.2f}" if cs and kit else ""
        failure = f"{row['failed_step']}: {row['construct']}" if row["failed_step"] else ""
        name = row["name"].replace("|", "\\|")
        lines.append(
            f"| {row['rank']} | {row['id']} | {name} | {row['elo']} | {row['translated']} | {row['built']} "
            f"| {row['played']} | {failure} | {cs or ''} | {kit or ''} | {ratio} |"
        )
    return "\n".join(lines) + "\n"


def ratio_line(rows, counts):
    ratios = sorted(
        int(r["kit_tokens"]) / counts[r["id"]]
        for r in rows
        if r["kit_tokens"] and counts.get(r["id"])
    )
    if not ratios:
        return "no port counted yet"
    return (
        f"kit tokens / C# tokens over {len(ratios)} ports: median {statistics.median(ratios):.2f}, "
        f"from {ratios[0]:.2f} to {ratios[-1]:.2f}; "
        f"{sum(1 for r in rows if r['kit_tokens'] and int(r['kit_tokens']) <= 1024)} ports within 1024"
    )


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    folder = Path(argv[0]).expanduser().resolve()
    options = argv[1:]
    challenge = shlex.split(f"cargo run --release --manifest-path {shlex.quote(str(KIT / 'Cargo.toml'))} --features port --")
    passed = []
    fetching = True
    i = 0
    while i < len(options):
        word = options[i]
        if word == "--no-fetch":
            fetching = False
        elif word == "--challenge" and i + 1 < len(options):
            challenge = shlex.split(options[i + 1])
            i += 1
        elif word in ("-j", "--tc", "--top") and i + 1 < len(options):
            passed += [word, options[i + 1]]
            i += 1
        else:
            sys.exit(f"error: unknown option {word} (see --help)")
        i += 1
    if fetching:
        fetch(folder)
    table = folder / "field" / "table.csv"
    summary = run([*challenge, "field", str(folder), "--table", str(table), *passed], stdout=subprocess.PIPE, text=True)
    headline = summary.stdout.rstrip("\n").splitlines()
    with open(table, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    counts = csharp_tokens(folder)
    headline.append(ratio_line(rows, counts))
    out = folder / "field" / "corpus.md"
    out.write_text(markdown(["```"] + headline + ["```"], rows, counts), encoding="utf-8")
    print("\n".join(headline))
    print(f"table: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
