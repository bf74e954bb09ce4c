#!/usr/bin/env python3
"""Nodes per second and depth of USI engines at several thread counts, on fixed positions.

Each engine is started afresh for every (threads, position) pair, given the options, told
`go movetime MS`, and the last `info` line before `bestmove` gives nodes, nps and depth.

usage: thread_scaling.py --threads 1,2,4 --movetime 2000 \
           --engine NAME CMD [--option NAME=VALUE ...] [--engine ...]
           [--sfen "SFEN"] ...    (default: the middlegame of issue 43 and two more)
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from usi_engine import UsiEngine, number  # noqa: E402

POSITIONS = [
    # issue 43's middlegame
    "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 13",
    # bench-like: an opened Yagura-type middlegame and a sharp attack
    "ln1g3nl/1r1sgk1b1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1BS2S1R1/LN1GKG1NL w - 18",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
]


def search(cmd, options, sfen, movetime):
    engine = UsiEngine(cmd, ["%s=%s" % (name, value) for name, value in options])
    engine.new_game()
    result = engine.go("sfen " + sfen, "movetime %d" % movetime)
    engine.quit()
    last = {}
    for words in result.counts:
        for key in ("depth", "nodes", "nps"):
            if key in words:
                last[key] = number(words, key)
    return last, result.wall_ms / 1000.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--movetime", type=int, default=2000)
    ap.add_argument("--sfen", action="append")
    args, rest = ap.parse_known_args()
    engines = []
    i = 0
    while i < len(rest):
        if rest[i] == "--engine":
            engines.append((rest[i + 1], rest[i + 2], []))
            i += 3
        elif rest[i] == "--option":
            name, value = rest[i + 1].split("=", 1)
            engines[-1][2].append((name, value))
            i += 2
        else:
            sys.exit(f"unknown argument {rest[i]}")
    positions = args.sfen or POSITIONS
    threads = [int(t) for t in args.threads.split(",")]
    print("engine\tthreads\tposition\tdepth\tnodes\tnps")
    totals = {}
    for name, cmd, options in engines:
        for t in threads:
            for k, sfen in enumerate(positions):
                last, _ = search(cmd, options + [("Threads", str(t))], sfen, args.movetime)
                print(f"{name}\t{t}\t{k + 1}\t{last.get('depth')}\t{last.get('nodes')}\t"
                      f"{last.get('nps')}", flush=True)
                totals.setdefault((name, t), []).append(last.get("nps", 0))
    print("\nengine\tthreads\tmean nps\tscaling")
    for name, _, _ in engines:
        one = None
        for t in threads:
            nps = sum(totals[(name, t)]) / len(totals[(name, t)])
            one = one or nps
            print(f"{name}\t{t}\t{nps:.0f}\t{nps / one:.2f}x")


if __name__ == "__main__":
    main()
