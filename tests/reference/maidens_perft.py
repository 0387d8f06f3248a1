#!/usr/bin/env python3
"""An independent Maidens Chess perft, on python-chess, to cross-check presets/maidens.preset.

Written from the rules in the issue, sharing no code with Herald:
  python3 tests/reference/maidens_perft.py [DEPTH] [FEN] [HUFFABLE-SQUARES...]
Needs `pip install chess`. Prints one line per depth: `perft D nodes N`.
"""
import sys

import chess


def follow(sq, move, board):
    """Where the piece that stood on `sq` stands after `move`."""
    if sq == move.from_square:
        return move.to_square
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        rook_from = chess.square(7 if kingside else 0, rank)
        rook_to = chess.square(5 if kingside else 3, rank)
        if sq == rook_from:
            return rook_to
    return sq


def turns(board, huffable):
    """Yield (position after the turn, rights of the next side) for every legal turn."""
    checked_start = board.is_check()
    options = [None] + sorted(sq for sq in huffable if board.piece_at(sq) is not None)
    for huff in options:
        b = board.copy(stack=False)
        if huff is not None:
            b.remove_piece_at(huff)
            if b.is_check() and not checked_start:
                continue
        checked_move = b.is_check()
        legal = list(b.legal_moves)
        chances = set()
        if not checked_move:
            chances = {m.from_square for m in legal if b.is_capture(m) and b.piece_type_at(m.from_square) != chess.KING}
        for m in legal:
            capture = b.is_capture(m)
            after = b.copy(stack=False)
            after.push(m)
            if capture or checked_move:
                rights = frozenset()
            else:
                rights = frozenset(follow(sq, m, b) for sq in chances)
            yield after, rights


def perft(board, huffable, depth):
    if depth == 0:
        return 1
    return sum(perft(b, r, depth - 1) if depth > 1 else 1 for b, r in turns(board, huffable))


def main():
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    fen = sys.argv[2] if len(sys.argv) > 2 else chess.STARTING_FEN
    huffable = frozenset(chess.parse_square(s) for s in sys.argv[3:])
    board = chess.Board(fen)
    for d in range(1, depth + 1):
        print(f"perft {d} nodes {perft(board, huffable, d)}", flush=True)


if __name__ == "__main__":
    main()
