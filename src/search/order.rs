//! Move ordering: the table's turn first, then captures that do not lose material (most valuable
//! victim, least valuable attacker; a capture that promotes gains its new piece's value too),
//! killer turns, the counter turn, captures that lose material (a static exchange evaluation
//! where the pieces are bitboard kinds, else a one-exchange test), and quiet turns by their
//! history of cutoffs. A promotion that takes nothing scores its new piece's value, so it counts
//! among the quiet turns (reduced and pruned as one): ordering it with the good captures
//! measured no better (README).

use super::eval::Evaluator;
use crate::engine::board::cell;
use crate::engine::position::mflag;
use crate::engine::turn::{Turn, TurnPart};
use crate::engine::{Move, Position, Side};
use crate::preset::Preset;

const TT_TURN: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
/// Captures scored at least this do not lose material at once (quiescence follows only these).
pub const GOOD_CAPTURE: i32 = CAPTURE;
const KILLER: i32 = 1 << 20;
/// A capture that loses material at once: after the killers, before quiet turns.
const BAD_CAPTURE: i32 = 1 << 19;
/// Turns scored below this are quiet (their scores are history counts): the ones reduced late.
pub const QUIET_BELOW: i32 = BAD_CAPTURE;
/// History counts stay within plus or minus this (see `History::reward`).
pub const HISTORY_MAX: i32 = BAD_CAPTURE / 2;
/// A royal piece taken outranks any other victim (its declared value is often 0).
const ROYAL_VICTIM: i32 = 1 << 16;

/// The first move part of a turn that captures, if any: what makes it a capture for quiescence.
#[inline]
pub fn capture_move(t: &Turn) -> Option<Move> {
    t.parts().iter().find_map(|p| match p {
        TurnPart::Move(m) if m.flags & (mflag::CAPTURE | mflag::EP) != 0 => Some(*m),
        _ => None,
    })
}

/// Quiet turns that caused cutoffs, by side and the first part's from and to squares (a drop:
/// the piece code and its square), weighted by the depth squared; quiet turns tried before a
/// cutoff lose as much. Also the counter turn: the quiet turn that last refuted each turn (by the
/// same index of the turn before it). And continuation history (Stockfish's): quiet turns'
/// cutoffs by the piece that moved and its destination, for each piece and destination of the
/// turn one ply before, and of the turn two plies before, counted as the main table's are (and
/// not aged between searches: a game's few thousand nodes a move fill them slowly); added to the
/// main count of a quiet turn, for ordering and late-move reductions.
#[derive(Default)]
pub struct History {
    cells: usize,
    table: Vec<i32>,
    counters: Vec<Option<Turn>>,
    /// The preset's piece kinds.
    kinds: usize,
    /// Each cell's square number (its index in the geometry's squares; `NO_SQUARE` if none).
    squares: Vec<u16>,
    /// How many continuation keys there are: a piece code (with its side) and a square.
    keys: usize,
    /// By the earlier turn's key, then this turn's (empty where it would be too big): in
    /// sixteenths of the main table's scale, so that the table takes half the memory.
    cont: Vec<i16>,
}

/// The continuation keys of the turns one and two plies before a node's turns (see
/// [`History::key`]; none before the root or for a null move).
pub type Prior = [Option<usize>; 2];

const NO_SQUARE: u16 = u16::MAX;

/// The continuation table's entries are 2 bytes: 4 MB at most (8 x 8 chess: 1.2 MB; 10 x 8
/// Capablanca: 3.3 MB; 10 x 10 and 9 x 9 with more kinds: none).
const MAX_CONT_ENTRIES: usize = 1 << 21;
/// The continuation table's bound, and what its counts are multiplied by on the main table's
/// scale.
const CONT_MAX: i32 = HISTORY_MAX / CONT_SCALE;
const CONT_SCALE: i32 = 16;

/// `v` moved toward plus or minus `max` by `depth`^2 / 256 of it (a quarter at most), less the
/// nearer it is: it stays within `max`.
#[inline]
fn toward(v: i32, max: i32, depth: i32, good: bool) -> i32 {
    let b = (depth * depth).min(64) * (max / 256);
    let b = if good { b } else { -b };
    v + b - (v as i64 * b.abs() as i64 / max as i64) as i32
}

impl History {
    /// Size the tables for this board (a new preset or the first search).
    pub fn fit(&mut self, p: &Preset, _pos: &Position) {
        let cells = p.geo.cells.max(128);
        let kinds = p.kinds.len();
        if self.cells != cells || self.kinds != kinds {
            self.cells = cells;
            self.kinds = kinds;
            self.table = vec![0; 2 * cells * cells];
            self.counters = vec![None; 2 * cells * cells];
            self.squares = vec![NO_SQUARE; cells];
            for (i, sq) in p.geo.squares.iter().enumerate() {
                if let Some(s) = self.squares.get_mut(sq.idx()) {
                    *s = i as u16;
                }
            }
            self.keys = 2 * kinds * p.geo.squares.len();
            let n = self.keys * self.keys;
            self.cont = if n <= MAX_CONT_ENTRIES { vec![0; n] } else { Vec::new() };
        }
    }

    /// A new game: nothing learnt in the last one counts.
    pub fn clear(&mut self) {
        self.table.fill(0);
        self.counters.fill(None);
        self.cont.fill(0);
    }

    /// A turn's continuation key: the piece that ends on its first part's destination (with its
    /// side; a promotion's new piece, a drop's piece) and that square. From the position before
    /// the turn, or after it when `played`.
    #[inline]
    pub fn key(&self, pos: &Position, t: &Turn, played: bool) -> Option<usize> {
        let (code, to) = match t.parts().first()? {
            TurnPart::Move(m) if played => (pos.cells[m.to.idx()], m.to),
            TurnPart::Move(m) => (if m.promo != 0 { m.promo } else { pos.cells[m.from.idx()] }, m.to),
            TurnPart::Drop(code, sq) => (*code, *sq),
            _ => return None,
        };
        let sq = *self.squares.get(to.idx())?;
        if self.cont.is_empty() || !cell::is_piece(code) || sq == NO_SQUARE {
            return None;
        }
        let key = ((code & 0x7F) - cell::FIRST_PIECE) as usize * (self.keys / (2 * self.kinds)) + sq as usize;
        (key < self.keys).then_some(key)
    }

    /// The continuation counts of the turn of key `key` after the turns of `prior`, on the main
    /// table's scale: half their sum, so that with the main count they stay within twice its
    /// bound.
    #[inline]
    fn continuation(&self, key: Option<usize>, prior: &Prior) -> i32 {
        let Some(key) = key else { return 0 };
        let sum: i32 = prior.iter().flatten().map(|&k| self.cont[k * self.keys + key] as i32).sum();
        sum * CONT_SCALE / 2
    }

    /// A quiet turn's history for ordering and reductions, within twice `HISTORY_MAX`: the main
    /// table's count and its continuation counts after `prior`, the turn's continuation key
    /// being `key` ([`History::key`]).
    #[inline]
    pub fn quiet(&self, side: Side, t: &Turn, key: Option<usize>, prior: &Prior) -> i32 {
        self.get(side, t) + self.continuation(key, prior)
    }

    /// A quiet turn's counts, the main one and its continuations after `prior`, move up or down.
    fn reward_quiet(&mut self, pos: &Position, t: &Turn, prior: &Prior, depth: i32, good: bool) {
        self.reward(pos.side, t, depth, good);
        if let Some(key) = self.key(pos, t, false) {
            for &k in prior.iter().flatten() {
                let v = &mut self.cont[k * self.keys + key];
                *v = toward(*v as i32, CONT_MAX, depth, good) as i16;
            }
        }
    }

    /// Between searches: old counts weigh less.
    pub fn age(&mut self) {
        self.table.iter_mut().for_each(|v| *v /= 8);
    }

    #[inline]
    fn index(&self, side: Side, t: &Turn) -> Option<usize> {
        let (from, to) = match t.parts().first()? {
            TurnPart::Move(m) => (m.from.idx(), m.to.idx()),
            TurnPart::Drop(code, sq) => (*code as usize, sq.idx()),
            _ => return None,
        };
        (from < self.cells && to < self.cells).then(|| (side.index() * self.cells + from) * self.cells + to)
    }

    #[inline]
    fn get(&self, side: Side, t: &Turn) -> i32 {
        self.index(side, t).map_or(0, |i| self.table[i])
    }

    /// A quiet turn caused a cutoff at `depth` (`good`), or was tried before one (not `good`).
    /// Counts move toward plus or minus `HISTORY_MAX` and slow down as they near it, so that
    /// they stay within it and recent cutoffs still count. A step is a share of the bound, as
    /// Stockfish's are (depth^2 / 256 of it, a quarter at most from depth 8): a count then
    /// tells how reliably a turn cuts whatever the search's length, so that late-move
    /// reductions may read it on one scale (with steps of depth^2 alone, counts stayed within
    /// a hundredth of the bound, and grew with the nodes searched).
    fn reward(&mut self, side: Side, t: &Turn, depth: i32, good: bool) {
        if let Some(i) = self.index(side, t) {
            self.table[i] = toward(self.table[i], HISTORY_MAX, depth, good);
        }
    }

    /// A quiet turn cut at `depth` (`pos` is its node's position, `prior` the keys of the turns
    /// before it) after the turns `before` were tried: it gains history and continuation history,
    /// and the quiet turns before it lose as much.
    pub fn cutoff(&mut self, pos: &Position, t: &Turn, before: &[Turn], depth: i32, prior: &Prior) {
        self.reward_quiet(pos, t, prior, depth, true);
        for u in before.iter().filter(|u| capture_move(u).is_none()) {
            self.reward_quiet(pos, u, prior, depth, false);
        }
    }

    /// The counter turn recorded for an answer to `prev` (played by `side`'s opponent).
    #[inline]
    pub fn counter(&self, side: Side, prev: Option<&Turn>) -> Option<Turn> {
        let i = self.index(side.other(), prev?)?;
        self.counters[i]
    }

    /// `t` refuted `prev` (played by `side`'s opponent).
    pub fn set_counter(&mut self, side: Side, prev: Option<&Turn>, t: Turn) {
        if let Some(i) = prev.and_then(|pt| self.index(side.other(), pt)) {
            self.counters[i] = Some(t);
        }
    }
}

/// Ordering scores for `turns`, higher first (the table's turn, by its [`word`], first), and in
/// `judge` what each loses if its capture, left to judge, loses material ([`pick`] judges it).
/// Quiet turns' history counts their continuation history after `prior`.
#[allow(clippy::too_many_arguments)]
pub fn score(
    ev: &Evaluator,
    pos: &Position,
    turns: &[Turn],
    tt: u64,
    killers: &[Option<Turn>; 2],
    counter: Option<Turn>,
    history: &History,
    prior: &Prior,
    out: &mut Vec<i32>,
    judge: &mut Vec<i32>,
) {
    out.clear();
    judge.clear();
    let (k0, k1, counter) = (Sought::new(killers[0]), Sought::new(killers[1]), Sought::new(counter));
    out.extend(turns.iter().map(|t| {
        let h = head(t);
        if tt != 0 && is_word(tt, h, t) {
            judge.push(0);
            return TT_TURN;
        }
        let mut owed = 0;
        let promoted = |m: &Move| if m.promo != 0 && m.flags & mflag::DROP == 0 { ev.value_of(m.promo) } else { 0 };
        let mut s = match t.only_move() {
            // One move (most turns): the same terms without walking the parts three times.
            Some(m) => {
                let taken =
                    if m.flags & (mflag::CAPTURE | mflag::EP) != 0 { capture_score(ev, pos, m, &mut owed) } else { 0 };
                taken + promoted(&m)
            }
            None => {
                capture_move(t).map_or(0, |m| capture_score(ev, pos, m, &mut owed))
                    + t.moves().map(|m| promoted(&m)).sum::<i32>()
                    + removed_enemy(ev, pos, t)
            }
        };
        if s == 0 {
            s = if k0.is(h, t) {
                KILLER + 1
            } else if k1.is(h, t) {
                KILLER
            } else if counter.is(h, t) {
                KILLER - 1
            } else {
                // Below the bad captures even at its bound.
                let key = if prior.iter().any(Option::is_some) { history.key(pos, t, false) } else { None };
                history.quiet(pos.side, t, key, prior).min(QUIET_BELOW - 1)
            };
        }
        judge.push(owed);
        s
    }));
}

/// A turn's first part in a word (kind, squares or piece), so that the table's, the killers' and
/// the counter turn are told from each turn scored by one comparison of words (comparing whole
/// turns, every part slot, for each of them was a twentieth of a chess search); equal words are
/// then compared as turns.
#[inline]
fn head(t: &Turn) -> u64 {
    t.parts().first().map_or(0, part_word)
}

/// One part in a word, exactly: a move's squares take 12 bits each (a board has at most 32 x 70
/// cells), so its promotion, flags, castling rule and gated piece fit too.
#[inline]
fn part_word(p: &TurnPart) -> u64 {
    let sq = |s: &crate::engine::board::Sq| s.idx() as u64;
    match p {
        TurnPart::Move(m) => {
            1 << 60
                | (m.gate as u64) << 48
                | (m.extra as u64) << 40
                | (m.flags as u64) << 32
                | (m.promo as u64) << 24
                | (sq(&m.to) & 0xfff) << 12
                | sq(&m.from) & 0xfff
        }
        TurnPart::Drop(code, at) => 2 << 60 | (*code as u64) << 32 | sq(at),
        TurnPart::Remove(at) => 3 << 60 | sq(at),
        TurnPart::Construct(at) => 4 << 60 | sq(at),
        TurnPart::Destroy(at) => 5 << 60 | sq(at),
        TurnPart::Discard(code) => 6 << 60 | *code as u64,
    }
}

/// A turn in a word, as the transposition table keeps it (0: no turn): its part's word when it
/// has one (exact), else a hash of its parts' words with the top bit set (a collision between
/// two turns of one position would only misorder them).
#[inline]
pub fn word(t: &Turn) -> u64 {
    word_from(head(t), t)
}

#[inline]
fn word_from(head: u64, t: &Turn) -> u64 {
    if t.parts().len() <= 1 {
        return head;
    }
    let h = t.parts().iter().fold(0u64, |h, p| (h ^ part_word(p)).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(31));
    h | 1 << 63
}

/// Whether `t`, with head word `h`, is the turn of word `w`, as `word(t) == w` would tell but
/// hashing the parts only of several-part turns when `w` is one's (a one-part word is its head;
/// a several-part word has bit 63 set): most turns are told apart from the table's turn by their
/// length and head alone.
#[inline]
fn is_word(w: u64, h: u64, t: &Turn) -> bool {
    if w >> 63 == 0 { t.parts().len() <= 1 && h == w } else { t.parts().len() > 1 && word_from(h, t) == w }
}

/// A turn to look for among those scored: its head word ([`head`]; none: `u64::MAX`, no turn's).
struct Sought(u64, Option<Turn>);

impl Sought {
    fn new(t: Option<Turn>) -> Sought {
        Sought(t.as_ref().map_or(u64::MAX, head), t)
    }

    /// `Some(*t) == self.1`, from `t`'s head word `h`.
    #[inline]
    fn is(&self, h: u64, t: &Turn) -> bool {
        self.0 == h && self.1.as_ref() == Some(t)
    }
}

/// A capture's ordering score: good captures first by most valuable victim, least valuable
/// attacker; one that gives a piece for a lesser one and loses material in the static exchange
/// (where it cannot be evaluated: on a square the opponent attacks) after the killers. That
/// exchange is judged only when the capture comes up to be tried ([`pick`]): until then it is
/// scored as a good one, and `owed` gets what it loses if it is not (most nodes are cut by
/// their first turn, and the exchanges were a tenth of a chess search).
#[inline]
fn capture_score(ev: &Evaluator, pos: &Position, m: Move, owed: &mut i32) -> i32 {
    let at = if m.flags & mflag::EP != 0 { pos.ep.victim } else { m.to };
    let victim = pos.cells[at.idx()];
    let royal = cell::is_piece(victim) && pos.is_royal_code(victim);
    let (gain, cost) = (ev.value_of(victim), ev.value_of(pos.cells[m.from.idx()]));
    let order = mvv_lva(ev, pos, m);
    if !royal && cost > gain {
        *owed = CAPTURE + order - (BAD_CAPTURE + order.clamp(0, BAD_CAPTURE / 2 - 1));
    }
    CAPTURE + order
}

/// Whether a capture [`capture_score`] left to judge loses material: a full static exchange
/// where the pieces allow, else one exchange.
fn loses(ev: &Evaluator, p: &Preset, pos: &Position, m: Move) -> bool {
    match ev.see(p, pos, m.from, m.to).filter(|_| m.flags & mflag::EP == 0) {
        Some(s) => s < 0,
        None => pos.attacked(p, m.to, pos.side.other()),
    }
}

#[inline]
fn mvv_lva(ev: &Evaluator, pos: &Position, m: Move) -> i32 {
    let at = if m.flags & mflag::EP != 0 { pos.ep.victim } else { m.to };
    let victim = pos.cells[at.idx()];
    let v = if cell::is_piece(victim) && pos.is_royal_code(victim) { ROYAL_VICTIM } else { ev.value_of(victim) };
    v * 16 - ev.value_of(pos.cells[m.from.idx()]) / 16
}

/// A part that removes an enemy piece (huffing, say) wins material like a capture.
#[inline]
fn removed_enemy(ev: &Evaluator, pos: &Position, t: &Turn) -> i32 {
    t.parts()
        .iter()
        .map(|p| match p {
            TurnPart::Remove(sq) if cell::is_side(pos.cells[sq.idx()], pos.side.other()) => {
                CAPTURE + ev.value_of(pos.cells[sq.idx()]) * 16
            }
            _ => 0,
        })
        .sum()
}

/// Move the best-scored turn from `i..` to `i` (a selection sort, one step per turn tried).
/// A capture still to be judged ([`capture_score`]) that comes out best is judged first, and
/// loses its place if it loses material: scored as a good capture until then (at least its
/// real score), it is picked exactly when every turn were judged beforehand would pick it, so
/// the order is the same.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn pick(
    ev: &Evaluator,
    p: &Preset,
    pos: &Position,
    turns: &mut [Turn],
    scores: &mut [i32],
    judge: &mut [i32],
    i: usize,
) {
    loop {
        // The best score so far kept apart (not read again from the slice at each step); the
        // first of equal scores wins.
        let (mut best, mut top) = (i, scores[i]);
        for (j, &s) in scores.iter().enumerate().skip(i + 1) {
            if s > top {
                (best, top) = (j, s);
            }
        }
        let owed = std::mem::take(&mut judge[best]);
        if owed != 0 {
            if capture_move(&turns[best]).is_some_and(|m| loses(ev, p, pos, m)) {
                scores[best] -= owed;
            }
            continue;
        }
        turns.swap(i, best);
        scores.swap(i, best);
        judge.swap(i, best);
        return;
    }
}

/// Whether an ordering score is a killer's or the counter turn's: quiet turns ordered early for
/// having refuted a sibling or the previous turn.
#[inline]
pub fn is_killer(score: i32) -> bool {
    (KILLER - 1..=KILLER + 1).contains(&score)
}

/// Remember a quiet turn that caused a cutoff at this ply.
pub fn add_killer(killers: &mut [Option<Turn>; 2], t: Turn) {
    if killers[0] != Some(t) {
        killers[1] = killers[0];
        killers[0] = Some(t);
    }
}
