//! The transposition table: buckets of three compact entries, one cache line each, keyed by the
//! position's Zobrist hash (its low bits pick the bucket, its high 32 bits verify the entry).
//! A position takes its own entry again, else an empty one, else the one least worth keeping:
//! the shallowest, entries of earlier searches (earlier moves of the game) counting as much
//! shallower as they are old, so stale results make room first.

use super::limits::MATE_BOUND;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// The score is at least this (a cutoff).
    Lower,
    /// The score is at most this (no turn reached alpha).
    Upper,
}

impl Bound {
    /// What a node's best score is, searched within `alpha..beta`.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// What a probe finds: the best turn as its word (`order::word`, 0: none), the score relative to
/// the ply probed, the depth searched and the kind of bound.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub turn: u64,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
}

impl Entry {
    /// Whether the score settles a node searched within `alpha..beta` (deep enough).
    #[inline]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// One stored result in 20 bytes: the turn word split in two words so that three slots fill a
/// cache line (a whole `Turn` is 42 bytes: a slot of 64 held one entry).
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Slot {
    check: u32,
    turn: [u32; 2],
    score: i32,
    depth: i8,
    /// The bound (0: empty slot; see `BOUND_BITS`) and the generation, the search that stored it.
    meta: u8,
    _spare: i16,
}

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([Slot; 3]);

const BOUND_BITS: u8 = 2;
const BOUND_MASK: u8 = (1 << BOUND_BITS) - 1;
/// Generations count modulo this.
const GENERATIONS: u8 = 1 << (8 - BOUND_BITS);
/// How much shallower a slot counts per search it is old, when choosing the one to replace.
const AGE_WEIGHT: i32 = 8;

pub struct Table {
    buckets: Vec<Bucket>,
    /// The current search's generation (bumped by `new_search`).
    generation: u8,
}

impl Table {
    /// A table of `2^bits` buckets (64 bytes each).
    pub fn new(bits: u32) -> Table {
        Table { buckets: vec![Bucket::default(); 1 << bits], generation: 0 }
    }

    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// A new search from the root: what is stored from now on is newer than what is there.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    #[inline]
    fn bucket(&mut self, key: u64) -> &mut Bucket {
        let i = (key as usize) & (self.buckets.len() - 1);
        &mut self.buckets[i]
    }

    /// The entry for this position, its score made relative to `ply` again. A hit is marked as
    /// of this search, so that what is still in use is kept.
    #[inline]
    pub fn probe(&mut self, key: u64, ply: usize) -> Option<Entry> {
        let check = (key >> 32) as u32;
        let generation = self.generation;
        let s = self.bucket(key).0.iter_mut().find(|s| s.check == check && s.meta & BOUND_MASK != 0)?;
        s.meta = generation << BOUND_BITS | (s.meta & BOUND_MASK);
        let bound = match s.meta & BOUND_MASK {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        let turn = (s.turn[1] as u64) << 32 | s.turn[0] as u64;
        Some(Entry { turn, score: from_tt(s.score, ply), depth: s.depth as i16, bound })
    }

    /// Store a result: the position's own slot (keeping a deeper bound there, and its turn when
    /// this result has none), else an empty one, else the least worth keeping.
    #[inline]
    pub fn store(&mut self, key: u64, ply: usize, turn: u64, score: i32, depth: i32, bound: Bound) {
        let check = (key >> 32) as u32;
        let generation = self.generation;
        let b = &mut self.bucket(key).0;
        let i = match b.iter().position(|s| s.check == check && s.meta & BOUND_MASK != 0) {
            Some(i) => {
                let old = b[i];
                if old.depth as i32 > depth && (bound != Bound::Exact || depth <= 0) {
                    return;
                }
                i
            }
            None => (0..b.len()).min_by_key(|&i| worth(&b[i], generation)).unwrap_or(0),
        };
        let s = &mut b[i];
        let turn = if turn == 0 && s.check == check { (s.turn[1] as u64) << 32 | s.turn[0] as u64 } else { turn };
        let code = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *s = Slot {
            check,
            turn: [turn as u32, (turn >> 32) as u32],
            score: to_tt(score, ply),
            depth: depth.clamp(i8::MIN as i32, i8::MAX as i32) as i8,
            meta: generation << BOUND_BITS | code,
            _spare: 0,
        };
    }
}

/// How much a slot is worth keeping: empty ones least, then by depth less its age.
#[inline]
fn worth(s: &Slot, generation: u8) -> i32 {
    if s.meta & BOUND_MASK == 0 {
        return i32::MIN;
    }
    let age = (generation + GENERATIONS - (s.meta >> BOUND_BITS)) % GENERATIONS;
    s.depth as i32 - AGE_WEIGHT * age as i32
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Slot>(), 20);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
    }

    #[test]
    fn stale_shallow_entries_make_room_first() {
        let mut t = Table::new(0);
        t.store(1 << 32, 0, 7, 10, 9, Bound::Exact);
        t.new_search();
        t.store(2 << 32, 0, 8, 20, 3, Bound::Lower);
        t.store(3 << 32, 0, 9, 30, 2, Bound::Upper);
        // Full: the deep but stale entry (9 - 8) goes before the newer shallow ones.
        t.store(4 << 32, 0, 10, 40, 1, Bound::Exact);
        assert!(t.probe(1 << 32, 0).is_none());
        assert_eq!(t.probe(2 << 32, 0).map(|e| (e.turn, e.score, e.depth)), Some((8, 20, 3)));
        assert_eq!(t.probe(4 << 32, 0).map(|e| (e.turn, e.bound)), Some((10, Bound::Exact)));
        // A shallower bound does not replace the position's deeper one; its turn is kept.
        t.store(2 << 32, 0, 0, 5, 1, Bound::Upper);
        assert_eq!(t.probe(2 << 32, 0).map(|e| e.depth), Some(3));
        t.store(2 << 32, 0, 0, 5, 4, Bound::Upper);
        assert_eq!(t.probe(2 << 32, 0).map(|e| (e.turn, e.depth)), Some((8, 4)));
    }
}
