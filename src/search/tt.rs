//! The transposition table: buckets of two entries, keyed by the position's Zobrist hash; a new
//! position replaces the less useful of the two (older searches' and shallower entries first).

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
    /// The search that stored it (`Table::age`).
    age: u8,
}

pub struct Table {
    slots: Vec<Entry>,
    /// Counts searches, so that entries of earlier ones give way first.
    age: u8,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        Table { slots: vec![Entry::default(); (1 << bits).max(2)], age: 0 }
    }

    /// A new search begins: what earlier ones stored is still read, but replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }

    /// The first of the key's bucket of two slots.
    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1) & !1
    }

    /// The entry for this position, its score made relative to `ply` again.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let i = self.index(key);
        self.slots[i..i + 2]
            .iter()
            .find(|e| e.used && e.key == key)
            .map(|e| Entry { score: from_tt(e.score, ply), ..*e })
    }

    /// For the same position, keep a deeper bound from this search (and its turn when the new
    /// result has none); a new position takes the bucket's slot worth least: empty, then from
    /// the oldest search, then the shallowest.
    #[inline]
    pub fn store(&mut self, key: u64, ply: usize, mut turn: Turn, score: i32, depth: i16, bound: Bound) {
        let i = self.index(key);
        let age = self.age;
        let worth = |e: &Entry| {
            if e.used { e.depth as i32 - 8 * i32::from(age.wrapping_sub(e.age)) } else { i32::MIN }
        };
        let at = if let Some(j) = (i..i + 2).find(|&j| self.slots[j].used && self.slots[j].key == key) {
            let old = &self.slots[j];
            if old.age == age && old.depth > depth && bound != Bound::Exact {
                return;
            }
            if turn == Turn::default() {
                turn = old.turn;
            }
            j
        } else if worth(&self.slots[i + 1]) < worth(&self.slots[i]) {
            i + 1
        } else {
            i
        };
        self.slots[at] = Entry { key, turn, score: to_tt(score, ply), depth, bound, used: true, age };
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
