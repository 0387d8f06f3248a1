#!/usr/bin/env python3
"""bench/match.py: play Herald against Fairy-Stockfish (or against another Herald build) from a
fixed list of openings, colours alternating, one game at a time, and report W/D/L, the score and an
Elo estimate with its 95% error bar.

    bench/match.py --preset chess --time 200 --games 10
    bench/match.py --preset shatranj --nodes 20000 --games 10
    bench/match.py --preset chess --time 100 --games 20 --opponent-herald /tmp/herald-base
    bench/match.py --nodes 20000 --jitter 0.3 --jobs 2 --games 60 --opponent-herald /tmp/herald-base

At fixed nodes a game is a function of its opening and colours; `--jitter F` varies each move's
node limit at random within +-F of --nodes (seeded by --seed and the game's number, so a match is
still repeatable), so that more games than openings differ; `--random-plies N` plays N random
legal plies after each opening (the same for both games of a pair; one is drawn again while the
referee's short search scores the position beyond --random-margin), so that pairs differ more.
`--jobs N` plays N games at once (each with its own processes; results are printed as games end
and reported in game order).

Both engines are driven over UCI: Herald as `herald uci` with `setoption name UCI_Variant value
PRESET` (the library presets carry Fairy-Stockfish's variant names, and Herald writes moves as
Fairy-Stockfish does, docs/engine.md), so a variant maps to itself; `--variant` names
Fairy-Stockfish's variant when it differs. Every move is checked before it is played: by a third
Herald process, the referee (`go perft 1` lists the legal turns; `d` prints the result), by
Fairy-Stockfish's own `go perft 1` when it plays, and in chess by python-chess too when installed.
A move outside them loses the game for the engine that made it, and is reported. Results come from
the referee (python-chess in chess); a game still going after --max-plies is scored a draw
(adjudicated). When Fairy-Stockfish has no move where the referee sees no end (its rules end a
game Herald's would not, e.g. a counting rule), its own score decides (mate 0: it lost; else a
draw) and the line says so.
"""

import argparse
import concurrent.futures
import math
import os
import random
import select
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


class Uci:
    """One UCI engine process: positions are `startpos moves ...`, moves are UCI text."""

    timeout = 120

    def __init__(self, binary, variant, name, args=(), values=None, always_variant=True):
        pre = ["--values", values] if values else []
        self.last = ""
        self.pending = b""
        self.p = subprocess.Popen([binary, *pre, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.name = name
        self.send("uci")
        self.wait("uciok")
        if always_variant or variant != "chess":
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("ucinewgame")
        self.send("isready")
        lines = self.wait("readyok")
        errors = [l for l in lines if "error" in l]
        if errors:
            self.p.kill()
            raise RuntimeError(f"{name}: {errors[0]}")

    def send(self, s):
        self.last = s
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, prefix, timeout=None):
        """The lines up to the first that starts with `prefix`; an engine silent for `timeout`
        seconds (default Uci.timeout) is an error, not a hang. Output is read from the pipe itself
        (a buffered reader would hide lines from select)."""
        lines = []
        limit = timeout or self.timeout
        fd = self.p.stdout.fileno()
        while True:
            while b"\n" not in self.pending:
                ready, _, _ = select.select([fd], [], [], limit)
                if not ready:
                    raise RuntimeError(f"{self.name}: no `{prefix}` within {limit} s after `{self.last}`")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise RuntimeError(f"{self.name} exited")
                self.pending += chunk
            raw, self.pending = self.pending.split(b"\n", 1)
            l = raw.decode(errors="replace").strip()
            lines.append(l)
            if l.startswith(prefix):
                return lines

    def position(self, history):
        self.send("position startpos" + (" moves " + " ".join(history) if history else ""))

    def moves(self, history):
        self.position(history)
        self.send("go perft 1")
        lines = self.wait("Nodes searched")
        return {l.rsplit(":", 1)[0] for l in lines[:-1] if re.match(r"^\S+: \d+$", l)}

    def go(self, history, time_ms=None, nodes=None):
        """(bestmove, depth of the last iteration, last score text)."""
        self.position(history)
        self.send(f"go nodes {nodes}" if nodes else f"go movetime {time_ms}")
        lines = self.wait("bestmove")
        depth, score = 0, ""
        for l in lines:
            m = re.search(r" depth (\d+)", l)
            if m and " pv " in l:
                depth = int(m.group(1))
            s = re.search(r" score (cp -?\d+|mate -?\d+)", l)
            if s:
                score = s.group(1)
        return lines[-1].split()[1], depth, score

    def result(self, history):
        """The referee's `Result:` line (`ongoing`, `white wins (checkmate)`, `draw (...)`)."""
        self.position(history)
        self.send("d")
        return self.wait("Result:")[-1][len("Result: "):]

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


class IllegalMove(Exception):
    pass


def play_game(args, opening, herald_white, game_no=0):
    """One game; the score for the Herald under test (1, 0.5, 0) and a line of description."""
    rng = random.Random(args.seed * 100003 + game_no)
    board = None
    if args.preset == "chess":
        try:
            import chess
            board = chess.Board()
        except ImportError:
            board = None
    variant = args.variant or args.preset
    started = []

    def start(*a, **k):
        try:
            e = Uci(*a, **k)
        except RuntimeError:
            for e in started:
                e.close()
            raise
        started.append(e)
        return e

    referee = start(args.herald, args.preset, "referee", ["uci"])
    main = start(args.herald, args.preset, os.path.basename(args.herald), ["uci"], args.values)
    if args.opponent_herald:
        opp = start(args.opponent_herald, args.preset, "opponent " + os.path.basename(args.opponent_herald),
                    ["uci"], args.opponent_values)
        fairy = None
    else:
        opp = start(args.fairy, variant, "fairy-stockfish", always_variant=False)
        opp.send("setoption name Threads value 1")
        opp.send("setoption name Hash value 16")
        fairy = opp
    players = [main, opp] if herald_white else [opp, main]
    history = []
    depths = {id(main): [], id(opp): []}
    result = None  # score for White
    why = ""

    def check(uci):
        if board is not None:
            import chess
            if chess.Move.from_uci(uci) not in board.legal_moves:
                raise IllegalMove(uci)
        if uci not in referee.moves(history):
            raise IllegalMove(uci)
        if fairy and uci not in fairy.moves(history):
            raise IllegalMove(uci)

    def push(uci):
        if board is not None:
            import chess
            board.push(chess.Move.from_uci(uci))
        history.append(uci)

    try:
        for uci in opening:
            try:
                check(uci)
            except IllegalMove:
                sys.exit(f"{args.openings}: opening {' '.join(opening)}: {uci} is not legal")
            push(uci)
        # Random plies after the opening, the same for both games of a pair (seeded by --seed and
        # the pair's number), so that a pair's two games start alike and pairs differ.
        # A random ply that leaves the position lopsided (the referee's short search scores it
        # beyond --random-margin) is drawn again, so that pairs do not start decided.
        pair_rng = random.Random(args.seed * 7919 + game_no // 2)
        for _ in range(args.random_plies):
            if referee.result(history) != "ongoing":
                break
            legal = sorted(referee.moves(history))
            if not legal:
                break
            pair_rng.shuffle(legal)
            best = None
            for uci in legal[:20]:
                _, _, score = referee.go(history + [uci], nodes=2000)
                cp = abs(int(score.split()[1])) if score.startswith("cp ") else 10 ** 6
                if best is None or cp < best[0]:
                    best = (cp, uci)
                if cp <= args.random_margin:
                    break
            check(best[1])
            push(best[1])
        while result is None:
            side = len(history) % 2
            mover = players[side]
            r = referee.result(history)
            if r != "ongoing":
                result = 1.0 if r.startswith("white wins") else 0.0 if r.startswith("black wins") else 0.5
                why = r
                break
            if board is not None and board.is_game_over(claim_draw=True):
                o = board.outcome(claim_draw=True)
                result = {True: 1.0, False: 0.0, None: 0.5}[o.winner]
                why = "python-chess: " + o.termination.name.lower()
                break
            if fairy and not fairy.moves(history):
                # Fairy-Stockfish's rules ended the game where Herald's did not (a bare king in
                # shatranj, say): its own score says how.
                _, _, score = fairy.go(history, nodes=1)
                lost = score.startswith("mate ") and int(score.split()[1]) <= 0
                result = (0.0 if side == 0 else 1.0) if lost else 0.5
                why = f"fairy-stockfish's rules end it ({score or 'no score'}), the referee's do not"
                break
            if len(history) >= args.max_plies:
                result, why = 0.5, "adjudicated (ply limit)"
                break
            nodes = args.nodes
            if nodes and args.jitter:
                nodes = max(1, round(nodes * (1 + args.jitter * (2 * rng.random() - 1))))
            uci, d, score = mover.go(history, args.time, nodes)
            depths[id(mover)].append(d)
            if uci == "(none)":
                if mover is fairy:
                    lost = score.startswith("mate ") and int(score.split()[1]) <= 0
                    result = (0.0 if side == 0 else 1.0) if lost else 0.5
                    why = f"fairy-stockfish sees the end ({score or 'no score'}), the referee does not"
                    break
                raise RuntimeError(f"{mover.name} has no move but the referee sees no end: {' '.join(history)}")
            try:
                check(uci)
            except IllegalMove as e:
                result = 0.0 if side == 0 else 1.0
                why = f"illegal move {e} by {mover.name}"
                print(f"  ILLEGAL: {why} after {' '.join(history)}", file=sys.stderr)
                break
            push(uci)
    except RuntimeError as e:
        raise RuntimeError(f"{e} (moves: {' '.join(history)})") from e
    finally:
        for e in (main, opp, referee):
            e.close()
    score = result if herald_white else 1 - result
    avg = lambda xs: sum(xs) / len(xs) if xs else 0  # noqa: E731
    desc = (f"{'W' if herald_white else 'B'} {result:.1f}-{1 - result:.1f} {len(history)} plies, {why}; "
            f"depth herald {avg(depths[id(main)]):.1f} opp {avg(depths[id(opp)]):.1f}")
    return score, desc, history


def elo(score):
    """The Elo difference for a mean score (clamped to +-1200 at 0% and 100%)."""
    s = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / s - 1)


def report(scores):
    """W/D/L, the score and the Elo with a 95% interval (normal approximation on per-game scores)."""
    n = len(scores)
    if n == 0:
        return "games 0"
    w = sum(1 for s in scores if s == 1)
    d = sum(1 for s in scores if s == 0.5)
    l_ = n - w - d
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / max(n - 1, 1)
    if var == 0:
        # All games alike: a sample variance of 0 would claim certainty; use a half game's doubt.
        m = (sum(scores) + 0.5) / (n + 1)
        var = m * (1 - m)
    se = math.sqrt(var / n) if n > 1 else 0.5
    lo, hi = max(mean - 1.96 * se, 0.0), min(mean + 1.96 * se, 1.0)
    return (f"games {n}: +{w} ={d} -{l_}, score {mean * 100:.1f}% "
            f"(95%: {lo * 100:.1f}%..{hi * 100:.1f}%), Elo {elo(mean):+.0f} "
            f"(95%: {elo(lo):+.0f}..{elo(hi):+.0f})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="chess")
    ap.add_argument("--variant", help="Fairy-Stockfish's UCI_Variant name (default: the preset's)")
    ap.add_argument("--herald", default=os.path.join(HERE, "..", "target", "release", "herald"))
    ap.add_argument("--values", help="a values file for the Herald under test (its --values)")
    ap.add_argument("--opponent-herald", help="play this Herald binary instead of Fairy-Stockfish")
    ap.add_argument("--opponent-values", help="a values file for the opponent Herald")
    ap.add_argument("--fairy", default="/usr/games/fairy-stockfish")
    ap.add_argument("--time", type=int, default=200, help="milliseconds per move (both sides)")
    ap.add_argument("--nodes", type=int, help="nodes per move instead of time (both sides)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--jitter", type=float, default=0.0,
                    help="vary each move's node limit at random within +-this share of --nodes")
    ap.add_argument("--seed", type=int, default=1, help="seeds --jitter")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once")
    ap.add_argument("--only", type=int, nargs="+", help="play only these games (numbered from 1)")
    ap.add_argument("--openings", default=os.path.join(HERE, "openings.txt"))
    ap.add_argument("--random-plies", type=int, default=0,
                    help="after each opening, this many plies of random legal moves (the same for "
                         "both games of a pair, seeded by --seed), for more varied games")
    ap.add_argument("--random-margin", type=int, default=60,
                    help="a random ply is kept when the referee's 2000-node search scores the "
                         "position within this many centipawns (else another is drawn)")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--pgn", help="append each game's moves to this file")
    args = ap.parse_args()

    openings = []
    with open(args.openings) as f:
        for line in f:
            line = line.split("#")[0].split()
            if line and line[0] == args.preset:
                openings.append(line[1:])
    if not openings:
        sys.exit(f"no opening for {args.preset} in {args.openings}")
    opp = args.opponent_herald or f"fairy-stockfish ({args.variant or args.preset})"
    limit = f"{args.nodes} nodes" if args.nodes else f"{args.time} ms"
    if args.nodes and args.jitter:
        limit += f" (+-{args.jitter * 100:.0f}%, seed {args.seed})"
    if args.random_plies:
        limit += f", {args.random_plies} random plies after each opening"
    if args.jobs > 1:
        limit += f", {args.jobs} at once"
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {args.herald} vs {opp}, "
          f"{args.preset}, {limit} per move, {args.games} games", flush=True)
    def one(g):
        opening = openings[(g // 2) % len(openings)]
        white = g % 2 == 0
        try:
            s, desc, history = play_game(args, opening, white, g)
        except RuntimeError as e:
            # An engine that exits or falls silent voids the game (it is reported, not scored).
            return g, opening, white, None, f"void: {e}", []
        return g, opening, white, s, desc, history

    numbers = [n - 1 for n in args.only] if args.only else range(args.games)
    scores = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        for fut in concurrent.futures.as_completed([pool.submit(one, g) for g in numbers]):
            g, opening, white, s, desc, history = fut.result()
            if s is None:
                print(f"game {g + 1}: {' '.join(opening)}: {desc}", flush=True)
                continue
            scores[g] = s
            print(f"game {g + 1}: {' '.join(opening)}: herald {s:.1f} ({desc})", flush=True)
            if args.pgn:
                with open(args.pgn, "a") as f:
                    f.write(f"{args.preset} game {g + 1} herald {'white' if white else 'black'} {s}: "
                            f"{' '.join(history)}\n")
    voided = len(numbers) - len(scores)
    print(report([scores[g] for g in sorted(scores)]) + (f"; {voided} void" if voided else ""), flush=True)


if __name__ == "__main__":
    main()
