#!/usr/bin/env python3
"""An independent Modern Chaturanga perft in plain Python, to cross-check the preset.

Written from the rules in the issue, sharing no code with Herald:
  python3 tests/reference/modern_chaturanga_perft.py [DEPTH] [FEN]
Kings may be left attacked; a captured king loses; the bare-king rule; no checkmate or stalemate;
a side with no move loses. A finished game has no moves (perft counts no leaves below it).
"""
import sys

START = "rnekcenr/pppppppp/8/8/8/8/PPPPPPPP/RNECKENR w - - 0 1"
KING8 = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
FERZ = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def parse(fen):
    rows, side = fen.split()[:2]
    board = {}
    for r, row in enumerate(rows.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 7 - r)] = ch
                f += 1
    return board, side


def white(p):
    return p.isupper()


def moves(board, side):
    out = []
    for (f, r), p in board.items():
        if white(p) != (side == "w"):
            continue
        fwd = 1 if white(p) else -1
        kind = p.upper()

        def add(t, quiet=True, capture=True):
            if not (0 <= t[0] < 8 and 0 <= t[1] < 8):
                return False
            q = board.get(t)
            if q is None:
                if quiet:
                    out.append(((f, r), t))
                return True
            if capture and white(q) != white(p):
                out.append(((f, r), t))
            return False

        if kind in "KG":
            for dx, dy in KING8:
                add((f + dx, r + dy))
        elif kind == "C":
            for dx, dy in FERZ:
                add((f + dx, r + dy))
        elif kind == "E":
            for dx, dy in FERZ + [(0, fwd)]:
                add((f + dx, r + dy))
        elif kind == "N":
            for dx, dy in KNIGHT:
                add((f + dx, r + dy))
        elif kind == "R":
            for dx, dy in ROOK:
                t = (f + dx, r + dy)
                while add(t):
                    t = (t[0] + dx, t[1] + dy)
        elif kind == "P":
            add((f, r + fwd), capture=False)
            for dx in (-1, 1):
                add((f + dx, r + fwd), quiet=False)
    return out


def play(board, side, m):
    b = dict(board)
    p = b.pop(m[0])
    rel = m[1][1] if white(p) else 7 - m[1][1]
    if p.upper() == "P" and rel == 5:
        p = "C" if white(p) else "c"
    elif p.upper() == "C" and rel == 7:
        p = "G" if white(p) else "g"
    b[m[1]] = p
    return b, ("b" if side == "w" else "w")


def over(board, side):
    """Whether the game is over with `side` to move (the other side has just moved)."""
    kings = {white(p) for p in board.values() if p.upper() == "K"}
    if len(kings) < 2:
        return True
    me = side == "w"
    mine = sum(1 for p in board.values() if white(p) == me and p.upper() != "K")
    theirs = sum(1 for p in board.values() if white(p) != me and p.upper() != "K")
    return (mine == 0 and theirs == 0) or (mine == 0 and theirs >= 2) or theirs == 0


def perft(board, side, depth):
    if depth == 0:
        return 1
    if over(board, side):
        return 0
    ms = moves(board, side)
    if depth == 1:
        return len(ms)
    return sum(perft(*play(board, side, m), depth - 1) for m in ms)


def main():
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    board, side = parse(sys.argv[2] if len(sys.argv) > 2 else START)
    for d in range(1, depth + 1):
        print(f"perft {d} nodes {perft(board, side, d)}", flush=True)


if __name__ == "__main__":
    main()
