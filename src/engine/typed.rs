//! A typed turn matched against legal turns structurally: its parts are resolved once to squares,
//! and each legal turn's parts are compared with them as the engine holds them. No turn is
//! rendered to text and no position copied, which matters where a position has hundreds of
//! multi-part turns and a click or a `go` resolves one.

use super::board::{Sq, cell};
use super::notation::Part;
use super::position::{Position, mflag};
use super::turn::{Turn, TurnPart, apply_raw};
use crate::preset::Preset;

/// One typed part, its squares resolved on the preset's board.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pat {
    Move { label: Option<String>, from: Sq, to: Sq },
    Put { label: String, to: Sq },
    Drop { label: String, to: Sq },
    Empty(Sq),
    HandRemove(String),
    RemoveSquare(Sq),
}

/// The parts of a typed turn in full notation, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedTurn(Vec<Pat>);

/// One canonical part of a legal turn, as the notation would write it, without its text.
#[derive(Clone, Copy)]
enum Canon {
    /// A move; the index of the turn part, to find the piece it moves when a label is typed.
    Move {
        part: usize,
        from: Sq,
        to: Sq,
    },
    Put {
        code: u8,
        to: Sq,
    },
    Drop {
        code: u8,
        to: Sq,
    },
    Empty(Sq),
    HandRemove(u8),
    RemoveSquare(Sq),
}

impl TypedTurn {
    /// The typed parts resolved on this board; `None` when one names a square the board lacks
    /// (or is a claim): such a turn names no legal turn.
    pub fn resolve(preset: &Preset, parts: &[Part]) -> Option<TypedTurn> {
        let sq = |s: &String| preset.geo.parse_square(s);
        let pats = parts
            .iter()
            .map(|p| {
                Some(match p {
                    Part::Move { label, from, to } => Pat::Move { label: label.clone(), from: sq(from)?, to: sq(to)? },
                    Part::Put { label, to } => Pat::Put { label: label.clone(), to: sq(to)? },
                    Part::Drop { label, to } => Pat::Drop { label: label.clone(), to: sq(to)? },
                    Part::Empty { sq: s } => Pat::Empty(sq(s)?),
                    Part::HandRemove { label } => Pat::HandRemove(label.clone()),
                    Part::RemoveSquare { sq: s } => Pat::RemoveSquare(sq(s)?),
                    Part::Claim(_) => return None,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(TypedTurn(pats))
    }

    /// Whether the typed parts name this legal turn: `Some(true)` exactly, `Some(false)` as its
    /// beginning (the forced parts left out), `None` not at all. The same answer as comparing with
    /// the turn's canonical notation (`notation::parts_match`).
    pub fn matches(&self, preset: &Preset, pos: &Position, t: &Turn) -> Option<bool> {
        let mut canon = [Canon::Empty(Sq::NONE); 3 * crate::script::ir::MAX_PARTS];
        let mut n = 0;
        for (i, &p) in t.parts().iter().enumerate() {
            let mut push = |c| {
                canon[n] = c;
                n += 1;
            };
            match p {
                TurnPart::Move(m) => {
                    push(Canon::Move { part: i, from: m.from, to: m.to });
                    if m.promo != 0 {
                        push(Canon::Put { code: m.promo, to: m.to });
                    }
                    if m.gate != 0 {
                        push(Canon::Drop { code: m.gate, to: gate_square(preset, m) });
                    }
                }
                TurnPart::Remove(sq) | TurnPart::Construct(sq) => push(Canon::Empty(sq)),
                TurnPart::Drop(code, sq) => push(Canon::Drop { code, to: sq }),
                TurnPart::Destroy(sq) => push(Canon::RemoveSquare(sq)),
                TurnPart::Discard(code) => push(Canon::HandRemove(code)),
            }
        }
        if self.0.len() > n {
            return None;
        }
        let same = |l: &str, code: u8| l.eq_ignore_ascii_case(preset.label_of(cell::code(code)));
        for (p, c) in self.0.iter().zip(&canon[..n]) {
            let ok = match (p, *c) {
                (Pat::Move { label, from, to }, Canon::Move { part, from: f, to: t2 }) => {
                    *from == f
                        && *to == t2
                        && label.as_ref().is_none_or(|l| same(l, piece_before(preset, pos, &t.parts()[..part], f)))
                }
                (Pat::Put { label, to }, Canon::Put { code, to: t2 }) => *to == t2 && same(label, code),
                (Pat::Drop { label, to }, Canon::Drop { code, to: t2 }) => *to == t2 && same(label, code),
                (Pat::Empty(a), Canon::Empty(b)) | (Pat::RemoveSquare(a), Canon::RemoveSquare(b)) => *a == b,
                (Pat::HandRemove(label), Canon::HandRemove(code)) => same(label, code),
                _ => false,
            };
            if !ok {
                return None;
            }
        }
        Some(self.0.len() == n)
    }
}

/// Where a gated piece enters: the square the moving piece (or the castling rook) left.
fn gate_square(preset: &Preset, m: super::Move) -> Sq {
    match (m.flags & mflag::CASTLE != 0, m.flags & mflag::GATE_ROOK != 0) {
        (true, true) => preset.castles[m.extra as usize].rook_from,
        (true, false) => preset.castles[m.extra as usize].king_from,
        _ => m.from,
    }
}

/// The piece on `sq` after the turn's earlier parts. Most turns' later parts start where no
/// earlier part wrote, which is read off the position; otherwise the earlier parts are replayed on
/// a copy (rare: a piece that moves twice in one turn).
fn piece_before(preset: &Preset, pos: &Position, earlier: &[TurnPart], sq: Sq) -> u8 {
    let touched = earlier.iter().any(|p| match *p {
        TurnPart::Move(m) => {
            m.from == sq || m.to == sq || m.flags & (mflag::CASTLE | mflag::EP) != 0 || m.gate != 0 || m.extra != 0
        }
        TurnPart::Remove(s) | TurnPart::Construct(s) | TurnPart::Destroy(s) | TurnPart::Drop(_, s) => s == sq,
        TurnPart::Discard(_) => false,
    });
    if !touched {
        return pos.cells[sq.idx()];
    }
    let mut copy = pos.clone();
    for &p in earlier {
        apply_raw(preset, &mut copy, p);
    }
    copy.cells[sq.idx()]
}
