//! A scripted turn's move-or-drop part counted with bitboards at perft's last ply
//! ([`Position::count_moves`], [`Position::count_drops`]): when every legal candidate of the part
//! is sure to make one turn, by the same reasoning the turn generator's leaf counting uses for
//! each candidate (see `turngen::Countable` and `Gen::alone`), the candidates are counted without
//! being listed, played or judged one by one.

use crate::engine::position::Position;
use crate::engine::side::Side;
use crate::preset::Preset;
use crate::syntax::script::PartKind;

/// Whether a part of these kinds can be counted with bitboards at all: moves and drops only, whose
/// hooks and the turn's end hooks can neither refuse a turn nor change the board, judged by royal
/// safety alone (checks allowed) or not at all (moves only), on a board the preset's bitboards
/// describe.
pub fn fits(preset: &Preset, kinds: &[PartKind]) -> bool {
    let inert = &preset.script.inert;
    preset.bits.is_some()
        && (preset.royal_safety || !kinds.contains(&PartKind::Drop))
        && !preset.no_checks
        && inert.end
        && !kinds.is_empty()
        && kinds.iter().all(|&k| matches!(k, PartKind::Move | PartKind::Drop) && inert.part[k as usize])
}

/// Whether the kinds have no hooks at all (`before`, `validate`, `after`, and `capture` for a
/// move): a candidate then writes no variable, so what a later part's `from` found from the
/// variables alone still holds after it.
pub fn hookless(preset: &Preset, kinds: &[PartKind]) -> bool {
    let h = &preset.script.hooks;
    kinds.iter().all(|&k| {
        let k = k as usize;
        h.before[k].is_none() && h.validate[k].is_none() && h.after[k].is_none()
    }) && (h.capture.is_none() || !kinds.contains(&PartKind::Move))
}

/// The legal candidates of a move-or-drop part on this board, each one turn: the legal moves (as
/// the move part lists them) and the drops of the kinds in hand on the empty squares their zones
/// allow that leave the royal piece unattacked. `None` when the bitboards cannot tell.
pub fn count(pos: &mut Position, preset: &Preset, kinds: &[PartKind]) -> Option<u64> {
    let mut n = 0;
    if kinds.contains(&PartKind::Move) {
        n += pos.count_moves(preset)?;
    }
    if kinds.contains(&PartKind::Drop) {
        n += pos.count_drops(preset, hand_kinds(pos, pos.side))?.0;
    }
    Some(n)
}

/// A bit per kind in `side`'s hand: read in increasing order, the kinds held, sorted and each
/// once (the drops and discards the turn generator lists, and the drops counted here, go so).
#[inline]
pub fn hand_kinds(pos: &Position, side: Side) -> u64 {
    pos.hands[side].iter().fold(0u64, |m, &k| m | 1u64 << (k & 63))
}
