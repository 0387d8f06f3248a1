//! Static evaluation: the preset's declared piece values (board and hands), a little mobility, and
//! the preset's own `fn evaluate` when it has one. Scores are from the side to move's view.

use crate::engine::board::cell;
use crate::engine::position::mflag;
use crate::engine::{Move, Position, Side};
use crate::preset::Preset;
use crate::script::{Interp, Outcome, ScriptError, Value};

/// Score units per unit of declared piece value: `value 1` is worth 100.
pub const UNIT: i32 = 100;
/// Score per pseudo-legal move more than the opponent has.
const MOBILITY: i32 = 2;

/// Piece values by cell code, and a move buffer for counting mobility, built once per search.
pub struct Evaluator {
    values: [i32; 128],
    /// `(kind, white code, black code, value)` of every kind with a non-zero value.
    valued: Vec<(usize, u8, u8, i32)>,
    buf: Vec<Move>,
    /// Per side, the codes of its officers: kinds neither royal nor promotable (not pawns or men).
    officers: [Vec<u8>; 2],
    /// Whether the side to move had a capturing move, as found by the last evaluation.
    pub could_capture: bool,
}

impl Evaluator {
    pub fn new(preset: &Preset) -> Evaluator {
        let mut values = [0; 128];
        let mut valued = Vec::new();
        let mut officers = [Vec::new(), Vec::new()];
        for (k, kind) in preset.kinds.iter().enumerate() {
            if !kind.royal && preset.promotions.get(k).is_none_or(|pr| pr.is_none()) {
                for s in Side::BOTH {
                    officers[s.index()].push(cell::piece(k, s));
                }
            }
            let v = kind.value * UNIT;
            let (w, b) = (cell::piece(k, Side::White), cell::piece(k, Side::Black));
            values[w as usize] = v;
            values[b as usize] = v;
            if v != 0 {
                valued.push((k, w, b, v));
            }
        }
        Evaluator { values, valued, buf: Vec::with_capacity(256), officers, could_capture: true }
    }

    /// Whether `side` has an officer on the board or a piece in hand: then passing is rarely its
    /// best turn, and null-move pruning is sound enough.
    pub fn has_officers(&self, pos: &Position, side: Side) -> bool {
        !pos.hands[side].is_empty() || self.officers[side.index()].iter().any(|&c| pos.counts[c as usize] > 0)
    }

    /// The declared value of the piece in a cell (0 for an empty cell).
    #[inline]
    pub fn value_of(&self, c: u8) -> i32 {
        self.values[cell::code(c) as usize]
    }

    /// The whole evaluation for the side to move: built-in terms, then the preset's function.
    pub fn evaluate(&mut self, preset: &Preset, pos: &mut Position) -> Result<i32, ScriptError> {
        let base = self.material(pos) + self.mobility(preset, pos);
        match preset.script.evaluate {
            Some(i) => scripted(preset, pos, i, base),
            None => Ok(base),
        }
    }

    /// Material on the board and in hand, White minus Black, seen from the side to move.
    pub fn material(&self, pos: &Position) -> i32 {
        let mut s = 0;
        for &(_, w, b, v) in &self.valued {
            s += (pos.counts[w as usize] as i32 - pos.counts[b as usize] as i32) * v;
        }
        for (side, sign) in [(Side::White, 1), (Side::Black, -1)] {
            for &k in &pos.hands[side] {
                s += sign * self.values[cell::piece(k as usize, side) as usize];
            }
        }
        if pos.side == Side::White { s } else { -s }
    }

    /// Pseudo-legal moves of the side to move minus the opponent's.
    fn mobility(&mut self, preset: &Preset, pos: &mut Position) -> i32 {
        self.buf.clear();
        pos.pseudo_moves(preset, &mut self.buf);
        let ours = self.buf.len() as i32;
        self.could_capture = self.buf.iter().any(|m| m.flags & (mflag::CAPTURE | mflag::EP) != 0);
        let us = pos.side;
        pos.side = us.other();
        self.buf.clear();
        pos.pseudo_moves(preset, &mut self.buf);
        pos.side = us;
        (ours - self.buf.len() as i32) * MOBILITY
    }
}

/// Run `fn evaluate`: with no parameter its result is added to `base`; with one it gets `base` and
/// its result replaces it.
fn scripted(preset: &Preset, pos: &mut Position, i: usize, base: i32) -> Result<i32, ScriptError> {
    let body = &preset.script.funcs[i];
    let (args, extend) = if body.params == 0 { (Vec::new(), true) } else { (vec![Value::Int(base as i64)], false) };
    let mut it = Interp::new(preset, pos, &body.name);
    let v = match it.run(body, args)? {
        Outcome::Done(v) => v,
        Outcome::Rejected(_) => return Err(ScriptError::new(body.span, "`evaluate` may not reject")),
    };
    let Value::Int(n) = v else {
        return Err(ScriptError::new(body.span, format!("`evaluate` must return an int, not {}", v.type_name())));
    };
    let n = n.clamp(-super::limits::MATE_BOUND as i64 + 1, super::limits::MATE_BOUND as i64 - 1) as i32;
    Ok(if extend { (base + n).clamp(-super::limits::MATE_BOUND + 1, super::limits::MATE_BOUND - 1) } else { n })
}
