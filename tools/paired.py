#!/usr/bin/env python3
"""Two matches on the same openings against the same opponent, compared game by game.

How docs/search.md judges a search switch against YaneuraOu: one match with the
switch, one without, both from the same openings list with both colours and a node
limit, so that game N of each starts from the same position with the same colours.
Pairing the games takes out most of the openings' variance: a game that both settings
win or both lose says nothing about the switch.

    tools/paired.py A_DIR B_DIR [--engine 1]

- `A_DIR`, `B_DIR`: `hayate match --out` folders (their `games.jsonl`), A the change,
  B the baseline.
- `--engine`: which engine of each match is the one compared (1: the first `--engine`,
  as `hayate match` reports it).

Prints, for the games both matches finished: each side's score and Elo, the mean
difference a game with its 95% interval, how many games had the same result; then
each match's own totals.
"""
import argparse
import json
import math


def scores(folder, engine):
    """Game number -> the compared engine's score (1, 0.5 or 0)."""
    result = {}
    with open(f"{folder}/games.jsonl") as f:
        for line in f:
            game = json.loads(line)
            winner = game.get("winner_engine")
            result[game["game"]] = 0.5 if winner is None else float(winner == engine)
    return result


def elo(points, games):
    if games == 0:
        return float("nan")
    share = min(max(points / games, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / share - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--engine", type=int, default=1)
    args = ap.parse_args()
    a, b = scores(args.a, args.engine), scores(args.b, args.engine)
    common = sorted(set(a) & set(b))
    n = len(common)
    sa = sum(a[g] for g in common)
    sb = sum(b[g] for g in common)
    print(f"games in both: {n}")
    print(f"  A {sa:g} of {n} ({elo(sa, n):+.1f})   B {sb:g} of {n} ({elo(sb, n):+.1f})")
    if n > 1:
        diff = [a[g] - b[g] for g in common]
        mean = sum(diff) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diff) / (n - 1))
        same = sum(1 for d in diff if d == 0)
        print(f"  A - B a game: {mean:+.3f} +- {1.96 * sd / math.sqrt(n):.3f} (95%), "
              f"same result in {same}")
    for name, r in (("A", a), ("B", b)):
        points = sum(r.values())
        print(f"{name} in all: {points:g} of {len(r)} ({elo(points, len(r)):+.1f})")


if __name__ == "__main__":
    main()
