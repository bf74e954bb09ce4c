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
(`--one-process`: one process plays both sides, and finds the last ply's search too).
Then each position of the game is searched again after `usinewgame` (an empty table and
histories): the fresh searches. Prints per game, in all and per stretch of `--stretch`
plies the mean depth, warm and fresh, the gain, and how often the two chose the same
move (per game and in all the seldepth too). Node-limited, so a busy machine does not
change it.

YaneuraOu's `depth` under a node limit names the iteration in progress when it
stopped; hayate's the last finished one: compare an engine's warm figure with its own
fresh one, not with the other engine's.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from usi_engine import UsiEngine, read_positions  # noqa: E402


def depth_of(search):
    """(depth, seldepth) of the last line of a search that reported a score."""
    last = search.last
    if last is None:
        return 0, 0
    return last.depth or 0, last.seldepth or last.depth or 0


def summary(records):
    """Means of (warm depth, warm seldepth, fresh depth, fresh seldepth, same move)."""
    n = max(1, len(records))
    return [sum(r[i] for r in records) / n for i in range(5)]


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
    openings = read_positions(o.openings)
    engine = UsiEngine(o.engine, o.option)
    sides = [engine] if o.one_process else [engine, UsiEngine(o.engine, o.option)]
    limits = "nodes %d" % o.nodes
    # One record a position: (warm depth, warm seldepth, fresh depth, fresh seldepth,
    # same move, ply after the opening).
    records = []
    for g in range(o.games):
        start = openings[(o.first + g) % len(openings)]
        current = start if " moves" in start else start + " moves"
        for side in sides:
            side.new_game()
        warm = []
        for ply in range(o.plies):
            s = sides[ply % len(sides)].go(current, limits)
            if s.bestmove in (None, "resign", "win"):
                break
            warm.append((current, s.bestmove, depth_of(s)))
            current += " " + s.bestmove
        game = []
        for ply, (position, move, warm_depth) in enumerate(warm):
            engine.new_game()
            s = engine.go(position, limits)
            game.append((*warm_depth, *depth_of(s), int(s.bestmove == move), ply))
        w, ws, f, fs, same = summary(game)
        print("game %d: %d positions, warm depth %.2f (sel %.2f), fresh %.2f (sel %.2f),"
              " same move %d" % (g + 1, len(game), w, ws, f, fs, round(same * len(game))),
              flush=True)
        records += game
    w, ws, f, fs, same = summary(records)
    print("all: %d positions, warm depth %.2f (sel %.2f), fresh %.2f (sel %.2f),"
          " gain %+.2f, same move %d (%.0f%%)" % (
              len(records), w, ws, f, fs, w - f, round(same * len(records)), 100 * same))
    for first in range(0, o.plies, o.stretch):
        rows = [r for r in records if first <= r[5] < first + o.stretch]
        if rows:
            w, _, f, _, same = summary(rows)
            print("plies %d-%d: %d positions, warm %.2f, fresh %.2f, gain %+.2f,"
                  " same move %.0f%%" % (first + 1, first + o.stretch, len(rows), w, f,
                                         w - f, 100 * same))
    for side in sides:
        side.quit()


if __name__ == "__main__":
    main()
