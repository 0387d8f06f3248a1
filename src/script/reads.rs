//! What one script run read and wrote of what lies outside it (the part, `state` and `var` values,
//! the position), recorded when asked, so that the turn generator can reuse the run's effect while
//! none of it changed.

use super::ir::Field;
use super::table::Builtin;
use super::value::{PartVal, Value};
use crate::engine::board::Sq;
use std::sync::Arc;

/// Most globals a [`Few`] holds: a run that reads or writes more is not reused.
pub const FEW: usize = 4;

/// A few global values by index, held inline (recording a run allocates nothing).
#[derive(Clone, Debug, Default)]
pub struct Few {
    items: [(u16, Value); FEW],
    len: u8,
}

impl Few {
    /// No values.
    pub const EMPTY: Few =
        Few { items: [(0, Value::None), (0, Value::None), (0, Value::None), (0, Value::None)], len: 0 };

    /// Add a value; false (and nothing added) when full.
    pub fn push(&mut self, i: u16, v: Value) -> bool {
        let n = self.len as usize;
        if n == FEW {
            return false;
        }
        self.items[n] = (i, v);
        self.len += 1;
        true
    }

    /// Set global `i` to `v`, over the value held for it if there is one; false (and nothing
    /// set) when it is not held and there is no room.
    pub fn set(&mut self, i: u16, v: Value) -> bool {
        let n = self.len as usize;
        match self.items[..n].iter_mut().find(|(j, _)| *j == i) {
            Some(item) => {
                item.1 = v;
                true
            }
            None => self.push(i, v),
        }
    }

    pub fn items(&self) -> &[(u16, Value)] {
        &self.items[..self.len as usize]
    }

    /// The globals held, a bit each (all bits for one past the 64th).
    pub fn mask(&self) -> u64 {
        self.items().iter().fold(0, |m, (i, _)| m | global_bit(*i))
    }
}

/// Global `i`'s bit in a set of globals: all bits for one past the 64th (which a set of 64 bits
/// cannot tell apart).
pub fn global_bit(i: u16) -> u64 {
    1u64.checked_shl(u32::from(i)).unwrap_or(u64::MAX)
}

/// A run's reads and writes. `outside` is set by whatever makes the run depend on more than the
/// part's fields and the globals listed (the board, hands, history, the game's numbers), or have
/// another effect than writing globals (changing the position, declaring a result).
#[derive(Clone, Debug, Default)]
pub struct Reads {
    pub outside: bool,
    /// A bit per [`Field`] of the part read (all of them when `part` itself was read).
    pub fields: u32,
    /// The globals read before the run wrote them, each with the value it had then: the value it
    /// had when the run began.
    pub globals: Few,
    /// The globals read or written so far, a bit each.
    read: u64,
    /// The globals written, a bit each.
    pub written: u64,
    /// The steps the run took, charged to the command again whenever its effect is reused.
    pub steps: u64,
    /// The squares of a `follow` that the part left alone, each holding a piece after it: the
    /// run depends on the part and the board only through them (see [`untouched`]), and holds
    /// for another part that leaves them alone too (Maidens' `follow(chances)` after a move that
    /// does not move a piece that had a capture).
    pub untouched: Option<Arc<Vec<Value>>>,
    /// The part's `to`, when the run has a part: what stands there is known from the part itself
    /// (the piece moved, promoted or dropped there), so a run that reads that square alone of the
    /// board (`piece_at(part.to)`) may still be reused, keyed by what stands there (`at_to`).
    pub to: Option<Sq>,
    /// Whether the run read the square `to` (and nothing else of the board).
    pub at_to: bool,
    /// The sides whose check the run asked (`in_check`), a bit each (`1 << side`): of the board,
    /// what it read besides `to`. A run kept with these holds where they are as they were (see
    /// `play::memo`); whatever else keeps runs treats them as reading outside.
    pub checks: u8,
    /// Whether the run read how many pieces of a kind or a side stand on the board (`count`,
    /// `len(pieces(side))`), which the position's piece counts tell: what `on game_end` reads in
    /// Modern Chaturanga. Only the `game_end` memo keys runs on those counts (see `play::memo`);
    /// the others treat it as reading outside.
    pub material: bool,
    /// Whether the run declared a result (`win`, `draw`): the `game_end` memo keeps it as the
    /// run's result; the others treat it as an effect beyond the globals.
    pub declares: bool,
    /// The squares besides `to` whose cells the run read one by one (`empty(sq)`), up to
    /// [`CELLS`] (more: outside), and the sides whose hand it read (`hand(side)`), a bit each
    /// (`1 << side`): a `from`, which cannot change the position, is kept with what stood there
    /// (Universal's `reserve_drops()` with a drop right: the reserve and the first rank's
    /// squares); whatever else keeps runs treats them as reading outside.
    pub cells: [Sq; CELLS],
    pub n_cells: u8,
    pub hands: u8,
}

/// Squares a run's cells read one by one are recorded at most (see [`Reads::cells`]).
pub const CELLS: usize = 12;

impl Reads {
    /// Ready for another run (values kept from the last are let go as they are written over).
    pub fn clear(&mut self) {
        self.outside = false;
        self.fields = 0;
        self.globals.len = 0;
        self.read = 0;
        self.written = 0;
        self.steps = 0;
        self.untouched = None;
        self.to = None;
        self.at_to = false;
        self.checks = 0;
        self.material = false;
        self.declares = false;
        self.n_cells = 0;
        self.hands = 0;
    }

    /// Whether the run read or did anything beyond the part's fields and the globals, besides
    /// the checks and the square `to` that the hook memos key on: what a memo that keys on
    /// neither the piece counts nor a declared result cannot keep.
    #[inline]
    pub fn beyond(&self) -> bool {
        self.beyond_board() || self.n_cells != 0 || self.hands != 0
    }

    /// [`Reads::beyond`], cells read one by one and hands aside (see [`Reads::cells`]).
    #[inline]
    pub fn beyond_board(&self) -> bool {
        self.outside || self.material || self.declares
    }

    /// The cells read one by one (see [`Reads::cells`]).
    pub fn cells(&self) -> &[Sq] {
        &self.cells[..self.n_cells as usize]
    }

    /// Whether the run's result is a function of the side to move, the globals it read and the
    /// piece counts on the board alone (see [`Reads::material`]).
    pub fn material_only(&self) -> bool {
        !self.outside
            && self.fields == 0
            && self.written == 0
            && self.untouched.is_none()
            && !self.at_to
            && self.checks == 0
            && self.n_cells == 0
            && self.hands == 0
    }

    /// A `follow` whose squares `list` the part left alone (see [`Reads::untouched`]); a second
    /// one is more than a run kept records.
    pub fn followed(&mut self, list: &Arc<Vec<Value>>) {
        if self.untouched.is_some() {
            self.outside = true;
        } else {
            self.untouched = Some(list.clone());
        }
    }

    /// A global read: its value is an input unless the run wrote it first.
    #[inline]
    pub fn global(&mut self, i: u16, v: &Value) {
        let Some(bit) = 1u64.checked_shl(i as u32) else {
            self.outside = true;
            return;
        };
        if (self.read | self.written) & bit == 0 && !self.globals.push(i, v.clone()) {
            self.outside = true;
        }
        self.read |= bit;
    }

    #[inline]
    pub fn wrote(&mut self, i: u16) {
        match 1u64.checked_shl(i as u32) {
            Some(bit) => self.written |= bit,
            None => self.outside = true,
        }
    }

    #[inline]
    pub fn field(&mut self, f: Field) {
        self.fields |= 1 << f as u32;
    }

    /// `part` itself: every field.
    pub fn whole_part(&mut self) {
        self.fields = u32::MAX;
    }

    /// A built-in called with these arguments.
    #[inline]
    pub fn builtin(&mut self, b: Builtin, args: &[Value]) {
        if let (Builtin::InCheck, [Value::Side(s)]) = (b, args) {
            self.checks |= 1 << *s as u8;
            return;
        }
        // Of the board's pieces counted per code (`Position::counts`), whatever the arguments.
        if b == Builtin::Count {
            self.material = true;
            return;
        }
        if reads_outside(b, args) {
            match (b, args) {
                (_, [Value::Square(s)]) if one_square(b) && self.to == Some(*s) => self.at_to = true,
                (_, [Value::Square(s)]) if one_square(b) => self.cell(*s),
                (Builtin::Hand, [Value::Side(side)]) => self.hands |= 1 << *side as u8,
                _ => self.outside = true,
            }
        }
    }

    /// A cell read one by one (see [`Reads::cells`]).
    fn cell(&mut self, s: Sq) {
        let n = self.n_cells as usize;
        if self.cells[..n].contains(&s) {
            return;
        }
        match self.cells.get_mut(n) {
            Some(c) => {
                *c = s;
                self.n_cells += 1;
            }
            None => self.outside = true,
        }
    }
}

/// Whether a built-in's value is its arguments' and the preset's fixed data's alone (geometry,
/// kinds, values and collections).
pub fn pure(b: Builtin) -> bool {
    use Builtin::*;
    matches!(
        b,
        PieceOf
            | FileOf
            | RankOf
            | SquareAt
            | Light
            | Kinds
            | Len
            | List
            | Set
            | Add
            | Discard
            | Keys
            | Get
            | Put
            | Abs
            | Min
            | Max
            | Str
            | Range
    )
}

/// Whether a built-in given a square reads nothing of the position but that square's cell.
fn one_square(b: Builtin) -> bool {
    use Builtin::*;
    matches!(b, PieceAt | Empty | Exists | SideOf | KindOf | IsRoyal | ValueOf | LabelOf | NameOf)
}

/// Whether a built-in reads (or changes) anything but its arguments and the preset's fixed data
/// (kinds, geometry): the board, hands, the history, the game's numbers.
fn reads_outside(b: Builtin, args: &[Value]) -> bool {
    use Builtin::*;
    match b {
        _ if pure(b) => false,
        // Recorded by `follow` itself: see `Reads::followed`.
        Follow => false,
        // Of a piece or kind, fixed; of a square, what stands there.
        SideOf | KindOf | LabelOf | NameOf | IsRoyal | ValueOf => args.iter().any(|v| matches!(v, Value::Square(_))),
        _ => true,
    }
}

/// Whether `part` leaves every square of `list` alone and each holds a piece on `cells`: then
/// `follow` gives each square back as it is. `cells` may be the board before the part or after
/// it (they differ only on the squares the part names, which fail here), unless the part has
/// effects beyond those squares (an explosion), which the caller rules out.
#[inline]
pub fn untouched(part: &PartVal, list: &[Value], cells: &[u8]) -> bool {
    let rook = part.rook.unwrap_or((part.from, part.from));
    list.iter().all(|v| match *v {
        Value::Square(s) => {
            s != part.from
                && s != part.to
                && s != part.captured_on
                && s != rook.0
                && s != rook.1
                && crate::engine::board::cell::is_piece(cells[s.idx()])
        }
        _ => false,
    })
}
