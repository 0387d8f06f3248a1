//! The transposition table: one entry per slot, keyed by the position's Zobrist hash.

use super::limits::MATE_BOUND;
use crate::engine::turn::Turn;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// The score is at least this (a cutoff).
    Lower,
    /// The score is at most this (no turn reached alpha).
    Upper,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u64,
    pub turn: Turn,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    used: bool,
}

pub struct Table {
    slots: Vec<Entry>,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        Table { slots: vec![Entry::default(); 1 << bits] }
    }

    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// The entry for this position, its score made relative to `ply` again.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let e = self.slots[self.index(key)];
        (e.used && e.key == key).then(|| Entry { score: from_tt(e.score, ply), ..e })
    }

    /// Keep the deeper result for the same position; a different position always takes the slot.
    #[inline]
    pub fn store(&mut self, key: u64, ply: usize, turn: Turn, score: i32, depth: i16, bound: Bound) {
        let i = self.index(key);
        let old = &self.slots[i];
        if old.used && old.key == key && old.depth > depth && bound != Bound::Exact {
            return;
        }
        self.slots[i] = Entry { key, turn, score: to_tt(score, ply), depth, bound, used: true };
    }
}

/// Mate scores count plies from the root while searching, from the position when stored.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
