//! A turn: one or more parts (a move, a drop, a removal, a square built or taken away), and its
//! canonical notation.

use super::board::{Sq, cell};
use super::notation::{self, Part};
use super::position::{Move, Position};
use crate::preset::Preset;
use crate::script::ir::MAX_PARTS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnPart {
    Move(Move),
    /// `@-e4`: empty a square.
    Remove(Sq),
    /// `Q*e4`: a piece (cell code) from hand.
    Drop(u8, Sq),
    /// `@-e9` on a missing square.
    Construct(Sq),
    /// `-e4`.
    Destroy(Sq),
    /// `@*Q`: a piece (cell code) taken out of the mover's hand.
    Discard(u8),
}

impl Default for TurnPart {
    fn default() -> Self {
        TurnPart::Remove(Sq::NONE)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    parts: [TurnPart; MAX_PARTS],
    len: u8,
}

impl Turn {
    /// The turn of one generated move; a natively generated drop is a drop part.
    pub fn single(m: Move) -> Turn {
        let mut t = Turn::default();
        if m.flags & super::position::mflag::DROP != 0 {
            t.push(TurnPart::Drop(m.promo, m.to));
        } else {
            t.push(TurnPart::Move(m));
        }
        t
    }

    /// The move that plays this turn where drops are generated as moves (one move or one drop).
    pub fn as_move(&self) -> Option<Move> {
        match self.parts() {
            [TurnPart::Move(m)] => Some(*m),
            [TurnPart::Drop(code, sq)] => {
                Some(Move { from: *sq, to: *sq, promo: *code, flags: super::position::mflag::DROP, extra: 0, gate: 0 })
            }
            _ => None,
        }
    }

    pub fn push(&mut self, p: TurnPart) {
        if (self.len as usize) < MAX_PARTS {
            self.parts[self.len as usize] = p;
            self.len += 1;
        }
    }

    pub fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    pub fn parts(&self) -> &[TurnPart] {
        &self.parts[..self.len as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The move part, when the turn is exactly one move.
    pub fn only_move(&self) -> Option<Move> {
        match self.parts() {
            [TurnPart::Move(m)] => Some(*m),
            _ => None,
        }
    }

    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.parts().iter().filter_map(|p| match p {
            TurnPart::Move(m) => Some(*m),
            _ => None,
        })
    }
}

/// Apply a part to the board without running any hook (for notation and display).
pub fn apply_raw(preset: &Preset, pos: &mut Position, p: TurnPart) {
    match p {
        TurnPart::Move(m) => pos.apply_move(preset, m),
        TurnPart::Remove(sq) => pos.apply_remove(preset, sq),
        TurnPart::Drop(code, sq) => pos.apply_drop(preset, code, sq),
        TurnPart::Construct(sq) => pos.apply_square(preset, sq, true),
        TurnPart::Destroy(sq) => pos.apply_square(preset, sq, false),
        TurnPart::Discard(code) => pos.apply_discard(preset, code),
    }
}

/// The canonical parts of a legal turn in the position before it, e.g. `@-a1`, `n g8-f6`.
pub fn canonical_parts(preset: &Preset, pos: &Position, t: &Turn) -> Vec<Part> {
    if let Some(m) = t.only_move() {
        return notation::canonical_parts(preset, pos, m);
    }
    let g = &preset.geo;
    let mut scratch = pos.clone();
    let mut out = Vec::new();
    for &p in t.parts() {
        match p {
            TurnPart::Move(m) => out.extend(notation::canonical_parts(preset, &scratch, m)),
            TurnPart::Remove(sq) | TurnPart::Construct(sq) => out.push(Part::Empty { sq: g.name(sq) }),
            TurnPart::Drop(code, sq) => {
                out.push(Part::Drop { label: preset.label_of(cell::code(code)).to_string(), to: g.name(sq) })
            }
            TurnPart::Destroy(sq) => out.push(Part::RemoveSquare { sq: g.name(sq) }),
            TurnPart::Discard(code) => {
                out.push(Part::HandRemove { label: preset.label_of(cell::code(code)).to_string() })
            }
        }
        apply_raw(preset, &mut scratch, p);
    }
    out
}

/// One part's canonical text in the position before it.
pub fn part_text(preset: &Preset, pos: &Position, p: TurnPart) -> String {
    let mut t = Turn::default();
    t.push(p);
    format_turn(preset, pos, &t)
}

/// Canonical text of a legal turn in the position before it.
pub fn format_turn(preset: &Preset, pos: &Position, t: &Turn) -> String {
    canonical_parts(preset, pos, t).iter().map(notation::part_text).collect::<Vec<_>>().join("; ")
}
