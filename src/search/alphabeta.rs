//! Iterative deepening negamax with alpha-beta, a transposition table, killer turns and
//! quiescence on captures. Turns are generated and played through the engine's own turn
//! generator, so the search plays by every rule the preset's hooks enforce.

use super::eval::Evaluator;
use super::limits::{INFINITY, Limits, MATE, MAX_PLY};
use super::order::{self, capture_move};
use super::tt::{Bound, Table};
use crate::engine::turn::Turn;
use crate::engine::{GameOver, Move, Position};
use crate::play::turngen::{self, PlayError};
use crate::preset::Preset;
use crate::script::ScriptError;
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

/// Buffers reused at each ply, so that a node allocates nothing beyond turn generation.
#[derive(Default)]
struct PlyData {
    turns: Vec<Turn>,
    scores: Vec<i32>,
    killers: [Option<Turn>; 2],
    pv: Vec<Turn>,
}

/// The searcher: its table survives between searches (within one game).
pub struct Core {
    pub tt: Table,
    plies: Vec<PlyData>,
    moves: Vec<Move>,
    said: Vec<String>,
    pub nodes: u64,
    limits: Limits,
    start: Instant,
    /// Whether limits may stop the search now (never during the first iteration).
    may_stop: bool,
    /// Set by another thread (an engine protocol's `stop`) to end the search as a limit would.
    pub stop: Option<Arc<AtomicBool>>,
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
            limits: Limits::default(),
            start: Instant::now(),
            may_stop: false,
            stop: None,
        }
    }

    /// Get ready for a new search from the root.
    pub fn begin(&mut self, limits: &Limits) {
        self.limits = limits.clone();
        self.start = Instant::now();
        self.nodes = 0;
        self.may_stop = false;
        for p in &mut self.plies {
            p.killers = [None, None];
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// One iteration from the root at `depth`: its score, and the principal variation in `pv()`.
    pub fn iterate(&mut self, ev: &mut Evaluator, p: &Preset, pos: &mut Position, depth: i32) -> R<i32> {
        self.may_stop = depth > 1;
        self.negamax(ev, p, pos, depth, 0, -INFINITY, INFINITY)
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
        if !self.make(p, pos, t)? {
            return Ok(None);
        }
        let r = self.negamax(ev, p, pos, depth - 1, 1, -INFINITY, INFINITY);
        pos.unmake();
        Ok(Some(-r?))
    }

    pub fn pv(&self) -> &[Turn] {
        &self.plies[0].pv
    }

    /// Count a node and stop when a limit is reached (checked deterministically for node limits).
    #[inline]
    fn tick(&mut self) -> R<()> {
        self.nodes += 1;
        if !self.may_stop {
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

    /// Every legal turn of the side to move into `out`, through the engine's generator.
    fn generate(&mut self, p: &Preset, pos: &mut Position, out: &mut Vec<Turn>) -> R<()> {
        out.clear();
        if p.script.active {
            out.extend(turngen::legal_turns(pos, p)?);
        } else {
            pos.legal_moves(p, &mut self.moves);
            out.extend(self.moves.iter().map(|&m| Turn::single(m)));
        }
        Ok(())
    }

    /// Play a generated turn with every hook; false if a hook refused it after all.
    pub fn make(&mut self, p: &Preset, pos: &mut Position, t: &Turn) -> R<bool> {
        self.said.clear();
        match turngen::play(pos, p, t, &mut self.said) {
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
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(ev, p, pos, ply, alpha, beta, 0);
        }
        let entry = self.tt.probe(pos.hash, ply);
        if ply > 0
            && let Some(e) = entry
            && e.depth >= depth as i16
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            }
        {
            return Ok(e.score);
        }
        let mut turns = std::mem::take(&mut self.plies[ply].turns);
        let r = self.search_turns(ev, p, pos, depth, ply, alpha, beta, entry.map(|e| e.turn), &mut turns);
        self.plies[ply].turns = turns;
        let (best, best_turn) = r?;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(pos.hash, ply, best_turn.unwrap_or_default(), best, depth as i16, bound);
        Ok(best)
    }

    /// Try each legal turn in order: the best score and turn (none when no turn could be played).
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
        tt_turn: Option<Turn>,
        turns: &mut Vec<Turn>,
    ) -> R<(i32, Option<Turn>)> {
        self.generate(p, pos, turns)?;
        if turns.is_empty() {
            return Ok((over_score(&pos.no_moves_result(p), pos, ply), None));
        }
        let mut scores = std::mem::take(&mut self.plies[ply].scores);
        order::score(ev, pos, turns, tt_turn, &self.plies[ply].killers, &mut scores);
        let mut best = (-INFINITY, None);
        for i in 0..turns.len() {
            order::pick(turns, &mut scores, i);
            let t = turns[i];
            if !self.make(p, pos, &t)? {
                continue;
            }
            let r = self.negamax(ev, p, pos, depth - 1, ply + 1, -beta, -alpha);
            pos.unmake();
            let score = -r?;
            if score > best.0 {
                best = (score, Some(t));
            }
            if score > alpha {
                alpha = score;
                self.set_pv(ply, t);
                if alpha >= beta {
                    if capture_move(&t).is_none() {
                        order::add_killer(&mut self.plies[ply].killers, t);
                    }
                    break;
                }
            }
        }
        self.plies[ply].scores = scores;
        if best.1.is_none() {
            // Every turn was refused on replay: as if there were none.
            return Ok((over_score(&pos.no_moves_result(p), pos, ply), None));
        }
        Ok(best)
    }

    fn set_pv(&mut self, ply: usize, t: Turn) {
        let (head, tail) = self.plies.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(t);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// Captures only, until the position is quiet; the side to move may stand pat.
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
        let mut turns = std::mem::take(&mut self.plies[ply].turns);
        let r = self.quiet_turns(ev, p, pos, ply, alpha, beta, qdepth, &mut turns);
        self.plies[ply].turns = turns;
        r
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
        turns: &mut Vec<Turn>,
    ) -> R<i32> {
        // In check, the turns are generated first so that a mate at the horizon is scored as one.
        // Otherwise a quiet position (no pseudo-legal capture, found by the evaluation) stands
        // pat without generating whole turns, which is costly for scripted presets.
        let checked = p.royal_safety && pos.in_check(p, pos.side);
        let max_qdepth = if self.may_stop { MAX_QDEPTH } else { FIRST_QDEPTH };
        let mut stand = 0;
        if !checked {
            stand = ev.evaluate(p, pos)?;
            if stand >= beta || qdepth >= max_qdepth || ply >= MAX_PLY || !ev.could_capture {
                return Ok(stand);
            }
        }
        self.generate(p, pos, turns)?;
        if turns.is_empty() {
            return Ok(over_score(&pos.no_moves_result(p), pos, ply));
        }
        if checked {
            stand = ev.evaluate(p, pos)?;
            if stand >= beta || qdepth >= max_qdepth || ply >= MAX_PLY {
                return Ok(stand);
            }
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        turns.retain(|t| capture_move(t).is_some());
        // Each capture once: the turn's other parts (a square built, say) multiply the tree
        // without changing what is taken. Variants of one move are generated together.
        turns.dedup_by_key(|t| capture_move(t));
        let mut scores = std::mem::take(&mut self.plies[ply].scores);
        order::score(ev, pos, turns, None, &[None, None], &mut scores);
        for i in 0..turns.len() {
            order::pick(turns, &mut scores, i);
            let t = turns[i];
            if !self.make(p, pos, &t)? {
                continue;
            }
            let r = self.quiesce(ev, p, pos, ply + 1, -beta, -alpha, qdepth + 1);
            pos.unmake();
            let score = -r?;
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.plies[ply].scores = scores;
        Ok(best)
    }
}
