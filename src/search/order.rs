//! Move ordering: the table's turn first, then captures (most valuable victim, least valuable
//! attacker), promotions, killer turns, and the rest in generation order.

use super::eval::Evaluator;
use crate::engine::board::cell;
use crate::engine::position::mflag;
use crate::engine::turn::{Turn, TurnPart};
use crate::engine::{Move, Position};

const TT_TURN: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const KILLER: i32 = 1 << 20;
/// A royal piece taken outranks any other victim (its declared value is often 0).
const ROYAL_VICTIM: i32 = 1 << 16;

/// The first move part of a turn that captures, if any: what makes it a capture for quiescence.
#[inline]
pub fn capture_move(t: &Turn) -> Option<Move> {
    t.parts().iter().find_map(|p| match p {
        TurnPart::Move(m) if m.flags & (mflag::CAPTURE | mflag::EP) != 0 => Some(*m),
        _ => None,
    })
}

/// Ordering scores for `turns`, higher first.
pub fn score(
    ev: &Evaluator,
    pos: &Position,
    turns: &[Turn],
    tt: Option<Turn>,
    killers: &[Option<Turn>; 2],
    out: &mut Vec<i32>,
) {
    out.clear();
    out.extend(turns.iter().map(|t| {
        if Some(*t) == tt {
            return TT_TURN;
        }
        let mut s = capture_move(t).map_or(0, |m| CAPTURE + mvv_lva(ev, pos, m));
        s += t.moves().map(|m| if m.promo != 0 { ev.value_of(m.promo) } else { 0 }).sum::<i32>();
        s += removed_enemy(ev, pos, t);
        if s == 0 {
            if killers[0] == Some(*t) {
                s = KILLER + 1;
            } else if killers[1] == Some(*t) {
                s = KILLER;
            }
        }
        s
    }));
}

#[inline]
fn mvv_lva(ev: &Evaluator, pos: &Position, m: Move) -> i32 {
    let at = if m.flags & mflag::EP != 0 { pos.ep.victim } else { m.to };
    let victim = pos.cells[at as usize];
    let v = if cell::is_piece(victim) && pos.is_royal_code(victim) { ROYAL_VICTIM } else { ev.value_of(victim) };
    v * 16 - ev.value_of(pos.cells[m.from as usize]) / 16
}

/// A part that removes an enemy piece (huffing, say) wins material like a capture.
#[inline]
fn removed_enemy(ev: &Evaluator, pos: &Position, t: &Turn) -> i32 {
    t.parts()
        .iter()
        .map(|p| match p {
            TurnPart::Remove(sq) if cell::is_side(pos.cells[*sq as usize], pos.side.other()) => {
                CAPTURE + ev.value_of(pos.cells[*sq as usize]) * 16
            }
            _ => 0,
        })
        .sum()
}

/// Move the best-scored turn from `i..` to `i` (a selection sort, one step per turn tried).
#[inline]
pub fn pick(turns: &mut [Turn], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..turns.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    turns.swap(i, best);
    scores.swap(i, best);
}

/// Remember a quiet turn that caused a cutoff at this ply.
pub fn add_killer(killers: &mut [Option<Turn>; 2], t: Turn) {
    if killers[0] != Some(t) {
        killers[1] = killers[0];
        killers[0] = Some(t);
    }
}
