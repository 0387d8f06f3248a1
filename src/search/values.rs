//! `herald values`: piece values for any preset, estimated two ways and printed side by side.
//!
//! 1. The proxy (cheap): `play`, the squares the kind's pieces attack where they stand (those
//!    they could capture on, own pieces included: what they control), averaged over the positions
//!    of node-limited self-play games once a tenth of the setup's pieces have left the board,
//!    times `share^(1/4)` for a kind confined to a part of the board (`share`: the part's share of
//!    the board, below), scaled so the reference piece (the preset's pawn-like piece: the promotable kind with the
//!    most pieces in the setup, else the cheapest non-royal kind) is 1. Its error bar is the
//!    standard error over the games. The table also shows `reach`, the squares the kind attacks on
//!    an empty board averaged over the board (what its movement could reach; it overvalues
//!    long-range pieces, so it is shown, not used).
//!
//!    Why attacks, and why not the opening: counting pseudo-legal moves instead (as this did at
//!    first) undervalues the pawn, whose moves are soon blocked while its two captures still
//!    control squares: in chess it gave knight 4.0 and bishop 4.1 pawns. Counting from the setup
//!    on undervalues the pieces the setup shuts in (rooks behind pawns, the queen): on 16 chess
//!    games of 2000 nodes a turn, attacks from the setup on give N 2.9, B 3.2, R 3.7, Q 7.3;
//!    attacks once a tenth of the pieces are gone N 3.2, B 3.7, R 4.5, Q 9.5 (pawns). A game that
//!    never loses a tenth of its pieces, or a kind never seen after that, counts every position.
//!
//!    Why confinement: a bishop attacks more squares in play than a knight (6.7 against 6.1 in
//!    chess, 32 games) yet is worth about as much, and the proxy gave it 3.95 to 4.17 pawns, a
//!    pawn high, whatever the search. Nothing else in its movement sets it apart: it never leaves
//!    its colour, so the enemy pieces and squares of the other colour are out of its reach for
//!    good, however many of its own colour it attacks. `share` is the average, over the board's
//!    squares, of the share of the board in the square's part, where a kind's moves and attacks
//!    on an empty board (taken either way) join squares into parts: 1/2 for a bishop or a ferz,
//!    1/8 for an alfil on 8x8, 1 for a knight, rook, king or pawn. Its power, 1/4 (a bishop's
//!    attacks count 0.84), is set on chess, where the classical values put bishop and knight
//!    level: the whole share would halve the bishop (2.0 pawns), while its attacks of its own
//!    colour still hold the board. Chess, 32 games of 2000 nodes a turn, before and after:
//!    N 3.53 and 3.53, B 3.68 and 3.10, R 4.69, Q 8.97 (the others do not change).
//! 2. The cross-check (costly): self-play games from the setup with one piece of kind X taken
//!    from one side (a random one of its pieces, the side alternating) and, from the other side,
//!    as many pawns as the proxy says X is worth (rounded, at most the pawns it has): the side
//!    missing X has a mean score `s`, whose handicap `ln((1-s)/s)` in logistic units, divided by
//!    the pawn's own handicap (games with one pawn missing), is what X is worth beyond those
//!    pawns. Were X alone taken, a piece worth many pawns would lose nearly every game, and the
//!    handicap of a score near 0 says little (in chess a queen came out at 3.8 ± 1.5 pawns on
//!    32 games); against pawns the score stays near one half where the proxy is right. Error
//!    bars: the games' standard error, carried through both handicaps.
//!
//! A values file (`--values FILE`) holds one kind per line, `NAME VALUE` (the kind's name or
//! label, a number of pawns; anything after is ignored, `#` starts a comment), which is the format
//! `herald values` prints: its table can be saved and read back. The search then values pieces
//! by it instead of the preset's declared values.

use super::attacks::alone_on_each_square;
use super::selfplay::{Options, play_game};
use super::{Limits, Searcher};
use crate::engine::board::cell;
use crate::engine::{Position, Side};
use crate::game::Game;
use crate::preset::Preset;
use crate::rng::Rng;
use std::sync::Arc;

/// How `herald values` samples.
#[derive(Clone, Debug)]
pub struct ValuesOptions {
    /// Self-play games for the proxy, and per kind for the cross-check.
    pub games: u32,
    /// Nodes per turn in every game.
    pub nodes: u64,
    pub seed: u64,
    /// Games stop after this many plies (unfinished games count as draws in the cross-check).
    pub max_plies: usize,
    /// Skip the cross-check (the proxy only).
    pub proxy_only: bool,
}

impl Default for ValuesOptions {
    fn default() -> Self {
        ValuesOptions { games: 8, nodes: 2000, seed: 1, max_plies: 160, proxy_only: false }
    }
}

/// One kind's estimates, in pawns (the reference kind = 1).
#[derive(Clone, Debug)]
pub struct KindValue {
    pub name: String,
    pub label: String,
    pub declared: i32,
    /// Squares attacked on an empty board, averaged over its squares.
    pub reach: f64,
    /// Mean mobility and its standard error; none when the kind never stood on the board.
    pub mobility: Option<(f64, f64)>,
    pub proxy: Option<(f64, f64)>,
    /// The cross-check: value and error bar; none when not run or the kind is not in the setup.
    pub played: Option<(f64, f64)>,
}

/// Estimate every kind's value; `progress` gets a line per finished game batch.
pub fn estimate(
    preset: &Arc<Preset>,
    opts: &ValuesOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<KindValue>, String> {
    let n = preset.kinds.len();
    let reference = reference_kind(preset);
    let mut rng = Rng::new(opts.seed);
    // Per game, per kind: (sum of mobility, pieces counted), once pieces have gone and over all.
    let mut late: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut all: Vec<Vec<(f64, f64)>> = Vec::new();
    for g in 0..opts.games.max(1) {
        let (l, a) = sample_game(preset, opts, opts.seed.wrapping_add(g as u64), &mut rng)?;
        late.push(l);
        all.push(a);
        progress(&format!("proxy: game {} of {}", g + 1, opts.games.max(1)));
    }
    let reference_late = reference.is_some_and(|r| mean_err(&late, r).is_some());
    let mobility: Vec<Option<(f64, f64)>> = (0..n)
        .map(|k| if reference_late { mean_err(&late, k).or_else(|| mean_err(&all, k)) } else { mean_err(&all, k) })
        .collect();
    let reach = empty_board_reach(preset);
    let share = board_share(preset);
    let root = |k: usize, m: f64| m.max(0.0) * share[k].powf(CONFINED_EXPONENT);
    let base = reference.and_then(|r| mobility[r].map(|(m, _)| root(r, m))).filter(|&b| b > 0.0);
    let mut out: Vec<KindValue> = preset
        .kinds
        .iter()
        .enumerate()
        .map(|(k, kind)| {
            let proxy = match (mobility[k], base) {
                (Some((m, e)), Some(b)) => {
                    let v = root(k, m) / b;
                    // The reference's own error is left out (it is 1 by definition).
                    let err = root(k, e) / b;
                    Some((v, err))
                }
                _ => None,
            };
            KindValue {
                name: kind.name.clone(),
                label: kind.labels[Side::White].clone(),
                declared: kind.value,
                reach: reach[k],
                mobility: mobility[k],
                proxy,
                played: None,
            }
        })
        .collect();
    if !opts.proxy_only
        && let Some(r) = reference
    {
        let handicap = |k: usize,
                        pawns: usize,
                        rng: &mut Rng,
                        progress: &mut dyn FnMut(&str)|
         -> Result<Option<(f64, f64)>, String> {
            let scores = imbalance_games(preset, opts, k, (r, pawns), rng)?;
            progress(&format!(
                "cross-check: {} against {pawns} {} ({} games)",
                preset.kinds[k].name,
                preset.kinds[r].name,
                scores.len()
            ));
            Ok(logit_handicap(&scores))
        };
        let Some((pawn, pawn_err)) = handicap(r, 0, &mut rng, progress)? else {
            return Ok(out);
        };
        // The pawns a side has in the setup: at most that many are given for a piece.
        let per_side = preset
            .setup_cells
            .iter()
            .filter(|&&c| cell::is_piece(c) && cell::kind(c) == r && cell::side(c) == Side::White)
            .count();
        for (k, kv) in out.iter_mut().enumerate() {
            if preset.kinds[k].royal || !in_setup(preset, k) {
                continue;
            }
            let pawns = if k == r { 0 } else { kv.proxy.map_or(0, |(v, _)| v.round().max(0.0) as usize).min(per_side) };
            let h = if k == r { Some((pawn, pawn_err)) } else { handicap(k, pawns, &mut rng, progress)? };
            if let Some((d, e)) = h
                && pawn.abs() > 1e-9
            {
                // Beyond the pawns given, d / pawn, with both handicaps' errors carried through.
                let v = pawns as f64 + d / pawn;
                let err = if k == r {
                    pawn_err / pawn.abs()
                } else {
                    ((e / pawn).powi(2) + (d * pawn_err / (pawn * pawn)).powi(2)).sqrt()
                };
                kv.played = Some((v, err.min(99.0)));
            }
        }
    }
    Ok(out)
}

/// The reference kind: the promotable kind with the most pieces in the setup, else the cheapest
/// non-royal kind with a positive value, else the first non-royal kind.
pub fn reference_kind(preset: &Preset) -> Option<usize> {
    let count = |k: usize| preset.setup_cells.iter().filter(|&&c| cell::is_piece(c) && cell::kind(c) == k).count();
    let promotable = (0..preset.kinds.len())
        .filter(|&k| !preset.kinds[k].royal && matches!(preset.promotions.get(k), Some(Some(_))) && count(k) > 0)
        .max_by_key(|&k| (count(k), std::cmp::Reverse(k)));
    promotable
        .or_else(|| {
            (0..preset.kinds.len())
                .filter(|&k| !preset.kinds[k].royal && preset.kinds[k].value > 0)
                .min_by_key(|&k| preset.kinds[k].value)
        })
        .or_else(|| (0..preset.kinds.len()).find(|&k| !preset.kinds[k].royal))
}

/// Per kind, the squares a White piece attacks on an otherwise empty board, averaged over the
/// board's squares.
fn empty_board_reach(preset: &Preset) -> Vec<f64> {
    let mut pos = Position::empty(preset);
    let squares = &preset.geo.squares;
    (0..preset.kinds.len())
        .map(|k| {
            let code = cell::piece(k, Side::White);
            let mut sum = 0usize;
            for &sq in squares {
                pos.place(&preset.zobrist, sq, code);
                sum += pos.attacks_from(preset, sq).len();
                pos.place(&preset.zobrist, sq, cell::EMPTY);
            }
            sum as f64 / squares.len().max(1) as f64
        })
        .collect()
}

/// A confined kind's attacks count as its share of the board to this power (see the module's
/// documentation).
const CONFINED_EXPONENT: f64 = 0.25;

/// Per kind, the share of the board a piece of it can ever reach, averaged over the board's
/// squares: the size of its square's part of the board, where two squares are in one part when a
/// move or an attack of the kind's White piece on an empty board joins them (either way). A
/// bishop's part is its colour (1/2); a piece that reaches everywhere has 1.
fn board_share(preset: &Preset) -> Vec<f64> {
    let g = &preset.geo;
    (0..preset.kinds.len())
        .map(|k| {
            let code = cell::piece(k, Side::White);
            let mut part: Vec<usize> = (0..g.cells).collect();
            fn root(part: &mut [usize], mut i: usize) -> usize {
                while part[i] != i {
                    part[i] = part[part[i]];
                    i = part[i];
                }
                i
            }
            alone_on_each_square(preset, code, |pos, sq, moves| {
                for to in moves.iter().map(|m| m.to).chain(pos.attacks_from(preset, sq)) {
                    let (a, b) = (root(&mut part, sq.idx()), root(&mut part, to.idx()));
                    part[a] = b;
                }
            });
            let mut size = vec![0usize; g.cells];
            for &sq in &g.squares {
                size[root(&mut part, sq.idx())] += 1;
            }
            let n = g.squares.len().max(1) as f64;
            g.squares.iter().map(|&sq| size[root(&mut part, sq.idx())] as f64 / n).sum::<f64>() / n
        })
        .collect()
}

fn in_setup(preset: &Preset, k: usize) -> bool {
    preset.setup_cells.iter().any(|&c| cell::is_piece(c) && cell::kind(c) == k)
}

/// One self-play game; per kind, the sum of its pieces' mobility and how many pieces were
/// counted, over the positions once a tenth of the setup's pieces have left the board, and over
/// every position.
type Sums = Vec<(f64, f64)>;
fn sample_game(preset: &Arc<Preset>, opts: &ValuesOptions, seed: u64, rng: &mut Rng) -> Result<(Sums, Sums), String> {
    let mut game = Game::new(Arc::clone(preset), None, Some(seed)).map_err(|e| e.to_string())?;
    let mut searcher = Searcher::new();
    let mut sums = vec![(0.0, 0.0); preset.kinds.len()];
    let mut late = sums.clone();
    let setup_pieces = preset.setup_cells.iter().filter(|&&c| cell::is_piece(c)).count();
    let mut buf = Vec::new();
    let limits = Limits::nodes(opts.nodes);
    for ply in 0..opts.max_plies {
        if game.result().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        let pieces: usize = Side::BOTH.iter().map(|&side| game.pos.occupied_by(side).count()).sum();
        let before = sums.clone();
        count_mobility(preset, &mut game.pos, &mut buf, &mut sums);
        if pieces * 10 <= setup_pieces * 9 {
            for (l, (s, b)) in late.iter_mut().zip(sums.iter().zip(&before)) {
                l.0 += s.0 - b.0;
                l.1 += s.1 - b.1;
            }
        }
        let turn = if ply < 4 {
            let scored = searcher.root_scores(preset, &mut game.pos, 1).map_err(|e| e.to_string())?;
            let Some(best) = scored.iter().map(|s| s.1).max() else { break };
            let close: Vec<_> = scored.iter().filter(|s| s.1 >= best - 30).map(|s| s.0).collect();
            close[rng.below(close.len())]
        } else {
            searcher.search(preset, &mut game.pos, &limits).map_err(|e| e.to_string())?.turn
        };
        let text = game.text(&turn);
        game.play(&text).map_err(|e| format!("the computer's turn `{text}` was refused: {e}"))?;
    }
    Ok((late, sums))
}

/// Add the squares each piece (both sides) attacks to its kind's sum; a piece that attacks
/// nothing (one that only moves, as a piece of a game without captures) counts its pseudo-legal
/// moves instead.
fn count_mobility(preset: &Preset, pos: &mut Position, buf: &mut Vec<crate::engine::Move>, sums: &mut [(f64, f64)]) {
    let us = pos.side;
    for side in Side::BOTH {
        pos.side = side;
        buf.clear();
        pos.pseudo_moves(preset, buf);
        let mut per_square = std::collections::HashMap::new();
        for m in buf.iter().filter(|m| m.flags & crate::engine::position::mflag::DROP == 0) {
            *per_square.entry(m.from).or_insert(0usize) += 1;
        }
        for sq in pos.occupied_by(side).collect::<Vec<_>>() {
            let c = pos.cells[sq.idx()];
            if !cell::is_piece(c) {
                continue;
            }
            let k = cell::kind(c);
            let attacks = pos.attacks_from(preset, sq).len();
            let count = if attacks > 0 { attacks } else { per_square.get(&sq).copied().unwrap_or(0) };
            sums[k].0 += count as f64;
            sums[k].1 += 1.0;
        }
    }
    pos.side = us;
}

/// The mean over games of each game's mean mobility for kind `k`, and its standard error.
fn mean_err(per_game: &[Vec<(f64, f64)>], k: usize) -> Option<(f64, f64)> {
    let means: Vec<f64> = per_game.iter().filter(|g| g[k].1 > 0.0).map(|g| g[k].0 / g[k].1).collect();
    if means.is_empty() {
        return None;
    }
    let n = means.len() as f64;
    let m = means.iter().sum::<f64>() / n;
    let var = if means.len() > 1 { means.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0) } else { m * m };
    Some((m, (var / n).sqrt()))
}

/// Games with one piece of kind `k` removed from one side (alternating) and `give.1` pieces of
/// kind `give.0` from the other; the first side's scores (1, 0.5, 0; unfinished games 0.5).
fn imbalance_games(
    preset: &Arc<Preset>,
    opts: &ValuesOptions,
    k: usize,
    give: (usize, usize),
    rng: &mut Rng,
) -> Result<Vec<f64>, String> {
    let mut scores = Vec::new();
    for g in 0..opts.games.max(1) {
        let missing = if g % 2 == 0 { Side::White } else { Side::Black };
        let mut game =
            Game::new(Arc::clone(preset), None, Some(opts.seed.wrapping_add(g as u64))).map_err(|e| e.to_string())?;
        let code = cell::piece(k, missing);
        let squares: Vec<_> =
            game.pos.occupied_by(missing).filter(|&sq| cell::code(game.pos.cells[sq.idx()]) == code).collect();
        if squares.is_empty() {
            return Ok(scores);
        }
        let sq = squares[rng.below(squares.len())];
        game.pos.place(&preset.zobrist, sq, cell::EMPTY);
        let other = missing.other();
        let code = cell::piece(give.0, other);
        let mut squares: Vec<_> =
            game.pos.occupied_by(other).filter(|&sq| cell::code(game.pos.cells[sq.idx()]) == code).collect();
        for _ in 0..give.1.min(squares.len()) {
            let sq = squares.swap_remove(rng.below(squares.len()));
            game.pos.place(&preset.zobrist, sq, cell::EMPTY);
        }
        let fen = game.fen();
        let o = Options {
            games: 1,
            seed: opts.seed,
            limits: Limits::nodes(opts.nodes),
            max_plies: opts.max_plies,
            random_plies: 4,
        };
        let r = play_game(preset, Some(&fen), None, rng, &o)?;
        let s = match r.result.and_then(|o| o.winner) {
            Some(w) if w == missing => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        scores.push(s);
    }
    Ok(scores)
}

/// The handicap `ln((1-s)/s)` of a mean score `s` (clamped half a game from 0 and 1), and its
/// error bar (the scores' standard error through the derivative).
fn logit_handicap(scores: &[f64]) -> Option<(f64, f64)> {
    if scores.is_empty() {
        return None;
    }
    let n = scores.len() as f64;
    let m = scores.iter().sum::<f64>() / n;
    let s = m.clamp(0.5 / (n + 1.0), 1.0 - 0.5 / (n + 1.0));
    let var = scores.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let var = if var == 0.0 { s * (1.0 - s) } else { var };
    let se = (var / n).sqrt();
    Some((((1.0 - s) / s).ln(), se / (s * (1.0 - s))))
}

/// The table `herald values` prints: a values file as well (see the module's documentation).
pub fn table(preset: &Preset, rows: &[KindValue], opts: &ValuesOptions) -> String {
    let reference = reference_kind(preset).map_or("none".to_string(), |k| preset.kinds[k].name.clone());
    let mut out = format!(
        "# {}: piece values in pawns ({} = 1); {} games, {} nodes a turn, seed {}\n",
        preset.name, reference, opts.games, opts.nodes, opts.seed
    );
    out += "# NAME  proxy ± error  | self-play ± error | declared | reach, play mobility (label)\n";
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(4).max(4);
    for r in rows {
        let pm = |v: Option<(f64, f64)>| v.map_or("      -        ".to_string(), |(v, e)| format!("{v:6.2} ± {e:5.2}"));
        let mob = r.mobility.map_or("-".to_string(), |(m, e)| format!("{m:.2} ± {e:.2}"));
        let played = if opts.proxy_only { "   (not run)   ".to_string() } else { pm(r.played) };
        out += &format!(
            "{:width$} {}  | {} | {:3} | {:.2}, {} ({})\n",
            r.name,
            pm(r.proxy),
            played,
            r.declared,
            r.reach,
            mob,
            r.label
        );
    }
    out
}

/// Read a values file: `NAME VALUE` per line (see the module's documentation).
pub fn parse_file(path: &str, text: &str) -> Result<Vec<(String, f64)>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(name), Some(v)) = (words.next(), words.next()) else {
            return Err(format!("{path}:{}: expected `NAME VALUE`, found `{line}`", i + 1));
        };
        let v: f64 = v
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && v.abs() <= 10_000.0)
            .ok_or_else(|| format!("{path}:{}: `{v}` is not a piece value (a number of pawns)", i + 1))?;
        out.push((name.to_string(), v));
    }
    Ok(out)
}

pub use super::eval::set_learned;
