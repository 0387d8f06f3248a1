#!/usr/bin/env python3
"""Herald as an engine under a real client: python-chess's `chess.engine` drives `herald uci` and
`herald xboard` in games against Fairy-Stockfish, in chess and crazyhouse; python-chess's own board
checks that every move Herald plays is legal. Games on a clock (a few seconds each, small
increments) show that the time manager never lets Herald lose on time.

  python3 tests/reference/engine_clients.py [--plies N] [--nodes N] [--herald PATH] [--fs PATH]

Needs python-chess (`pip install chess`) and Fairy-Stockfish; without either it says so and exits
0 (skipped). Prints one line per game and `N games, N failed`; exits 1 on an illegal move, a
protocol error or a loss on time.
"""
import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Finding Fairy-Stockfish is fairy_perft.py's (this directory is on the path).
from fairy_perft import find_fs

try:
    import chess
    import chess.engine
    import chess.variant
except ImportError:
    chess = None


def new_board(variant):
    return chess.variant.CrazyhouseBoard() if variant == "crazyhouse" else chess.Board()


# The least time Herald had left after a move in the games on a clock.
LOWEST = [float("inf")]


def play(herald, fs, variant, herald_white, limit_of, plies):
    """One game; `limit_of(board, clocks)` gives each move's limit. Returns (why it failed or None, summary)."""
    board = new_board(variant)
    clocks = {chess.WHITE: None, chess.BLACK: None}
    players = {chess.WHITE: herald if herald_white else fs, chess.BLACK: fs if herald_white else herald}
    timed = limit_of(board, None) is None
    if timed:
        clocks = {chess.WHITE: 3.0, chess.BLACK: 3.0}
    inc = 0.05
    for _ in range(plies):
        if board.is_game_over():
            break
        side = board.turn
        engine = players[side]
        limit = limit_of(board, clocks) if timed else limit_of(board, None)
        start = time.monotonic()
        # python-chess 1.11 sends a crazyhouse game as its root FEN and the moves, and that root
        # FEN can show pieces in hand that came later (seen: `[R]` at the start, after a capture
        # and a drop; `[QQQqq]` over an XBoard game), so the engines get the current FEN only in
        # crazyhouse (XBoard: `setboard`); chess games go move by move (XBoard: `usermove`).
        shown = board if variant == "chess" else new_board(variant)
        if shown is not board:
            shown.set_fen(board.fen())
        try:
            result = engine.play(shown, limit)
        except chess.engine.EngineError as e:
            return "%s: engine error: %s" % ("herald" if engine is herald else "fairy-stockfish", e), board
        spent = time.monotonic() - start
        if timed:
            clocks[side] -= spent
            if clocks[side] < 0:
                who = "herald" if engine is herald else "fairy-stockfish"
                return "%s lost on time (%.3f s over) at ply %d" % (who, -clocks[side], board.ply()), board
            clocks[side] += inc
            if engine is herald:
                LOWEST[0] = min(LOWEST[0], clocks[side])
        if result.move is None or result.move not in board.legal_moves:
            who = "herald" if engine is herald else "fairy-stockfish"
            return "%s played an illegal move %s in %s" % (who, result.move, board.fen()), board
        board.push(result.move)
    return None, board


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plies", type=int, default=60, help="plies per game at most")
    ap.add_argument("--nodes", type=int, default=2000, help="nodes per move in the games by nodes")
    ap.add_argument("--herald", default=os.path.join(ROOT, "target", "release", "herald"))
    ap.add_argument("--fs", help="the fairy-stockfish binary")
    ap.add_argument("--log", help="write python-chess's protocol log to this file")
    a = ap.parse_args()
    if a.log:
        import logging

        logging.basicConfig(level=logging.DEBUG, filename=a.log, filemode="w")
    if chess is None:
        print("skipped: python-chess not installed (pip install chess)")
        return 0
    fs_path = find_fs(a.fs)
    if not fs_path:
        print("skipped: fairy-stockfish not installed")
        return 0
    if not os.path.exists(a.herald):
        print("herald not found at %s: run `cargo build --release` or give --herald" % a.herald)
        return 2
    by_nodes = lambda board, clocks: chess.engine.Limit(nodes=a.nodes)
    by_depth = lambda board, clocks: chess.engine.Limit(depth=2)
    # A clock: `None` asks for the clock limits (the game keeps the clocks).
    on_clock = lambda board, clocks: None if clocks is None else chess.engine.Limit(
        white_clock=max(clocks[chess.WHITE], 0.001), black_clock=max(clocks[chess.BLACK], 0.001), white_inc=0.05, black_inc=0.05)
    # Fairy-Stockfish plays by nodes in the clock games, so that the clock tells of Herald only.
    games = []
    for proto in ["uci", "xboard"]:
        for variant in ["chess", "crazyhouse"]:
            for herald_white in [True, False]:
                games.append((proto, variant, herald_white, by_nodes if proto == "uci" else by_depth))
            games.append((proto, variant, True, on_clock))
    failed = 0
    fs = chess.engine.SimpleEngine.popen_uci([fs_path])
    try:
        for proto, variant, herald_white, limit_of in games:
            argv = [a.herald, proto]
            herald = (chess.engine.SimpleEngine.popen_uci if proto == "uci" else chess.engine.SimpleEngine.popen_xboard)(argv, cwd=ROOT)
            try:
                if limit_of is on_clock:
                    # Fairy-Stockfish answers at once (few nodes); Herald is on the clock.
                    def limit(board, clocks, herald_side=chess.WHITE if herald_white else chess.BLACK):
                        if clocks is None:
                            return None
                        return on_clock(board, clocks) if board.turn == herald_side else chess.engine.Limit(nodes=200)
                else:
                    limit = limit_of
                why, board = play(herald, fs, variant, herald_white, limit, a.plies)
            finally:
                try:
                    herald.quit()
                except Exception:
                    herald.close()
            kind = "clock 3s+0.05" if limit_of is on_clock else ("%d nodes" % a.nodes if limit_of is by_nodes else "depth 2")
            label = "%-6s %-10s herald %s, %s" % (proto, variant, "white" if herald_white else "black", kind)
            if why:
                failed += 1
                print("FAIL %s: %s" % (label, why))
            else:
                outcome = board.outcome()
                low = ", herald's clock never below %.2f s" % LOWEST[0] if limit_of is on_clock else ""
                print("ok   %s: %d plies, %s%s" % (label, board.ply(), outcome.result() if outcome else "unfinished", low))
            LOWEST[0] = float("inf")
            sys.stdout.flush()
    finally:
        fs.quit()
    print("%d games, %d failed" % (len(games), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
