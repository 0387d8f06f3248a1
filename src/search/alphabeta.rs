//! Iterative deepening negamax with alpha-beta: principal-variation search with aspiration
//! windows at the root, a transposition table, null-move pruning, late-move reductions, check
//! extensions, reverse futility, late-move pruning, killer and history ordering, static exchange
//! pruning of turns that lose material near the horizon, and quiescence on captures (losing
//! captures pruned by a static exchange evaluation; in check, on every evasion). Turns are
//! generated and played through the engine's own turn generator, so the search plays by every
//! rule the preset's hooks enforce.

use super::eval::Evaluator;
use super::limits::{INFINITY, Limits, MATE, MATE_BOUND, MAX_PLY};
use super::order::{self, HISTORY_MAX, History, Prior, QUIET_BELOW, capture_move};
use super::tt::{Bound, Table};
use crate::engine::position::mflag;
use crate::engine::turn::Turn;
use crate::engine::{GameOver, Move, Position, Side};
use crate::play::turngen::{self, PlayError};
use crate::preset::{EndRule, Preset};
use crate::script::ScriptError;
use crate::syntax::ast::Outcome;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Why a search stopped before it finished.
pub enum Abort {
    /// A limit was reached.
    Stop,
    Script(ScriptError),
}

impl From<ScriptError> for Abort {
    fn from(e: ScriptError) -> Abort {
        Abort::Script(e)
    }
}

type R<T> = Result<T, Abort>;

/// Quiescence goes at most this many captures deep (scripts may make capture chains endless).
const MAX_QDEPTH: usize = 12;
/// The capture sequences followed while no limit may stop the search (the first iteration, and
/// root scoring): where every move captures (Clobber), twelve plies of captures from every root
/// turn would not end, and nothing could stop them.
const FIRST_QDEPTH: usize = 1;
/// The half-width of the first aspiration window around the previous iteration's score.
const ASPIRATION: i32 = 40;
/// Turns searched at full depth before late ones are reduced.
const LMR_AFTER: usize = 3;
/// Late-move reductions' base is ln(depth) ln(turns searched) over this (Stockfish 11's is about
/// 1.7).
const LMR_DIVISOR: f64 = 1.75;
/// Futility: in a null-window node, a late quiet turn that does not check is not searched when
/// the static score plus `FUTILITY` per ply of the depth it would be searched at (after its
/// late-move reduction, at most `FUTILITY_DEPTH`) cannot reach alpha.
const FUTILITY: i32 = 150;
const FUTILITY_DEPTH: i32 = 6;
/// Reverse futility: a null-window node at most this deep whose static score beats beta by
/// `REVERSE_FUTILITY` per ply of depth (`REVERSE_IMPROVING` where the side is improving) is cut
/// without a search.
const REVERSE_DEPTH: i32 = 6;
const REVERSE_FUTILITY: i32 = 100;
const REVERSE_IMPROVING: i32 = 80;
/// Static exchange pruning: in a null-window node at most this deep, a turn after the first that
/// does not check and loses its piece on its square (a static exchange, order.rs) for more than
/// `SEE_QUIET * depth^2` (a quiet turn) or `SEE_CAPTURE * depth` (a capture) is not searched.
const SEE_DEPTH: i32 = 4;
const SEE_QUIET: i32 = 20;
const SEE_CAPTURE: i32 = 100;
/// Late-move pruning: in a null-window node at most this deep, out of check, quiet turns after
/// the first `late_moves(depth, improving)` tried are not searched (those ordered that late
/// rarely cut, and a node this near the horizon has little to lose).
const LMP_DEPTH: i32 = 8;
/// Null-move verification: a null move that cuts at this depth or more, or where the side to
/// move has at most `VERIFY_OFFICERS` officers (zugzwang is likelier with fewer pieces to move),
/// is checked by a normal search at the null move's reduced depth in which that side may not pass
/// for the next plies; only if that search also keeps beta does the node cut.
const VERIFY_DEPTH: i32 = 12;
const VERIFY_OFFICERS: usize = 1;
/// Singular extensions: in a node at least `SINGULAR_DEPTH` deep whose table entry (at most 3
/// plies shallower) holds a turn and a lower bound, the other turns are searched at half depth
/// against that bound less `SINGULAR_MARGIN` per ply; if none reaches it, the table turn is
/// singular (the node's value rests on it) and is searched a ply deeper. If they reach it and it
/// beats beta too, several turns cut: the node is cut without a search (multi-cut).
const SINGULAR_DEPTH: i32 = 6;
const SINGULAR_MARGIN: i32 = 2;
/// Internal iterative reduction: a node at least this deep with no table turn is searched a ply
/// less deep.
const IIR_DEPTH: i32 = 4;
/// A ply's static score when it has none (in check, or not evaluated).
const NO_STAT: i32 = i32::MIN;

/// Buffers reused at each ply, so that a node allocates nothing beyond turn generation.
#[derive(Default)]
struct PlyData {
    turns: Vec<Turn>,
    scores: Vec<i32>,
    /// Per turn, what its score loses if its capture, still to be judged, loses material
    /// (`order::pick`).
    judge: Vec<i32>,
    killers: [Option<Turn>; 2],
    pv: Vec<Turn>,
    /// The turn into this ply was a null move (no two in a row).
    null: bool,
    /// The turn being tried at this ply (none: a null move), which the next ply answers.
    current: Option<Turn>,
    /// That turn's continuation key (`History::key`), read only while `current` is some.
    moved: Option<usize>,
    /// That turn checks but loses its piece on its square: its check is not extended.
    check_loses: bool,
    /// The static score at this ply (`NO_STAT` if none), to tell whether the side to move is
    /// improving on its position two plies before.
    stat: i32,
    /// The table turn's word left out of this ply's turns (a singular extension's search; 0:
    /// none), and the one searched a ply deeper (singular; 0: none).
    excluded: u64,
    singular: u64,
}

/// The searcher: its table survives between searches (within one game).
pub struct Core {
    pub tt: Table,
    plies: Vec<PlyData>,
    moves: Vec<Move>,
    said: Vec<String>,
    pub nodes: u64,
    history: History,
    /// The last finished iteration's score, the centre of the next one's aspiration window.
    last_score: Option<i32>,
    limits: Limits,
    start: Instant,
    /// Whether the search prunes as a limited one may (not in the first iteration, which is
    /// full-width so that its answer is sound).
    may_stop: bool,
    /// Whether limits may stop the search now: after the first iteration, or within it once a
    /// root turn has been scored.
    can_stop: bool,
    /// The best root score of the current iteration so far and its principal variation, once a
    /// root turn has raised alpha (see `root_best`).
    root_best: Option<i32>,
    root_pv: Vec<Turn>,
    /// Set by another thread (an engine protocol's `stop`) to end the search as a limit would.
    pub stop: Option<Arc<AtomicBool>>,
    /// Whether the preset's first repetition rule draws: then a position met again in the search
    /// (once is enough) is scored a draw, as the side that repeats can repeat again.
    repetition_draws: bool,
    /// While a null move's cut is being verified: the side that may not pass, and the ply up to
    /// which it may not (0: none).
    verify: (Side, usize),
}

/// The score of a finished game for the side to move, `ply` plies from the root.
pub fn over_score(over: &GameOver, pos: &Position, ply: usize) -> i32 {
    match over.winner {
        Some(w) if w == pos.side => MATE - ply as i32,
        Some(_) => -MATE + ply as i32,
        None => 0,
    }
}

impl Core {
    pub fn new(tt_bits: u32) -> Core {
        Core {
            tt: Table::new(tt_bits),
            plies: (0..=MAX_PLY).map(|_| PlyData::default()).collect(),
            moves: Vec::with_capacity(256),
            said: Vec::new(),
            nodes: 0,
            history: History::default(),
            last_score: None,
            limits: Limits::default(),
            start: Instant::now(),
            may_stop: false,
            can_stop: false,
            root_best: None,
            root_pv: Vec::new(),
            stop: None,
            repetition_draws: false,
            verify: (Side::White, 0),
        }
    }

    /// Get ready for a new search from the root.
    pub fn begin(&mut self, p: &Preset, limits: &Limits) {
        self.limits = limits.clone();
        self.repetition_draws = p
            .ends
            .iter()
            .find_map(|r| match r {
                EndRule::Repetition(_, o) => Some(*o == Outcome::Draws),
                _ => None,
            })
            .unwrap_or(false);
        self.start = Instant::now();
        self.nodes = 0;
        self.may_stop = false;
        self.can_stop = false;
        self.root_best = None;
        self.last_score = None;
        self.verify.1 = 0;
        self.history.age();
        self.tt.new_search();
        for p in &mut self.plies {
            p.killers = [None, None];
            p.null = false;
            p.stat = NO_STAT;
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// One iteration from the root at `depth`: its score, and the principal variation in `pv()`.
    /// From depth 4 on, the search first looks within a window around the last score, and widens
    /// it on the side that failed.
    pub fn iterate(&mut self, ev: &mut Evaluator, p: &Preset, pos: &mut Position, depth: i32) -> R<i32> {
        self.may_stop = depth > 1;
        self.can_stop = depth > 1;
        self.history.fit(p, pos);
        self.root_best = None;
        let (mut lo, mut hi) = (-INFINITY, INFINITY);
        if depth >= 4
            && let Some(last) = self.last_score
            && last.abs() < MATE_BOUND
        {
            (lo, hi) = (last - ASPIRATION, last + ASPIRATION);
        }
        let mut widen = ASPIRATION;
        loop {
            let score = self.negamax(ev, p, pos, depth, 0, lo, hi)?;
            if score <= lo && lo > -INFINITY {
                widen *= 4;
                lo = if widen > 1000 { -INFINITY } else { score - widen };
            } else if score >= hi && hi < INFINITY {
                widen *= 4;
                hi = if widen > 1000 { INFINITY } else { score + widen };
            } else {
                self.last_score = Some(score);
                return Ok(score);
            }
        }
    }

    /// One root turn's score from a full-window search `depth` plies deep; none if it was refused.
    pub fn score_turn(
        &mut self,
        ev: &mut Evaluator,
        p: &Preset,
        pos: &mut Position,
        t: &Turn,
        depth: i32,
    ) -> R<Option<i32>> {
        self.may_stop = false;
        self.can_stop = false;
        if !self.make(p, pos, t)? {
            return Ok(None);
        }
        let r = self.negamax(ev, p, pos, depth - 1, 1, -INFINITY, INFINITY);
        pos.unmake();
        Ok(Some(-r?))
    }

    /// The quiescence score of the position for the side to move, as the main search's leaves
    /// get it (full capture depth, no limit): what `herald qscores` prints for tuning.
    pub fn quiet_score(&mut self, ev: &mut Evaluator, p: &Preset, pos: &mut Position) -> R<i32> {
        self.begin(p, &Limits::default());
        self.may_stop = true;
        self.can_stop = false;
        self.quiesce(ev, p, pos, 0, -INFINITY, INFINITY, 0)
    }

    pub fn pv(&self) -> &[Turn] {
        &self.plies[0].pv
    }

    /// The current iteration's best root score so far and its principal variation, once a root
    /// turn has raised alpha: what a search stopped within an iteration answers. Root turns are
    /// tried best first (the last iteration's principal variation leads), so a turn that beat
    /// the first one, searched deeper, is the better answer; in the first iteration it is the
    /// only one.
    pub fn root_best(&self) -> Option<(i32, &[Turn])> {
        self.root_best.map(|s| (s, &self.root_pv[..]))
    }

    /// Count a node and stop when a limit is reached (checked deterministically for node limits).
    #[inline]
    fn tick(&mut self) -> R<()> {
        self.nodes += 1;
        if !self.can_stop {
            return Ok(());
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            return Err(Abort::Stop);
        }
        if self.nodes & 1023 == 0 && self.limits.time_ms.is_some_and(|t| self.elapsed_ms() >= t) {
            return Err(Abort::Stop);
        }
        if self.nodes & 63 == 0 && self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(Abort::Stop);
        }
        Ok(())
    }

    /// The legal captures (and en passant) of the side to move into `out`, for quiescence out of
    /// check: pseudo-legal moves, the captures kept, and only those tried for legality (most of a
    /// full generation's cost is the legality of the quiet moves quiescence throws away); where
    /// the evaluation's bitboards tell which pieces may capture, only theirs are listed. Where
    /// drops are compulsory, or turns run scripts, the full list decides (a capture is illegal
    /// when a drop exists); false when it found the side with no legal turn at all.
    fn generate_captures(&mut self, ev: &Evaluator, p: &Preset, pos: &mut Position, out: &mut Vec<Turn>) -> R<bool> {
        if p.script.active || p.must_drop {
            self.generate(p, pos, out)?;
            if out.is_empty() {
                return Ok(false);
            }
            out.retain(|t| capture_move(t).is_some());
            return Ok(true);
        }
        out.clear();
        self.moves.clear();
        if !ev.capturers_moves(p, pos, &mut self.moves) {
            self.moves.clear();
            pos.pseudo_moves(p, &mut self.moves);
        }
        self.moves.retain(|m| m.flags & (mflag::CAPTURE | mflag::EP) != 0);
        pos.keep_legal(p, &mut self.moves);
        out.extend(self.moves.iter().map(|&m| Turn::single(m)));
        Ok(true)
    }

    /// Every legal turn of the side to move into `out`, through the engine's generator.
    fn generate(&mut self, p: &Preset, pos: &mut Position, out: &mut Vec<Turn>) -> R<()> {
        out.clear();
        if p.script.active {
            // Straight into the ply's buffer: `legal_turns` would build a new list to be copied.
            turngen::for_each_turn(pos, p, &mut |_, t| {
                out.push(*t);
                Ok(())
            })?;
        } else {
            pos.legal_moves(p, &mut self.moves);
            out.extend(self.moves.iter().map(|&m| Turn::single(m)));
        }
        Ok(())
    }

    /// Play a generated turn with every hook; false if a hook refused it after all.
    pub fn make(&mut self, p: &Preset, pos: &mut Position, t: &Turn) -> R<bool> {
        self.said.clear();
        // Every turn searched was listed by `generate` in this position: its parts are not looked
        // for among their candidates again.
        match turngen::play_listed(pos, p, t, &mut self.said) {
            Ok(()) => Ok(true),
            Err(PlayError::Rejected(_)) => Ok(false),
            Err(PlayError::Script(e)) => Err(Abort::Script(e)),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        ev: &mut Evaluator,
        p: &Preset,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> R<i32> {
        self.tick()?;
        self.plies[ply].pv.clear();
        if ply > 0
            && let Some(over) = crate::play::end::terminal(pos, p)?
        {
            return Ok(over_score(&over, pos, ply));
        }
        if ply > 0 && self.repetition_draws && self.repeated(pos, ply) {
            return Ok(0);
        }
        let in_check = depth > 0 && p.royal_safety && pos.in_check(p, pos.side);
        // Check extension: a check is answered one ply deeper, so that a mate or a loss of
        // material behind it is seen (bounded, so perpetual checks still end).
        // Not a check that gives its piece away (a delay more often than a threat, as Stockfish
        // judges): the turn before said so.
        let extend = in_check && ply < MAX_PLY / 2 && !(ply > 0 && self.plies[ply - 1].check_loses);
        let depth = if extend { depth + 1 } else { depth };
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(ev, p, pos, ply, alpha, beta, 0);
        }
        let entry = self.tt.probe(pos.hash, ply);
        if ply > 0
            && let Some(e) = entry
            && e.depth >= depth as i16
            && e.cuts(alpha, beta)
        {
            return Ok(e.score);
        }
        // The static score, where the pruning below may use it (the evaluation caches it).
        let stat = if in_check || !self.may_stop { NO_STAT } else { ev.evaluate(p, pos)? };
        self.plies[ply].stat = stat;
        // Reverse futility: near the horizon, a side this far above beta keeps it (the
        // opponent's best answer rarely wins back that much; less still when it was improving).
        if ply > 0
            && depth <= REVERSE_DEPTH
            && !in_check
            && beta - alpha == 1
            && beta.abs() < MATE_BOUND
            && self.may_stop
            && stat - reverse_margin(depth, self.improving(ply)) >= beta
        {
            return Ok(stat);
        }
        if let Some(score) = self.null_move(ev, p, pos, depth, ply, alpha, beta, in_check)? {
            return Ok(score);
        }
        let mut turns = std::mem::take(&mut self.plies[ply].turns);
        let tt_turn = entry.map_or(0, |e| e.turn);
        // Internal iterative reduction: a node this deep with no table turn was never searched
        // (or its entry was lost), so its turns are ordered blind; a ply less costs far less, and
        // the next iteration meets it again with a table turn.
        let depth = if tt_turn == 0 && depth >= IIR_DEPTH && ply > 0 && self.may_stop { depth - 1 } else { depth };
        let mut singular = 0;
        if let Some(e) = entry
            && ply > 0
            && depth >= SINGULAR_DEPTH
            && e.turn != 0
            && e.depth >= depth as i16 - 3
            && e.bound != Bound::Upper
            && e.score.abs() < MATE_BOUND
            && self.may_stop
            && ply < MAX_PLY / 2
        {
            // The other turns (none legal: singular too), against the table's bound less the margin.
            let sbeta = e.score - SINGULAR_MARGIN * depth;
            self.plies[ply].excluded = e.turn;
            let r = self.search_turns(ev, p, pos, depth / 2, ply, sbeta - 1, sbeta, 0, in_check, &mut turns);
            self.plies[ply].excluded = 0;
            match r {
                Err(a) => {
                    self.plies[ply].turns = turns;
                    return Err(a);
                }
                Ok((best, Some(_))) if best >= sbeta => {
                    if sbeta >= beta {
                        self.plies[ply].turns = turns;
                        return Ok(sbeta);
                    }
                }
                Ok(_) => singular = e.turn,
            }
        }
        self.plies[ply].singular = singular;
        let r = self.search_turns(ev, p, pos, depth, ply, alpha, beta, tt_turn, in_check, &mut turns);
        self.plies[ply].singular = 0;
        self.plies[ply].turns = turns;
        let (best, best_turn) = r?;
        self.tt.store(
            pos.hash,
            ply,
            best_turn.as_ref().map_or(0, order::word),
            best,
            depth,
            Bound::of(best, alpha, beta),
        );
        Ok(best)
    }

    /// Whether the position at `ply` occurred before, since the last irreversible turn and not
    /// across a null move of the search (which no game could repeat).
    fn repeated(&self, pos: &Position, ply: usize) -> bool {
        let n = pos.history.len();
        let mut back = (pos.halfmove as usize).min(n);
        if let Some(j) = (1..=ply).rev().find(|&j| self.plies[j].null) {
            back = back.min(ply - j);
        }
        (4..=back).step_by(2).any(|k| pos.history[n - k] == pos.hash)
    }

    /// Null-move pruning: if passing the turn still leaves the side to move at or above beta after
    /// a reduced search, a real turn would too. Not where passing may be the best turn
    /// (zugzwang): in check, with nothing but royal and promotable pieces (pawns, men), where
    /// captures are compulsory or checks are forbidden, or where rule scripts run (their hooks may
    /// count turns). Not in principal-variation nodes, nor twice in a row. A cut is verified
    /// (below) where the side to move has at most `VERIFY_OFFICERS` officers, or deep enough.
    #[allow(clippy::too_many_arguments)]
    fn null_move(
        &mut self,
        ev: &mut Evaluator,
        p: &Preset,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        in_check: bool,
    ) -> R<Option<i32>> {
        if ply == 0
            || depth < 3
            || in_check
            || beta - alpha > 1
            || self.plies[ply].null
            || beta.abs() >= MATE_BOUND
            || !self.may_stop
            || p.script.active
            || p.must_capture
            || p.no_checks
            || !ev.has_officers(pos, pos.side)
            || (ply < self.verify.1 && pos.side == self.verify.0)
            || ev.evaluate(p, pos)? < beta
        {
            return Ok(None);
        }
        let reduce = 3 + depth / 4;
        self.plies[ply].current = None;
        self.plies[ply].check_loses = false;
        pos.begin_turn();
        pos.end_turn(p);
        self.plies[ply + 1].null = true;
        let r = self.negamax(ev, p, pos, depth - 1 - reduce, ply + 1, -beta, -beta + 1);
        self.plies[ply + 1].null = false;
        pos.unmake();
        let score = -r?;
        if score < beta {
            return Ok(None);
        }
        if self.verify.1 > 0 || (depth < VERIFY_DEPTH && ev.officer_count(pos, pos.side) > VERIFY_OFFICERS) {
            return Ok(Some(beta));
        }
        // Verification: a normal search at the reduced depth in which this side may not pass for
        // the next three quarters of its plies (as Stockfish does) must keep beta too; it fails
        // where passing was the side's best turn (zugzwang).
        let depth = depth - reduce;
        self.verify = (pos.side, ply + (3 * depth.max(0) / 4) as usize + 1);
        let r = self.negamax(ev, p, pos, depth, ply, beta - 1, beta);
        self.verify.1 = 0;
        Ok((r? >= beta).then_some(beta))
    }

    /// Try each legal turn in order: the best score and turn (none when no turn could be played).
    /// The first turn gets the full window; the others a null window first (principal-variation
    /// search), late quiet ones at a reduced depth, searched again in full when they surprise.
    #[allow(clippy::too_many_arguments)]
    fn search_turns(
        &mut self,
        ev: &mut Evaluator,
        p: &Preset,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        tt_turn: u64,
        in_check: bool,
        turns: &mut Vec<Turn>,
    ) -> R<(i32, Option<Turn>)> {
        // Futility: in a null-window node below alpha, late quiet turns that do not check are
        // not searched where the static score plus the margin for the depth they would get
        // cannot reach alpha; the node is worth at most that for them.
        let futile = (ply > 0
            && !in_check
            && beta - alpha == 1
            && alpha.abs() < MATE_BOUND
            && self.may_stop
            && self.plies[ply].stat != NO_STAT)
            .then_some(self.plies[ply].stat);
        // At depth 1 with no capture to try either (the evaluation saw none), the turns are not
        // even generated.
        if depth == 1
            && let Some(stat) = futile
            && stat + FUTILITY <= alpha
        {
            ev.evaluate(p, pos)?;
            if !ev.could_capture {
                return Ok((stat + FUTILITY, None));
            }
        }
        self.generate(p, pos, turns)?;
        if turns.is_empty() {
            return Ok((over_score(&pos.no_moves_result(p), pos, ply), None));
        }
        let mut scores = std::mem::take(&mut self.plies[ply].scores);
        let mut judge = std::mem::take(&mut self.plies[ply].judge);
        let side = pos.side;
        let prev = if ply > 0 { self.plies[ply - 1].current } else { None };
        let counter = self.history.counter(side, prev.as_ref());
        let prior = self.prior(ply);
        order::score(
            ev,
            pos,
            turns,
            tt_turn,
            &self.plies[ply].killers,
            counter,
            &self.history,
            &prior,
            &mut scores,
            &mut judge,
        );
        let improving = self.improving(ply);
        let late = (depth <= LMP_DEPTH
            && ply > 0
            && !in_check
            && beta - alpha == 1
            && alpha.abs() < MATE_BOUND
            && self.may_stop)
            .then(|| late_moves(depth, improving));
        let see_prune = depth <= SEE_DEPTH
            && ply > 0
            && !in_check
            && beta - alpha == 1
            && alpha.abs() < MATE_BOUND
            && self.may_stop;
        let mut best = (-INFINITY, None);
        let mut searched = 0;
        for i in 0..turns.len() {
            order::pick(ev, p, pos, turns, &mut scores, &mut judge, i);
            let t = turns[i];
            let word = if self.plies[ply].excluded | self.plies[ply].singular != 0 { order::word(&t) } else { 0 };
            if word != 0 && word == self.plies[ply].excluded {
                continue;
            }
            let quiet = scores[i] < QUIET_BELOW;
            // Late-move pruning: not even played (a late quiet check goes unseen, as beyond the
            // horizon), so it costs neither its hooks nor a node.
            if quiet && searched > 0 && late.is_some_and(|n| i >= n) {
                continue;
            }
            // A turn that loses material on its square is only played to see whether it checks.
            let losing =
                see_prune && searched > 0 && scores[i] < order::GOOD_CAPTURE && self.loses(ev, p, pos, &t, depth);
            if !self.make(p, pos, &t)? {
                continue;
            }
            self.plies[ply].current = Some(t);
            self.plies[ply].moved = self.history.key(pos, &t, true);
            let checks = p.royal_safety && pos.in_check(p, pos.side);
            // Judged only where the answer may be extended: at depth 1 the answer is quiescence,
            // which extends nothing (and no singular extension runs that shallow).
            self.plies[ply].check_loses = checks && depth >= 2 && self.check_loses(ev, p, pos, &t)?;
            if losing && !checks {
                // Played, so counted as a node (as a futile turn is).
                self.nodes += 1;
                pos.unmake();
                continue;
            }
            // Late quiet turns (killers too) are searched less deep, the more so the later and
            // the deeper (`lmr`).
            let killer = order::is_killer(scores[i]);
            let reduce = if searched >= LMR_AFTER && depth >= 2 && (quiet || killer) && !in_check && !checks {
                let pv = beta - alpha > 1;
                lmr(depth, searched, pv, improving, killer, self.history.quiet(side, &t, self.plies[ply].moved, &prior))
            } else {
                0
            };
            // A futile quiet turn is played only to see whether it checks (a mate behind it).
            if quiet
                && searched > 0
                && !checks
                && let Some(stat) = futile
                && let Some(bound) = futility_bound(stat, depth - reduce, alpha)
            {
                // It was played (hooks and all), so it is a node: a search limited by nodes then
                // spends what it counts (on presets whose turns run hooks, the probes were most
                // of a search's time and none of its count). The next node's tick checks limits.
                self.nodes += 1;
                pos.unmake();
                if bound > best.0 {
                    best = (bound, Some(t));
                }
                continue;
            }
            let extend = (word != 0 && word == self.plies[ply].singular) as i32;
            let r = self.child(ev, p, pos, depth + extend, ply, alpha, beta, searched == 0, reduce);
            pos.unmake();
            let score = r?;
            searched += 1;
            if score > best.0 {
                best = (score, Some(t));
            }
            if score > alpha {
                alpha = score;
                self.set_pv(ply, t);
                if ply == 0 {
                    self.root_best = Some(score);
                    self.root_pv.clone_from(&self.plies[0].pv);
                    // The first iteration has a root turn: limits may stop it from now on.
                    self.can_stop = true;
                }
                if alpha >= beta {
                    if capture_move(&t).is_none() {
                        order::add_killer(&mut self.plies[ply].killers, t);
                        self.history.set_counter(side, prev.as_ref(), t);
                        // It gains history; the quiet turns tried before it did not cut: they
                        // lose as much.
                        self.history.cutoff(pos, &t, &turns[..i], depth, &prior);
                    }
                    break;
                }
            }
        }
        self.plies[ply].scores = scores;
        self.plies[ply].judge = judge;
        if best.1.is_none() {
            // Every turn was refused on replay: as if there were none.
            return Ok((over_score(&pos.no_moves_result(p), pos, ply), None));
        }
        Ok(best)
    }

    /// The continuation keys of the turns one and two plies before `ply` (none for a null move).
    fn prior(&self, ply: usize) -> Prior {
        let at = |back: usize| ply.checked_sub(back).and_then(|j| self.plies[j].current.and(self.plies[j].moved));
        [at(1), at(2)]
    }

    /// Forget what earlier games taught (a new game): the table and the history.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
    }

    /// Whether the static score at `ply` beats the one two plies before (the same side to move):
    /// a side improving its position is pruned less.
    fn improving(&self, ply: usize) -> bool {
        let now = self.plies[ply].stat;
        if now == NO_STAT {
            return false;
        }
        match ply.checked_sub(2).map(|j| self.plies[j].stat) {
            Some(before) if before != NO_STAT => now > before,
            // Two plies before was in check (or is the root's past): no evidence against.
            _ => true,
        }
    }

    /// Whether a turn just played, which checks, loses its piece on its square (a static exchange
    /// below 0, judged on the position before it): taken back and played again, so only plain
    /// moves where turns run no scripts (whose hooks would run twice) are judged; others are not
    /// said to lose.
    fn check_loses(&mut self, ev: &Evaluator, p: &Preset, pos: &mut Position, t: &Turn) -> R<bool> {
        let Some(m) = t.only_move() else { return Ok(false) };
        if p.script.active || m.promo != 0 || m.flags & (mflag::EP | mflag::CASTLE | mflag::DROP) != 0 {
            return Ok(false);
        }
        pos.unmake();
        let loses = ev.see(p, pos, m.from, m.to).is_some_and(|s| s < 0);
        // Played once already with no script to refuse it: it plays again the same way.
        self.make(p, pos, t)?;
        Ok(loses)
    }

    /// Whether a turn (one plain move, no promotion) loses its piece for more than the margin
    /// of static exchange pruning at `depth` (see `SEE_DEPTH`).
    fn loses(&self, ev: &Evaluator, p: &Preset, pos: &Position, t: &Turn, depth: i32) -> bool {
        let Some(m) = t.only_move() else { return false };
        if m.promo != 0 || m.flags & (mflag::EP | mflag::CASTLE | mflag::DROP) != 0 {
            return false;
        }
        let margin = if m.flags & mflag::CAPTURE != 0 { SEE_CAPTURE * depth } else { SEE_QUIET * depth * depth };
        ev.see(p, pos, m.from, m.to).is_some_and(|s| s < -margin)
    }

    /// One turn's score (from the mover's view), the turn played: a full window for the first,
    /// else a null window at the reduced depth, then at full depth, then the full window.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        ev: &mut Evaluator,
        p: &Preset,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        first: bool,
        reduce: i32,
    ) -> R<i32> {
        if first {
            return Ok(-self.negamax(ev, p, pos, depth - 1, ply + 1, -beta, -alpha)?);
        }
        let mut score = -self.negamax(ev, p, pos, depth - 1 - reduce, ply + 1, -alpha - 1, -alpha)?;
        if score > alpha && reduce > 0 {
            score = -self.negamax(ev, p, pos, depth - 1, ply + 1, -alpha - 1, -alpha)?;
        }
        if score > alpha && score < beta && beta - alpha > 1 {
            score = -self.negamax(ev, p, pos, depth - 1, ply + 1, -beta, -alpha)?;
        }
        Ok(score)
    }

    fn set_pv(&mut self, ply: usize, t: Turn) {
        let (head, tail) = self.plies.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(t);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// Captures only, until the position is quiet; the side to move may stand pat, unless it is in
    /// check: then every evasion is tried (a mate is scored as the main search scores it). The
    /// table is probed (any entry is at least as deep as quiescence) and keeps the result at depth
    /// 0, so that captures met again in another order are not searched again, and the best
    /// capture found comes first when the position is met again.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        ev: &mut Evaluator,
        p: &Preset,
        pos: &mut Position,
        ply: usize,
        alpha: i32,
        beta: i32,
        qdepth: usize,
    ) -> R<i32> {
        if qdepth > 0 {
            self.tick()?;
            self.plies[ply].pv.clear();
            if let Some(over) = crate::play::end::terminal(pos, p)? {
                return Ok(over_score(&over, pos, ply));
            }
        }
        // The first ply's entries (captures and quiet checks) are a depth deeper than the later
        // plies' (captures only), so that a later ply's result does not stand for a first one's.
        let qd = if qdepth > 0 && quiet_checks_apply(p) { -1 } else { 0 };
        let entry = self.tt.probe(pos.hash, ply);
        if let Some(e) = entry
            && e.depth >= qd as i16
            && e.cuts(alpha, beta)
        {
            return Ok(e.score);
        }
        let tt_turn = entry.map_or(0, |e| e.turn);
        let mut turns = std::mem::take(&mut self.plies[ply].turns);
        let r = self.quiet_turns(ev, p, pos, ply, alpha, beta, qdepth, tt_turn, &mut turns);
        self.plies[ply].turns = turns;
        let (best, best_turn) = r?;
        // Not while capture sequences are cut short (the first iteration, root scoring).
        if self.may_stop {
            self.tt.store(pos.hash, ply, best_turn, best, qd, Bound::of(best, alpha, beta));
        }
        Ok(best)
    }

    #[allow(clippy::too_many_arguments)]
    fn quiet_turns(
        &mut self,
        ev: &mut Evaluator,
        p: &Preset,
        pos: &mut Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qdepth: usize,
        tt_turn: u64,
        turns: &mut Vec<Turn>,
    ) -> R<(i32, u64)> {
        // In check, every turn is generated (and tried): a mate at the horizon is scored as one.
        // Otherwise a quiet position (no pseudo-legal capture, found by the evaluation) stands
        // pat without generating whole turns, which is costly for scripted presets.
        let checked = p.royal_safety && pos.in_check(p, pos.side);
        // Where a turn has several parts (a move, then a drop or a square built, ...), every
        // capture comes in as many turns as its later parts allow, and generating them costs more
        // than the main search's nodes: quiescence stands pat there, for depth.
        let max_qdepth = if p.script.turn.len() > 1 {
            0
        } else if self.may_stop {
            MAX_QDEPTH
        } else {
            FIRST_QDEPTH
        };
        let mut stand = 0;
        // Quiescence's first ply tries quiet checks too (a mate just beyond the horizon).
        let checks = qdepth == 0 && !checked && quiet_checks_apply(p);
        if !checked {
            stand = ev.evaluate(p, pos)?;
            if stand >= beta || qdepth >= max_qdepth || ply >= MAX_PLY || !(ev.could_capture || checks) {
                return Ok((stand, 0));
            }
        }
        if checked {
            self.generate(p, pos, turns)?;
            if turns.is_empty() {
                return Ok((over_score(&pos.no_moves_result(p), pos, ply), 0));
            }
            if qdepth >= max_qdepth || ply >= MAX_PLY {
                return Ok((ev.evaluate(p, pos)?, 0));
            }
            // In check the side may not stand pat (its static score ignores the threat): every
            // evasion is tried, quiet ones too, and none that plays is a loss (below).
            stand = -INFINITY;
        } else if !ev.could_capture {
            turns.clear();
        } else {
            // Out of check, where only captures are listed, a side with no legal turn at all
            // (stalemate) stands pat, as it did when the evaluation saw no capture.
            if !self.generate_captures(ev, p, pos, turns)? {
                return Ok((over_score(&pos.no_moves_result(p), pos, ply), 0));
            }
        }
        alpha = alpha.max(stand);
        let mut best = (stand, 0);
        // Each capture once: the turn's other parts (a square built, say) multiply the tree
        // without changing what is taken. Variants of one move are generated together. Quiet
        // evasions (in check) are all kept.
        turns.dedup_by(|a, b| capture_move(a).is_some() && capture_move(a) == capture_move(b));
        let mut scores = std::mem::take(&mut self.plies[ply].scores);
        let mut judge = std::mem::take(&mut self.plies[ply].judge);
        let h = &self.history;
        order::score(ev, pos, turns, tt_turn, &[None; 2], None, h, &[None; 2], &mut scores, &mut judge);
        for i in 0..turns.len() {
            order::pick(ev, p, pos, turns, &mut scores, &mut judge, i);
            let t = turns[i];
            // A capture that loses material (by the static exchange, order.rs) is not worth
            // following, unless the side to move is in check.
            if !checked && scores[i] < order::GOOD_CAPTURE {
                break;
            }
            if !self.make(p, pos, &t)? {
                continue;
            }
            let r = self.quiesce(ev, p, pos, ply + 1, -beta, -alpha, qdepth + 1);
            pos.unmake();
            let score = -r?;
            if score > best.0 {
                best = (score, order::word(&t));
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.plies[ply].scores = scores;
        self.plies[ply].judge = judge;
        if best.0 == -INFINITY {
            // In check, every evasion was refused on replay: as if there were none.
            return Ok((over_score(&pos.no_moves_result(p), pos, ply), 0));
        }
        if checks && alpha < beta {
            self.try_quiet_checks(&mut best, ev, p, pos, ply, (alpha, beta), turns)?;
        }
        Ok(best)
    }

    /// Quiescence's first ply, its captures tried without a cut: the quiet turns that check and
    /// do not lose their piece on its square (a static exchange), answered by quiescence (in
    /// check, so a mate is scored as one). `best` is the ply's best score and turn so far.
    #[allow(clippy::too_many_arguments)]
    fn try_quiet_checks(
        &mut self,
        best: &mut (i32, u64),
        ev: &mut Evaluator,
        p: &Preset,
        pos: &mut Position,
        ply: usize,
        (mut alpha, beta): (i32, i32),
        turns: &mut Vec<Turn>,
    ) -> R<()> {
        self.quiet_checks(ev, p, pos, turns);
        for t in turns.iter() {
            if !self.make(p, pos, t)? {
                continue;
            }
            let r = self.quiesce(ev, p, pos, ply + 1, -beta, -alpha, 1);
            pos.unmake();
            let score = -r?;
            if score > best.0 {
                *best = (score, order::word(t));
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        Ok(())
    }

    /// The legal quiet turns of the side to move that check (moves on the board: a drop's
    /// exchange is not judged, and pieces in hand would make them many) and do not lose their
    /// piece on its square by a static exchange, into `out`.
    fn quiet_checks(&mut self, ev: &Evaluator, p: &Preset, pos: &mut Position, out: &mut Vec<Turn>) {
        out.clear();
        self.moves.clear();
        pos.pseudo_moves(p, &mut self.moves);
        self.moves.retain(|m| m.flags & (mflag::CAPTURE | mflag::EP | mflag::DROP) == 0);
        pos.retain_checks(p, &mut self.moves);
        pos.keep_legal(p, &mut self.moves);
        self.moves.retain(|m| {
            m.promo != 0 || m.flags & mflag::CASTLE != 0 || ev.see(p, pos, m.from, m.to).is_none_or(|s| s >= 0)
        });
        out.extend(self.moves.iter().map(|&m| Turn::single(m)));
    }
}

/// Whether quiescence's first ply tries quiet checks: where checks matter (royal pieces that must
/// be kept safe, checks allowed) and turns are plain moves listed by the engine (no rule script,
/// whose turns would all be played to see which check; no compulsory captures or drops, under
/// which a list of quiet moves alone is not judged legal).
fn quiet_checks_apply(p: &Preset) -> bool {
    p.royal_safety && !p.no_checks && !p.script.active && !p.must_capture && !p.must_drop
}

/// The static lead on beta that cuts a node `depth` plies deep by reverse futility: less where
/// the side to move is improving (its position is going its way, so the lead is likelier real).
fn reverse_margin(depth: i32, improving: bool) -> i32 {
    depth * if improving { REVERSE_IMPROVING } else { REVERSE_FUTILITY }
}

/// The most a futile quiet turn searched at `depth` could score, from the node's static score,
/// if that is at most alpha (the turn is pruned); none if it may reach alpha.
fn futility_bound(stat: i32, depth: i32, alpha: i32) -> Option<i32> {
    let bound = stat + FUTILITY * depth.max(1);
    (depth <= FUTILITY_DEPTH && bound <= alpha).then_some(bound)
}

/// How many turns a node `depth` plies from the horizon tries before late-move pruning skips its
/// quiet ones: Stockfish 11's (5 + depth^2) / 2, twice that when the side is improving.
fn late_moves(depth: i32, improving: bool) -> usize {
    let n = 5 + depth * depth;
    (if improving { n } else { n / 2 }) as usize
}

/// The reduction of the `searched`-th turn (from 0) at `depth`, as Stockfish 11's: about
/// ln(depth) ln(searched) / `LMR_DIVISOR`, a ply less in a principal-variation node (its value is
/// the one reported) and for a killer or the counter turn (they refuted a sibling or the previous
/// turn), a ply more when the side is not improving (its turns cut less), and less by up to two
/// plies the better the turn's history (more for a bad one), rounded; at most depth - 2 (1 at
/// depth 2), at least 0. At depth 2 a late quiet turn is so only evaluated, not answered: for
/// presets whose turns run hooks, listing the answers is most of a node's cost (Ruddigore's `go
/// depth 4` from the setup: 2.0 s of CPU before, 0.37 s after).
fn lmr(depth: i32, searched: usize, pv: bool, improving: bool, killer: bool, history: i32) -> i32 {
    let mut r = (depth as f64).ln() * (searched as f64).ln() / LMR_DIVISOR;
    r -= pv as i32 as f64 + killer as i32 as f64;
    r += !improving as i32 as f64;
    r -= history as f64 / (HISTORY_MAX / 2) as f64;
    (r.round() as i32).clamp(0, (depth - 2).max(1))
}
