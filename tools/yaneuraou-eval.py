#!/usr/bin/env python3
"""Static evaluations from a YaneuraOu NNUE build, for hayate's exactness tests.

usage: yaneuraou-eval.py ENGINE NET POSITIONS FV_SCALE...

ENGINE is a YaneuraOu binary whose `eval` command prints `info string eval N` (as
shared/tools/build-yaneuraou.sh builds them); NET a net file (given to the engine as
EvalDir/nn.bin through a temporary folder); POSITIONS a file of `sfen ...` lines. Prints
one line per position: the sfen, then the evaluation at each FV_SCALE, tab-separated.
"""
import os
import shutil
import subprocess
import sys
import tempfile


def evaluations(engine, evaldir, positions, fv_scale):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1, cwd=evaldir)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        for line in p.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise SystemExit(f"{engine} ended before '{prefix}'")

    send("usi")
    until("usiok")
    for name, value in [("EvalDir", evaldir), ("FV_SCALE", str(fv_scale)),
                        ("Threads", "1"), ("USI_Hash", "16"), ("BookFile", "no_book")]:
        send(f"setoption name {name} value {value}")
    send("isready")
    until("readyok")
    out = []
    for pos in positions:
        send(f"position {pos}")
        send("eval")
        out.append(int(until("info string eval").split()[-1]))
    send("quit")
    p.wait()
    return out


def main():
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    engine, net, positions = sys.argv[1:4]
    scales = [int(v) for v in sys.argv[4:]]
    positions = [l.strip() for l in open(positions) if l.strip()]
    with tempfile.TemporaryDirectory() as d:
        shutil.copyfile(net, os.path.join(d, "nn.bin"))
        columns = [evaluations(os.path.abspath(engine), d, positions, fv) for fv in scales]
    for i, pos in enumerate(positions):
        sfen = pos.removeprefix("sfen ")
        print("\t".join([sfen] + [str(c[i]) for c in columns]))


if __name__ == "__main__":
    main()
