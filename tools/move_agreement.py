#!/usr/bin/env python3
"""How often two USI engines choose the move a deeper reference search chooses.

A way to compare searches at equal nodes without playing games: positions from real
games, each engine's `go nodes N` move, and the share of positions where it equals the
move of a much longer search (of either engine). The reference favours the engine it
comes from a little (a deep search agrees with its own shallow ones by style), so read
the gap between engines at several node counts, not one figure alone.

  tools/move_agreement.py positions GAMES.jsonl NAME OUT [--count 200] [--seed 43]
      positions where engine NAME is to move, from a `hayate match` games.jsonl
      (plies 6 after the opening to 130; a random sample)
  tools/move_agreement.py collect OUT.jsonl POSITIONS NODES ENGINE [--option K=V ...]
      [--cwd DIR]: each position searched after `usinewgame` with `go nodes NODES`;
      one JSON line each: pos, move, score, depth
  tools/move_agreement.py compare REF.jsonl RUN.jsonl ... [--consensus REF2.jsonl]
      each run's agreement with the reference, its average depth, and its score error
      (the mean distance of its scores from the reference's, both within 3000 cp); with
      --consensus, the agreement counts only the positions where both references chose
      the same move (a second engine's deep search as the other reference takes out most
      of either engine's style)

Example (2026-11-28, docs/search.md): a reference of YaneuraOu at 3,000,000 nodes, then
hayate and YaneuraOu at 20,000, 100,000 and 300,000.
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from usi_engine import UsiEngine  # noqa: E402

# A mate's score in the collected lines, centipawns.
MATE_SCORE = 30000


def positions(args):
    out = []
    for line in open(args.games):
        g = json.loads(line)
        start = g["start"]
        opening = g["opening_moves"]
        # The side to move of the start: `sfen ... b|w ...` or startpos (Black).
        black_first = " w " not in start
        engine_black = g["black"] == args.name
        for i in range(len(g["moves"])):
            ply = len(opening) + i
            if i < 6 or ply > 130:
                continue
            black_to_move = (ply % 2 == 0) == black_first
            if black_to_move != engine_black:
                continue
            out.append("%s moves %s" % (start, " ".join(opening + g["moves"][:i])))
    random.Random(args.seed).shuffle(out)
    with open(args.out, "w") as f:
        f.write("\n".join(out[: args.count]) + "\n")
    print("%d of %d positions written to %s" % (min(args.count, len(out)), len(out), args.out))


def collect(args):
    engine = UsiEngine(args.engine, args.option, args.cwd)
    with open(args.out, "w") as f:
        for pos in open(args.positions).read().split("\n"):
            if not pos:
                continue
            engine.new_game()
            search = engine.go(pos, "nodes %d" % args.nodes)
            last = search.last
            move = search.bestmove
            score = last.score(MATE_SCORE) if last else None
            depth = last.depth if last else None
            f.write(json.dumps(dict(pos=pos, move=move, score=score, depth=depth)) + "\n")
            f.flush()
    engine.quit()


# Scores at or beyond this (centipawns, either sign) are left out of the score error: a
# won or lost position's exact figure says little about the search that found it.
SCORE_ERROR_BOUND = 3000


def rows_of(path):
    """Each position's collected row (pos, move, score, depth) of a collected file."""
    return {r["pos"]: r for r in map(json.loads, open(path))}


def score_error(rows, ref):
    """The mean and median distance of each position's score from the reference's, over
    the positions where both are known and within SCORE_ERROR_BOUND (None if none)."""
    gaps = sorted(abs(r["score"] - ref[pos]["score"]) for pos, r in rows.items()
                  if pos in ref and r["score"] is not None and ref[pos]["score"] is not None
                  and abs(r["score"]) < SCORE_ERROR_BOUND
                  and abs(ref[pos]["score"]) < SCORE_ERROR_BOUND)
    if not gaps:
        return None
    return sum(gaps) / len(gaps), gaps[len(gaps) // 2]


def compare(args):
    ref = rows_of(args.ref)
    moves = {pos: r["move"] for pos, r in ref.items()}
    if args.consensus:
        other = rows_of(args.consensus)
        moves = {pos: mv for pos, mv in moves.items()
                 if pos in other and other[pos]["move"] == mv}
        print("%d positions where both references agree" % len(moves))
    for run in args.runs:
        rows = rows_of(run)
        chosen = [r for pos, r in rows.items() if pos in moves]
        same = sum(r["move"] == moves[r["pos"]] for r in chosen)
        depth = sum(r["depth"] or 0 for r in chosen) / max(1, len(chosen))
        # The score's distance from the deep search's, over every position the
        # reference has (a search that finds the right move for the wrong reason, or
        # the wrong one by a hair, shows here).
        error = score_error(rows, ref)
        error_text = "score error %.0f (median %.0f)" % error if error else ""
        print("%-28s %4d / %4d = %5.1f%%   average depth %.1f   %s"
              % (run, same, len(chosen), 100.0 * same / max(1, len(chosen)), depth,
                 error_text))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("positions")
    p.add_argument("games")
    p.add_argument("name")
    p.add_argument("out")
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=43)
    p.set_defaults(run=positions)
    c = sub.add_parser("collect")
    c.add_argument("out")
    c.add_argument("positions")
    c.add_argument("nodes", type=int)
    c.add_argument("engine", help="the engine's command line")
    c.add_argument("--option", action="append", default=[], help="NAME=VALUE, repeatable")
    c.add_argument("--cwd", default=None, help="the engine's working folder")
    c.set_defaults(run=collect)
    m = sub.add_parser("compare")
    m.add_argument("ref")
    m.add_argument("runs", nargs="+")
    m.add_argument("--consensus", default=None, help="a second reference; only the "
                   "positions where both references chose the same move count")
    m.set_defaults(run=compare)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
