#!/usr/bin/env python3
"""An independent Ruddigore Chess perft in plain Python, to cross-check the Rust engine.

Written from the rules as the project reads them, sharing no code with Herald:
  python3 tests/reference/ruddigore_perft.py FEN DEPTH [--divide]
FEN may be `setup` (the start position); the board may carry hands as `[...]` (upper case White,
lower case Black), e.g. `rhbqxbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQXBHR[Qp] w KQkq - 0 1`.
The two arguments may come in either order. Prints `perft D nodes N` for D = 1..DEPTH, or with
--divide the count under each first turn and then the total for DEPTH.

Rules: X Baronet (royal; king steps, including onto an own piece, and knight leaps onto any piece,
own or enemy, never to an empty square; castling as in chess), H Gentleman (halfling nightrider),
Q R B as in chess, P quick pawn (double step from any rank, no en passant, promotes to Q R B H).
Captured pieces (also own pieces taken by the Baronet) go to the capturer's hand, keeping their
type; a turn is a move or a drop (no pawn on its last rank). When the fullmove number is even and
the move/drop captured nothing, the mover must also sacrifice one own piece: any non-Baronet piece
on the board (each square one choice) or one piece from hand (each type one choice). With nothing
to sacrifice the move alone is the turn and the mover loses (no turns follow). The whole turn must
leave the mover's Baronet unattacked. A finished game has no turns.
"""
import sys

START = "rhbqxbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQXBHR w KQkq - 0 1"
TYPES = "QRBHP"  # hand order
KING8 = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def on(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def ray(s, d):
    """Squares from s (exclusive) repeating step d until the board edge."""
    f, r = s % 8, s // 8
    out = []
    f, r = f + d[0], r + d[1]
    while on(f, r):
        out.append(r * 8 + f)
        f, r = f + d[0], r + d[1]
    return out


def step(s, d):
    f, r = s % 8 + d[0], s // 8 + d[1]
    return r * 8 + f if on(f, r) else None


KING_ADJ = [[t for t in (step(s, d) for d in KING8) if t is not None] for s in range(64)]
KNIGHT_ADJ = [[t for t in (step(s, d) for d in KNIGHT) if t is not None] for s in range(64)]
ORTHO_RAYS = [[ray(s, d) for d in ORTHO] for s in range(64)]
DIAG_RAYS = [[ray(s, d) for d in DIAG] for s in range(64)]
# Gentleman: in knight direction d it may go 1..ceil(n/2) leaps, n = leaps that fit on the board.
GENT_RAYS = []
for s in range(64):
    rs = []
    for d in KNIGHT:
        full = ray(s, d)
        rs.append(full[: (len(full) + 1) // 2])
    GENT_RAYS.append(rs)
# For attack tests: looking back from t against direction d, the j-th square u (j = 1, 2, ...)
# holds a Gentleman hitting t in j leaps iff the squares between are empty and j <= limit(u, d).
GENT_BACK = []
for t in range(64):
    rs = []
    for i, d in enumerate(KNIGHT):
        back = ray(t, (-d[0], -d[1]))
        rs.append([(u, j + 1 <= len(GENT_RAYS[u][i])) for j, u in enumerate(back)])
    GENT_BACK.append(rs)


def name(s):
    return "abcdefgh"[s % 8] + str(s // 8 + 1)


def sq(n):
    return (int(n[1]) - 1) * 8 + "abcdefgh".index(n[0])


def is_white(p):
    return p.isupper()


def parse(fen):
    if fen.strip() == "setup":
        fen = START
    parts = fen.split()
    placement = parts[0]
    hand_w, hand_b = [0] * 5, [0] * 5
    if "[" in placement:
        placement, hand = placement.split("[", 1)
        hand = hand.rstrip("]")
        count = ""
        for ch in hand:
            if ch.isdigit():
                count += ch
                continue
            if ch == "-":
                continue
            n = int(count) if count else 1
            count = ""
            h = hand_w if ch.isupper() else hand_b
            h[TYPES.index(ch.upper())] += n
    board = [None] * 64
    for r, row in enumerate(placement.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            elif ch == "~":
                continue
            else:
                board[(7 - r) * 8 + f] = ch
                f += 1
    white = (parts[1] if len(parts) > 1 else "w") == "w"
    rights = "" if len(parts) < 3 or parts[2] == "-" else parts[2]
    fullmove = int(parts[5]) if len(parts) > 5 else 1
    return (board, white, (tuple(hand_w), tuple(hand_b)), rights, fullmove, False)


def attacked(board, t, by_white):
    """Whether square t is attacked by the side by_white (for check)."""
    if by_white:
        P, X, H, R, B, Q = "P", "X", "H", "R", "B", "Q"
    else:
        P, X, H, R, B, Q = "p", "x", "h", "r", "b", "q"
    f, r = t % 8, t // 8
    pr = r - 1 if by_white else r + 1
    if 0 <= pr < 8:
        for pf in (f - 1, f + 1):
            if 0 <= pf < 8 and board[pr * 8 + pf] == P:
                return True
    for s in KING_ADJ[t]:
        if board[s] == X:
            return True
    for s in KNIGHT_ADJ[t]:
        if board[s] == X:
            return True
    for rr in ORTHO_RAYS[t]:
        for s in rr:
            p = board[s]
            if p is not None:
                if p == R or p == Q:
                    return True
                break
    for rr in DIAG_RAYS[t]:
        for s in rr:
            p = board[s]
            if p is not None:
                if p == B or p == Q:
                    return True
                break
    for rr in GENT_BACK[t]:
        for u, reach in rr:
            p = board[u]
            if p is not None:
                if p == H and reach:
                    return True
                break
    return False


CORNERS = {4: "KQ", 0: "Q", 7: "K", 60: "kq", 56: "q", 63: "k"}


def strip_rights(rights, squares):
    for s in squares:
        lost = CORNERS.get(s)
        if lost:
            rights = "".join(c for c in rights if c not in lost)
    return rights


def pseudo(board, white, hand, rights):
    """Yield (label, new board, captured?, new mover hand, new rights, baronet square)."""
    X = "X" if white else "x"
    xsq = board.index(X)
    fwd = 1 if white else -1
    last = 7 if white else 0

    def taking(p):
        h = list(hand)
        h[TYPES.index(p.upper())] += 1
        return tuple(h)

    for s in range(64):
        p = board[s]
        if p is None or is_white(p) != white:
            continue
        k = p.upper()
        targets = []  # (to, may_capture_own)
        if k == "X":
            for t in KING_ADJ[s]:
                q = board[t]
                if q is None or q.upper() != "X":
                    targets.append(t)
            for t in KNIGHT_ADJ[s]:
                q = board[t]
                if q is not None and q.upper() != "X":
                    targets.append(t)
            for t in targets:
                q = board[t]
                nb = board[:]
                nb[s] = None
                nb[t] = p
                nh = taking(q) if q is not None else hand
                yield (name(s) + name(t), nb, q is not None, nh, strip_rights(rights, (s, t)), t)
            # castling
            home = 4 if white else 60
            if s == home:
                R = "R" if white else "r"
                for side, rook, between, king_to, rook_to, passing in (
                    ("K", home + 3, (home + 1, home + 2), home + 2, home + 1, home + 1),
                    ("Q", home - 4, (home - 1, home - 2, home - 3), home - 2, home - 1, home - 1),
                ):
                    c = side if white else side.lower()
                    if c not in rights or board[rook] != R:
                        continue
                    if any(board[b] is not None for b in between):
                        continue
                    if attacked(board, home, not white) or attacked(board, passing, not white):
                        continue
                    nb = board[:]
                    nb[home] = None
                    nb[rook] = None
                    nb[king_to] = p
                    nb[rook_to] = R
                    yield (name(home) + name(king_to), nb, False, hand,
                           strip_rights(rights, (home, rook)), king_to)
            continue
        if k == "P":
            f, r = s % 8, s // 8
            moves = []
            r1 = r + fwd
            if 0 <= r1 < 8 and board[r1 * 8 + f] is None:
                moves.append(r1 * 8 + f)
                r2 = r1 + fwd
                if 0 <= r2 < 8 and board[r2 * 8 + f] is None:
                    moves.append(r2 * 8 + f)
            if 0 <= r1 < 8:
                for cf in (f - 1, f + 1):
                    if 0 <= cf < 8:
                        q = board[r1 * 8 + cf]
                        if q is not None and is_white(q) != white and q.upper() != "X":
                            moves.append(r1 * 8 + cf)
            for t in moves:
                q = board[t]
                nh = taking(q) if q is not None else hand
                nr = strip_rights(rights, (s, t))
                if t // 8 == last:
                    for promo in "QRBH":
                        nb = board[:]
                        nb[s] = None
                        nb[t] = promo if white else promo.lower()
                        yield (name(s) + name(t) + promo.lower(), nb, q is not None, nh, nr, xsq)
                else:
                    nb = board[:]
                    nb[s] = None
                    nb[t] = p
                    yield (name(s) + name(t), nb, q is not None, nh, nr, xsq)
            continue
        if k == "H":
            rays = GENT_RAYS[s]
        elif k == "R":
            rays = ORTHO_RAYS[s]
        elif k == "B":
            rays = DIAG_RAYS[s]
        elif k == "Q":
            rays = ORTHO_RAYS[s] + DIAG_RAYS[s]
        else:
            raise ValueError("unknown piece " + p)
        for rr in rays:
            for t in rr:
                q = board[t]
                if q is None:
                    targets.append(t)
                    continue
                if is_white(q) != white and q.upper() != "X":
                    targets.append(t)
                break
        for t in targets:
            q = board[t]
            nb = board[:]
            nb[s] = None
            nb[t] = p
            nh = taking(q) if q is not None else hand
            yield (name(s) + name(t), nb, q is not None, nh, strip_rights(rights, (s, t)), xsq)
    # drops
    for i, k in enumerate(TYPES):
        if hand[i] == 0:
            continue
        h = list(hand)
        h[i] -= 1
        h = tuple(h)
        piece = k if white else k.lower()
        for t in range(64):
            if board[t] is not None:
                continue
            if k == "P" and t // 8 == last:
                continue
            nb = board[:]
            nb[t] = piece
            yield (k + "@" + name(t), nb, False, h, strip_rights(rights, (t,)), xsq)


def turns(state):
    """Yield (label, next state) for every legal turn."""
    board, white, hands, rights, fullmove, over = state
    if over:
        return
    cursed = fullmove % 2 == 0
    nfull = fullmove if white else fullmove + 1
    me = 0 if white else 1

    def pack(nb, nh, nr, done=False):
        hs = (nh, hands[1]) if white else (hands[0], nh)
        return (nb, not white, hs, nr, nfull, done)

    for label, nb, capt, nh, nr, xsq in pseudo(board, white, hands[me], rights):
        # Removing own pieces can only open lines to the Baronet, so a move that leaves it
        # attacked has no legal completion.
        if attacked(nb, xsq, not white):
            continue
        if not cursed or capt:
            yield label, pack(nb, nh, nr)
            continue
        anything = False
        for i, k in enumerate(TYPES):
            if nh[i]:
                anything = True
                h = list(nh)
                h[i] -= 1
                yield label + " sac " + k + "@hand", pack(nb, tuple(h), nr)
        for s in range(64):
            p = nb[s]
            if p is None or is_white(p) != white or p.upper() == "X":
                continue
            anything = True
            nb2 = nb[:]
            nb2[s] = None
            if attacked(nb2, xsq, not white):
                continue
            yield label + " sac " + name(s), pack(nb2, nh, strip_rights(nr, (s,)))
        if not anything:
            yield label + " (cursed, loses)", pack(nb, nh, nr, done=True)


def perft(state, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return sum(1 for _ in turns(state))
    return sum(perft(nxt, depth - 1) for _, nxt in turns(state))


def main():
    args = [a for a in sys.argv[1:] if a != "--divide"]
    divide = "--divide" in sys.argv[1:]
    depth, fen = 3, START
    for a in args:
        if a.isdigit():
            depth = int(a)
        else:
            fen = a
    state = parse(fen)
    if divide:
        total = 0
        for label, nxt in sorted(turns(state), key=lambda x: x[0]):
            n = perft(nxt, depth - 1)
            total += n
            print(f"{label}: {n}", flush=True)
        print(f"perft {depth} nodes {total}", flush=True)
        return
    for d in range(1, depth + 1):
        print(f"perft {d} nodes {perft(state, d)}", flush=True)


if __name__ == "__main__":
    main()
