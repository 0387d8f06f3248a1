//! The turn generator's memos: what a hook wrote and what a part's `from` gave, reused while what
//! the run read (the part's fields, the globals, the mover) is unchanged and it read nothing else
//! (see [`Reads`]). Universal's `on after move` after a quiet move, and its `reserve_drops()`
//! without a drop right, are the same run with the same effect after every move of every
//! position: with these they run once. A perft keeps one set for all its listings.

use crate::engine::side::Side;
use crate::script::ir::{Body, MAX_PARTS};
use crate::script::reads::{Few, Reads, same_fields};
use crate::script::{PartVal, Value};
use std::sync::Arc;

/// Hook runs kept; a new one replaces the least reused.
const HOOKS: usize = 8;

/// Globals written over the position's a [`Globals`] holds at most.
const OVER: usize = 8;

/// Runs of one body found to read more than the part and the globals, after which it is run
/// without recording unless about one run in four could be kept.
const TRIES: u32 = 16;

/// A hook run: the hook, the mover, the part it ran on and the fields of it it read, the globals
/// it read (with their values) and what it left in the globals it wrote.
struct HookRun<'a> {
    body: &'a Body,
    mover: Side,
    part: Option<PartVal>,
    fields: u32,
    reads: Few,
    writes: Few,
    /// Times reused: when the memo is full, the least reused run makes room.
    hits: std::cell::Cell<u32>,
}

/// A part's `from` for a mover: the globals it read and the candidates it gave.
struct FromRun {
    mover: Side,
    reads: Few,
    list: Arc<Vec<Value>>,
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
    from: [Option<FromRun>; MAX_PARTS],
    worth: Vec<Worth>,
    /// What the run being recorded reads.
    reads: Reads,
}

static NONE: Value = Value::None;

/// The globals as a run would find them: the position's, some of them written over by runs
/// not made (their memos stand in for them).
pub struct Globals<'v> {
    base: &'v [Value],
    over: [(u16, &'v Value); OVER],
    n: usize,
}

impl<'v> Globals<'v> {
    pub fn of(base: &'v [Value]) -> Globals<'v> {
        Globals { base, over: [(0, &NONE); OVER], n: 0 }
    }

    #[inline]
    fn get(&self, i: u16) -> &'v Value {
        match self.over[..self.n].iter().rev().find(|(j, _)| *j == i) {
            Some((_, v)) => v,
            None => &self.base[i as usize],
        }
    }

    /// Write a run's globals over these; false when there is no room left.
    pub fn write(&mut self, writes: &'v Few) -> bool {
        for (i, v) in writes.items() {
            if self.n == OVER {
                return false;
            }
            self.over[self.n] = (*i, v);
            self.n += 1;
        }
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
    pub fn hook(&self, body: &Body, mover: Side, part: Option<&PartVal>, g: &Globals) -> Option<&Few> {
        self.0.as_ref()?.hook(body, mover, part, g)
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
    pub fn from(&self, i: usize, mover: Side, g: &Globals) -> Option<&Arc<Vec<Value>>> {
        self.0.as_ref()?.from(i, mover, g)
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

impl<'a> Inner<'a> {
    fn hook(&self, body: &Body, mover: Side, part: Option<&PartVal>, g: &Globals) -> Option<&Few> {
        self.hooks
            .iter()
            .find(|r| {
                std::ptr::eq(r.body, body)
                    && r.mover == mover
                    && (r.fields == 0 || matches!((&r.part, part), (Some(a), Some(b)) if same_fields(r.fields, a, b)))
                    && g.hold(&r.reads)
            })
            .map(|r| {
                r.hits.set(r.hits.get().saturating_add(1));
                &r.writes
            })
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
        let run = HookRun { body, mover, part, fields: self.reads.fields, reads, writes, hits };
        if self.hooks.len() < HOOKS {
            self.hooks.push(run);
        } else if let Some(least) = self.hooks.iter_mut().min_by_key(|r| r.hits.get()) {
            *least = run;
        }
    }

    fn from(&self, i: usize, mover: Side, g: &Globals) -> Option<&Arc<Vec<Value>>> {
        match self.from.get(i) {
            Some(Some(r)) if r.mover == mover && g.hold(&r.reads) => Some(&r.list),
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
        self.from[i] = Some(FromRun { mover, reads: self.reads.globals.clone(), list: list.clone() });
        Ok(list)
    }
}
