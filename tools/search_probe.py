#!/usr/bin/env python3
"""Nodes, depth and time of one USI engine's searches on fixed positions.

How docs/search.md compares searches without playing games: the same `go` on the same
positions for each engine or setting, side by side.

    tools/search_probe.py ENGINE [--go "depth 14"] [--option NAME=VALUE ...]
        [--positions FILE] [--fresh] [--iterations]

- `--go` is what follows `go`: `depth 14` (nodes to a depth), `nodes 1500000` (time for
  a node count: nodes per second), `btime 0 wtime 0 byoyomi 300` (nodes in a time).
- Positions: one `startpos ...` / `sfen ...` line each (a leading `position ` is
  dropped); by default the five of docs/search.md (issue 43's middlegame, two more
  middlegames, a sharp attack, an opening).
- `--fresh` starts a new process for every position (an empty table, as `depth.py`
  did); otherwise one process, `usinewgame` before each.
- `--iterations` prints the nodes at each finished depth (`depth:nodes ...`).

One line per position (depth, nodes, the engine's time, the wall time, the move), then
the totals. Example: `tools/search_probe.py target/release/hayate --go "depth 14"
--option USI_Hash=64 --option USI_OwnBook=false --fresh`.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from usi_engine import UsiEngine, number, read_positions  # noqa: E402

POSITIONS = [
    "sfen lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 13",
    "sfen ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p5P1/2P1P1P1P/PPSP1PS2/2G2K1R1/LN3G1NL b Bb 29",
    "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b 5g5f 3a3b "
    "4i5h 7b8b",
    "sfen ln3k1nl/1r3bg2/p1s1pgspp/2pp1pp2/1p5P1/2PPP1P2/PPS2PS1P/1BG1G2R1/LN2K2NL b - 29",
]


def iterations(search):
    """The nodes when each depth was last reported: `depth:nodes ...`."""
    seen = {}
    for words in search.counts:
        seen[number(words, "depth")] = number(words, "nodes")
    return " ".join("%d:%d" % (d, n) for d, n in sorted(seen.items()))


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("engine", help="the engine's command line")
    a.add_argument("--go", default="depth 14")
    a.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    a.add_argument("--positions")
    a.add_argument("--fresh", action="store_true")
    a.add_argument("--iterations", action="store_true")
    o = a.parse_args()
    total_nodes = total_time = total_wall = 0
    engine = None
    for position in POSITIONS if o.positions is None else read_positions(o.positions):
        if engine is None:
            engine = UsiEngine(o.engine, o.option)
        engine.new_game()
        search = engine.go(position, o.go)
        last = search.counts[-1] if search.counts else []
        depth, nodes, time_ms = (number(last, key, 0) for key in ("depth", "nodes", "time"))
        total_nodes += nodes
        total_time += time_ms
        total_wall += search.wall_ms
        print("depth %3d nodes %10d time %7d wall %7d  %s"
              % (depth, nodes, time_ms, search.wall_ms, search.bestmove))
        if o.iterations:
            print("  " + iterations(search))
        if o.fresh:
            engine.quit()
            engine = None
    if engine is not None:
        engine.quit()
    print("total nodes %d time %d wall %d" % (total_nodes, total_time, total_wall))


if __name__ == "__main__":
    main()
