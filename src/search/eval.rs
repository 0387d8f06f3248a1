//! Static evaluation: the preset's declared piece values (board and hands), a little mobility,
//! positional terms derived from the preset alone (see [`Tables`]), and the preset's own
//! `fn evaluate` when it has one. Scores are from the side to move's view.

use super::attacks::{self, AttackSets, Weights};
use super::structure::{Structure, promotion_bonus};
use super::weights::{self, EvalWeights};
use crate::engine::board::{Sq, cell};
use crate::engine::{Move, Position, Side};
use crate::preset::Preset;
use crate::script::{Interp, Outcome, ScriptError, Value};
use std::sync::atomic::{AtomicU64, Ordering};

/// Score units per unit of declared piece value: `value 1` is worth 100.
pub const UNIT: i32 = 100;
// The weights of the terms (`TEMPO`, `MOBILITY`, ... in a weights file) are in [`EvalWeights`].

/// Positional terms computed once from the preset, by cell code and square: what a new preset
/// gets with no tuning.
/// - Each piece's mobility on an empty board from each square, centred on its average: pieces
///   prefer squares where their movement reaches far (the centre for leapers, open lines).
/// - A promotable piece gains a growing share of what its best promotion adds as its distance to
///   the promotion zone shrinks (by the square: `(1 - d/D)^2 / 5` of the gain); a pawn-like one
///   only a quarter of it here, and the rest when passed ([`Structure`]).
/// - Royal pieces prefer the squares where they can move least (corners, edges, behind their
///   own pieces) while the opponent keeps officers, and the most central ones as officers go;
///   each own piece next to them counts too (a shield) in the same proportion.
/// - A piece in hand is worth its value plus its best square's bonus (where it could be dropped).
struct Tables {
    cells: usize,
    /// `[code * cells + square]`: non-royal pieces' terms; royal pieces' opening terms.
    square: Vec<i32>,
    /// `[code * cells + square]`: royal pieces' endgame terms.
    royal_late: Vec<i32>,
    hand: [i32; 128],
    /// Each square's neighbours (king-step away) on the board.
    near: Vec<Vec<Sq>>,
    /// The officers' material of the setup: full opening weight.
    full_phase: i32,
    /// Per cell code: the score of one move of the piece, in eighths ([`EvalWeights::mobility`]).
    mobility: Weights,
    /// Score per own piece next to a royal piece ([`EvalWeights::shield`]).
    shield: i32,
    /// `[code]`: the pair bonus of a colour-bound kind ([`EvalWeights::pair`]), 0 for the others.
    pair: [i32; 128],
}

impl Tables {
    fn new(
        preset: &Preset,
        values: &[i32; 128],
        officers: &[Vec<u8>; 2],
        structure: Option<&Structure>,
        w: &EvalWeights,
    ) -> Tables {
        let g = &preset.geo;
        let cells = g.cells;
        let mut t = Tables {
            cells,
            square: vec![0; 128 * cells],
            royal_late: vec![0; 128 * cells],
            hand: [0; 128],
            near: vec![Vec::new(); cells],
            full_phase: 1,
            mobility: [w.mobility; 128],
            shield: w.shield,
            pair: [0; 128],
        };
        for (k, kind) in preset.kinds.iter().enumerate() {
            for side in Side::BOTH {
                let code = cell::piece(k, side);
                let mut mob = Vec::with_capacity(g.squares.len());
                // Colour-bound: some move, and none onto a square of the other colour.
                let (mut moves_any, mut bound) = (false, true);
                attacks::alone_on_each_square(preset, code, |_, from, moves| {
                    mob.push(moves.len() as i32);
                    moves_any |= !moves.is_empty();
                    bound &= moves.iter().all(|m| g.is_light(m.to) == g.is_light(from));
                });
                if bound && moves_any && !kind.royal {
                    t.pair[code as usize] = values[code as usize] * w.pair / 100;
                }
                let n = mob.len().max(1) as i32;
                let mean = mob.iter().sum::<i32>() * 8 / n;
                let base = code as usize * cells;
                if officers[side.index()].contains(&code) && mean > 0 {
                    // `mean` is in eighths of a move.
                    t.mobility[code as usize] = (w.officer_mobility as f64 / (mean as f64 / 8.0).sqrt()).round() as i32;
                }
                // Pawn-like pieces earn the rest of their bonus when passed ([`Structure`]).
                let share = if structure.is_some_and(|st| st.is_pawn_like(code)) { w.unpassed } else { 100 };
                for (i, &sq) in g.squares.iter().enumerate() {
                    let centred = (mob[i] * 8 - mean) * w.square_mobility / 8;
                    if kind.royal {
                        t.square[base + sq.idx()] = -centred;
                        t.royal_late[base + sq.idx()] = 2 * centred;
                    } else {
                        let bonus = promotion_bonus(preset, values, w.promotion, k, side, sq);
                        t.square[base + sq.idx()] = centred + bonus * share / 100;
                    }
                }
                if !kind.royal {
                    t.hand[code as usize] = g.squares.iter().map(|&sq| t.square[base + sq.idx()]).max().unwrap_or(0);
                }
            }
        }
        for &sq in &g.squares {
            let (f, r) = (g.file(sq) as i32, g.rank(sq) as i32);
            for (dx, dy) in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)] {
                if let Some(n) = g.square_checked(f + dx, r + dy) {
                    t.near[sq.idx()].push(n);
                }
            }
        }
        let setup: i32 = preset
            .setup_cells
            .iter()
            .filter(|&&c| cell::is_piece(c) && officers[cell::side(c).index()].contains(&cell::code(c)))
            .map(|&c| values[cell::code(c) as usize])
            .sum();
        t.full_phase = setup.max(1);
        t
    }

    /// The positional terms, White minus Black.
    fn score(&self, preset: &Preset, pos: &Position, phase: i32) -> i32 {
        let phase = phase.clamp(0, self.full_phase);
        let (mut s, mut early, mut late) = (0, 0, 0);
        for (side, sign) in [(Side::White, 1), (Side::Black, -1)] {
            // By cell code: the colour-bound kinds with a piece on a light square, on a dark one.
            let (mut light, mut dark) = (0u128, 0u128);
            pos.for_each_piece(
                preset,
                side,
                |_| true,
                #[inline(always)]
                |code, at| {
                    let sq = at.idx();
                    let i = code as usize * self.cells + sq;
                    if pos.is_royal_code(code) {
                        let shield = self.near[sq].iter().filter(|&&n| cell::is_side(pos.cells[n.idx()], side)).count();
                        early += sign * (self.square[i] + self.shield * shield as i32);
                        late += sign * self.royal_late[i];
                    } else {
                        s += sign * self.square[i];
                        if self.pair[code as usize] != 0 {
                            let bit = 1u128 << (code & 127);
                            if preset.geo.is_light(at) { light |= bit } else { dark |= bit }
                        }
                    }
                },
            );
            let mut pairs = light & dark;
            while pairs != 0 {
                s += sign * self.pair[pairs.trailing_zeros() as usize];
                pairs &= pairs - 1;
            }
        }
        for (side, sign) in [(Side::White, 1), (Side::Black, -1)] {
            for &k in &pos.hands[side] {
                s += sign * self.hand[cell::piece(k as usize, side) as usize];
            }
        }
        s + (early * phase + late * (self.full_phase - phase)) / self.full_phase
    }
}

/// Piece values by cell code, and a move buffer for counting mobility, built once per search.
pub struct Evaluator {
    values: [i32; 128],
    /// `(kind, white code, black code, value)` of every kind with a non-zero value.
    valued: Vec<(usize, u8, u8, i32)>,
    buf: Vec<Move>,
    /// Per side, the codes of its officers: kinds neither royal nor promotable (not pawns or men).
    officers: [Vec<u8>; 2],
    tables: Tables,
    /// Passed, doubled and isolated pawn-like pieces and open files ([`Structure`]).
    structure: Option<Structure>,
    /// The pieces as bitboards, where mobility can be counted with them.
    sets: Option<AttackSets>,
    /// The built-in terms of recent positions by hash: a node is often evaluated two or three
    /// times (null move, futility, quiescence), and transpositions come back.
    cache: Vec<Cached>,
    /// Whether the side to move had a capturing move, as found by the last evaluation.
    pub could_capture: bool,
    /// The hash of the position it evaluated and the pieces of its side to move that had one,
    /// where it counted moves by bitboards ([`attacks::Counts::capturers`]).
    capturers: Option<(u64, u64)>,
    /// The weights in force when it was built ([`weights::current`]).
    w: EvalWeights,
}

/// The cache has `2^CACHE_BITS` entries.
const CACHE_BITS: u32 = 16;

#[derive(Clone, Copy, Default)]
struct Cached {
    key: u64,
    score: i32,
    could_capture: bool,
    capturers: Option<u64>,
}

impl Evaluator {
    pub fn new(preset: &Preset) -> Evaluator {
        let mut values = [0; 128];
        let mut valued = Vec::new();
        let mut officers = [Vec::new(), Vec::new()];
        for (k, kind) in preset.kinds.iter().enumerate() {
            if !kind.royal && preset.promotions.get(k).is_none_or(|pr| pr.is_none()) {
                for s in Side::BOTH {
                    officers[s.index()].push(cell::piece(k, s));
                }
            }
            // A values file (`--values`, see `herald values`) overrides the declared values.
            let learned = learned(preset, k, UNIT).filter(|_| !kind.royal);
            let v = learned.unwrap_or(kind.value * UNIT);
            let (w, b) = (cell::piece(k, Side::White), cell::piece(k, Side::Black));
            values[w as usize] = v;
            values[b as usize] = v;
            if v != 0 {
                valued.push((k, w, b, v));
            }
        }
        let w = weights::current();
        let structure = Structure::new(preset, &values, &w);
        let tables = Tables::new(preset, &values, &officers, structure.as_ref(), &w);
        Evaluator {
            values,
            valued,
            buf: Vec::with_capacity(256),
            officers,
            tables,
            structure,
            sets: AttackSets::new(preset).map(|mut s| {
                s.set_values(&values);
                s
            }),
            cache: vec![Cached::default(); 1 << CACHE_BITS],
            could_capture: true,
            capturers: None,
            w,
        }
    }

    /// Whether `side` has an officer on the board or a piece in hand: then passing is rarely its
    /// best turn, and null-move pruning is sound enough.
    pub fn has_officers(&self, pos: &Position, side: Side) -> bool {
        !pos.hands[side].is_empty() || self.officers[side.index()].iter().any(|&c| pos.counts[c as usize] > 0)
    }

    /// How many officers `side` has on the board and in hand: with few, zugzwang is likely
    /// enough that a null move's cut is verified (alphabeta.rs).
    pub fn officer_count(&self, pos: &Position, side: Side) -> usize {
        pos.hands[side].len()
            + self.officers[side.index()].iter().map(|&c| pos.counts[c as usize] as usize).sum::<usize>()
    }

    /// The declared value of the piece in a cell (0 for an empty cell).
    #[inline]
    pub fn value_of(&self, c: u8) -> i32 {
        self.values[cell::code(c) as usize]
    }

    /// The static exchange evaluation of moving the piece on `from` to `to` ([`AttackSets::see`]),
    /// where the preset's pieces are bitboard kinds and a capture only replaces its victim (no
    /// rule script, no explosions, no compulsory captures); `None` elsewhere.
    #[inline]
    pub fn see(&self, preset: &Preset, pos: &Position, from: Sq, to: Sq) -> Option<i32> {
        if preset.script.active || preset.explode.is_some() || preset.must_capture {
            return None;
        }
        self.sets.as_ref()?.see(pos, from, to, |c| self.value_of(c))
    }

    /// The pseudo-legal moves of the side to move's pieces that may capture, appended to `out`
    /// ([`AttackSets::capturers_moves`]), as the last evaluation found them. False where that
    /// evaluation was not of this position (by its hash) or did not count moves by bitboards:
    /// then every move must be listed.
    pub fn capturers_moves(&self, preset: &Preset, pos: &Position, out: &mut Vec<Move>) -> bool {
        match (&self.sets, self.capturers) {
            (Some(sets), Some((key, capturers))) if key == pos.hash => {
                sets.capturers_moves(preset, pos, capturers, out);
                true
            }
            _ => false,
        }
    }

    /// The whole evaluation for the side to move: built-in terms, then the preset's function.
    pub fn evaluate(&mut self, preset: &Preset, pos: &mut Position) -> Result<i32, ScriptError> {
        let base = self.built_in(preset, pos);
        match preset.script.evaluate {
            Some(i) => scripted(preset, pos, i, base),
            None => Ok(base),
        }
    }

    /// Material, mobility and the positional terms, through the cache (a key of 0 is never
    /// trusted: an empty slot).
    fn built_in(&mut self, preset: &Preset, pos: &mut Position) -> i32 {
        let slot = (pos.hash as usize) & (self.cache.len() - 1);
        let c = self.cache[slot];
        if c.key == pos.hash && pos.hash != 0 {
            self.could_capture = c.could_capture;
            self.capturers = c.capturers.map(|m| (pos.hash, m));
            return c.score;
        }
        let (mobility, attacks, threats) = self.mobility(preset, pos);
        let score = self.material(pos)
            + mobility
            + self.positional(preset, pos, attacks)
            + self.threat_score(threats)
            + self.w.tempo;
        let (could_capture, capturers) = (self.could_capture, self.capturers.map(|(_, m)| m));
        self.cache[slot] = Cached { key: pos.hash, score, could_capture, capturers };
        score
    }

    /// Material on the board and in hand, White minus Black, seen from the side to move.
    pub fn material(&self, pos: &Position) -> i32 {
        let mut s = 0;
        for &(_, w, b, v) in &self.valued {
            s += (pos.counts[w as usize] as i32 - pos.counts[b as usize] as i32) * v;
        }
        for (side, sign) in [(Side::White, 1), (Side::Black, -1)] {
            for &k in &pos.hands[side] {
                s += sign * self.values[cell::piece(k as usize, side) as usize];
            }
        }
        if pos.side == Side::White { s } else { -s }
    }

    /// The threats' score for the side to move, from its threats and the opponent's.
    fn threat_score(&self, threats: [i32; 2]) -> i32 {
        (threats[0] * self.w.threat_mover - threats[1] * self.w.threat_waiter) / 64
    }

    /// The positional terms of [`Tables`] and royal safety, seen from the side to move.
    fn positional(&mut self, preset: &Preset, pos: &Position, attacks: [i32; 2]) -> i32 {
        let mut officers = [0; 2];
        for side in Side::BOTH {
            for &c in &self.officers[side.index()] {
                officers[side.index()] += pos.counts[c as usize] as i32 * self.values[c as usize];
            }
        }
        // Both sides' officers, against the setup's (counted for both sides too).
        let phase = officers[0] + officers[1];
        let mut s = self.tables.score(preset, pos, phase);
        if let Some(st) = &mut self.structure {
            let full = self.tables.full_phase;
            s += st.score(preset, pos, full - phase.min(full), full);
        }
        // Attacks near the enemy royal piece, weighed by the attacker's officers (half the
        // setup's officers are one side's).
        let half = (self.tables.full_phase / 2).max(1);
        for (side, sign) in [(Side::White, 1), (Side::Black, -1)] {
            let n = attacks[side.index()];
            let share = officers[side.index()].min(half);
            s += sign * (self.w.attack * n * n).min(self.w.attack_max) * share / half;
        }
        if pos.side == Side::White { s } else { -s }
    }

    /// Pseudo-legal moves of the side to move minus the opponent's, by side the moves of its
    /// non-royal pieces onto the enemy royal piece's square or its neighbours, and the side to
    /// move's threats and the opponent's (0 without bitboards): from the bitboards where the
    /// preset allows ([`AttackSets`]), else from the move lists.
    fn mobility(&mut self, preset: &Preset, pos: &mut Position) -> (i32, [i32; 2], [i32; 2]) {
        let us = pos.side;
        let w = &self.tables.mobility;
        let c = match self.sets.as_ref().and_then(|s| s.count(preset, pos, &mut self.buf, w)) {
            Some(c) => {
                self.capturers = Some((pos.hash, c.capturers));
                c
            }
            None => {
                self.capturers = None;
                attacks::listed(preset, pos, &mut self.buf, w)
            }
        };
        self.could_capture = c.could_capture;
        let threats = [c.threats[us.index()], c.threats[us.other().index()]];
        // Safe checks weigh on royal safety as so many moves near the royal piece.
        let near = [0, 1].map(|i| c.near_royal[i] + self.w.safe_check * c.safe_checks[i]);
        ((c.weighted[us.index()] - c.weighted[us.other().index()]) / 8, near, threats)
    }
}

/// Run `fn evaluate`: with no parameter its result is added to `base`; with one it gets `base` and
/// its result replaces it.
fn scripted(preset: &Preset, pos: &mut Position, i: usize, base: i32) -> Result<i32, ScriptError> {
    let body = &preset.script.funcs[i];
    let (args, extend) = if body.params == 0 { (Vec::new(), true) } else { (vec![Value::Int(base as i64)], false) };
    let mut it = Interp::new(preset, pos, &body.name);
    let v = match it.run(body, args)? {
        Outcome::Done(v) => v,
        Outcome::Rejected(_) => return Err(ScriptError::new(body.span, "`evaluate` may not reject")),
    };
    let Value::Int(n) = v else {
        return Err(ScriptError::new(body.span, format!("`evaluate` must return an int, not {}", v.type_name())));
    };
    let n = n.clamp(-super::limits::MATE_BOUND as i64 + 1, super::limits::MATE_BOUND as i64 - 1) as i32;
    Ok(if extend { (base + n).clamp(-super::limits::MATE_BOUND + 1, super::limits::MATE_BOUND - 1) } else { n })
}

/// Learned values by kind name, read from a values file (`--values`, see `herald values`).
static LEARNED: std::sync::Mutex<Vec<(String, f64)>> = std::sync::Mutex::new(Vec::new());
/// Counts the changes of `LEARNED`: an evaluator built before one is stale (see [`generation`]).
static LEARNED_GENERATION: AtomicU64 = AtomicU64::new(0);

/// Use these values in every search from now on (names the preset does not have are ignored).
pub fn set_learned(values: Vec<(String, f64)>) {
    if let Ok(mut l) = LEARNED.lock() {
        *l = values;
        LEARNED_GENERATION.fetch_add(1, Ordering::SeqCst);
    }
}

/// Which learned values and weights an evaluator built now would use: an evaluator kept from an
/// earlier search is used again only while this is unchanged (both counts only grow).
pub fn generation() -> u64 {
    LEARNED_GENERATION.load(Ordering::SeqCst) + weights::generation()
}

/// A kind's learned value in score units, if a values file named it (by name or label).
pub fn learned(preset: &Preset, k: usize, unit: i32) -> Option<i32> {
    let l = LEARNED.lock().ok()?;
    let kind = &preset.kinds[k];
    l.iter()
        .find(|(n, _)| *n == kind.name || Side::BOTH.iter().any(|&s| kind.labels[s] == *n))
        .map(|(_, v)| (v * unit as f64).round() as i32)
}
