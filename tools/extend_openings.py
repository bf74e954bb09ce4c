#!/usr/bin/env python3
"""Makes more openings from fewer: each line is extended by a few plies, each ply one
of the moves an engine scores within a margin of its best, and the lines that end
balanced are kept.

Why: at a node or depth limit with one thread, an engine plays the same game from the
same opening every time, so a match of more than twice as many games as openings
repeats earlier games instead of adding evidence. Extending 200 openings five ways gives
about a thousand, and two thousand distinct games.

    python3 tools/extend_openings.py ENGINE openings.sfen out.sfen \
        [--variants 5] [--plies 2] [--depth 8] [--margin 40] [--balance 150] [--seed 1]

ENGINE is any USI engine that reports `multipv` lines (hayate, YaneuraOu); the input's
lines are `startpos moves ...` or `sfen ... moves ...`. Each output line is an input
line with `--plies` moves added; an input line is kept as it is too.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from usi_engine import UsiEngine, read_positions  # noqa: E402


def candidates(engine, position, depth):
    """The last exact score of each multipv line's first move (cp, the mover's view; a
    mate as +-100000)."""
    search = engine.go(position, "depth %d" % depth)
    return [(move, info.score(100000)) for move, info in search.candidates()]


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("engine")
    a.add_argument("openings")
    a.add_argument("out")
    a.add_argument("--variants", type=int, default=5)
    a.add_argument("--plies", type=int, default=2)
    a.add_argument("--depth", type=int, default=8)
    a.add_argument("--margin", type=int, default=40, help="cp below the best move")
    a.add_argument("--balance", type=int, default=150, help="largest |score| kept")
    a.add_argument("--seed", type=int, default=1)
    o = a.parse_args()
    rng = random.Random(o.seed)
    engine = UsiEngine(o.engine, ["MultiPV=6", "USI_OwnBook=false"])
    out, seen = [], set()
    for line in read_positions(o.openings):
        out.append(line)
        seen.add(line)
        for _ in range(o.variants * 2):
            if sum(1 for x in out if x.startswith(line + " ")) >= o.variants:
                break
            current = line if " moves" in line else line + " moves"
            score = 0
            for _ply in range(o.plies):
                moves = candidates(engine, current, o.depth)
                if not moves:
                    break
                best = max(v for _, v in moves)
                good = [m for m, v in moves if v >= best - o.margin]
                current += " " + rng.choice(good)
            else:
                # The final position, scored by the side to move.
                moves = candidates(engine, current, o.depth)
                score = max((v for _, v in moves), default=100000)
                if abs(score) <= o.balance and current not in seen:
                    seen.add(current)
                    out.append(current)
    engine.quit()
    with open(o.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print("%d openings written to %s" % (len(out), o.out))


if __name__ == "__main__":
    main()
