#!/usr/bin/env python3
"""Herald's atomic perft against python-chess's AtomicBoard (Fairy-Stockfish 11.1 has no atomic).

Compares `herald perft atomic D --no-draws [--fen F]` with a perft written on python-chess's
chess.variant.AtomicBoard, for the `atomic` rows of tests/perft.txt and
tests/reference/fairy_positions.txt and for the positions below (explosions next to a king,
kings that touch, en passant captures that explode, a capture that wins by blowing up the king).

  python3 tests/reference/atomic_perft.py [--max-depth D] [--max-nodes N] [--herald PATH] [--divide]

Prints one line per comparison and `N passed, N failed`; exits 1 on a mismatch. Without
python-chess it prints `skipped: python-chess not installed` and exits 0.
"""
import argparse
import os
import sys

# Running Herald and reading the perft tables are fairy_perft.py's (this directory is on the path).
from fairy_perft import ROOT, TABLES, herald_perft, rows, uci_of

# (FEN, depth): positions chosen for the rules that differ from chess.
POSITIONS = [
    # Kings that touch: neither is in check, the rook's "check" does not count.
    ("8/8/8/3kK3/8/8/8/R7 w - - 0 1", 4),
    ("8/8/8/3kK3/8/8/8/r7 w - - 0 1", 4),
    # A capture next to one's own king would blow it up: illegal (and a king never captures).
    ("4k3/8/8/8/8/8/3n4/3QK3 w - - 0 1", 4),
    # The rook takes the queen next to the king: the explosion wins at once.
    ("4k3/4q3/8/8/8/8/4R3/4K3 w - - 0 1", 4),
    # In check, but blowing up the checker's king is legal too.
    ("3qk3/3p4/8/8/8/8/8/3RK2q w - - 0 1", 3),
    # En passant: the explosion is around d6, where the pawn lands, and takes the knight on c7.
    ("4k3/2n5/8/3pP3/8/8/8/4K3 w - d6 0 1", 4),
    ("r3k2r/8/8/2PpP3/8/8/8/R3K2R w KQkq d6 0 1", 3),
    # Castling past squares attacked only where the enemy king stands next to them.
    ("8/8/8/8/8/8/5k2/4K2R w K - 0 1", 4),
    # Midgame positions reached by random play (python-chess).
    ("rn6/6p1/2p1kp2/p2p4/P7/1PP1P3/R2P4/2BK4 w - - 2 16", 4),
    ("r1b1k3/ppp4p/4p3/3p1p2/3P4/1PP1P2P/P2K4/R1B1Q3 w q - 0 16", 4),
    ("2r2bnr/p3k1p1/3p3p/4p3/P7/5PPN/2P4P/RNB1K2R w KQ - 1 16", 3),
    ("rnbqkb1r/pp1p1ppp/5n2/2p1p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 4", 3),
]


def python_perft(board, depth):
    if depth == 0:
        return 1
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        board.push(m)
        n += python_perft(board, depth - 1)
        board.pop()
    return n


def python_divide(board, depth):
    out = {}
    for m in list(board.legal_moves):
        board.push(m)
        out[m.uci()] = python_perft(board, depth - 1)
        board.pop()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-depth", type=int, default=99)
    ap.add_argument("--max-nodes", type=int, default=None, help="skip table depths whose count is above this")
    ap.add_argument("--herald", default=os.path.join(ROOT, "target", "release", "herald"))
    ap.add_argument("--divide", action="store_true", help="on a mismatch, show the root moves that differ")
    a = ap.parse_args()
    try:
        import chess.variant
    except ImportError:
        print("skipped: python-chess not installed")
        return 0
    if not os.path.exists(a.herald):
        print("herald not found at %s: run `cargo build --release` or give --herald" % a.herald)
        return 2
    jobs = []
    for path, n, _, fen, counts in rows(TABLES, "atomic", {"atomic"}):
        where = "%s:%d" % (path, n)
        for d, want in enumerate(counts, 1):
            if d <= a.max_depth and (a.max_nodes is None or want <= a.max_nodes):
                jobs.append((where, fen, d, want))
    for fen, depth in POSITIONS:
        for d in range(1, min(depth, a.max_depth) + 1):
            jobs.append(("atomic_perft.py", fen, d, None))
    passed = failed = 0
    for where, fen, d, want in jobs:
        board = chess.variant.AtomicBoard(fen) if fen else chess.variant.AtomicBoard()
        ref = python_perft(board, d)
        got, out, _ = herald_perft(a.herald, "atomic", fen, d)
        ok = got == ref and (want is None or want == ref)
        table = "" if want is None else ", table %d" % want
        print("%s %s %s depth %d: herald %s, python-chess %d%s" % ("ok  " if ok else "FAIL", where, fen or "setup", d, got, ref, table))
        if got is None:
            print("  " + out.replace("\n", "\n  "))
        if ok:
            passed += 1
            continue
        failed += 1
        if a.divide and got is not None:
            _, _, turns = herald_perft(a.herald, "atomic", fen, d, divide=True)
            mine = {uci_of(k): (k, n) for k, n in turns.items()}
            theirs = python_divide(board, d)
            for key in sorted(set(mine) | set(theirs)):
                h = mine.get(key, ("-", None))
                if h[1] != theirs.get(key):
                    print("  %-8s herald %-24s %-10s python-chess %s" % (key, h[0], h[1], theirs.get(key)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
