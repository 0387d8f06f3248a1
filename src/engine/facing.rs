//! Passes (`passes`) and royal pieces facing each other (`facing break`, `end facing`, `end passes`).

use super::board::cell;
use super::position::{Move, Position};
use super::side::Side;
use crate::preset::Preset;

impl Position {
    /// Whether the last `n` turns each left the board as it was (passes).
    pub fn last_turns_passed(&self, n: usize) -> bool {
        let k = self.undos.len();
        k >= n && self.undos[k - n..].iter().all(|u| u.changes as usize == self.changes.len())
    }

    /// Whether each side has exactly one royal piece and the two stand on one file or rank with
    /// nothing between them.
    pub fn royals_facing(&self, preset: &Preset) -> bool {
        let (Some(a), Some(b)) = (self.royal_square(Side::White), self.royal_square(Side::Black)) else {
            return false;
        };
        let g = &preset.geo;
        let (af, ar, bf, br) = (g.file(a) as i32, g.rank(a) as i32, g.file(b) as i32, g.rank(b) as i32);
        if af != bf && ar != br {
            return false;
        }
        let step = g.delta((bf - af).signum(), (br - ar).signum());
        let mut s = a.idx() as i32 + step;
        while s != b.idx() as i32 {
            if self.cells[s as usize] != cell::EMPTY {
                return false;
            }
            s += step;
        }
        true
    }

    /// A pass: the piece stays on its square.
    #[inline]
    pub fn is_pass(m: &Move) -> bool {
        m.from == m.to
    }

    /// Pass moves of the side to move's pieces that may pass.
    pub(super) fn pass_moves(&self, preset: &Preset, out: &mut Vec<Move>) {
        let kinds = preset.movement.pass_kinds;
        for sq in self.occupied_by(self.side) {
            if kinds >> cell::kind(self.cells[sq.idx()]) & 1 != 0 {
                out.push(Move { from: sq, to: sq, promo: 0, flags: 0, extra: 0, gate: 0 });
            }
        }
    }

    /// `facing break`, when the royal pieces face each other: keep the passes (even in check) and
    /// the moves that part them and are otherwise legal.
    pub(super) fn facing_moves(&mut self, preset: &Preset, out: &mut Vec<Move>) {
        let passes: Vec<Move> = out.iter().copied().filter(Position::is_pass).collect();
        out.retain(|m| !Position::is_pass(m));
        let us = self.side;
        out.retain(|&m| {
            self.make(preset, m);
            let parted = !self.royals_facing(preset);
            let ok = parted && (!preset.royal_safety || !self.in_check(preset, us));
            self.unmake();
            ok
        });
        out.extend(passes);
    }
}
