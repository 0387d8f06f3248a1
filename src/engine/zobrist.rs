//! Zobrist keys, drawn from a fixed seed so that hashes are the same on every run.

use super::board::{Sq, cell};

#[derive(Clone, Debug, Default)]
pub struct Zobrist {
    cells: usize,
    /// Indexed by cell byte (virgin bit included) * cells + square.
    pieces: Vec<u64>,
    pub black_to_move: u64,
    ep: Vec<u64>,
    /// Per castling rule: its right is intact.
    castles: Vec<u64>,
}

struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Zobrist {
    /// `cares[kind]`: whether a kind's virgin flag is part of the position.
    pub fn new(cells: usize, cares: &[bool], castles: usize) -> Zobrist {
        let mut rng = SplitMix(0x4845_5241_4C44);
        let mut pieces = vec![0u64; 256 * cells];
        for code in 0..128usize {
            if code == cell::EMPTY as usize || code == cell::OFF as usize {
                continue;
            }
            for sq in 0..cells {
                pieces[code * cells + sq] = rng.next();
            }
        }
        for code in 128..256usize {
            let base = code & 0x7F;
            let cares_here = cell::is_piece(base as u8) && cares.get(cell::kind(base as u8)).copied().unwrap_or(false);
            for sq in 0..cells {
                pieces[code * cells + sq] = if cares_here { rng.next() } else { pieces[base * cells + sq] };
            }
        }
        let black_to_move = rng.next();
        let ep = (0..cells).map(|_| rng.next()).collect();
        let castles = (0..castles).map(|_| rng.next()).collect();
        Zobrist { cells, pieces, black_to_move, ep, castles }
    }

    #[inline]
    pub fn piece(&self, c: u8, sq: Sq) -> u64 {
        self.pieces[c as usize * self.cells + sq.idx()]
    }

    #[inline]
    pub fn ep(&self, sq: Sq) -> u64 {
        self.ep[sq.idx()]
    }

    /// The keys of the castling rights in a bit set (rule `i` is bit `i`).
    pub fn castle_rights(&self, rights: u64) -> u64 {
        self.castles.iter().enumerate().filter(|(i, _)| rights >> i & 1 != 0).fold(0, |h, (_, k)| h ^ k)
    }
}
