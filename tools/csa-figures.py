#!/usr/bin/env python3
"""Figures of a tools/csa-games.sh run: results, each engine's clock use and the gap
between hayate's clock and the server's.

usage: python3 tools/csa-figures.py OUT_DIR

Reads OUT_DIR/<phase>/<client>/games.jsonl as `hayate csa --out` writes them. Each
client's own moves have `measured_ms` (its own measurement, from the opponent's move
arriving to its move leaving), `times_ms` (what the server charged, whole seconds rounded
down) and `limits_ms` (what the mover had by the server's clock: main time left plus
byoyomi or increment).
"""

import json
import os
import sys


def load(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def own_moves(game):
    """(measured, charged, limit) of the client's own moves."""
    first = game["start"].split()[1] if game.get("start") else "b"
    # The side to move at the first recorded move: the start's, flipped per opening move.
    side = first
    for _ in game["opening_moves"]:
        side = "w" if side == "b" else "b"
    me = "b" if game["color"] == "black" else "w"
    out = []
    for i, measured in enumerate(game["measured_ms"]):
        mover = side if i % 2 == 0 else ("w" if side == "b" else "b")
        if mover == me and measured is not None:
            out.append((measured, game["times_ms"][i], game["limits_ms"][i]))
    return out


def main():
    out = sys.argv[1]
    print(f"{'phase':8} {'games':>5}  hayate: {'W':>2} {'L':>2} {'D':>2} {'-':>2}  reasons")
    totals = {}
    for phase in ["fischer", "byoyomi", "drop"]:
        h = load(os.path.join(out, phase, "hayate", "games.jsonl"))
        g = load(os.path.join(out, phase, "gpsusi", "games.jsonl"))
        if not h and not g:
            continue
        tally = {"win": 0, "lose": 0, "draw": 0, None: 0, "censored": 0}
        reasons = {}
        for game in h:
            tally[game["result"]] = tally.get(game["result"], 0) + 1
            key = game["reason"] or ("error: " + (game["error"] or "?")[:60])
            reasons[key] = reasons.get(key, 0) + 1
        print(
            f"{phase:8} {len(h):5}  hayate: {tally['win']:2} {tally['lose']:2} "
            f"{tally['draw'] + tally['censored']:2} {tally[None]:2}  "
            + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
        )
        for name, games in [("hayate", h), ("gpsusi", g)]:
            moves = [m for game in games for m in own_moves(game)]
            if not moves:
                continue
            mean = sum(m[0] for m in moves) / len(moves)
            worst = max(moves, key=lambda m: m[0] / max(m[2], 1))
            longest = max(moves, key=lambda m: m[0])
            gap = max(game["clock_gap_ms"] for game in games)
            late = max(m[0] - m[1] for m in moves)
            early = min(m[0] - m[1] for m in moves)
            slack = min(m[2] - m[0] for m in moves)
            errors = [game["error"] for game in games if game["error"]]
            print(
                f"  {name:7} {len(moves):4} moves: mean {mean:6.0f} ms; worst share of "
                f"its time {worst[0]}/{worst[2]} ms ({100 * worst[0] / max(worst[2], 1):.0f}%); "
                f"longest {longest[0]} ms of {longest[2]}; own clock vs server's: "
                f"largest gap {gap} ms (per move, own - charged from {early} to {late} ms); "
                f"least time left {slack} ms"
            )
            for e in errors:
                print(f"    error: {e}")
            t = totals.setdefault(name, [])
            t.extend(moves)
    print()
    print("games (hayate's view):")
    for phase in ["fischer", "byoyomi", "drop"]:
        for game in load(os.path.join(out, phase, "hayate", "games.jsonl")):
            print(
                f"  {phase:8} {game['game']:2} {game['color'] or '-':5} "
                f"{game['result'] or 'no result':9} {game['reason'] or '':8} "
                f"{game['plies']:3} plies  {(game['error'] or '')[:70]}"
            )
    print()
    for name, moves in totals.items():
        mean = sum(m[0] for m in moves) / len(moves)
        worst = max(moves, key=lambda m: m[0] / max(m[2], 1))
        print(
            f"all: {name:7} {len(moves)} moves, mean {mean:.0f} ms, worst "
            f"{worst[0]}/{worst[2]} ms ({100 * worst[0] / max(worst[2], 1):.0f}%)"
        )


if __name__ == "__main__":
    main()
