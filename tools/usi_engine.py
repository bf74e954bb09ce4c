"""A USI engine driven from Python: the one client the tools in this folder share.

    from usi_engine import UsiEngine
    engine = UsiEngine("./hayate", ["USI_Hash=256", "USI_OwnBook=false"])
    engine.new_game()
    result = engine.go("startpos moves 7g7f", "nodes 100000")
    result.bestmove, result.last.depth, result.last.nodes, result.lines
    engine.quit()

`read_positions(path)` reads a file of `startpos ...` / `sfen ...` lines (openings,
probe positions) for the scripts that take one.

Works with any engine that speaks USI (hayate, YaneuraOu, gpsusi, Fairy-Stockfish).
"""
import shlex
import subprocess
import time


def read_positions(path):
    """The `startpos ...` / `sfen ...` lines of a file (a leading `position ` dropped;
    blank lines and `#` comments skipped)."""
    out = []
    for line in open(path):
        line = line.strip()
        if line.startswith("position "):
            line = line[len("position "):]
        if line and not line.startswith("#"):
            out.append(line)
    return out


def number(words, key, default=None):
    """The integer after `key` in an `info` line's words (`default` without one)."""
    return int(words[words.index(key) + 1]) if key in words else default


class Info:
    """One `info` line with a score and a line (`pv`), as the engine reported it."""

    def __init__(self, words):
        self.depth = number(words, "depth")
        self.seldepth = number(words, "seldepth")
        self.nodes = number(words, "nodes")
        self.time = number(words, "time")
        self.multipv = number(words, "multipv", 1)
        i = words.index("score")
        # `cp N` or `mate N` (`mate +` / `mate -` when the distance is unknown).
        self.mate = None
        self.cp = None
        if words[i + 1] == "mate":
            text = words[i + 2]
            self.mate = -1 if text.startswith("-") else 1
            digits = text.lstrip("+-")
            if digits.isdigit():
                self.mate *= max(1, int(digits))
        else:
            self.cp = int(words[i + 2])
        self.bound = ("lower" if "lowerbound" in words
                      else "upper" if "upperbound" in words else None)
        self.pv = words[words.index("pv") + 1:]

    def score(self, mate_value):
        """The score in centipawns, a mate counted as +-`mate_value`."""
        if self.mate is not None:
            return mate_value if self.mate > 0 else -mate_value
        return self.cp


class Search:
    """What one `go` produced: the move, every scored info line, and the wall time."""

    def __init__(self, bestmove, lines, counts, wall_ms):
        self.bestmove = bestmove
        self.lines = lines
        # Every info line with `depth` and `nodes` (with or without a score), for the
        # nodes at each finished iteration.
        self.counts = counts
        self.wall_ms = wall_ms

    @property
    def last(self):
        """The last scored line of the first multipv rank (None without one)."""
        firsts = [x for x in self.lines if x.multipv == 1]
        return firsts[-1] if firsts else None

    def candidates(self):
        """Each multipv rank's last exact line: [(first move, Info)] by rank."""
        ranks = {}
        for x in self.lines:
            if x.bound is None and x.pv:
                ranks[x.multipv] = x
        return [(ranks[k].pv[0], ranks[k]) for k in sorted(ranks)]


class UsiEngine:
    def __init__(self, command, options=(), cwd=None):
        """Starts `command` (a command line; words split as a shell would), sends `usi`
        and the options (`NAME=VALUE` each), and waits until it is ready."""
        self.p = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, bufsize=1, cwd=cwd)
        self.send("usi")
        self.wait("usiok")
        for option in options:
            name, value = option.split("=", 1)
            self.send("setoption name %s value %s" % (name, value))
        self.ready()

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        """Reads until a line whose first word is `token`; returns that line."""
        for line in self.p.stdout:
            if line.split()[:1] == [token]:
                return line
        raise RuntimeError("the engine stopped before '%s'" % token)

    def ready(self):
        self.send("isready")
        self.wait("readyok")

    def new_game(self):
        self.send("usinewgame")
        self.ready()

    def go(self, position, limits):
        """`position POSITION`, then `go LIMITS` (e.g. `nodes 100000`, `depth 14`,
        `btime 0 wtime 0 byoyomi 300`); returns the Search."""
        self.send("position " + position)
        start = time.monotonic()
        self.send("go " + limits)
        lines, counts = [], []
        for line in self.p.stdout:
            words = line.split()
            if words[:1] == ["bestmove"]:
                wall = int((time.monotonic() - start) * 1000)
                return Search(words[1] if len(words) > 1 else None, lines, counts, wall)
            if words[:1] != ["info"]:
                continue
            if "depth" in words and "nodes" in words:
                counts.append(words)
            if "score" in words and "pv" in words:
                lines.append(Info(words))
        raise RuntimeError("the engine stopped before bestmove")

    def quit(self, timeout=10):
        """`quit`, then up to `timeout` seconds for the engine to exit before it is killed
        (longer for one under valgrind, which writes its counts on the way out)."""
        try:
            self.send("quit")
            self.p.wait(timeout)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()
