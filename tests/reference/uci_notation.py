#!/usr/bin/env python3
"""`herald uci` against Fairy-Stockfish's UCI: the same legal moves, written the same way, and the
same FEN, along random games (python3, standard library only).

For every shipped preset that is one of Fairy-Stockfish's UCI_Variant names, a few games of random
moves are played; at each ply both engines get `position startpos moves ...` and answer `go perft 1`
(the moves as each writes them) and `d` (the FEN). Herald must list exactly Fairy-Stockfish's moves,
and its FEN must be Fairy-Stockfish's. Perft counts through draws on both sides, so a game goes on
to its ply limit or to a position with no move.

  python3 tests/reference/uci_notation.py [--games N] [--plies N] [--seed N] [--variant NAME]
                                          [--herald PATH] [--fs PATH]

Prints one line per variant and `N variants agree, N differ`; exits 1 on a difference. Without
Fairy-Stockfish installed it prints `skipped: fairy-stockfish not installed` and exits 0.
"""
import argparse
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Finding Fairy-Stockfish and speaking UCI are fairy_perft.py's (this directory is on the path).
from fairy_perft import Fairy, find_fs


class Engine(Fairy):
    """One UCI engine process: Fairy-Stockfish, or `herald uci` run from the repository."""

    def __init__(self, argv):
        super().__init__(*argv, cwd=ROOT)

    def position(self, variant, moves):
        self.send("setoption name UCI_Variant value " + variant)
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

    def moves(self):
        self.send("go perft 1")
        lines = self.until("Nodes searched")
        return sorted(m.group(1) for m in (re.match(r"^(\S+): \d+$", l) for l in lines) if m)

    def fen(self):
        self.send("d")
        self.send("isready")
        lines = self.until("readyok")
        return next(l[len("Fen:"):].strip() for l in lines if l.startswith("Fen:"))

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


def shipped(herald):
    e = Engine([herald, "uci"])
    names = e.variants
    e.close()
    return names


def compare(fs, he, variant, games, plies, rng):
    """The first difference along random games, or None."""
    for g in range(games):
        moves = []
        for ply in range(plies + 1):
            fs.position(variant, moves)
            he.position(variant, moves)
            want, got = fs.moves(), he.moves()
            if want != got:
                extra, missing = sorted(set(got) - set(want)), sorted(set(want) - set(got))
                return "game %d after `%s`: herald also lists %s, misses %s" % (g + 1, " ".join(moves), extra[:8], missing[:8])
            fw, fh = fs.fen(), he.fen()
            if fw != fh:
                return "game %d after `%s`: FEN %s, fairy-stockfish %s" % (g + 1, " ".join(moves), fh, fw)
            if not want or ply == plies:
                break
            moves.append(rng.choice(want))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--plies", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", action="append", help="only these variants")
    ap.add_argument("--herald", default=os.path.join(ROOT, "target", "release", "herald"))
    ap.add_argument("--fs", help="the fairy-stockfish binary")
    a = ap.parse_args()
    fs_path = find_fs(a.fs)
    if not fs_path:
        print("skipped: fairy-stockfish not installed")
        return 0
    if not os.path.exists(a.herald):
        print("herald not found at %s: run `cargo build --release` or give --herald" % a.herald)
        return 2
    fs, he = Engine([fs_path]), Engine([a.herald, "uci"])
    variants = [v for v in he.variants if v in fs.variants and (not a.variant or v in a.variant)]
    agree = differ = 0
    try:
        for v in variants:
            why = compare(fs, he, v, a.games, a.plies, random.Random("%d %s" % (a.seed, v)))
            if why is None:
                agree += 1
                print("ok   %s" % v)
            else:
                differ += 1
                print("DIFF %s: %s" % (v, why))
            sys.stdout.flush()
    finally:
        fs.close()
        he.close()
    print("%d variants agree, %d differ" % (agree, differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
