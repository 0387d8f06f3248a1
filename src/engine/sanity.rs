//! Warnings about a position typed as a FEN that the rules allow but that is seldom meant: a side
//! without its royal piece, the side not to move in check, a promoting piece on its own first rank.
//! Warnings, not errors: some variants and studies need such positions.

use super::board::{Sq, cell};
use super::{Position, Side};
use crate::preset::Preset;

/// What looks wrong in a position, one sentence each; empty when nothing does.
pub fn warnings(preset: &Preset, pos: &Position) -> Vec<String> {
    let mut out = Vec::new();
    let g = &preset.geo;
    let royal = preset.kinds.iter().find(|k| k.royal);
    if let Some(royal) = royal {
        for side in [Side::White, Side::Black] {
            // A side that starts without one (horde's White) is not warned about.
            let starts_with =
                |c: &u8| cell::is_piece(*c) && cell::side(*c) == side && preset.kinds[cell::kind(*c)].royal;
            if !preset.setup_cells.is_empty() && !preset.setup_cells.iter().any(starts_with) {
                continue;
            }
            let has = pos
                .cells
                .iter()
                .any(|&c| cell::is_piece(c) && cell::side(c) == side && preset.kinds[cell::kind(c)].royal);
            if !has {
                out.push(format!("{side} has no royal piece ({} or another) on the board", royal.name));
            }
        }
        let waiting = pos.side.other();
        if preset.royal_safety && pos.in_check(preset, waiting) {
            out.push(format!(
                "{waiting}, not to move, is in check: {} could take the {} at once",
                pos.side, royal.name
            ));
        }
    }
    for sq in 0..pos.cells.len() {
        let c = pos.cells[sq];
        let Some(Some(promo)) = preset.promotions.get(cell::kind(c)).filter(|_| cell::is_piece(c)) else {
            continue;
        };
        let side = cell::side(c);
        let first = if side == Side::White { 0 } else { g.ranks - 1 };
        // Unless the setup puts such a piece on that rank too (horde's pawns).
        let in_setup = preset.setup_cells.iter().enumerate().any(|(s, &sc)| {
            sc == cell::code(c) && g.rank(Sq::new(s)) == first && preset.geo.squares.contains(&Sq::new(s))
        });
        // Where the zone takes in the first rank too (Kyoto shogi's whole board), pieces stand there.
        if g.rank(Sq::new(sq)) == first && !in_setup && !promo.zone[side][sq] {
            out.push(format!(
                "the {} on {} stands on {side}'s first rank",
                preset.kinds[cell::kind(c)].name,
                g.name(Sq::new(sq))
            ));
        }
    }
    out
}
