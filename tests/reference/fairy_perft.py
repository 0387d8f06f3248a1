#!/usr/bin/env python3
"""Herald's perft against Fairy-Stockfish's `go perft`, row by row (python3, standard library only).

Rows come from tests/perft.txt (those whose preset name is one of Fairy-Stockfish's UCI_Variant
names: the preset name IS the variant name, `setup` is Fairy-Stockfish's `startpos`) and from
tests/reference/fairy_positions.txt (same format, deeper rows too slow for `cargo test`).
Herald counts with `--no-draws`, as Fairy-Stockfish's perft does not stop at draws.

  python3 tests/reference/fairy_perft.py [--preset NAME] [--max-depth D] [--max-nodes N]
                                         [--herald PATH] [--fs PATH] [--divide] [FILE...]

Prints one line per comparison and `N passed, N failed`; exits 1 on a mismatch. Without
Fairy-Stockfish installed it prints `skipped: fairy-stockfish not installed` and exits 0.
With `--divide`, a mismatch also prints the root moves whose counts differ (Herald's `--divide`
beside Fairy-Stockfish's per-move lines, matched by from/to squares).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLES = [os.path.join(ROOT, "tests", "perft.txt"), os.path.join(ROOT, "tests", "reference", "fairy_positions.txt")]


def find_fs(given):
    for c in [given, "/usr/games/fairy-stockfish", shutil.which("fairy-stockfish")]:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


class Fairy:
    """One Fairy-Stockfish process spoken to over UCI (or any UCI engine: `argv` after the
    program, `cwd` to run it in; uci_notation.py speaks to `herald uci` through it too)."""

    def __init__(self, path, *argv, cwd=None):
        self.p = subprocess.Popen([path, *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, cwd=cwd)
        self.variants = []
        self.send("uci")
        for line in self.until("uciok"):
            if line.startswith("option name UCI_Variant"):
                self.variants = line.split(" var ")[1:]
                self.variants = [v.strip() for v in self.variants]

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("%s stopped" % os.path.basename(self.p.args[0]))
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def perft(self, variant, fen, depth):
        """The count and the per-move lines of `go perft depth`."""
        self.send("setoption name UCI_Variant value " + variant)
        self.send("position startpos" if fen is None else "position fen " + fen)
        self.send("go perft %d" % depth)
        lines = self.until("Nodes searched:")
        moves = {}
        for line in lines:
            m = re.match(r"^(\S+): (\d+)$", line)
            if m:
                moves[m.group(1)] = int(m.group(2))
        return int(lines[-1].split(":")[1]), moves

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def herald_perft(herald, preset, fen, depth, divide=False):
    cmd = [herald, "perft", preset, str(depth), "--no-draws"]
    if fen is not None:
        cmd += ["--fen", fen]
    if divide:
        cmd.append("--divide")
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        return None, r.stderr.strip(), {}
    m = re.search(r"perft \d+ nodes (\d+)", r.stdout)
    moves = {}
    for line in r.stdout.splitlines():
        k, sep, n = line.rpartition(": ")
        if sep and n.isdigit():
            moves[k] = int(n)
    return int(m.group(1)) if m else None, r.stdout.strip(), moves


def uci_of(turn):
    """Herald's canonical turn (`P e7-e8; Q-e8`, `Q*e4`, `K e1-g1`) as Fairy-Stockfish's key."""
    drop = re.search(r"([A-Za-z(][A-Za-z)]*)\*([a-z]\d+)", turn)
    if drop and "-" not in turn:
        return drop.group(1).strip("()").upper() + "@" + drop.group(2)
    sq = re.findall(r"[a-z]\d+", turn)
    promo = re.search(r";\s*\(?([A-Za-z])[A-Za-z]*\)?-", turn)
    key = "".join(sq[:2])
    return key + (promo.group(1).lower() if promo else "")


def rows(files, preset_only, variants):
    for path in files:
        if not os.path.exists(path):
            continue
        for n, line in enumerate(open(path), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            f = [x.strip() for x in line.split(";")]
            if len(f) != 3:
                print("%s:%d: bad row" % (path, n))
                continue
            if f[0] not in variants or f[1].startswith("seed "):
                continue
            if preset_only and f[0] != preset_only:
                continue
            fen = None if f[1] == "setup" else f[1]
            yield os.path.relpath(os.path.abspath(path), ROOT), n, f[0], fen, [int(x) for x in f[2].split()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", help="perft tables (default: tests/perft.txt and tests/reference/fairy_positions.txt)")
    ap.add_argument("--preset", help="only the rows of this preset")
    ap.add_argument("--max-depth", type=int, default=99, help="compare depths up to this one")
    ap.add_argument("--max-nodes", type=int, default=None, help="skip depths whose table count is above this")
    ap.add_argument("--herald", default=os.path.join(ROOT, "target", "release", "herald"))
    ap.add_argument("--fs", help="the fairy-stockfish binary")
    ap.add_argument("--divide", action="store_true", help="on a mismatch, show the root moves that differ")
    a = ap.parse_args()
    fs_path = find_fs(a.fs)
    if not fs_path:
        print("skipped: fairy-stockfish not installed")
        return 0
    if not os.path.exists(a.herald):
        print("herald not found at %s: run `cargo build --release` or give --herald" % a.herald)
        return 2
    fs = Fairy(fs_path)
    passed = failed = 0
    try:
        for where, n, preset, fen, counts in rows(a.files or TABLES, a.preset, set(fs.variants)):
            for d, want in enumerate(counts, 1):
                if d > a.max_depth or (a.max_nodes is not None and want > a.max_nodes):
                    continue
                got, out, _ = herald_perft(a.herald, preset, fen, d)
                ref, ref_moves = fs.perft(preset, fen, d)
                ok = got == ref == want
                label = "%s:%d %s %s depth %d" % (where, n, preset, fen or "setup", d)
                print("%s %s: herald %s, fairy-stockfish %d, table %d" % ("ok  " if ok else "FAIL", label, got, ref, want))
                if got is None:
                    print("  " + out.replace("\n", "\n  "))
                if ok:
                    passed += 1
                    continue
                failed += 1
                if a.divide and got is not None:
                    _, _, mine = herald_perft(a.herald, preset, fen, d, divide=True)
                    _, theirs = fs.perft(preset, fen, d)
                    ours = {}
                    for k, v in mine.items():
                        ours[uci_of(k)] = (k, v)
                    for key in sorted(set(ours) | set(theirs)):
                        h = ours.get(key, ("-", None))
                        if h[1] != theirs.get(key):
                            print("  %-8s herald %-24s %-10s fairy-stockfish %s" % (key, h[0], h[1], theirs.get(key)))
    finally:
        fs.close()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
