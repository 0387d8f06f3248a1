//! The turn generator's memos: what a hook wrote and what a part's `from` gave, reused while what
//! the run read (the part's fields, the globals, the mover) is unchanged and it read nothing else
//! (see [`Reads`]). Universal's `on after move` after a quiet move, and its `reserve_drops()`
//! without a drop right, are the same run with the same effect after every move of every
//! position: with these they run once. A perft keeps one set for all its listings. A `from` that
//! depends on the board's shape and the mover alone (`Inert::from_shape`: Constructing's
//! `buildable()`) is kept by the shape itself, the holes, for the listings of other positions of
//! that shape.

use crate::engine::board::{Sq, cell};
use crate::engine::side::Side;
use crate::script::ir::Field;
use crate::script::ir::{Body, MAX_PARTS};
use crate::script::reads::{Few, Reads, untouched};
use crate::script::{PartVal, Value};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// Hook runs kept; a new one replaces the least reused.
const HOOKS: usize = 8;

/// Runs whose writes a [`Globals`] holds at most (a part's `validate`, `capture` and `after`).
const OVER: usize = 3;

/// Runs of one body found to read more than the part and the globals, after which it is run
/// without recording unless about one run in four could be kept.
const TRIES: u32 = 16;

/// A hook run: the hook, the mover, the part it ran on and the fields of it it read, the globals
/// it read (with their values) and what it left in the globals it wrote.
struct HookRun<'a> {
    body: &'a Body,
    mover: Side,
    /// The fields read, packed ([`packed`]) and masked (`exact`: the whole part was read).
    key: u128,
    mask: u128,
    exact: Option<PartVal>,
    reads: Few,
    writes: Few,
    /// Times reused: when the memo is full, the least reused run makes room.
    hits: std::cell::Cell<u32>,
    /// The steps it took, charged to the command whenever it is reused.
    steps: u64,
    /// The squares of a `follow` the part left alone: the run holds for a part that leaves them
    /// alone too, while they hold pieces (see [`untouched`]).
    untouched: Option<Arc<Vec<Value>>>,
}

/// A part's `from` for a mover: the globals it read and the candidates it gave.
struct FromRun {
    mover: Side,
    reads: Few,
    list: Arc<Vec<Value>>,
    steps: u64,
}

/// Shape-only `from` values kept at most, by a hash of the shape (all let go when full): a perft's
/// positions a few turns deep have a few hundred shapes, visited over and over.
const SHAPES: usize = 8192;

/// A shape-only `from` of part `part` for a mover on a board whose holes are `holes` (a bit per
/// square of the board, in order), with the steps it took.
struct ShapeRun {
    body: *const Body,
    part: usize,
    mover: Side,
    holes: Vec<u64>,
    list: Arc<Vec<Value>>,
    steps: u64,
}

/// How worthwhile recording a body's runs has been: runs that read too much, runs kept.
struct Worth {
    body: *const Body,
    outside: u32,
    kept: u32,
}

/// Boxed, and made when first needed: a listing that keeps nothing (one whose hooks all read the
/// board) moves and drops a pointer, not the memos.
#[derive(Default)]
pub struct Memos<'a>(Option<Box<Inner<'a>>>);

#[derive(Default)]
struct Inner<'a> {
    hooks: Vec<HookRun<'a>>,
    /// The run reused last, looked at first: the quiet moves of a position, one after another,
    /// reuse the same.
    last: std::cell::Cell<usize>,
    from: [Option<FromRun>; MAX_PARTS],
    worth: Vec<Worth>,
    /// What the run being recorded reads.
    reads: Reads,
    /// Shape-only `from` values by [`key`] (a later shape of the same key replaces one).
    shapes: HashMap<u64, ShapeRun, BuildHasherDefault<Hashed>>,
    /// The holes of the position last asked about, and their hash.
    holes: Vec<u64>,
    holes_hash: u64,
}

static NOTHING: Few = Few::EMPTY;

/// The globals as a run would find them: the position's, some of them written over by runs
/// not made (their memos stand in for them).
pub struct Globals<'v> {
    base: &'v [Value],
    over: [&'v Few; OVER],
    n: usize,
}

impl<'v> Globals<'v> {
    #[inline]
    pub fn of(base: &'v [Value]) -> Globals<'v> {
        Globals { base, over: [&NOTHING; OVER], n: 0 }
    }

    #[inline]
    fn get(&self, i: u16) -> &'v Value {
        for w in self.over[..self.n].iter().rev() {
            if let Some((_, v)) = w.items().iter().rev().find(|(j, _)| *j == i) {
                return v;
            }
        }
        &self.base[i as usize]
    }

    /// Write a run's globals over these; false when there is no room left.
    #[inline]
    pub fn write(&mut self, writes: &'v Few) -> bool {
        if writes.items().is_empty() {
            return true;
        }
        if self.n == OVER {
            return false;
        }
        self.over[self.n] = writes;
        self.n += 1;
        true
    }

    #[inline]
    fn hold(&self, reads: &Few) -> bool {
        reads.items().iter().all(|(i, v)| self.get(*i).same(v))
    }
}

impl<'a> Memos<'a> {
    /// What `body` run by `mover` on `part` with these globals writes, if a run like it is kept.
    #[inline]
    /// With the steps the run took (to be charged: see [`Reads::steps`]).
    /// `cells`: the board after the part.
    pub fn hook(
        &self,
        body: &Body,
        mover: Side,
        part: Option<&PartVal>,
        g: &Globals,
        cells: &[u8],
    ) -> Option<(&Few, u64)> {
        let (writes, _, steps) = self.0.as_ref()?.hook(body, mover, part, g, Some(cells))?;
        Some((writes, steps))
    }

    /// [`Memos::hook`], and whether the run found would fit every quiet move as well (one that
    /// takes nothing, promotes nothing and moves no rook: it read none of the fields in which
    /// those differ).
    #[inline]
    /// `cells`: the board before the part, when it is as good as the board after it for the
    /// squares the part leaves alone (see [`untouched`]); `None`: runs that depend on those are
    /// not looked at.
    pub fn hook_quiet(
        &self,
        body: &Body,
        mover: Side,
        part: &PartVal,
        g: &Globals,
        cells: Option<&[u8]>,
    ) -> Option<(&Few, bool, u64)> {
        self.0.as_ref()?.hook(body, mover, Some(part), g, cells)
    }

    /// Whether runs of `body` are still worth recording.
    pub fn worth(&self, body: &Body) -> bool {
        self.0.as_ref().is_none_or(|m| m.worth(body))
    }

    /// Where a run to be kept records what it reads.
    pub fn reads(&mut self) -> &mut Reads {
        &mut self.0.get_or_insert_default().reads
    }

    /// Keep the run just recorded in [`Memos::reads`], of `body` by `mover` on `part`, which did
    /// not refuse (`state`: the globals after it), if it read and did nothing else.
    pub fn keep_hook(&mut self, body: &'a Body, mover: Side, part: Option<PartVal>, state: &[Value]) {
        self.0.get_or_insert_default().keep_hook(body, mover, part, state)
    }

    /// Part `i`'s `from` for `mover` with these globals, if a run like it is kept.
    #[inline]
    /// With the steps the run took (to be charged: see [`Reads::steps`]).
    pub fn from(&self, i: usize, mover: Side, g: &Globals) -> Option<(&Arc<Vec<Value>>, u64)> {
        let r = self.0.as_ref()?.from(i, mover, g)?;
        Some((&r.list, r.steps))
    }

    /// [`Memos::from`], with the globals it read (a bit each).
    pub fn from_read(&self, i: usize, mover: Side, g: &Globals) -> Option<(&Arc<Vec<Value>>, u64, u64)> {
        let r = self.0.as_ref()?.from(i, mover, g)?;
        Some((&r.list, r.reads.mask(), r.steps))
    }

    /// Keep part `i`'s (`body`'s) `from` for `mover`, just recorded in [`Memos::reads`], if it
    /// read nothing but globals and wrote none; the list back, shared when kept.
    pub fn keep_from(
        &mut self,
        body: &Body,
        i: usize,
        mover: Side,
        list: Vec<Value>,
    ) -> Result<Arc<Vec<Value>>, Vec<Value>> {
        self.0.get_or_insert_default().keep_from(body, i, mover, list)
    }
}

impl Memos<'_> {
    /// Part `i`'s (`body`'s) `from`, which depends on the board's shape and the mover alone, for
    /// `mover` on this board (`squares`: the board's, in order), if it was kept for this shape;
    /// with the steps it took. Remembers the shape for [`Memos::keep_shaped`].
    pub fn shaped(
        &mut self,
        body: &Body,
        i: usize,
        mover: Side,
        cells: &[u8],
        squares: &[Sq],
    ) -> Option<(Arc<Vec<Value>>, u64)> {
        let m = self.0.get_or_insert_default();
        m.shape(cells, squares);
        let r = m.shapes.get(&key(m.holes_hash, i, mover))?;
        (std::ptr::eq(r.body, body) && r.part == i && r.mover == mover && r.holes == m.holes)
            .then(|| (r.list.clone(), r.steps))
    }

    /// Keep part `i`'s shape-only `from` for `mover` on the board [`Memos::shaped`] last looked at.
    pub fn keep_shaped(&mut self, body: &Body, i: usize, mover: Side, list: Arc<Vec<Value>>, steps: u64) {
        let m = self.0.get_or_insert_default();
        if m.shapes.len() >= SHAPES {
            m.shapes.clear();
        }
        let holes = m.holes.clone();
        let run = ShapeRun { body, part: i, mover, holes, list, steps };
        m.shapes.insert(key(m.holes_hash, i, mover), run);
    }
}

/// The key of part `i`'s shape-only `from` for `mover` on a shape of this hash.
#[inline]
fn key(hash: u64, i: usize, mover: Side) -> u64 {
    hash ^ (i as u64) << 1 ^ mover as u64
}

/// The keys are hashes already: used as they are.
#[derive(Default)]
struct Hashed(u64);

impl Hasher for Hashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl<'a> Inner<'a> {
    /// Set `holes` (and its hash) to the holes among `squares`.
    fn shape(&mut self, cells: &[u8], squares: &[Sq]) {
        self.holes.clear();
        self.holes.resize(squares.len().div_ceil(64), 0);
        for (w, chunk) in self.holes.iter_mut().zip(squares.chunks(64)) {
            for (b, s) in chunk.iter().enumerate() {
                *w |= u64::from(cells[s.idx()] == cell::HOLE) << b;
            }
        }
        self.holes_hash =
            self.holes.iter().fold(0u64, |h, &w| (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29));
        self.holes_hash ^= self.holes_hash >> 32;
    }

    fn hook(
        &self,
        body: &Body,
        mover: Side,
        part: Option<&PartVal>,
        g: &Globals,
        cells: Option<&[u8]>,
    ) -> Option<(&Few, bool, u64)> {
        let key = part.map_or(0, packed);
        let fits = |r: &HookRun| {
            std::ptr::eq(r.body, body)
                && r.mover == mover
                && (key ^ r.key) & r.mask == 0
                && r.exact.is_none_or(|p| part == Some(&p))
                && g.hold(&r.reads)
                && r.untouched.as_ref().is_none_or(|list| {
                    list.is_empty() || matches!((part, cells), (Some(p), Some(c)) if untouched(p, list, c))
                })
        };
        let last = self.last.get();
        let at = match self.hooks.get(last) {
            Some(r) if fits(r) => last,
            _ => self.hooks.iter().position(fits)?,
        };
        self.last.set(at);
        let r = &self.hooks[at];
        r.hits.set(r.hits.get().saturating_add(1));
        let uniform = r.exact.is_none() && r.mask & MOVED == 0 && r.untouched.as_ref().is_none_or(|l| l.is_empty());
        Some((&r.writes, uniform, r.steps))
    }

    fn worth(&self, body: &Body) -> bool {
        self.worth
            .iter()
            .find(|w| std::ptr::eq(w.body, body))
            .is_none_or(|w| w.outside < TRIES || w.kept.saturating_mul(4) >= w.outside)
    }

    /// Count a run of `body` kept (`true`) or found to read too much.
    fn tally(&mut self, body: &Body, kept: bool) {
        let at = match self.worth.iter().position(|w| std::ptr::eq(w.body, body)) {
            Some(at) => at,
            None => {
                self.worth.push(Worth { body, outside: 0, kept: 0 });
                self.worth.len() - 1
            }
        };
        let w = &mut self.worth[at];
        if kept {
            w.kept = w.kept.saturating_add(1);
        } else {
            w.outside = w.outside.saturating_add(1);
        }
    }

    fn keep_hook(&mut self, body: &'a Body, mover: Side, part: Option<PartVal>, state: &[Value]) {
        if self.reads.outside {
            self.tally(body, false);
            return;
        }
        let mut writes = Few::default();
        let mut bits = self.reads.written;
        while bits != 0 {
            let i = bits.trailing_zeros() as u16;
            bits &= bits - 1;
            if !writes.push(i, state[i as usize].clone()) {
                return;
            }
        }
        self.tally(body, true);
        let reads = self.reads.globals.clone();
        let hits = std::cell::Cell::new(0);
        let fields = self.reads.fields;
        if fields != 0 && part.is_none() {
            return;
        }
        let (mask, exact) = match packed_mask(fields) {
            Some(mask) => (mask, None),
            None => (0, part),
        };
        let key = part.map_or(0, |p| packed(&p)) & mask;
        let steps = self.reads.steps;
        let untouched = self.reads.untouched.take();
        if untouched.is_some() && part.is_none() {
            return;
        }
        let run = HookRun { body, mover, key, mask, exact, reads, writes, hits, steps, untouched };
        if self.hooks.len() < HOOKS {
            self.hooks.push(run);
        } else if let Some(least) = self.hooks.iter_mut().min_by_key(|r| r.hits.get()) {
            *least = run;
        }
    }

    fn from(&self, i: usize, mover: Side, g: &Globals) -> Option<&FromRun> {
        match self.from.get(i) {
            Some(Some(r)) if r.mover == mover && g.hold(&r.reads) => Some(r),
            _ => None,
        }
    }

    fn keep_from(
        &mut self,
        body: &Body,
        i: usize,
        mover: Side,
        list: Vec<Value>,
    ) -> Result<Arc<Vec<Value>>, Vec<Value>> {
        let kept = !self.reads.outside && self.reads.written == 0 && i < MAX_PARTS;
        self.tally(body, kept);
        if !kept {
            return Err(list);
        }
        let list = Arc::new(list);
        let steps = self.reads.steps;
        self.from[i] = Some(FromRun { mover, reads: self.reads.globals.clone(), list: list.clone(), steps });
        Ok(list)
    }
}

/// The bits of [`packed`] in which quiet moves differ: their squares and piece.
const MOVED: u128 = 0xFFFF | 0xFFFF << 16 | 0xFF << 48;

/// A part's fields that a hook may read one by one, packed: squares in 16 bits, pieces and the
/// kind in 8, whether it captures in 1.
#[inline]
pub(crate) fn packed(p: &PartVal) -> u128 {
    p.from.idx() as u128
        | (p.to.idx() as u128) << 16
        | (p.captured_on.idx() as u128) << 32
        | (p.piece as u128) << 48
        | (p.captured as u128) << 56
        | (p.promo as u128) << 64
        | (p.kind as u128) << 72
        | ((p.captured != 0) as u128) << 80
}

/// The bits of [`packed`] that hold the fields of `fields` (a bit per [`Field`]); `None` when
/// another field (or the whole part) was read.
pub(crate) fn packed_mask(fields: u32) -> Option<u128> {
    let places = [
        (Field::From, 0xFFFFu128),
        (Field::To, 0xFFFF << 16),
        (Field::CapturedOn, 0xFFFF << 32),
        (Field::Piece, 0xFF << 48),
        (Field::Captured, 0xFF << 56),
        (Field::Promo, 0xFF << 64),
        (Field::Kind, 0xFF << 72),
        (Field::IsCapture, 1 << 80),
    ];
    let mut left = fields;
    let mut mask = 0;
    for (f, bits) in places {
        if fields & (1 << f as u32) != 0 {
            mask |= bits;
            left &= !(1 << f as u32);
        }
    }
    (left == 0).then_some(mask)
}
