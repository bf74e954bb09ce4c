#!/usr/bin/env python3
"""Instructions a node of one USI engine's search, counted by valgrind, function by function.

A speed measure that a busy machine does not change: each position is searched twice
under `valgrind --tool=callgrind` with `go nodes N` from a fresh process (`usinewgame`,
then `position`), and one more run with `go nodes 1` counts start-up and net loading;
the difference in instructions over the difference in the nodes the engine reported is
the search's cost a node. With symbols in the binary (hayate's always;
YaneuraOu built without `-Wl,-s`, `objcopy --strip-debug` for valgrind 3.19's sake) the
same difference is split by function.

    tools/instructions.py ENGINE [--nodes 300000] [--option NAME=VALUE ...]
        [--positions FILE] [--top 25]

Example, hayate against YaneuraOu on docs/search.md's positions: `tools/instructions.py
target/release/hayate --option USI_Hash=64 --option USI_OwnBook=false` and the same for
`yaneuraou --option Threads=1 --option EvalDir=... --option BookFile=no_book`. Needs
valgrind (`apt-get install valgrind`); a 300,000-node search takes a minute or two.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from search_probe import POSITIONS  # noqa: E402
from usi_engine import UsiEngine, number, read_positions  # noqa: E402

# Enough for an engine under valgrind to write its counts once it has quit.
QUIT_TIMEOUT_S = 600


def run(engine, options, position, go, out):
    """Searches `position` with `go` under callgrind; returns (instructions, nodes)."""
    e = UsiEngine("valgrind --tool=callgrind --callgrind-out-file=%s %s" % (out, engine),
                  options)
    e.new_game()
    search = e.go(position, go)
    e.quit(QUIT_TIMEOUT_S)
    totals = [line for line in open(out) if line.startswith("totals:")]
    if not totals:
        raise RuntimeError("callgrind wrote no totals to " + out)
    nodes = number(search.counts[-1], "nodes", 0) if search.counts else 0
    return int(totals[-1].split()[1]), nodes


def functions(out):
    """Instructions by function (self cost) of one callgrind file."""
    text = subprocess.run(["callgrind_annotate", "--threshold=100", out],
                          capture_output=True, text=True).stdout
    cost = collections.Counter()
    started = False
    for line in text.splitlines():
        if "file:function" in line:
            started = True
            continue
        if not started:
            continue
        if line.startswith("-----") and cost:
            break
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*?):(.*?)( \[.*)?$", line)
        if m:
            cost[re.sub(r"'\d+", "", m.group(3))] += int(m.group(1).replace(",", ""))
    return cost


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("engine", help="the engine's command line")
    a.add_argument("--nodes", type=int, default=300000)
    a.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    a.add_argument("--positions")
    a.add_argument("--top", type=int, default=25)
    o = a.parse_args()
    positions = POSITIONS if o.positions is None else read_positions(o.positions)
    total = collections.Counter()
    all_instr = all_nodes = 0
    with tempfile.TemporaryDirectory() as tmp:
        # Start-up and net loading are the same for every position: one short search
        # counts them (its own few nodes' worth hardly differs between positions).
        base = os.path.join(tmp, "base")
        instr0, nodes0 = run(o.engine, o.option, positions[0], "nodes 1", base)
        f0 = functions(base)
        for i, position in enumerate(positions):
            full = os.path.join(tmp, "full.%d" % i)
            instr, nodes = run(o.engine, o.option, position, "nodes %d" % o.nodes, full)
            d_instr, d_nodes = instr - instr0, max(1, nodes - nodes0)
            all_instr += d_instr
            all_nodes += d_nodes
            print("position %d: %d nodes, %d instructions a node" % (i + 1, d_nodes,
                                                                     d_instr / d_nodes))
            f = functions(full)
            for name in f:
                total[name] += f[name] - f0.get(name, 0)
    print("all: %d nodes, %d instructions a node" % (all_nodes, all_instr / max(1, all_nodes)))
    for name, cost in total.most_common(o.top):
        print("%7.0f  %5.1f%%  %s" % (cost / max(1, all_nodes), 100.0 * cost / max(1, all_instr),
                                      name[:110]))


if __name__ == "__main__":
    main()
