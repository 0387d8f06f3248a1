#!/usr/bin/env python3
"""bench/match.py: play Herald against Fairy-Stockfish (or against another Herald build) from a
fixed list of openings, colours alternating, one game at a time, and report W/D/L, the score and an
Elo estimate with its 95% error bar.

    bench/match.py --preset chess --time 200 --games 10
    bench/match.py --preset chess --nodes 20000 --games 10
    bench/match.py --preset chess --time 200 --games 20 --herald target/release/herald --opponent-herald /tmp/herald-base

Herald is driven through its REPL (`herald play PRESET --ascii`, piped): one small class,
`HeraldRepl`, so that a UCI adaptor may replace it. Every move is checked before it is played: in
chess by python-chess (`pip install chess`), in other presets by the engines' own move lists
(Herald's `moves` and Fairy-Stockfish's `go perft 1`); a move outside them loses the game for the
engine that made it, and is reported. Results come from python-chess in chess, else from Herald's
`result:` line; a game still going after --max-plies is scored a draw (adjudicated).
"""

import argparse
import math
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SYNC = "zzsync"


class HeraldRepl:
    """One Herald REPL process for one game: moves go in as UCI, come out as UCI."""

    def __init__(self, binary, preset, values=None):
        cmd = [binary, "play", preset, "--ascii"]
        env = dict(os.environ)
        if values:
            env["HERALD_VALUES"] = values
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1, env=env)
        self.result = None
        self.name = os.path.basename(binary)

    def _ask(self, line):
        """Send one command; every line it printed (read up to the sync sentinel's error line)."""
        self.p.stdin.write(line + "\n" + SYNC + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            l = self.p.stdout.readline()
            if not l:
                raise RuntimeError(f"herald exited after `{line}`: {out}")
            l = l.rstrip("\n")
            if SYNC in l and l.startswith("error: unknown command"):
                break
            out.append(l)
        for l in out:
            if l.startswith("result: "):
                self.result = l[len("result: "):]
        return out

    def moves(self):
        """The legal turns: {uci: herald text}."""
        out = {}
        for l in self._ask("moves"):
            if l.endswith(" legal") or l.startswith("error"):
                continue
            out[to_uci(l)] = l
        return out

    def play(self, uci, legal=None):
        legal = legal if legal is not None else self.moves()
        if uci not in legal:
            raise IllegalMove(uci)
        out = self._ask(legal[uci])
        if any(l.startswith("error") for l in out):
            raise RuntimeError(f"herald refused {legal[uci]}: {out}")

    def go(self, time_ms=None, nodes=None):
        """Think and play; (uci, info)."""
        limit = f"{nodes} nodes" if nodes else f"{time_ms}ms"
        legal = self.moves()
        out = self._ask(f"go {limit}")
        if not out or out[0].startswith("error"):
            raise RuntimeError(f"herald go failed: {out}")
        text, _, info = out[0].partition("   (")
        uci = to_uci(text)
        if uci not in legal:
            raise IllegalMove(uci)
        m = re.search(r"depth (\d+)", info)
        return uci, int(m.group(1)) if m else 0

    def close(self):
        try:
            self.p.stdin.close()
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


class IllegalMove(Exception):
    pass


def to_uci(text):
    """`P e2-e4 (check)` -> e2e4; `P a7-a8; Q-a8` -> a7a8q; `Q*e4` -> Q@e4."""
    text = re.sub(r"\s*\(.*\)$", "", text.strip())
    text = re.sub(r"^\d+\.\s*", "", text)
    parts = [p.strip() for p in text.split(";")]
    first = parts[0].split()[-1]
    if "*" in first:
        kind, sq = parts[0].split("*")
        return kind.split()[-1].upper() + "@" + sq
    a, b = first.split("-")
    uci = a + b
    for p in parts[1:]:
        label, _, sq = p.partition("-")
        if sq == b:
            uci += label.lower().strip("()")
    return uci


class Fairy:
    def __init__(self, binary, variant):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        if variant != "chess":
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")
        self.name = "fairy-stockfish"

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            l = self.p.stdout.readline()
            if not l:
                raise RuntimeError("fairy-stockfish exited")
            l = l.strip()
            lines.append(l)
            if l.startswith(prefix):
                return lines

    def moves(self, history):
        self.send("position startpos moves " + " ".join(history))
        self.send("go perft 1")
        lines = self.wait("Nodes searched")
        return {l.split(":")[0] for l in lines if re.match(r"^[a-z]\d+[a-z]\d+\w*:|^[A-Z]@", l)}

    def go(self, history, time_ms=None, nodes=None):
        self.send("position startpos moves " + " ".join(history))
        self.send(f"go nodes {nodes}" if nodes else f"go movetime {time_ms}")
        lines = self.wait("bestmove")
        depth = 0
        for l in lines:
            m = re.search(r" depth (\d+)", l)
            if m:
                depth = int(m.group(1))
        return lines[-1].split()[1], depth

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def play_game(args, opening, herald_white, seed):
    """One game; the score for the Herald under test (1, 0.5, 0) and a line of description."""
    chess_mod = None
    if args.preset == "chess":
        import chess as chess_mod
        board = chess_mod.Board()
    main = HeraldRepl(args.herald, args.preset, args.values)
    if args.opponent_herald:
        opp = HeraldRepl(args.opponent_herald, args.preset, args.opponent_values)
    else:
        opp = Fairy(args.fairy, args.variant or args.preset)
    players = [main, opp] if herald_white else [opp, main]
    history = []
    depths = {id(main): [], id(opp): []}
    result = None  # score for White
    why = ""
    random.seed(seed)

    def referee(uci, mover):
        """Play `uci` everywhere after checking it; raise IllegalMove if it is not legal."""
        if chess_mod:
            mv = chess_mod.Move.from_uci(uci)
            if mv not in board.legal_moves:
                raise IllegalMove(uci)
        legal = main.moves()
        if uci not in legal:
            raise IllegalMove(uci)
        if isinstance(opp, Fairy) and uci not in opp.moves(history):
            raise IllegalMove(uci)
        if mover is not main:
            main.play(uci, legal)
        if isinstance(opp, HeraldRepl) and mover is not opp:
            opp.play(uci)
        if chess_mod:
            board.push(mv)
        history.append(uci)

    try:
        for uci in opening:
            try:
                referee(uci, None)
            except IllegalMove:
                sys.exit(f"{args.openings}: opening {' '.join(opening)}: {uci} is not legal")
        while result is None:
            side = len(history) % 2
            mover = players[side]
            if chess_mod and board.is_game_over(claim_draw=True):
                o = board.outcome(claim_draw=True)
                result = {True: 1.0, False: 0.0, None: 0.5}[o.winner]
                why = o.termination.name.lower()
                break
            if not chess_mod and main.result:
                r = main.result
                result = 1.0 if r.startswith("white wins") else 0.0 if r.startswith("black wins") else 0.5
                why = r
                break
            if len(history) >= args.max_plies:
                result, why = 0.5, "adjudicated (ply limit)"
                break
            try:
                if isinstance(mover, HeraldRepl):
                    uci, d = mover.go(args.time, args.nodes)
                    if mover is main:
                        # it has played it already; the others are told, after the check
                        check_played(mover, uci, chess_mod and board, history, opp)
                        if chess_mod:
                            board.push(chess_mod.Move.from_uci(uci))
                        history.append(uci)
                        if isinstance(opp, HeraldRepl):
                            opp.play(uci)
                        depths[id(mover)].append(d)
                        continue
                    check_played(mover, uci, chess_mod and board, history, None)
                    main.play(uci)
                    if chess_mod:
                        board.push(chess_mod.Move.from_uci(uci))
                    history.append(uci)
                    depths[id(mover)].append(d)
                    continue
                uci, d = mover.go(history, args.time, args.nodes)
                depths[id(mover)].append(d)
                if uci == "(none)":
                    raise RuntimeError("fairy-stockfish has no move but the referee saw no end")
                referee(uci, mover)
            except IllegalMove as e:
                result = 0.0 if side == 0 else 1.0
                why = f"illegal move {e} by {mover.name}"
                print(f"  ILLEGAL: {why} after {' '.join(history)}", file=sys.stderr)
    finally:
        main.close()
        opp.close()
    score = result if herald_white else 1 - result
    avg = lambda xs: sum(xs) / len(xs) if xs else 0  # noqa: E731
    desc = (f"{'W' if herald_white else 'B'} {result:.1f}-{1 - result:.1f} {len(history)} plies, {why}; "
            f"depth herald {avg(depths[id(main)]):.1f} opp {avg(depths[id(opp)]):.1f}")
    return score, desc


def check_played(mover, uci, board, history, other):
    """A turn Herald played already in its own REPL: check it with python-chess and the opponent."""
    if board is not False and board is not None:
        import chess
        if chess.Move.from_uci(uci) not in board.legal_moves:
            raise IllegalMove(uci)
    if isinstance(other, Fairy) and uci not in other.moves(history):
        raise IllegalMove(uci)


def elo(score, n):
    """Elo difference for a mean score over n games, and its 95% interval (normal approximation)."""
    def e(s):
        s = min(max(s, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / s - 1)
    return e(score)


def report(scores):
    n = len(scores)
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
            f"(95%: {lo * 100:.1f}%..{hi * 100:.1f}%), Elo {elo(mean, n):+.0f} "
            f"(95%: {elo(lo, n):+.0f}..{elo(hi, n):+.0f})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="chess")
    ap.add_argument("--variant", help="Fairy-Stockfish's UCI_Variant name (default: the preset's)")
    ap.add_argument("--herald", default=os.path.join(HERE, "..", "target", "release", "herald"))
    ap.add_argument("--values", help="a values file for the Herald under test (HERALD_VALUES)")
    ap.add_argument("--opponent-herald", help="play this Herald binary instead of Fairy-Stockfish")
    ap.add_argument("--opponent-values", help="a values file for the opponent Herald")
    ap.add_argument("--fairy", default="/usr/games/fairy-stockfish")
    ap.add_argument("--time", type=int, default=200, help="milliseconds per move (both sides)")
    ap.add_argument("--nodes", type=int, help="nodes per move instead of time (both sides)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--openings", default=os.path.join(HERE, "openings.txt"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
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
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {args.herald} vs {opp}, "
          f"{args.preset}, {limit} per move, {args.games} games, seed {args.seed}")
    scores = []
    for g in range(args.games):
        opening = openings[(g // 2) % len(openings)]
        white = g % 2 == 0
        s, desc = play_game(args, opening, white, args.seed + g)
        scores.append(s)
        print(f"game {g + 1}: {' '.join(opening)}: herald {s:.1f} ({desc})", flush=True)
    print(report(scores))


if __name__ == "__main__":
    main()
