#!/usr/bin/env python3
"""An independent Universal Chess move generator and perft, to cross-check presets/universal.preset.

Written in plain Python from the piece definitions and reserve rules in the issues (not from
Herald's code, its Betza strings or the preset's script):
  python3 tests/reference/universal_moves.py FEN DEPTH   -> `perft D nodes N` for D = 1..DEPTH
  python3 tests/reference/universal_moves.py FEN moves   -> sorted legal turns
  python3 tests/reference/universal_moves.py FEN divide D -> `TURN N` per turn at depth D
A turn is written `LABEL from-to`, then `; X-sq` for a promotion, then `; X*sq` for a drop,
e.g. `P e2-e4; C*c1`, `P a7-a8; N-a8`, `p b7-b5; y*c8`.

FEN: `BOARD[HAND] SIDE CASTLING EP HALF FULL {state}`. HAND is the reserve of both sides in drop
order (upper case White, lower case Black; each side's order is the order of its letters). The
optional state `{open=d5,rights={white:1,black:0}}` (either key may be missing; defaults
open=none, rights 0 and 0) gives the square where last turn's capturer stands if that capture
could open an exchange, and each side's drop rights. No castling.

Reserve rules:
  - After each move, if it captured on `open`, both sides' rights increase by 1 (an exchange of
    two non-pawns; the recapturing piece may be anything). Then `open` becomes the destination of
    this move if it captured a non-pawn and the piece now standing there is not a pawn (so a
    promotion counts as a non-pawn), else none. En passant never opens an exchange.
  - A turn is a move, then optionally one drop if the mover holds a right (after the move's own
    exchange was counted): the FRONT piece of the mover's reserve onto any empty square of the
    mover's first rank; the drop spends one right. Each (move, drop square) is one turn.
  - The mover's king must not be attacked at the end of the whole turn (a drop may block check).
  - Promotion on the last rank is mandatory: the pawn becomes the LAST piece of its side's reserve
    (taken out of it); with an empty reserve, a Queen.

Pieces (upper case White, lower case Black):
  K king (royal)          Q queen                 M amazon = Q + N       C chancellor = R + N
  A archbishop = B + N    U = B + nightrider      N knight               I nightrider
  R rook                  D dragon king = R + F   H dragon horse = B + W
  W = wazir + crooked bishop (zigzag of diagonal steps alternating between two perpendicular
      diagonals, any length, squares before the last empty)
  L = N + W               F = N + F               G = N + king step (not royal)
  Y gryphon: one diagonal step, then optionally a rook slide along either orthogonal leading away
  X aanca: one orthogonal step, then optionally a bishop slide along either diagonal leading away
  S sissa: n as rook then n as bishop (any diagonal), or n as bishop then n as rook (any orthogonal)
  T = N + dabbabah (leap 2 straight)      E = N + alfil (leap 2 diagonal)
  Z dragon = R + gryphon
  O rose: 1..7 knight leaps, each the next knight direction in angular order (one sense throughout)
  V dancing horse: one knight leap, or two, the second not straight back, the middle square empty
  J paovao: moves as R or B through empty squares; captures by hopping exactly one piece on a
      rook or bishop line onto the first piece beyond
  P FIDE pawn: double step, en passant, promotes as above.
"""
import re
import sys

# 12x12 mailbox with a two-square border.
W12 = 12
OFF = '#'
EMPTY = '.'


def sq(f, r):
    return (r + 2) * W12 + (f + 2)


def name(s):
    r, f = divmod(s, W12)
    return 'abcdefgh'[f - 2] + str(r - 1)


def parse_sq(t):
    return sq('abcdefgh'.index(t[0]), int(t[1:]) - 1)


def vec(df, dr):
    return dr * W12 + df


ORTH = [vec(1, 0), vec(-1, 0), vec(0, 1), vec(0, -1)]
DIAG = [vec(1, 1), vec(-1, 1), vec(1, -1), vec(-1, -1)]
KING8 = ORTH + DIAG
# The 8 knight directions in angular (anticlockwise) order.
KN_ANGULAR = [vec(2, 1), vec(1, 2), vec(-1, 2), vec(-2, 1), vec(-2, -1), vec(-1, -2), vec(1, -2), vec(2, -1)]
KN = KN_ANGULAR
DAB = [vec(2, 0), vec(-2, 0), vec(0, 2), vec(0, -2)]
ALF = [vec(2, 2), vec(-2, 2), vec(2, -2), vec(-2, -2)]

# Diagonal directions perpendicular to each diagonal (for the crooked bishop).
PERP = {vec(1, 1): [vec(1, -1), vec(-1, 1)], vec(-1, -1): [vec(1, -1), vec(-1, 1)],
        vec(1, -1): [vec(1, 1), vec(-1, -1)], vec(-1, 1): [vec(1, 1), vec(-1, -1)]}
# For a diagonal step: the two orthogonal directions leading away from the start (its components).
DIAG_AWAY = {}
for _df in (1, -1):
    for _dr in (1, -1):
        DIAG_AWAY[vec(_df, _dr)] = [vec(_df, 0), vec(0, _dr)]
# For an orthogonal step: the two diagonal directions leading away from the start.
ORTH_AWAY = {vec(1, 0): [vec(1, 1), vec(1, -1)], vec(-1, 0): [vec(-1, 1), vec(-1, -1)],
             vec(0, 1): [vec(1, 1), vec(-1, 1)], vec(0, -1): [vec(1, -1), vec(-1, -1)]}

# Components of each piece type.
PIECES = {
    'K': [('leap', KING8)],
    'Q': [('slide', ORTH), ('slide', DIAG)],
    'M': [('slide', ORTH), ('slide', DIAG), ('leap', KN)],
    'C': [('slide', ORTH), ('leap', KN)],
    'A': [('slide', DIAG), ('leap', KN)],
    'U': [('slide', DIAG), ('slide', KN)],
    'N': [('leap', KN)],
    'I': [('slide', KN)],
    'R': [('slide', ORTH)],
    'D': [('slide', ORTH), ('leap', DIAG)],
    'H': [('slide', DIAG), ('leap', ORTH)],
    'W': [('leap', ORTH), ('crooked', None)],
    'L': [('leap', KN), ('leap', ORTH)],
    'F': [('leap', KN), ('leap', DIAG)],
    'G': [('leap', KN), ('leap', KING8)],
    'Y': [('gryphon', None)],
    'X': [('aanca', None)],
    'S': [('sissa', None)],
    'T': [('leap', KN), ('leap', DAB)],
    'E': [('leap', KN), ('leap', ALF)],
    'Z': [('slide', ORTH), ('gryphon', None)],
    'O': [('rose', None)],
    'V': [('dance', None)],
    'J': [('paovao', None)],
    'P': [('pawn', None)],
}


def is_white(p):
    return p.isupper()


class Pos:
    def __init__(self, fen):
        state = ''
        if '{' in fen:  # the state field may contain spaces: cut it off before splitting
            state = fen[fen.index('{'):]
            fen = fen[:fen.index('{')]
        parts = fen.split()
        board = parts[0]
        hand = ''
        if '[' in board:
            hand = board[board.index('[') + 1:board.index(']')]
            board = board[:board.index('[')]
        # Each side's reserve, front (next drop) first.
        self.hands = (''.join(c for c in hand if c.isupper()), ''.join(c for c in hand if c.islower()))
        self.open, self.rights = parse_state(state)
        self.b = [OFF] * (W12 * W12)
        rows = board.split('/')
        assert len(rows) == 8, fen
        for i, row in enumerate(rows):
            r = 7 - i
            f = 0
            num = ''
            for ch in row:
                if ch.isdigit():
                    num += ch
                    continue
                if num:
                    for _ in range(int(num)):
                        self.b[sq(f, r)] = EMPTY
                        f += 1
                    num = ''
                self.b[sq(f, r)] = ch
                f += 1
            if num:
                for _ in range(int(num)):
                    self.b[sq(f, r)] = EMPTY
                    f += 1
            assert f == 8, fen
        self.white = (parts[1] if len(parts) > 1 else 'w') == 'w'
        ep = parts[3] if len(parts) > 3 else '-'
        self.ep = parse_sq(ep) if ep != '-' else None

    def state(self):
        return (self.hands[0], self.hands[1], self.open, self.rights[0], self.rights[1])


def parse_state(text):
    """`{open=d5,rights={white:1,black:0}}` -> (open square or None, (white rights, black rights))."""
    m = re.search(r'open\s*=\s*([a-z]+[0-9]*|-)', text)
    open_sq = None
    if m and m.group(1) not in ('none', '-'):
        open_sq = parse_sq(m.group(1))
    rights = [0, 0]
    m = re.search(r'rights\s*=\s*\{([^}]*)\}', text)
    if m:
        for item in m.group(1).split(','):
            if ':' in item:
                k, v = item.split(':')
                rights[0 if k.strip() == 'white' else 1] = int(v)
    return open_sq, tuple(rights)


def own(p, white):
    return p != EMPTY and p != OFF and p.isupper() == white


def enemy(p, white):
    return p != EMPTY and p != OFF and p.isupper() != white


def targets(b, s, p, white, ep):
    """The set of pseudo-legal destinations of piece p on s (an en passant capture as ('ep', to))."""
    out = set()
    for kind, dirs in PIECES[p.upper()]:
        component(b, s, kind, dirs, white, ep, out)
    return out


def component(b, s, kind, dirs, white, ep, out):
    if kind == 'leap':
        for d in dirs:
            q = b[s + d]
            if q == EMPTY or enemy(q, white):
                out.add(s + d)
    elif kind == 'slide':
        for d in dirs:
            x = s + d
            while True:
                q = b[x]
                if q == EMPTY:
                    out.add(x)
                elif enemy(q, white):
                    out.add(x)
                    break
                else:
                    break
                x += d
    elif kind == 'crooked':
        for a in DIAG:
            for c in PERP[a]:
                x = s
                i = 0
                while True:
                    x += a if i % 2 == 0 else c
                    i += 1
                    q = b[x]
                    if q == EMPTY:
                        out.add(x)
                    elif enemy(q, white):
                        out.add(x)
                        break
                    else:
                        break
    elif kind in ('gryphon', 'aanca'):
        first = DIAG if kind == 'gryphon' else ORTH
        away = DIAG_AWAY if kind == 'gryphon' else ORTH_AWAY
        for d in first:
            c = s + d
            q = b[c]
            if q == EMPTY:
                out.add(c)
            elif enemy(q, white):
                out.add(c)
                continue
            else:
                continue
            for o in away[d]:
                x = c + o
                while True:
                    q = b[x]
                    if q == EMPTY:
                        out.add(x)
                    elif enemy(q, white):
                        out.add(x)
                        break
                    else:
                        break
                    x += o
    elif kind == 'sissa':
        for first, second in ((ORTH, DIAG), (DIAG, ORTH)):
            for d1 in first:
                for n in range(1, 8):
                    c = s + d1 * n
                    if b[c] != EMPTY:  # the corner is passed: it must be empty
                        break          # (and every square before it, checked at smaller n)
                    for d2 in second:
                        x = c
                        ok = True
                        for _ in range(n - 1):
                            x += d2
                            if b[x] != EMPTY:
                                ok = False
                                break
                        if not ok:
                            continue
                        x += d2
                        q = b[x]
                        if q == EMPTY or enemy(q, white):
                            out.add(x)
    elif kind == 'rose':
        for i in range(8):
            for sense in (1, -1):
                x = s
                for k in range(7):
                    x += KN_ANGULAR[(i + sense * k) % 8]
                    q = b[x]
                    if q == EMPTY:
                        out.add(x)
                    elif enemy(q, white):
                        out.add(x)
                        break
                    else:
                        break
    elif kind == 'dance':
        for v1 in KN:
            m = s + v1
            q = b[m]
            if q == OFF:
                continue
            if q == EMPTY or enemy(q, white):
                out.add(m)
            if q != EMPTY:
                continue
            for v2 in KN:
                if v2 == -v1:
                    continue
                q2 = b[m + v2]
                if q2 == EMPTY or enemy(q2, white):
                    out.add(m + v2)
    elif kind == 'paovao':
        for d in KING8:
            x = s + d
            while b[x] == EMPTY:
                out.add(x)
                x += d
            if b[x] == OFF:
                continue
            x += d  # hop the screen
            while b[x] == EMPTY:
                x += d
            if enemy(b[x], white):
                out.add(x)
    elif kind == 'pawn':
        fwd = vec(0, 1) if white else vec(0, -1)
        rank = s // W12 - 2
        start = 1 if white else 6
        x = s + fwd
        if b[x] == EMPTY:
            out.add(x)
            if rank == start and b[x + fwd] == EMPTY:
                out.add(x + fwd)
        for side in (1, -1):
            y = s + fwd + side
            if enemy(b[y], white):
                out.add(y)
            elif ep is not None and y == ep and b[y] == EMPTY:
                out.add(('ep', y))


def attacked(b, k, by_white):
    """Is square k attacked by a piece of colour by_white?"""
    def foe(x, types):
        q = b[x]
        return q != EMPTY and q != OFF and q.isupper() == by_white and q.upper() in types

    # Rook lines: sliders, wazir steps, paovao hops, dabbabah leaps.
    for d in ORTH:
        x = k + d
        if foe(x, 'HWLGKX'):
            return True
        if foe(k + 2 * d, 'T'):
            return True
        while b[x] == EMPTY:
            x += d
        if foe(x, 'QMCRDZ'):
            return True
        if b[x] != OFF:
            x += d
            while b[x] == EMPTY:
                x += d
            if foe(x, 'J'):
                return True
    # Bishop lines.
    for d in DIAG:
        x = k + d
        if foe(x, 'DFGKYZ'):
            return True
        if foe(k + 2 * d, 'E'):
            return True
        while b[x] == EMPTY:
            x += d
        if foe(x, 'QMAUH'):
            return True
        if b[x] != OFF:
            x += d
            while b[x] == EMPTY:
                x += d
            if foe(x, 'J'):
                return True
    # Knight lines: leapers, riders.
    for d in KN:
        x = k + d
        if foe(x, 'MCANLFGTEOV'):
            return True
        while b[x] == EMPTY:
            x += d
        if foe(x, 'UI'):
            return True
    # Pawns.
    back = vec(0, -1) if by_white else vec(0, 1)
    if foe(k + back + 1, 'P') or foe(k + back - 1, 'P'):
        return True
    # Gryphon (and dragon) continuations, reversed: slide back along an orthogonal over empty
    # squares to an empty corner, then one diagonal step back whose direction leads towards it.
    for o in ORTH:
        x = k - o
        while b[x] == EMPTY:
            for d in DIAG:
                if o in DIAG_AWAY[d] and foe(x - d, 'YZ'):
                    return True
            x -= o
    # Aanca continuations, reversed.
    for d in DIAG:
        x = k - d
        while b[x] == EMPTY:
            for o in ORTH:
                if d in ORTH_AWAY[o] and foe(x - o, 'X'):
                    return True
            x -= d
    # Symmetric compound paths (crooked bishop, sissa, rose, dancing horse): a piece of that kind
    # on k reaching an enemy of that kind.
    colour_of_k = not by_white
    for t, kind in (('W', 'crooked'), ('S', 'sissa'), ('O', 'rose'), ('V', 'dance')):
        if (t if by_white else t.lower()) not in b:
            continue
        reach = set()
        component(b, k, kind, None, colour_of_k, None, reach)
        for x in reach:
            if foe(x, t):
                return True
    return False


def king_safe(b, white):
    king = 'K' if white else 'k'
    return king not in b or not attacked(b, b.index(king), not white)


def with_mover(st, white, hand, rights):
    """The state st with the mover's reserve and rights replaced."""
    hw, hb, open_sq, rw, rb = st
    if white:
        return (hand, hb, open_sq, rights, rb)
    return (hw, hand, open_sq, rw, rights)


def legal_turns(b, white, ep, st):
    """List of legal turns (mv, drop, new_state) for the side to move.

    st is (white reserve, black reserve, open square, white rights, black rights); mv is
    (from, to, is_ep, promotion piece or None); drop is (piece, square) or None.
    """
    hw, hb, open_sq, rw, rb = st
    turns = []
    for s in range(len(b)):
        p = b[s]
        if p == EMPTY or p == OFF or p.isupper() != white:
            continue
        for t in targets(b, s, p, white, ep):
            is_ep = isinstance(t, tuple)
            if is_ep:
                t = t[1]
            hand = hw if white else hb
            promo = None
            if p.upper() == 'P' and t // W12 - 2 == (7 if white else 0):
                if hand:  # the last piece of the reserve, taken out of it
                    promo, hand = hand[-1], hand[:-1]
                else:
                    promo = 'Q' if white else 'q'
            captured = EMPTY if is_ep else b[t]
            r_w, r_b = rw, rb
            if open_sq is not None and t == open_sq and captured != EMPTY:
                r_w, r_b = rw + 1, rb + 1  # the capturer of last turn is taken: an exchange
            mv = (s, t, is_ep, promo)
            undo = make(b, mv)
            opens = captured != EMPTY and captured.upper() != 'P' and b[t].upper() != 'P'
            new_open = t if opens else None
            mine = r_w if white else r_b
            after = (hw, hb, new_open, r_w, r_b)
            if king_safe(b, white):
                turns.append((mv, None, with_mover(after, white, hand, mine)))
            if mine > 0 and hand:
                piece = hand[0]
                rank = 0 if white else 7
                for f in range(8):
                    d = sq(f, rank)
                    if b[d] != EMPTY:
                        continue
                    b[d] = piece
                    if king_safe(b, white):
                        turns.append((mv, (piece, d), with_mover(after, white, hand[1:], mine - 1)))
                    b[d] = EMPTY
            unmake(b, mv, undo)
    return turns


def make(b, mv):
    s, t, is_ep, promo = mv
    p = b[s]
    captured = b[t]
    extra = None
    if is_ep:
        cap_sq = t - vec(0, 1) if p.isupper() else t + vec(0, 1)
        extra = (cap_sq, b[cap_sq])
        b[cap_sq] = EMPTY
    b[t] = promo if promo else p
    b[s] = EMPTY
    return (p, captured, extra)


def unmake(b, mv, undo):
    s, t, is_ep, promo = mv
    p, captured, extra = undo
    b[s] = p
    b[t] = captured
    if extra:
        b[extra[0]] = extra[1]


def new_ep(b, mv):
    s, t, is_ep, promo = mv
    p = b[t]
    if p.upper() == 'P' and abs(t - s) == 2 * W12:
        return (s + t) // 2
    return None


def play(b, turn):
    """Make a turn on b; returns what undo() needs."""
    mv, drop, _ = turn
    undo = make(b, mv)
    if drop:
        b[drop[1]] = drop[0]
    return undo


def undo_turn(b, turn, undo):
    mv, drop, _ = turn
    if drop:
        b[drop[1]] = EMPTY
    unmake(b, mv, undo)


def perft(b, white, ep, st, depth):
    turns = legal_turns(b, white, ep, st)
    if depth == 1:
        return len(turns)
    n = 0
    for turn in turns:
        undo = play(b, turn)
        n += perft(b, not white, new_ep(b, turn[0]), turn[2], depth - 1)
        undo_turn(b, turn, undo)
    return n


def label(b, turn):
    (s, t, is_ep, promo), drop, _ = turn
    text = '%s %s-%s' % (b[s], name(s), name(t))
    if promo:
        text += '; %s-%s' % (promo, name(t))
    if drop:
        text += '; %s*%s' % (drop[0], name(drop[1]))
    return text


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    pos = Pos(sys.argv[1])
    b = pos.b
    st = pos.state()
    if sys.argv[2] == 'moves':
        ms = sorted(label(b, m) for m in legal_turns(b, pos.white, pos.ep, st))
        for m in ms:
            print(m)
        print('%d legal' % len(ms))
    elif sys.argv[2] == 'divide':
        depth = int(sys.argv[3])
        rows = []
        total = 0
        for turn in legal_turns(b, pos.white, pos.ep, st):
            text = label(b, turn)
            if depth == 1:
                n = 1
            else:
                undo = play(b, turn)
                n = perft(b, not pos.white, new_ep(b, turn[0]), turn[2], depth - 1)
                undo_turn(b, turn, undo)
            rows.append((text, n))
            total += n
        for text, n in sorted(rows):
            print(text, n)
        print('total', total)
    else:
        for d in range(1, int(sys.argv[2]) + 1):
            print('perft %d nodes %d' % (d, perft(b, pos.white, pos.ep, st, d)))


if __name__ == '__main__':
    main()
