//! The server's games: each a [`Game`] with the turns taken back (for redo), kept by id, the least
//! recently used dropped past a limit so that a client creating games in a loop cannot fill memory.

use crate::game::Game;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// Games kept at once; creating one more forgets the one left alone longest.
pub const MAX_GAMES: usize = 256;

/// One game in play and what `redo` would play again.
pub struct Entry {
    pub game: Game,
    /// The name the game's preset was asked for by (`chess`, or `upload` for a preset sent as text).
    pub preset_name: String,
    /// Turns taken back, the next to redo last.
    pub redo: Vec<String>,
    /// What the last request said beside the state (`the computer played ...`).
    pub note: Option<String>,
}

/// Every game, by id.
#[derive(Default)]
pub struct Games {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    games: HashMap<String, (Arc<Mutex<Entry>>, u64)>,
    /// Counts requests, to find the least recently used game.
    clock: u64,
    /// Counts games created, to make ids.
    made: u64,
    /// Drawn when the first game is made, so that a server started again does not give out the
    /// ids of the last run: a page that kept `?game=ID` must not open another player's new game.
    key: u64,
}

/// A mutex whose holder panicked is still usable: a game is only changed through calls that leave
/// it whole on error.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Games {
    /// An id no game has had.
    pub fn next_id(&self) -> String {
        let mut inner = lock(&self.inner);
        if inner.made == 0 {
            inner.key = random_key();
        }
        inner.made += 1;
        // Consecutive games' ids look unrelated (a counter mixed up), and never repeat in a run.
        format!("{:016x}", mix(inner.made.wrapping_add(inner.key)))
    }

    /// Keep a game under an id from [`Games::next_id`].
    pub fn insert(&self, id: String, entry: Entry) {
        let mut inner = lock(&self.inner);
        inner.clock += 1;
        if inner.games.len() >= MAX_GAMES
            && let Some(oldest) = inner.games.iter().min_by_key(|(_, (_, used))| *used).map(|(k, _)| k.clone())
        {
            inner.games.remove(&oldest);
        }
        let clock = inner.clock;
        inner.games.insert(id, (Arc::new(Mutex::new(entry)), clock));
    }

    /// The game with this id, if it is kept.
    pub fn get(&self, id: &str) -> Option<Arc<Mutex<Entry>>> {
        let mut inner = lock(&self.inner);
        inner.clock += 1;
        let clock = inner.clock;
        let (entry, used) = inner.games.get_mut(id)?;
        *used = clock;
        Some(entry.clone())
    }
}

/// Lock one game.
pub fn entry(e: &Mutex<Entry>) -> MutexGuard<'_, Entry> {
    lock(e)
}

/// A bijection on 64 bits (so ids never repeat), spreading consecutive numbers apart: SplitMix64's
/// finaliser.
fn mix(n: u64) -> u64 {
    let mut x = n;
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// 64 bits that differ from run to run: the standard library's per-process random hash keys,
/// with the clock.
fn random_key() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish()
}
