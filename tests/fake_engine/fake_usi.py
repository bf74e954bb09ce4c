#!/usr/bin/env python3
"""A misbehaving USI engine for the match runner's tests.

    python3 fake_usi.py MODE [--after N] [--hayate PATH] [--moves "m1 m2 ..."]
                             [--score CP] [--sleep SECONDS] [--flood BYTES]

The fake answers the protocol itself (usi, isready, setoption, usinewgame, position,
gameover, quit). For its moves it asks a real hayate process (--hayate) with the same
position, so "normal" play is legal play. MODE says what goes wrong, and --after N lets
the first N `go` commands of the process be answered normally first:

  normal     play hayate's moves
  script     play the moves of --moves in order (one per go), then resign; every answer
             is preceded by "info depth 1 score cp <--score>" when --score is given
  crash      exit (status 3, a message on stderr) instead of answering go
  crashstart exit as soon as `usi` arrives
  hang       never answer go
  noready    never answer isready
  illegal    bestmove 1a3b (no piece moves like that, for either side)
  garbage    bestmove xyz
  resign     bestmove resign
  win        bestmove win (an entering-king declaration)
  stderr     write --flood bytes (default 4 MiB) to stderr at start and 64 KiB at every go,
             otherwise normal
  slow       sleep --sleep seconds (default 3) before answering go, then a normal move
  flood      normal moves, but after each one write --flood bytes of info lines to stdout
             while the other engine thinks
  stale      normal moves, each followed by a second, stale "bestmove 1a3b"
  deaf       normal moves; writes its process id to --pidfile, ignores quit and, at the
             end of input, sleeps for an hour (a hung engine behind a wrapper script)
"""

import subprocess
import sys
import time


def arg(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


MODE = sys.argv[1] if len(sys.argv) > 1 else "normal"
AFTER = int(arg("--after", "0"))
HAYATE = arg("--hayate", None)
SCRIPT = arg("--moves", "").split()
SCORE = arg("--score", None)
SLEEP = float(arg("--sleep", "3"))
FLOOD = int(arg("--flood", str(4 * 1024 * 1024)))
PIDFILE = arg("--pidfile", None)


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Hayate:
    """A real engine to ask for moves, started on first use."""

    def __init__(self):
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(
            [HAYATE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.ask("usi", "usiok")
        self.ask("isready", "readyok")

    def ask(self, command, until):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(4)
            line = line.strip()
            lines.append(line)
            if line.startswith(until):
                return lines

    def think(self, position, go):
        if self.proc is None:
            self.start()
        self.proc.stdin.write(position + "\n")
        for line in self.ask(go, "bestmove"):
            say(line)


def main():
    hayate = Hayate()
    position = "position startpos"
    goes = 0
    script = list(SCRIPT)
    if MODE == "stderr":
        sys.stderr.write("e" * FLOOD + "\n")
        sys.stderr.flush()
    if MODE == "deaf" and PIDFILE:
        import os

        with open(PIDFILE, "w") as f:
            f.write(str(os.getpid()))
    while True:
        line = sys.stdin.readline()
        if not line:
            if MODE == "deaf":
                time.sleep(3600)
            return
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if command == "usi":
            if MODE == "crashstart":
                sys.stderr.write("fake engine: crashing at usi\n")
                sys.exit(3)
            say("id name fake-" + MODE)
            say("id author the hayate tests")
            say("usiok")
        elif command == "isready":
            if MODE == "noready":
                time.sleep(3600)
            say("readyok")
        elif command == "position":
            position = line.strip()
        elif command == "go":
            goes += 1
            if goes <= AFTER or MODE in ("normal", "deaf"):
                hayate.think(position, line.strip())
            elif MODE == "flood":
                hayate.think(position, line.strip())
                chunk = "info string " + "f" * 1000 + "\n"
                sys.stdout.write(chunk * (FLOOD // len(chunk) + 1))
                sys.stdout.flush()
            elif MODE == "stale":
                hayate.think(position, line.strip())
                say("bestmove 1a3b")
            elif MODE == "script":
                if SCORE is not None:
                    say("info depth 1 score cp " + SCORE)
                say("bestmove " + (script.pop(0) if script else "resign"))
            elif MODE == "crash":
                sys.stderr.write("fake engine: crashing on purpose\n")
                sys.stderr.flush()
                sys.exit(3)
            elif MODE == "hang":
                time.sleep(3600)
            elif MODE == "illegal":
                say("bestmove 1a3b")
            elif MODE == "garbage":
                say("bestmove xyz")
            elif MODE == "resign":
                say("bestmove resign")
            elif MODE == "win":
                say("bestmove win")
            elif MODE == "stderr":
                sys.stderr.write("e" * 65536 + "\n")
                sys.stderr.flush()
                hayate.think(position, line.strip())
            elif MODE == "slow":
                time.sleep(SLEEP)
                hayate.think(position, line.strip())
            else:
                sys.stderr.write("fake engine: unknown mode " + MODE + "\n")
                sys.exit(2)
        elif command == "quit" and MODE != "deaf":
            return


if __name__ == "__main__":
    main()
