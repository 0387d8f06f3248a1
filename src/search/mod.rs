//! The computer player: a search over any preset's legal turns, evaluated from the preset's own
//! piece values (and its `fn evaluate`), scored at the end by the preset's own results.

mod alphabeta;
pub mod attacks;
pub mod eval;
pub mod limits;
mod order;
pub mod repl_cmds;
pub mod selfplay;
mod structure;
mod tt;
pub mod tuning;
pub mod values;
pub mod weights;

use crate::engine::Position;
use crate::engine::turn::{Turn, format_turn};
use crate::preset::Preset;
use alphabeta::{Abort, Core};
use eval::Evaluator;
pub use limits::{Limits, MATE, MATE_BOUND, MAX_PLY};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The table has `2^TT_BITS` buckets of three entries (64 bytes each: 16 MB).
const TT_BITS: u32 = 18;

/// What a search found: the turn to play, its score for the side to move, and how it got there.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub turn: Turn,
    /// The turn in canonical notation.
    pub text: String,
    pub score: i32,
    /// The last depth searched to the end.
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    /// The expected continuation, in canonical notation, starting with `text`.
    pub pv: Vec<String>,
}

impl SearchResult {
    /// `+1.25` (in units of a piece of value 1), or `mate in 3` / `mated in 2` for a forced result.
    pub fn score_text(&self) -> String {
        score_text(self.score)
    }
}

pub fn score_text(score: i32) -> String {
    if score > MATE_BOUND {
        format!("win in {}", (MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        format!("loss in {}", (MATE + score + 1) / 2)
    } else {
        format!("{:+.2}", score as f64 / eval::UNIT as f64)
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SearchError {
    #[error("the game is over: {0}")]
    GameOver(String),
    /// A rule script failed; the message quotes the preset's line.
    #[error("{0}")]
    Script(String),
    /// The search itself broke (a bug, caught so that a protocol still answers its `go`).
    #[error("the search failed on an internal error (please report it with the position's FEN)")]
    Failed,
}

/// A finished iteration of the search, as an engine protocol reports it (`info depth ...`).
pub struct Iteration<'a> {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub time_ms: u64,
    /// The principal variation, from the root.
    pub pv: &'a [Turn],
}

/// Called after each finished iteration (see [`Searcher::set_report`]).
pub type Report = Box<dyn FnMut(&Iteration<'_>) + Send>;

/// A computer player; keep one per game so its table helps from turn to turn.
pub struct Searcher {
    core: Core,
    report: Option<Report>,
    /// The evaluator of the last search, kept for the next one on the same preset: building one
    /// walks every piece's moves from every square (a quarter of a 2000-node search in chess),
    /// and its cache of evaluated positions stays good.
    kept: Option<Kept>,
}

/// An evaluator and what it was built from. Holding the preset's `Arc` keeps it alive and
/// shared (so unchanged: `Arc::make_mut` would copy it), so the same address is the same preset.
struct Kept {
    preset: Arc<Preset>,
    learned: u64,
    ev: Evaluator,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher { core: Core::new(TT_BITS), report: None, kept: None }
    }

    /// A flag another thread sets to stop the search (it stops as when a limit is reached, after
    /// the first iteration, and answers with the best turn found so far).
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.core.stop = stop;
    }

    /// What to call after each finished iteration (an engine protocol's `info` lines).
    pub fn set_report(&mut self, report: Option<Report>) {
        self.report = report;
    }

    /// Forget what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        self.core.clear();
    }

    /// Run `f` with the evaluator for `p` within a fresh budget ([`crate::budget`]): the kept
    /// one when it was built for this preset with the learned values now in force, else a new
    /// one; it is kept afterwards for the next search.
    fn with_evaluator<T>(&mut self, p: &Arc<Preset>, f: impl FnOnce(&mut Self, &mut Evaluator) -> T) -> T {
        let learned = eval::generation();
        let mut ev = match self.kept.take() {
            Some(k) if Arc::ptr_eq(&k.preset, p) && k.learned == learned => k.ev,
            _ => Evaluator::new(p),
        };
        let r = crate::budget::fresh(|| f(self, &mut ev));
        self.kept = Some(Kept { preset: Arc::clone(p), learned, ev });
        r
    }

    /// The best turn for the side to move. The position is unchanged afterwards.
    /// One search is one command: it has its own budget.
    pub fn search(
        &mut self,
        p: &Arc<Preset>,
        pos: &mut Position,
        limits: &Limits,
    ) -> Result<SearchResult, SearchError> {
        self.with_evaluator(p, |s, ev| s.search_within(ev, p, pos, limits))
    }

    fn search_within(
        &mut self,
        ev: &mut Evaluator,
        p: &Preset,
        pos: &mut Position,
        limits: &Limits,
    ) -> Result<SearchResult, SearchError> {
        let script = |e: crate::script::ScriptError| SearchError::Script(e.render(p));
        if let Some(over) = crate::play::end::terminal(pos, p).map_err(script)? {
            return Err(SearchError::GameOver(over.to_string()));
        }
        let core = &mut self.core;
        core.begin(p, limits);
        let mut found: Option<(Vec<Turn>, i32, u32)> = None;
        for depth in 1..=limits.max_depth() {
            match core.iterate(ev, p, pos, depth) {
                Ok(score) => {
                    found = Some((core.pv().to_vec(), score, depth as u32));
                    if let Some(report) = &mut self.report {
                        let (nodes, time_ms) = (core.nodes, core.elapsed_ms());
                        report(&Iteration { depth: depth as u32, score, nodes, time_ms, pv: core.pv() });
                    }
                    if score.abs() > MATE_BOUND && MATE - score.abs() <= depth {
                        break;
                    }
                }
                Err(Abort::Stop) => {
                    // Stopped within an iteration: its best root turn so far, once one raised
                    // alpha (searched deeper than the last iteration's), at the depth completed.
                    if let Some((score, pv)) = core.root_best() {
                        let done = found.as_ref().map_or(0, |f| f.2);
                        found = Some((pv.to_vec(), score, done));
                    }
                    break;
                }
                Err(Abort::Script(e)) => return Err(script(e)),
            }
        }
        let (pv, score, depth) = found.unwrap_or_default();
        let Some(&turn) = pv.first() else {
            let over = pos.no_moves_result(p);
            return Err(SearchError::GameOver(over.to_string()));
        };
        let texts = pv_texts(&mut self.core, p, pos, &pv).map_err(script)?;
        Ok(SearchResult {
            turn,
            text: texts[0].clone(),
            score,
            depth,
            nodes: self.core.nodes,
            time_ms: self.core.elapsed_ms(),
            pv: texts,
        })
    }

    /// The quiescence score for the side to move ([`Core::quiet_score`]).
    pub fn quiet_score(&mut self, p: &Arc<Preset>, pos: &mut Position) -> Result<i32, SearchError> {
        self.with_evaluator(p, |s, ev| match s.core.quiet_score(ev, p, pos) {
            Ok(score) => Ok(score),
            Err(Abort::Script(e)) => Err(SearchError::Script(e.render(p))),
            Err(Abort::Stop) => Err(SearchError::Failed),
        })
    }

    /// Every legal turn with its score from a search `depth` plies deep (for varied openings).
    pub fn root_scores(
        &mut self,
        p: &Arc<Preset>,
        pos: &mut Position,
        depth: u32,
    ) -> Result<Vec<(Turn, i32)>, SearchError> {
        self.with_evaluator(p, |s, ev| s.root_scores_within(ev, p, pos, depth))
    }

    fn root_scores_within(
        &mut self,
        ev: &mut Evaluator,
        p: &Preset,
        pos: &mut Position,
        depth: u32,
    ) -> Result<Vec<(Turn, i32)>, SearchError> {
        let script = |e: crate::script::ScriptError| SearchError::Script(e.render(p));
        let turns = crate::play::turngen::legal_turns(pos, p).map_err(script)?;
        self.core.begin(p, &Limits::default());
        let mut out = Vec::new();
        for t in turns {
            match self.core.score_turn(ev, p, pos, &t, depth as i32) {
                Ok(Some(s)) => out.push((t, s)),
                Ok(None) => {}
                Err(Abort::Script(e)) => return Err(script(e)),
                Err(Abort::Stop) => {}
            }
        }
        Ok(out)
    }
}

/// The principal variation in canonical notation, each turn written in the position before it.
fn pv_texts(
    core: &mut Core,
    p: &Preset,
    pos: &mut Position,
    pv: &[Turn],
) -> Result<Vec<String>, crate::script::ScriptError> {
    let mut texts = Vec::new();
    let mut played = 0;
    let mut err = None;
    for t in pv {
        texts.push(format_turn(p, pos, t));
        match core.make(p, pos, t) {
            Ok(true) => played += 1,
            Ok(false) => break,
            Err(Abort::Script(e)) => {
                err = Some(e);
                break;
            }
            Err(Abort::Stop) => break,
        }
    }
    for _ in 0..played {
        pos.unmake();
    }
    err.map_or(Ok(texts), Err)
}

/// The best turn for the side to move with a fresh searcher.
pub fn best_turn(p: &Preset, pos: &mut Position, limits: &Limits) -> Result<SearchResult, SearchError> {
    let mut ev = Evaluator::new(p);
    crate::budget::fresh(|| Searcher::new().search_within(&mut ev, p, pos, limits))
}
