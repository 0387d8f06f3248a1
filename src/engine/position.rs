//! A position: the mailbox, side to move, en passant, clocks, hash; make/unmake without allocation.

use super::board::{Sq, cell};
use super::side::{BySide, Side};
use super::zobrist::Zobrist;
use crate::preset::Preset;

/// One move part: a piece from one square to another, maybe promoting, maybe castling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Sq,
    pub to: Sq,
    /// The piece code it becomes, or 0.
    pub promo: u8,
    pub flags: u8,
    /// The castling rule's index, for castling moves.
    pub extra: u8,
}

pub mod mflag {
    pub const CAPTURE: u8 = 1;
    pub const EP: u8 = 2;
    pub const CASTLE: u8 = 4;
    /// Leaves squares behind that may be taken en passant.
    pub const DOUBLE: u8 = 8;
}

/// Squares that may be captured en passant this turn, and where the piece that passed them stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EpState {
    /// 0 = none.
    pub squares: [Sq; 2],
    pub victim: Sq,
    /// Whether an enemy piece could take it (only then is it part of the position's identity).
    pub hashed: bool,
}

impl EpState {
    #[inline]
    pub fn contains(&self, sq: Sq) -> bool {
        sq != 0 && (self.squares[0] == sq || self.squares[1] == sq)
    }
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    changes: u32,
    ep: EpState,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    royal: [Sq; 2],
    side: Side,
}

#[derive(Clone, Debug)]
pub struct Position {
    pub cells: Vec<u8>,
    pub side: Side,
    pub ep: EpState,
    pub halfmove: u32,
    pub fullmove: u32,
    pub hash: u64,
    /// Pieces on the board per cell code (virgin bit stripped).
    pub counts: [u16; 128],
    /// Pieces in hand, per side, in drop order.
    pub hands: BySide<Vec<u8>>,
    /// Last known square of each side's royal piece.
    royal: [Sq; 2],
    /// Codes of royal pieces (bits).
    royal_codes: u128,
    /// Royal pieces on the board per side.
    royal_n: [u16; 2],
    changes: Vec<(Sq, u8)>,
    undos: Vec<Undo>,
    /// Hashes of the positions before each move made, oldest first.
    pub history: Vec<u64>,
}

impl Position {
    /// An empty position on the preset's board (every square existing, every cell off the board `OFF`).
    pub fn empty(preset: &Preset) -> Position {
        let mut cells = vec![cell::OFF; preset.geo.cells];
        for &sq in &preset.geo.squares {
            cells[sq as usize] = cell::EMPTY;
        }
        let mut royal_codes = 0u128;
        for (k, kind) in preset.kinds.iter().enumerate() {
            if kind.royal {
                for s in Side::BOTH {
                    royal_codes |= 1u128 << cell::piece(k, s);
                }
            }
        }
        let mut counts = [0u16; 128];
        counts[cell::EMPTY as usize] = preset.geo.squares.len() as u16;
        Position {
            cells,
            side: Side::White,
            ep: EpState::default(),
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            counts,
            hands: BySide::default(),
            royal: [0; 2],
            royal_codes,
            royal_n: [0; 2],
            changes: Vec::with_capacity(256),
            undos: Vec::with_capacity(256),
            history: Vec::with_capacity(256),
        }
    }

    #[inline]
    pub fn is_royal_code(&self, c: u8) -> bool {
        (self.royal_codes >> cell::code(c)) & 1 != 0
    }

    /// Put a cell value on a square, keeping hash, counts and royal squares in step; recorded for unmake.
    #[inline]
    pub fn set(&mut self, z: &Zobrist, sq: Sq, new: u8) {
        let old = self.cells[sq as usize];
        self.changes.push((sq, old));
        self.hash ^= z.piece(old, sq) ^ z.piece(new, sq);
        self.counts[cell::code(old) as usize] -= 1;
        self.counts[cell::code(new) as usize] += 1;
        self.cells[sq as usize] = new;
        self.count_royal(old, new);
        if self.is_royal_code(new) {
            self.royal[cell::side(new).index()] = sq;
        }
    }

    #[inline]
    fn count_royal(&mut self, old: u8, new: u8) {
        if self.is_royal_code(old) {
            self.royal_n[cell::side(old).index()] -= 1;
        }
        if self.is_royal_code(new) {
            self.royal_n[cell::side(new).index()] += 1;
        }
    }

    /// Set up a square directly (FEN loading): no undo record.
    pub fn place(&mut self, z: &Zobrist, sq: Sq, new: u8) {
        self.set(z, sq, new);
        self.changes.clear();
    }

    /// Recompute the hash from scratch (after loading).
    pub fn rehash(&mut self, preset: &Preset) {
        let z = &preset.zobrist;
        let mut h = 0u64;
        for &sq in &preset.geo.squares {
            h ^= z.piece(self.cells[sq as usize], sq);
        }
        if self.side == Side::Black {
            h ^= z.black_to_move;
        }
        if self.ep.hashed {
            h ^= z.ep(self.ep.squares[0]);
        }
        self.hash = h;
    }

    #[inline]
    pub fn royal_count(&self, side: Side) -> u32 {
        self.royal_n[side.index()] as u32
    }

    /// The square of `side`'s royal piece when it has exactly one.
    #[inline]
    pub fn royal_square(&self, side: Side) -> Option<Sq> {
        let sq = self.royal[side.index()];
        let c = self.cells[sq as usize];
        (self.is_royal_code(c) && cell::side(c) == side && self.royal_count(side) == 1).then_some(sq)
    }

    /// Every square holding a royal piece of `side`.
    pub fn royal_squares(&self, preset: &Preset, side: Side) -> Vec<Sq> {
        preset
            .geo
            .squares
            .iter()
            .copied()
            .filter(|&s| {
                let c = self.cells[s as usize];
                self.is_royal_code(c) && cell::side(c) == side
            })
            .collect()
    }

    pub fn ply(&self) -> usize {
        self.undos.len()
    }

    /// Play one move part for the side to move and pass the turn.
    pub fn make(&mut self, preset: &Preset, m: Move) {
        let z = &preset.zobrist;
        self.undos.push(Undo {
            changes: self.changes.len() as u32,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            royal: self.royal,
            side: self.side,
        });
        self.history.push(self.hash);
        if self.ep.hashed {
            self.hash ^= z.ep(self.ep.squares[0]);
        }
        let old_ep = self.ep;
        self.ep = EpState::default();
        let piece = self.cells[m.from as usize] & !cell::VIRGIN;
        let mut reset = preset.irreversible[cell::kind(piece)];
        if m.flags & mflag::CASTLE != 0 {
            let c = &preset.castles[m.extra as usize];
            self.set(z, c.king_from, cell::EMPTY);
            self.set(z, c.rook_from, cell::EMPTY);
            self.set(z, c.king_to, c.king);
            self.set(z, c.rook_to, c.rook);
        } else {
            reset |= cell::is_piece(self.cells[m.to as usize]);
            self.set(z, m.from, cell::EMPTY);
            if m.flags & mflag::EP != 0 {
                self.set(z, old_ep.victim, cell::EMPTY);
                reset = true;
            }
            self.set(z, m.to, if m.promo != 0 { m.promo } else { piece });
            if m.flags & mflag::DOUBLE != 0 {
                self.ep = self.passed(preset, m.from, m.to);
                if self.ep.hashed {
                    self.hash ^= z.ep(self.ep.squares[0]);
                }
            }
        }
        self.halfmove = if reset { 0 } else { self.halfmove + 1 };
        if self.side == Side::Black {
            self.fullmove += 1;
        }
        self.side = self.side.other();
        self.hash ^= z.black_to_move;
    }

    /// Take back the last move.
    pub fn unmake(&mut self) {
        let Some(u) = self.undos.pop() else { return };
        while self.changes.len() > u.changes as usize {
            if let Some((sq, old)) = self.changes.pop() {
                let cur = self.cells[sq as usize];
                self.counts[cell::code(cur) as usize] -= 1;
                self.counts[cell::code(old) as usize] += 1;
                self.cells[sq as usize] = old;
                self.count_royal(cur, old);
            }
        }
        self.history.pop();
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.fullmove = u.fullmove;
        self.hash = u.hash;
        self.royal = u.royal;
        self.side = u.side;
    }

    /// The squares a double step passed over, and whether the side now to move could take one.
    fn passed(&self, preset: &Preset, from: Sq, to: Sq) -> EpState {
        let g = &preset.geo;
        let (ff, fr, tf, tr) = (g.file(from) as i32, g.rank(from) as i32, g.file(to) as i32, g.rank(to) as i32);
        let (dx, dy) = (tf - ff, tr - fr);
        let n = dx.abs().max(dy.abs());
        let mut ep = EpState { victim: to, ..Default::default() };
        if !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
            return ep;
        }
        for (i, k) in (1..n).take(2).enumerate() {
            ep.squares[i] = g.square((ff + k * dx.signum()) as usize, (fr + k * dy.signum()) as usize);
        }
        ep.hashed = ep.squares[0] != 0 && self.can_take_ep(preset, &ep);
        ep
    }

    fn can_take_ep(&self, preset: &Preset, ep: &EpState) -> bool {
        let them = cell::side(self.cells[ep.victim as usize]).other();
        let mv = &preset.movement;
        for (kind, steps) in mv.steps[them].iter().enumerate() {
            let code = cell::piece(kind, them);
            if (mv.ep_capturers >> code) & 1 == 0 {
                continue;
            }
            for s in steps.iter().filter(|s| s.flags & super::movement::flag::EP != 0) {
                for &target in ep.squares.iter().filter(|&&t| t != 0) {
                    let origin = (target as i32 - s.delta as i32) as usize;
                    if self.cells.get(origin).is_some_and(|&c| cell::code(c) == code) {
                        return true;
                    }
                }
            }
        }
        false
    }
}
