//! The turn generator's memos: what a hook wrote and what a part's `from` gave, reused while what
//! the run read (the part's fields, the globals, the mover) is unchanged and it read nothing else
//! (see [`Reads`]). Universal's `on after move` after a quiet move, and its `reserve_drops()`
//! without a drop right, are the same run with the same effect after every move of every
//! position: with these they run once. A perft keeps one set for all its listings. A `from` that
//! depends on the board's shape and the mover alone (`Inert::from_shape`: Constructing's
//! `buildable()`) is kept by the shape itself, the holes, for the listings of other positions of
//! that shape.

use crate::engine::GameOver;
use crate::engine::board::{Sq, cell};
use crate::engine::position::Position;
use crate::engine::side::Side;
use crate::preset::Preset;
use crate::script::ir::Field;
use crate::script::ir::{Body, MAX_PARTS};
use crate::script::reads::{FEW, Few, Reads, untouched};
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
    /// What stood on the part's `to` when the run read that square (see [`Reads::to`]).
    at_to: Option<u8>,
    /// Times reused: when the memo is full, the least reused run makes room.
    hits: std::cell::Cell<u32>,
    /// The steps it took, charged to the command whenever it is reused.
    steps: u64,
    /// The squares of a `follow` the part left alone: the run holds for a part that leaves them
    /// alone too, while they hold pieces (see [`untouched`]).
    untouched: Option<Arc<Vec<Value>>>,
    /// The sides whose check it asked (see [`Reads::checks`]), and which of them were in check:
    /// it holds on a board where those are the same.
    checks: u8,
    checked: u8,
}

impl HookRun<'_> {
    /// Whether the run holds for `part` (whose fields it read match already) here: the whole
    /// part if it read that, what stands on its `to`, the globals, the squares a `follow` left
    /// alone and the checks it asked.
    fn holds(
        &self,
        part: Option<&PartVal>,
        at_to: Option<u8>,
        g: &Globals,
        cells: Option<&[u8]>,
        checks: Option<&Checks>,
    ) -> bool {
        self.exact.is_none_or(|p| part == Some(&p))
            && self.at_to.is_none_or(|t| at_to == Some(t))
            && g.hold(&self.reads)
            && self.untouched.as_ref().is_none_or(|list| {
                list.is_empty() || matches!((part, cells), (Some(p), Some(c)) if untouched(p, list, c))
            })
            && (self.checks == 0 || checks.is_some_and(|c| c.of(self.checks) == self.checked))
    }
}

/// Which sides are in check on the board a hook would run on, each asked of the position at most
/// once and only when a kept run depends on it: a run that asked `in_check` (Maidens' `on
/// turn_start` and `on validate remove`) is reused for the price of the check itself.
pub struct Checks<'p> {
    pos: &'p Position,
    preset: &'p Preset,
    known: std::cell::Cell<u8>,
    values: std::cell::Cell<u8>,
}

impl<'p> Checks<'p> {
    pub fn new(pos: &'p Position, preset: &'p Preset) -> Checks<'p> {
        Checks { pos, preset, known: Default::default(), values: Default::default() }
    }

    /// Of the sides in `mask` (a bit each), those in check.
    fn of(&self, mask: u8) -> u8 {
        let missing = mask & !self.known.get();
        if missing != 0 {
            let mut v = self.values.get();
            for side in Side::BOTH {
                let bit = 1u8 << side as u8;
                if missing & bit != 0 && self.pos.in_check(self.preset, side) {
                    v |= bit;
                }
            }
            self.values.set(v);
            self.known.set(self.known.get() | missing);
        }
        self.values.get() & mask
    }
}

/// A part's `from` for a mover: the globals it read and the candidates it gave; and what stood
/// in the cells it read one by one and in the hands it read (see [`Reads::cells`]).
struct FromRun {
    mover: Side,
    reads: Few,
    /// Whether it read cells or hands (`cells`, `hands`).
    board: bool,
    cells: Vec<(Sq, u8)>,
    hands: Vec<(Side, Vec<u8>)>,
    list: Arc<Vec<Value>>,
    steps: u64,
}

impl FromRun {
    /// Whether the run holds for `mover` with these globals, on `board` when it read the board
    /// (`None`: a run that did is not looked at).
    #[inline]
    fn holds(&self, mover: Side, g: &Globals, board: Option<&Position>) -> bool {
        self.mover == mover && g.hold(&self.reads) && (!self.board || board.is_some_and(|pos| self.holds_on(pos)))
    }

    /// Whether the cells and hands it read are as they were on `pos`.
    #[inline(never)]
    fn holds_on(&self, pos: &Position) -> bool {
        self.cells.iter().all(|&(s, c)| pos.cells.get(s.idx()) == Some(&c))
            && self.hands.iter().all(|(side, h)| pos.hands[*side] == *h)
    }
}

/// `from` runs kept per part: for each mover, with a drop right and without (Universal's).
const FROMS: usize = 4;

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

/// Runs kept by key at most (all let go when full): runs that read a part's squares or piece
/// differ from move to move (Universal's `on after move` after each capture), too many for the
/// few of [`HOOKS`], but each recurs in many positions of a perft.
const KEYED: usize = 1 << 16;

/// Classes of keyed runs at most (see [`Class`]).
const CLASSES: usize = 32;

/// Slots of [`Inner::front`].
const FRONT: usize = 1 << 12;

/// Slots of [`Inner::parts`].
const PARTS: usize = 1 << 12;

/// Runs recorded before the tables for many probes ([`Inner::front`], [`Inner::parts`]) are made:
/// the memos of one listing alone (a search's) record few, and would not pay for them.
const BIG: u32 = 256;

/// The hooks of one part (its `validate`, `capture` and `after`) run one after another, as one
/// (see [`Memos::part_hooks`]): by `mover` on `part` with `at_to` on its `to`, the globals they
/// read before any of them wrote them (with their values), what they left in the globals they
/// wrote, whether each run fits every quiet move, and the steps they took. Kept runs all: they
/// read nothing else, so the same inputs give the same.
struct PartRun {
    tag: u64,
    bodies: [*const Body; OVER],
    mover: Side,
    /// The part, packed ([`packed`]), and its rook (which that leaves out).
    key: u128,
    rook: Option<(Sq, Sq)>,
    at_to: Option<u8>,
    reads: Few,
    writes: Few,
    /// The globals written, a bit each.
    written: u64,
    uniform: bool,
    steps: u64,
}

/// A [`PartRun`] made by [`Memos::part_hooks`], to be kept ([`Memos::keep_part`]).
pub struct Kept(Box<PartRun>);

/// What the hooks of a part do, as kept runs tell ([`Memos::part_hooks`]).
pub struct PartHooks<'m> {
    /// The globals after them.
    pub globals: Globals<'m>,
    /// The globals they wrote, a bit each.
    pub written: u64,
    /// Whether each run would fit every quiet move as well (see [`Memos::part_hooks`]).
    pub uniform: bool,
    /// The steps they took.
    pub steps: u64,
    /// Their runs as one, when not kept as one already.
    pub keep: Option<Kept>,
}

impl<'m> PartHooks<'m> {
    /// What a part without hooks does: nothing.
    #[inline]
    pub fn none(base: &'m [Value]) -> PartHooks<'m> {
        PartHooks { globals: Globals::of(base), written: 0, uniform: true, steps: 0, keep: None }
    }
}

/// Where the run found last for one exact probe (a hash of the body, the mover, the whole part
/// and what stands on its `to`) was kept: an index into [`Inner::hooks`], or a key of
/// [`Inner::keyed`]. Only a hint: what is found there is checked as any run is.
#[derive(Clone, Copy, Default)]
struct Front {
    tag: u64,
    /// The index into the few, or `u32::MAX`: kept by key `h`.
    at: u32,
    h: u64,
}

/// What the key of a run kept by key is made of: the runs of one body by one mover that read the
/// same fields of the part, the same globals, and the part's `to` square or not.
struct Class {
    body: *const Body,
    mover: Side,
    mask: u128,
    globals: [u16; FEW],
    n: usize,
    at_to: bool,
}

/// How worthwhile recording a body's runs has been: runs that read too much, runs kept.
struct Worth {
    body: *const Body,
    outside: u32,
    kept: u32,
}

/// `on game_end` verdicts kept at most, a slot per hash of their key (a new one replaces the one
/// in its slot): a perft meets few sets of piece counts, over and over.
const ENDS: usize = 1024;

/// An `on game_end` run that read nothing of the position but the piece counts (see
/// [`Reads::material`]): its verdict holds for the same side to move, the same counts of every
/// piece code on the board, and the globals it read as they were.
struct EndRun {
    body: *const Body,
    side: Side,
    counts: [u16; 128],
    reads: Few,
    verdict: Option<GameOver>,
    steps: u64,
}

/// Guard values kept; a new one replaces the oldest.
const GUARDS: usize = 4;

/// A [`FromSet::empty_when`] value (`body`): of part `part` for `mover` at full move `fullmove`,
/// with `n` parts played so far whose read fields packed ([`packed`]) are `key`; with the steps
/// its run took. It reads nothing else ([`FromSet::turn_fields`]), so it holds in every listing
/// of a perft's last ply: Ruddigore's curse, once for the moves that capture and once for the
/// others.
///
/// [`FromSet::empty_when`]: crate::script::ir::FromSet::empty_when
/// [`FromSet::turn_fields`]: crate::script::ir::FromSet::turn_fields
#[derive(Clone, Copy)]
struct Guard {
    body: *const Body,
    at: (usize, Side, u32),
    n: usize,
    key: [u128; MAX_PARTS],
    empty: bool,
    steps: u64,
}

/// Boxed, and made when first needed: a listing that keeps nothing (one whose hooks all read the
/// board) moves and drops a pointer, not the memos.
#[derive(Default)]
pub struct Memos<'a>(Option<Box<Inner<'a>>>);

#[derive(Default)]
struct Inner<'a> {
    hooks: Vec<HookRun<'a>>,
    /// Runs kept by key: their [`Class`] (an index into `classes`) and its inputs' values hashed.
    keyed: HashMap<u64, HookRun<'a>, BuildHasherDefault<Hashed>>,
    classes: Vec<Class>,
    /// Per class, the values of its globals last probed with and their hash ([`globals_hash`]):
    /// the candidates of a listing probe with the same globals, mostly shared collections
    /// (Universal's `rights`), compared by pointer far cheaper than hashed through.
    hashed: std::cell::RefCell<Vec<(Few, u64)>>,
    /// The run reused last, looked at first: the quiet moves of a position, one after another,
    /// reuse the same.
    last: std::cell::Cell<usize>,
    /// Per slot of an exact probe's hash, where its run was found last (empty until a run is
    /// kept): the captures of a perft's last ply recur from listing to listing, each found there
    /// at once instead of after the few and a probe per class of keyed runs.
    front: Vec<std::cell::Cell<Front>>,
    /// The hooks of a part as one, by [`parts_tag`] (empty until [`BIG`] runs were recorded): a
    /// perft's last ply judges the same captures from listing to listing.
    parts: Vec<Option<Box<PartRun>>>,
    /// Runs recorded so far, up to [`BIG`].
    recorded: u32,
    /// Per part, its `from` runs kept, the slot the next replaces and the slot found last.
    from: [([Option<FromRun>; FROMS], usize, std::cell::Cell<usize>); MAX_PARTS],
    worth: Vec<Worth>,
    /// What the run being recorded reads.
    reads: Reads,
    /// Shape-only `from` values by [`key`] (a later shape of the same key replaces one).
    shapes: HashMap<u64, ShapeRun, BuildHasherDefault<Hashed>>,
    /// The holes of the position last asked about, and their hash.
    holes: Vec<u64>,
    holes_hash: u64,
    guards: [Option<Guard>; GUARDS],
    /// `on game_end` verdicts by [`end_slot`] (empty until one is kept).
    ends: Vec<Option<EndRun>>,
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

    /// Global `i` as a run would find it.
    #[inline]
    pub fn get(&self, i: u16) -> &'v Value {
        for w in self.over[..self.n].iter().rev() {
            if let Some((_, v)) = w.items().iter().rev().find(|(j, _)| *j == i) {
                return v;
            }
        }
        &self.base[i as usize]
    }

    /// Write a run's globals over these; false when there is no room left.
    #[inline(always)]
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

    #[inline(always)]
    fn hold(&self, reads: &Few) -> bool {
        // A loop, not `all`: the compiler kept that out of line, a call per run looked at.
        for (i, v) in reads.items() {
            // Nothing written over (a listing's hooks, mostly): the position's own.
            let now = if self.n == 0 { &self.base[*i as usize] } else { self.get(*i) };
            if !now.same(v) {
                return false;
            }
        }
        true
    }
}

impl<'a> Memos<'a> {
    /// What `body` run by `mover` on `part` with these globals writes, if a run like it is kept;
    /// `at_to`: what stands on the part's `to` (see [`content`]), `None` when not known.
    /// With the steps the run took (to be charged: see [`Reads::steps`]).
    /// `cells`: the board after the part; `checks`: its checks. `hint`: where the caller found
    /// this body's run last (looked at first, then set): a listing's candidates, one after
    /// another, mostly reuse one run, while the listings below them find others in between.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn hook(
        &self,
        body: &Body,
        mover: Side,
        part: Option<&PartVal>,
        at_to: Option<u8>,
        g: &Globals,
        cells: &[u8],
        checks: &Checks,
        hint: &mut usize,
    ) -> Option<(&Few, u64)> {
        let m = self.0.as_ref()?;
        let (r, _) = m.hook_from(*hint, body, mover, part, at_to, g, Some(cells), Some(checks))?;
        *hint = m.last.get();
        Some((&r.writes, r.steps))
    }

    /// What the hooks `bodies` (the `validate`, `capture` and `after` of `part`'s kind, those it
    /// has, one at least: else see [`PartHooks::none`]) by `mover` do on `part`, one after another, each over the globals the ones before
    /// left, if runs like theirs are kept; `at_to`: what will stand on its `to`, `base`: the
    /// globals before. `uniform`: each run found would fit every quiet move as well (one that
    /// takes nothing, promotes nothing and moves no rook: it read none of the fields in which
    /// those differ).
    /// `cells`: the board before the part, when it is as good as the board after it for the
    /// squares the part leaves alone (see [`untouched`]); `None`: runs that depend on those are
    /// not looked at. Nor are runs that asked for a check (the board after the part is not there).
    /// Looked up as one first (see [`PartRun`]); found one by one, they come with their runs as
    /// one, to keep.
    pub fn part_hooks<'m>(
        &'m self,
        bodies: &[Option<&Body>; OVER],
        mover: Side,
        part: &PartVal,
        at_to: Option<u8>,
        base: &'m [Value],
        cells: Option<&[u8]>,
    ) -> Option<PartHooks<'m>> {
        let mut out = PartHooks::none(base);
        let m = self.0.as_ref()?;
        let ptrs = bodies.map(|b| b.map_or(std::ptr::null(), |b| b as *const Body));
        let key = packed(part);
        let tag = parts_tag(&ptrs, mover, key, at_to);
        if let Some(Some(r)) = m.parts.get(tag as usize % PARTS)
            && r.tag == tag
            && r.key == key
            && r.rook == part.rook
            && r.at_to == at_to
            && r.mover == mover
            && r.bodies == ptrs
            && out.globals.hold(&r.reads)
        {
            out.globals.write(&r.writes);
            out.written = r.written;
            out.uniform = r.uniform;
            out.steps = r.steps;
            return Some(out);
        }
        // One by one: the globals each read that none before it wrote are the runs' inputs.
        let (mut reads, mut writes, mut whole) = (Few::default(), Few::default(), !m.parts.is_empty());
        for body in bodies.iter().flatten() {
            let (r, same) = m.hook_from(m.last.get(), body, mover, Some(part), at_to, &out.globals, cells, None)?;
            if !out.globals.write(&r.writes) {
                return None;
            }
            out.written |= r.writes.mask();
            out.uniform &= same;
            out.steps += r.steps;
            if whole {
                whole = r.untouched.as_ref().is_none_or(|l| l.is_empty())
                    && r.reads.items().iter().all(|(i, v)| {
                        let known = |f: &Few| f.items().iter().any(|(j, _)| j == i);
                        known(&writes) || known(&reads) || reads.push(*i, v.clone())
                    })
                    && r.writes.items().iter().all(|(i, v)| writes.set(*i, v.clone()));
            }
        }
        if whole {
            let (rook, written, uniform, steps) = (part.rook, out.written, out.uniform, out.steps);
            let run = PartRun { tag, bodies: ptrs, mover, key, rook, at_to, reads, writes, written, uniform, steps };
            out.keep = Some(Kept(Box::new(run)));
        }
        Some(out)
    }

    /// Keep the hooks of a part as one (see [`Memos::part_hooks`]).
    pub fn keep_part(&mut self, kept: Kept) {
        if let Some(m) = self.0.as_mut() {
            let slot = kept.0.tag as usize % PARTS;
            if let Some(s) = m.parts.get_mut(slot) {
                *s = Some(kept.0);
            }
        }
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
    /// not refuse (`state`: the globals after it), if it read and did nothing else. `at_to`: what
    /// stands on the part's `to` (see [`content`]); `checks`: the checks of the board it ran on.
    pub fn keep_hook(
        &mut self,
        body: &'a Body,
        mover: Side,
        part: Option<PartVal>,
        at_to: Option<u8>,
        state: &[Value],
        checks: &Checks,
    ) {
        self.0.get_or_insert_default().keep_hook(body, mover, part, at_to, state, checks)
    }

    /// Part `i`'s `from` for `mover` with these globals, if a run like it is kept; `board`: the
    /// position it would run on, `None` when it is not there (then a run that read the board is
    /// not looked at). With the steps the run took (to be charged: see [`Reads::steps`]).
    #[inline]
    pub fn from(
        &self,
        i: usize,
        mover: Side,
        g: &Globals,
        board: Option<&Position>,
    ) -> Option<(&Arc<Vec<Value>>, u64)> {
        let r = self.0.as_ref()?.from(i, mover, g, board)?;
        Some((&r.list, r.steps))
    }

    /// [`Memos::from`], with the globals it read (a bit each).
    pub fn from_read(
        &self,
        i: usize,
        mover: Side,
        g: &Globals,
        board: Option<&Position>,
    ) -> Option<(&Arc<Vec<Value>>, u64, u64)> {
        let r = self.0.as_ref()?.from(i, mover, g, board)?;
        Some((&r.list, r.reads.mask(), r.steps))
    }

    /// Keep part `i`'s (`body`'s) `from` for `mover`, just recorded in [`Memos::reads`] on
    /// `pos`, if it read nothing but globals, cells one by one and hands, and wrote none; the list
    /// back, shared when kept.
    pub fn keep_from(
        &mut self,
        body: &Body,
        i: usize,
        mover: Side,
        list: Vec<Value>,
        pos: &Position,
    ) -> Result<Arc<Vec<Value>>, Vec<Value>> {
        self.0.get_or_insert_default().keep_from(body, i, mover, list, pos)
    }
}

impl Memos<'_> {
    /// A guard's value (see [`Guard`]) for part `at.0`, mover `at.1` at full move `at.2`, with `n`
    /// parts played whose read fields are `key`, if kept; with the steps its run took.
    #[inline]
    pub fn guard(&self, body: &Body, at: (usize, Side, u32), n: usize, key: &[u128; MAX_PARTS]) -> Option<(bool, u64)> {
        let m = self.0.as_ref()?;
        let fits = |g: &&Guard| g.at == at && g.n == n && g.key == *key && std::ptr::eq(g.body, body);
        let g = m.guards.iter().flatten().find(fits)?;
        Some((g.empty, g.steps))
    }

    /// Keep a guard's value (see [`Memos::guard`]).
    pub fn keep_guard(
        &mut self,
        body: &Body,
        at: (usize, Side, u32),
        n: usize,
        key: [u128; MAX_PARTS],
        empty: bool,
        steps: u64,
    ) {
        let m = self.0.get_or_insert_default();
        m.guards.rotate_right(1);
        m.guards[0] = Some(Guard { body, at, n, key, empty, steps });
    }

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

impl Memos<'_> {
    /// The `on game_end` verdict (`body`) for the side to move on this board, if a run that read
    /// only the piece counts and globals that are as they were is kept; with the steps it took.
    #[inline]
    pub fn game_end(&self, body: &Body, pos: &Position) -> Option<(Option<GameOver>, u64)> {
        let m = self.0.as_ref()?;
        if m.ends.is_empty() {
            return None;
        }
        let r = m.ends[end_slot(pos.side, &pos.counts)].as_ref()?;
        let fits = std::ptr::eq(r.body, body)
            && r.side == pos.side
            && r.counts == pos.counts
            && Globals::of(&pos.state).hold(&r.reads);
        fits.then(|| (r.verdict.clone(), r.steps))
    }

    /// Keep the `on game_end` run (`body`) just recorded in [`Memos::reads`], which gave
    /// `verdict` on this board, if it read nothing but the piece counts and the globals.
    pub fn keep_game_end(&mut self, body: &Body, pos: &Position, verdict: &Option<GameOver>) {
        let m = self.0.get_or_insert_default();
        let kept = m.reads.material_only();
        m.tally(body, kept);
        if !kept {
            return;
        }
        if m.ends.is_empty() {
            m.ends.resize_with(ENDS, || None);
        }
        let run = EndRun {
            body,
            side: pos.side,
            counts: pos.counts,
            reads: m.reads.globals.clone(),
            verdict: verdict.clone(),
            steps: m.reads.steps,
        };
        m.ends[end_slot(pos.side, &pos.counts)] = Some(run);
    }
}

/// The slot of an `on game_end` verdict for `side` to move with these piece counts.
#[inline]
fn end_slot(side: Side, counts: &[u16; 128]) -> usize {
    let mut h = Mix(side as u64);
    for w in counts.chunks_exact(4) {
        h.add(u64::from(w[0]) | u64::from(w[1]) << 16 | u64::from(w[2]) << 32 | u64::from(w[3]) << 48);
    }
    h.finish() as usize % ENDS
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

    /// The kept run of `body` by `mover` on `part` that holds here, looking at run `last` first
    /// (see [`Memos::hook`]); with whether it fits every quiet move, and its steps.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn hook_from(
        &self,
        last: usize,
        body: &Body,
        mover: Side,
        part: Option<&PartVal>,
        at_to: Option<u8>,
        g: &Globals,
        cells: Option<&[u8]>,
        checks: Option<&Checks>,
    ) -> Option<(&HookRun<'a>, bool)> {
        let key = part.map_or(0, packed);
        // The body, the mover and the fields read first, inline: most runs looked at are
        // another hook's or another part's; the rest out of line.
        let near = |r: &HookRun| std::ptr::eq(r.body, body) && r.mover == mover && (key ^ r.key) & r.mask == 0;
        let fits = |r: &HookRun| near(r) && r.holds(part, at_to, g, cells, checks);
        if let Some(r) = self.hooks.get(last)
            && fits(r)
        {
            return Some(self.found(last));
        }
        let tag = front_tag(body, mover, key, at_to);
        let slot = self.front.get(tag as usize % FRONT.max(1));
        if let Some(f) = slot.map(std::cell::Cell::get)
            && f.tag == tag
        {
            if f.at != u32::MAX {
                if let Some(r) = self.hooks.get(f.at as usize)
                    && fits(r)
                {
                    return Some(self.found(f.at as usize));
                }
            } else if let Some(r) = self.keyed.get(&f.h)
                && keyed_fits(r, body, mover, key, at_to, g)
            {
                r.hits.set(r.hits.get().saturating_add(1));
                return Some((r, false));
            }
        }
        match self.hooks.iter().position(fits) {
            Some(at) => {
                slot.inspect(|s| s.set(Front { tag, at: at as u32, h: 0 }));
                Some(self.found(at))
            }
            None => {
                let (r, h) = self.keyed_hook(body, mover, key, at_to, g)?;
                slot.inspect(|s| s.set(Front { tag, at: u32::MAX, h }));
                Some((r, false))
            }
        }
    }

    /// The run of the few at `at`, found to hold: looked at first next time, and counted.
    #[inline]
    fn found(&self, at: usize) -> (&HookRun<'a>, bool) {
        self.last.set(at);
        let r = &self.hooks[at];
        r.hits.set(r.hits.get().saturating_add(1));
        let uniform = r.exact.is_none()
            && r.checks == 0
            && r.mask & MOVED == 0
            && r.at_to.is_none()
            && r.untouched.as_ref().is_none_or(|l| l.is_empty());
        (r, uniform)
    }

    /// [`Inner::hook_from`] among the runs kept by key: one probe per class of the body's runs.
    fn keyed_hook(
        &self,
        body: &Body,
        mover: Side,
        key: u128,
        at_to: Option<u8>,
        g: &Globals,
    ) -> Option<(&HookRun<'a>, u64)> {
        if self.keyed.is_empty() {
            return None;
        }
        for (i, c) in self.classes.iter().enumerate() {
            if !std::ptr::eq(c.body, body) || c.mover != mover {
                continue;
            }
            let t = match (c.at_to, at_to) {
                (false, _) => None,
                (true, Some(t)) => Some(t),
                (true, None) => continue,
            };
            let h = keyed_hash(i, key & c.mask, t, self.probe_hash(i, c, g));
            if let Some(r) = self.keyed.get(&h)
                && r.mask == c.mask
                && keyed_fits(r, body, mover, key, at_to, g)
            {
                r.hits.set(r.hits.get().saturating_add(1));
                return Some((r, h));
            }
        }
        None
    }

    /// The hash of class `i`'s (`c`'s) globals as `g` has them, reused while they are the same.
    #[inline]
    fn probe_hash(&self, i: usize, c: &Class, g: &Globals) -> u64 {
        let mut cache = self.hashed.borrow_mut();
        let (few, h) = &mut cache[i];
        let items = few.items();
        let fresh = items.len() == c.n && c.globals[..c.n].iter().zip(items).all(|(&j, (_, v))| g.get(j).same(v));
        if !fresh {
            *few = Few::default();
            for &j in &c.globals[..c.n] {
                few.push(j, g.get(j).clone());
            }
            *h = globals_hash(few.items().iter().map(|(_, v)| v));
        }
        *h
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

    fn keep_hook(
        &mut self,
        body: &'a Body,
        mover: Side,
        part: Option<PartVal>,
        at_to: Option<u8>,
        state: &[Value],
        checks: &Checks,
    ) {
        if self.reads.beyond() {
            self.tally(body, false);
            return;
        }
        if self.recorded < BIG {
            self.recorded += 1;
            if self.recorded == BIG {
                self.front.resize_with(FRONT, Default::default);
                self.parts.resize_with(PARTS, || None);
            }
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
        let at_to = match (self.reads.at_to, at_to) {
            (false, _) => None,
            (true, Some(t)) => Some(t),
            (true, None) => return,
        };
        // A run that depends on squares a `follow` found left alone is looked at only among the
        // few (the keyed probe does not check them).
        let follows = untouched.as_ref().is_some_and(|l| !l.is_empty());
        let (checks, checked) = (self.reads.checks, checks.of(self.reads.checks));
        let run =
            HookRun { body, mover, key, mask, exact, reads, writes, at_to, hits, steps, untouched, checks, checked };
        // A run that read the part's squares or piece, or what stands on its `to`, fits few
        // other parts: kept by key, among many (unless it asked for a check: the keyed probe
        // does not ask).
        if exact.is_none() && !follows && (mask & MOVED != 0 || at_to.is_some()) {
            if checks != 0 {
                return;
            }
            return self.keep_keyed(run);
        }
        if self.hooks.len() < HOOKS {
            self.hooks.push(run);
        } else if let Some(least) = self.hooks.iter_mut().min_by_key(|r| r.hits.get()) {
            *least = run;
        }
    }

    /// Keep a run by key (see [`Inner::keyed`]), in its class.
    fn keep_keyed(&mut self, run: HookRun<'a>) {
        let mut globals = [0u16; FEW];
        let n = run.reads.items().len();
        for (g, (i, _)) in globals.iter_mut().zip(run.reads.items()) {
            *g = *i;
        }
        let same = |c: &Class| {
            std::ptr::eq(c.body, run.body)
                && c.mover == run.mover
                && c.mask == run.mask
                && c.at_to == run.at_to.is_some()
                && c.globals[..c.n] == globals[..n]
        };
        let class = match self.classes.iter().position(same) {
            Some(i) => i,
            None if self.classes.len() < CLASSES => {
                let (body, mover, mask, at_to) = (run.body, run.mover, run.mask, run.at_to.is_some());
                self.classes.push(Class { body, mover, mask, globals, n, at_to });
                // Nothing probed yet: a class with globals is hashed at its first probe.
                self.hashed.get_mut().push((Few::default(), globals_hash(std::iter::empty())));
                self.classes.len() - 1
            }
            None => return,
        };
        if self.keyed.len() >= KEYED {
            self.keyed.clear();
        }
        let h = keyed_hash(class, run.key, run.at_to, globals_hash(run.reads.items().iter().map(|(_, v)| v)));
        self.keyed.insert(h, run);
    }

    #[inline]
    fn from(&self, i: usize, mover: Side, g: &Globals, board: Option<&Position>) -> Option<&FromRun> {
        let (slots, _, last) = self.from.get(i)?;
        // The slot found last first: most parts keep one run, or find the same one over and over.
        match &slots[last.get() % FROMS] {
            Some(r) if r.holds(mover, g, board) => Some(r),
            _ => self.kept_from_any(i, mover, g, board),
        }
    }

    /// [`Inner::from`] among all the part's slots.
    #[inline(never)]
    fn kept_from_any(&self, i: usize, mover: Side, g: &Globals, board: Option<&Position>) -> Option<&FromRun> {
        let (slots, _, last) = self.from.get(i)?;
        let at = slots.iter().position(|r| r.as_ref().is_some_and(|r| r.holds(mover, g, board)))?;
        last.set(at);
        slots[at].as_ref()
    }

    fn keep_from(
        &mut self,
        body: &Body,
        i: usize,
        mover: Side,
        list: Vec<Value>,
        pos: &Position,
    ) -> Result<Arc<Vec<Value>>, Vec<Value>> {
        let r = &self.reads;
        let kept = !r.beyond_board() && r.checks == 0 && r.written == 0 && i < MAX_PARTS;
        self.tally(body, kept);
        if !kept {
            return Err(list);
        }
        let list = Arc::new(list);
        let r = &self.reads;
        let cells = r.cells().iter().filter_map(|&s| Some((s, *pos.cells.get(s.idx())?))).collect::<Vec<_>>();
        if cells.len() != r.cells().len() {
            return Ok(list);
        }
        let hands = Side::BOTH.iter().filter(|&&s| r.hands >> s as u8 & 1 != 0).map(|&s| (s, pos.hands[s].clone()));
        let (board, reads, hands) = (!cells.is_empty() || r.hands != 0, r.globals.clone(), hands.collect());
        let run = FromRun { mover, reads, board, cells, hands, list: list.clone(), steps: r.steps };
        let (slots, next, _) = &mut self.from[i];
        // A run for the same mover with the same globals replaces its slot: another board.
        let at = slots
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.mover == mover && s.reads.items() == run.reads.items()))
            .unwrap_or_else(|| {
                let at = *next;
                *next = (at + 1) % FROMS;
                at
            });
        slots[at] = Some(run);
        Ok(list)
    }
}

/// What stands in a cell, as a run reading it sees it: a piece's code (its unmoved mark left out),
/// or the cell itself (empty, a hole, off the board).
#[inline]
pub fn content(c: u8) -> u8 {
    if cell::is_piece(c) { cell::code(c) } else { c }
}

/// Whether a run kept by key holds for `body` by `mover` on a part whose fields packed are `key`,
/// with `at_to` on its `to`, and the globals `g`.
#[inline]
fn keyed_fits(r: &HookRun, body: &Body, mover: Side, key: u128, at_to: Option<u8>, g: &Globals) -> bool {
    std::ptr::eq(r.body, body)
        && r.mover == mover
        && (key ^ r.key) & r.mask == 0
        && r.at_to.is_none_or(|t| at_to == Some(t))
        && g.hold(&r.reads)
}

/// The tag of the hooks `bodies` of `part` by `mover` with `at_to` on its `to` (see [`PartRun`]).
#[inline]
fn parts_tag(bodies: &[*const Body; OVER], mover: Side, key: u128, at_to: Option<u8>) -> u64 {
    let mut h = Mix(mover as u64);
    for b in bodies {
        h.add(*b as u64);
    }
    h.add(key as u64);
    h.add((key >> 64) as u64 ^ u64::from(at_to.map_or(0x100, u16::from)) << 32);
    h.finish()
}

/// The tag of an exact probe (see [`Front`]).
#[inline]
fn front_tag(body: &Body, mover: Side, key: u128, at_to: Option<u8>) -> u64 {
    let mut h = Mix(body as *const Body as u64 ^ mover as u64);
    h.add(key as u64);
    h.add((key >> 64) as u64 ^ u64::from(at_to.map_or(0x100, u16::from)) << 32);
    h.finish()
}

/// The hash of a keyed run's inputs: its class, the fields it read (`key`, masked), what stood on
/// the part's `to` if it read that, and the hash of the globals it read ([`globals_hash`]).
#[inline]
fn keyed_hash(class: usize, key: u128, at_to: Option<u8>, globals: u64) -> u64 {
    let mut h = Mix(class as u64);
    h.write_u128(key);
    h.write_u16(at_to.map_or(0x100, u16::from));
    h.write_u64(globals);
    h.finish()
}

/// The hash of the globals a keyed run read, in its class's order.
fn globals_hash<'v>(globals: impl Iterator<Item = &'v Value>) -> u64 {
    use std::hash::Hash;
    let mut h = Mix(0);
    for v in globals {
        v.hash(&mut h);
    }
    h.finish()
}

/// A small multiplicative hasher for [`keyed_hash`]: its inputs are a few words.
struct Mix(u64);

impl Mix {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 29
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(w));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_u128(&mut self, n: u128) {
        self.add(n as u64);
        self.add((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
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
    // A constant table, not one built at every call (a guard asks once per candidate).
    const PLACES: [(Field, u128); 8] = [
        (Field::From, 0xFFFF),
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
    for (f, bits) in PLACES {
        if fields & (1 << f as u32) != 0 {
            mask |= bits;
            left &= !(1 << f as u32);
        }
    }
    (left == 0).then_some(mask)
}
