#!/usr/bin/env python3
"""Depth of a game's searches against fresh searches of the same positions.

Why: in byoyomi games YaneuraOu reports deeper middlegame searches than hayate, while
on fresh searches at equal nodes hayate's reported depth is the higher. A search in a
game starts from the table and histories the previous moves left; this measures how
much depth each engine gains from them.

    tools/warm_depth.py ENGINE [--nodes 150000] [--openings FILE] [--games 3]
        [--plies 30] [--one-process] [--option NAME=VALUE ...]

Each game is self-play from one opening (`go nodes N` a move, `usinewgame` only at the
game's start): the warm searches. As in a match, each side is its own process, so a
search finds what that side's own previous search left, two plies back
(`--one-process`: one process plays both sides, and finds the last ply's search too). Then each position of the game is searched again
after `usinewgame` (an empty table and histories): the fresh searches. Prints per game
and in all the mean depth and seldepth, warm and fresh, and how often the two chose the
same move, and the same per stretch of 20 plies (`--stretch`). Node-limited, so a busy machine does not change it.

YaneuraOu's `depth` under a node limit names the iteration in progress when it
stopped; hayate's the last finished one: compare an engine's warm figure with its own
fresh one, not with the other engine's.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from usi_engine import UsiEngine  # noqa: E402


def depth_of(search):
    """(depth, seldepth) of the last line of a search that reported a score."""
    last = search.last
    if last is None:
        return 0, 0
    return last.depth or 0, last.seldepth or last.depth or 0


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("engine")
    a.add_argument("--nodes", type=int, default=150000)
    a.add_argument("--openings", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "src", "tune", "openings.sfen"))
    a.add_argument("--games", type=int, default=3)
    a.add_argument("--first", type=int, default=0, help="the first opening's index")
    a.add_argument("--plies", type=int, default=30)
    a.add_argument("--one-process", action="store_true")
    a.add_argument("--stretch", type=int, default=20, help="plies a row of the breakdown")
    a.add_argument("--option", action="append", default=[])
    o = a.parse_args()
    openings = []
    for line in open(o.openings):
        line = line.strip()
        if line.startswith("position "):
            line = line[len("position "):]
        if line and not line.startswith("#"):
            openings.append(line)
    engine = UsiEngine(o.engine, o.option)
    sides = [engine] if o.one_process else [engine, UsiEngine(o.engine, o.option)]
    limits = "nodes %d" % o.nodes
    total = {"warm": [], "fresh": [], "warm_sel": [], "fresh_sel": [], "same": 0}
    stretches = {}
    for g in range(o.games):
        start = openings[(o.first + g) % len(openings)]
        current = start if " moves" in start else start + " moves"
        for side in sides:
            side.new_game()
        positions, warm, warm_moves = [], [], []
        for ply in range(o.plies):
            s = sides[ply % len(sides)].go(current, limits)
            if s.bestmove in (None, "resign", "win"):
                break
            positions.append(current)
            warm.append(depth_of(s))
            warm_moves.append(s.bestmove)
            current += " " + s.bestmove
        fresh, same = [], 0
        for pos, move in zip(positions, warm_moves):
            engine.new_game()
            s = engine.go(pos, limits)
            fresh.append(depth_of(s))
            same += s.bestmove == move
            row = stretches.setdefault(len(fresh) - 1 - (len(fresh) - 1) % o.stretch,
                                       [0, 0, 0, 0])
            row[0] += 1
            row[1] += warm[len(fresh) - 1][0]
            row[2] += fresh[-1][0]
            row[3] += s.bestmove == move
        n = max(1, len(positions))
        print("game %d: %d positions, warm depth %.2f (sel %.2f), fresh %.2f (sel %.2f),"
              " same move %d" % (
                  g + 1, len(positions), sum(d for d, _ in warm) / n,
                  sum(s for _, s in warm) / n, sum(d for d, _ in fresh) / n,
                  sum(s for _, s in fresh) / n, same), flush=True)
        total["warm"] += [d for d, _ in warm]
        total["fresh"] += [d for d, _ in fresh]
        total["warm_sel"] += [s for _, s in warm]
        total["fresh_sel"] += [s for _, s in fresh]
        total["same"] += same
    n = max(1, len(total["warm"]))
    print("all: %d positions, warm depth %.2f (sel %.2f), fresh %.2f (sel %.2f),"
          " gain %+.2f, same move %d (%.0f%%)" % (
              n, sum(total["warm"]) / n, sum(total["warm_sel"]) / n,
              sum(total["fresh"]) / n, sum(total["fresh_sel"]) / n,
              (sum(total["warm"]) - sum(total["fresh"])) / n, total["same"],
              100.0 * total["same"] / n))
    for first in sorted(stretches):
        count, w, f, agree = stretches[first]
        print("plies %d-%d: %d positions, warm %.2f, fresh %.2f, gain %+.2f, same move %.0f%%"
              % (first + 1, first + o.stretch, count, w / count, f / count, (w - f) / count,
                 100.0 * agree / count))
    for side in sides:
        side.quit()


if __name__ == "__main__":
    main()
