#!/usr/bin/env python3
"""Texel tuning of Herald's generic evaluation weights (README, "Evaluation weights").

Two steps:

  generate  Play Fairy-Stockfish self-play games in chess (bench/openings.txt's chess lines, then
            a few random plies) at a fixed node count per move, and write their quiet positions,
            one per line: `FEN <tab> RESULT <tab> SCORE`, RESULT 1, 0.5 or 0 for White, SCORE
            Fairy-Stockfish's own score in centipawns from White's view. Positions in the first
            plies, in check, or whose move played was a capture or a promotion are left out.
            Lines are written as games end: stopping it early keeps what it has.

  tune      Fit the evaluation's weights to a data set by Texel's method: minimise the mean of
            (label - sigmoid(K * q))^2 over its positions, q the quiescence score from White's
            view (`herald qscores`, under a weights file), label the game result blended with
            Fairy-Stockfish's score as an expected result (--blend, default 0.5). K is fitted
            first with the current weights, then each weight in turn is moved up and down by its
            step while the error falls (coordinate descent over integers), until a round changes
            nothing. Prints the error before and after, on the fitted positions and on the held
            out ones (--holdout), and writes the tuned weights file (`herald --eval-weights`).

Examples:
  python3 bench/tune.py generate --games 3000 --minutes 24 --nodes 3000 --seed 11 --out /tmp/chess.tsv
  python3 bench/tune.py tune --data /tmp/chess.tsv --out /tmp/tuned.weights
"""

import argparse
import math
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def openings(preset):
    rows = []
    with open(os.path.join(HERE, "openings.txt")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split()
            if parts[0] == preset:
                rows.append(parts[1:])
    return rows


def white_cp(score):
    """A python-chess PovScore as centipawns from White's view (mates as +-10000)."""
    s = score.white()
    if s.is_mate():
        return 10000 if s.mate() > 0 else -10000
    return s.score()


def generate(args):
    import chess
    import chess.engine

    rng = random.Random(args.seed)
    lines = openings("chess")
    eng = chess.engine.SimpleEngine.popen_uci(args.engine)
    eng.configure({"Hash": 16, "Threads": 1})
    out = open(args.out, "a")
    kept = 0
    start = time.time()
    for g in range(args.games):
        if args.minutes and time.time() - start > args.minutes * 60:
            break
        board = chess.Board()
        for uci in lines[g % len(lines)]:
            board.push_uci(uci)
        for _ in range(rng.randint(args.random_plies_min, args.random_plies_max)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if board.is_game_over():
            continue
        first = board.ply() + args.skip
        rows = []
        result = None
        big = 0
        eng.ucinewgame() if hasattr(eng, "ucinewgame") else None
        while result is None:
            if board.is_game_over(claim_draw=True):
                r = board.result(claim_draw=True)
                result = {"1-0": 1.0, "0-1": 0.0}.get(r, 0.5)
                break
            if board.ply() >= args.max_plies:
                result = 0.5
                break
            play = eng.play(board, chess.engine.Limit(nodes=args.nodes), info=chess.engine.INFO_SCORE, game=g)
            move = play.move
            cp = white_cp(play.info["score"]) if "score" in play.info else 0
            quiet = not board.is_check() and not board.is_capture(move) and move.promotion is None
            if board.ply() >= first and quiet and abs(cp) < 10000:
                rows.append((board.fen(), cp))
            # Adjudicate: both sides' searches agree one side is far ahead for a few plies.
            big = big + 1 if abs(cp) >= args.resign else 0
            if big >= 6:
                result = 1.0 if cp > 0 else 0.0
                break
            board.push(move)
        for fen, cp in rows:
            out.write(f"{fen}\t{result}\t{cp}\n")
        out.flush()
        kept += len(rows)
        if (g + 1) % 20 == 0:
            print(f"{g + 1} games, {kept} positions, {time.time() - start:.0f} s", file=sys.stderr, flush=True)
    eng.quit()
    print(f"{kept} positions", file=sys.stderr)


# The weights `tune` moves, with the step of one move (the others stay as the file says).
STEPS = {
    "TEMPO": 2,
    "MOBILITY": 2,
    "OFFICER_MOBILITY": 8,
    "SQUARE_MOBILITY": 1,
    "SHIELD": 1,
    "ATTACK": 1,
    "ATTACK_MAX": 50,
    "SAFE_CHECK": 1,
    "PROMOTION": 2,
    "UNPASSED": 5,
    "PASSED_EARLY": 10,
    "PASSED_LATE": 10,
    "DOUBLED": 2,
    "ISOLATED": 2,
    "OPEN_FILE": 4,
}


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) >= 3:
                rows.append((p[0], float(p[1]), float(p[2])))
    return rows


def defaults(herald):
    """The built-in weights, as `herald qscores --print-weights` writes them."""
    text = subprocess.run([herald, "qscores", "chess", "--print-weights"], capture_output=True, text=True, check=True).stdout
    w = {}
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, value = line.split()
            w[name] = int(value)
    return w


def write_weights(path, w):
    with open(path, "w") as f:
        for name, value in w.items():
            f.write(f"{name} {value}\n")


def qscores(args, fens_path, w):
    with tempfile.NamedTemporaryFile("w", suffix=".weights", delete=False) as f:
        wpath = f.name
    write_weights(wpath, w)
    try:
        with open(fens_path) as fin:
            text = subprocess.run(
                [args.herald, "--eval-weights", wpath, "qscores", args.preset], stdin=fin, capture_output=True, text=True
            )
        if text.returncode != 0:
            sys.exit(text.stderr)
        return [int(x) for x in text.stdout.split()]
    finally:
        os.unlink(wpath)


def tune(args):
    import numpy as np

    rows = load(args.data)
    # The last lines (whole games, as `generate` writes them) are held out: not fitted, only
    # measured, so that an error that falls only on the fitted positions shows.
    n_test = int(len(rows) * args.holdout)
    train, test = rows[: len(rows) - n_test], rows[len(rows) - n_test :]
    if args.limit:
        random.Random(1).shuffle(train)
        train = train[: args.limit]
    rows = train + test
    n = len(train)
    fens = tempfile.NamedTemporaryFile("w", suffix=".fen", delete=False)
    for fen, _, _ in rows:
        fens.write(fen + "\n")
    fens.close()
    result = np.array([r[1] for r in rows])
    fs = np.array([r[2] for r in rows])
    # Fairy-Stockfish's score as an expected result (400 cp: about 91%).
    label = (1 - args.blend) * result + args.blend / (1 + np.exp(-fs * math.log(10) / 400))
    w = defaults(args.herald)
    if args.start:
        for line in open(args.start):
            line = line.split("#")[0].strip()
            if line:
                name, value = line.split()
                w[name] = int(value)
    names = [n for n in (args.only.split(",") if args.only else STEPS) if n in w]

    def held(q, k):
        return float(np.mean((label[n:] - 1 / (1 + np.exp(-k * q[n:]))) ** 2)) if n_test else float("nan")

    def error(q, k):
        return float(np.mean((label[:n] - 1 / (1 + np.exp(-k * q[:n]))) ** 2))

    q = np.array(qscores(args, fens.name, w), dtype=float)
    # K by golden-section search on the error (it is unimodal in K).
    lo, hi = 0.0005, 0.02
    for _ in range(40):
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if error(q, a) < error(q, b):
            hi = b
        else:
            lo = a
    k = (lo + hi) / 2
    best = error(q, k)
    print(f"{n} positions, {n_test} held out, K = {k:.6f}, error {best:.6f}, held out {held(q, k):.6f}", flush=True)
    first, first_held = best, held(q, k)
    evals = 0
    for rnd in range(args.rounds):
        changed = False
        for name in names:
            step = STEPS[name]
            for sign in (1, -1):
                moved = False
                while True:
                    trial = dict(w)
                    trial[name] = w[name] + sign * step
                    if trial[name] < 0:
                        break
                    tq = np.array(qscores(args, fens.name, trial), dtype=float)
                    e = error(tq, k)
                    evals += 1
                    if e < best - 1e-7:
                        best, w, moved, changed, q = e, trial, True, True, tq
                        print(f"  {name} = {w[name]}: error {best:.6f}", flush=True)
                    else:
                        break
                if moved:
                    break
        write_weights(args.out, w)
        print(f"round {rnd + 1}: error {best:.6f}, held out {held(q, k):.6f} ({evals} evaluations)", flush=True)
        if not changed:
            break
    os.unlink(fens.name)
    print(f"error {first:.6f} -> {best:.6f}, held out {first_held:.6f} -> {held(q, k):.6f}; weights in {args.out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="write positions from Fairy-Stockfish self-play games")
    g.add_argument("--engine", default="/usr/games/fairy-stockfish")
    g.add_argument("--games", type=int, default=2000)
    g.add_argument("--minutes", type=float, default=0, help="stop starting games after this long (0: no limit)")
    g.add_argument("--nodes", type=int, default=3000, help="nodes per move")
    g.add_argument("--random-plies-min", type=int, default=2)
    g.add_argument("--random-plies-max", type=int, default=6)
    g.add_argument("--skip", type=int, default=6, help="plies after the opening and random plies left out")
    g.add_argument("--max-plies", type=int, default=300, help="a game this long is a draw")
    g.add_argument("--resign", type=int, default=1000, help="adjudicate at this score (cp) for 6 plies")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", required=True, help="appended to")
    t = sub.add_parser("tune", help="fit the weights to a data set")
    t.add_argument("--data", required=True)
    t.add_argument("--herald", default="target/release/herald")
    t.add_argument("--preset", default="chess")
    t.add_argument("--start", help="a weights file to start from (default: the built-in weights)")
    t.add_argument("--only", help="comma-separated weight names to tune (default: all)")
    t.add_argument(
        "--blend",
        type=float,
        default=0.5,
        help="share of Fairy-Stockfish's score in the label (0: the game result alone, which overfits "
        "a few hundred games: README)",
    )
    t.add_argument("--limit", type=int, default=0, help="fit this many positions (a seeded sample)")
    t.add_argument("--holdout", type=float, default=0.1, help="share of the data (its last games) not fitted, only measured")
    t.add_argument("--rounds", type=int, default=10)
    t.add_argument("--out", required=True, help="the tuned weights file")
    args = ap.parse_args()
    generate(args) if args.cmd == "generate" else tune(args)


if __name__ == "__main__":
    main()
