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
  tools/move_agreement.py compare REF.jsonl RUN.jsonl ...
      each run's agreement with the reference and its average depth

Example (2026-11-28, docs/search.md): a reference of YaneuraOu at 3,000,000 nodes, then
hayate and YaneuraOu at 20,000, 100,000 and 300,000.
"""
import argparse
import json
import random
import subprocess


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


class Engine:
    def __init__(self, command, options, cwd):
        self.p = subprocess.Popen(command.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1, cwd=cwd)
        self.send("usi")
        self.wait("usiok")
        for option in options:
            name, value = option.split("=", 1)
            self.send("setoption name %s value %s" % (name, value))
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        for line in self.p.stdout:
            if line.startswith(token):
                return line
        raise RuntimeError("the engine stopped before '%s'" % token)

    def go(self, position, nodes):
        self.send("usinewgame")
        self.send("isready")
        self.wait("readyok")
        self.send("position " + position)
        self.send("go nodes %d" % nodes)
        score = depth = None
        for line in self.p.stdout:
            t = line.split()
            if t and t[0] == "info" and "score" in t and "pv" in t:
                i = t.index("score")
                if t[i + 1] == "cp":
                    score = int(t[i + 2])
                elif t[i + 1] == "mate":
                    score = -30000 if t[i + 2].startswith("-") else 30000
                depth = int(t[t.index("depth") + 1])
            if t and t[0] == "bestmove":
                return t[1], score, depth
        raise RuntimeError("the engine stopped before bestmove")

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()


def collect(args):
    engine = Engine(args.engine, args.option, args.cwd)
    with open(args.out, "w") as f:
        for pos in open(args.positions).read().split("\n"):
            if not pos:
                continue
            move, score, depth = engine.go(pos, args.nodes)
            f.write(json.dumps(dict(pos=pos, move=move, score=score, depth=depth)) + "\n")
            f.flush()
    engine.quit()


def compare(args):
    ref = {}
    for line in open(args.ref):
        r = json.loads(line)
        ref[r["pos"]] = r["move"]
    for run in args.runs:
        rows = [json.loads(line) for line in open(run)]
        rows = [r for r in rows if r["pos"] in ref]
        same = sum(r["move"] == ref[r["pos"]] for r in rows)
        depth = sum(r["depth"] or 0 for r in rows) / max(1, len(rows))
        print("%-28s %4d / %4d = %5.1f%%   average depth %.1f"
              % (run, same, len(rows), 100.0 * same / max(1, len(rows)), depth))


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
    m.set_defaults(run=compare)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
