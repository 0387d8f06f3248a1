//! Turns in engine-protocol notation (docs/engine.md): Fairy-Stockfish's coordinate moves where it
//! has a form (`e2e4`, `e7e8q`, `b2h8+`, `P@e4`, gating `e1g1h`, `h1e1h`), and for turns of several
//! parts Herald's extension: the parts joined by `,` (`i6h8,@-b14`), a part with no such form
//! written in Herald's canonical notation without spaces (`@-e4`, `-e4`, `@*Q`).
//!
//! A text is read by writing every legal turn the same way and matching, so what Herald writes a
//! client can pass back unchanged, and nothing else is taken for a turn by accident.

use crate::engine::Position;
use crate::engine::board::cell;
use crate::engine::position::{Move, mflag};
use crate::engine::turn::{Turn, TurnPart, apply_raw};
use crate::preset::Preset;

/// The letter written after a move that changes the piece (`mover` into `code`), as
/// Fairy-Stockfish writes them: `+` into a promoted kind (`+P`), `-` back into the kind a promoted
/// piece came from (shogi variants whose pieces flip), else the new kind's label in lower case (`q`).
fn promo_suffix(preset: &Preset, mover: u8, code: u8) -> String {
    let label = preset.label_of(cell::code(code));
    let (from, to) = (cell::kind(mover), cell::kind(code));
    if label.starts_with('+') {
        "+".into()
    } else if cell::is_piece(mover) && from != to && preset.demote.get(from) == Some(&(to as u8)) {
        "-".into()
    } else {
        label.trim_end_matches('~').to_ascii_lowercase()
    }
}

/// A drop's piece: its label in upper case, without a promoted kind's marker.
fn drop_label(preset: &Preset, code: u8) -> String {
    preset.label_of(cell::code(code)).trim_end_matches('~').to_ascii_uppercase()
}

/// One move part: from and to squares, then a promotion and a gated piece.
fn move_text(preset: &Preset, pos: &Position, m: Move) -> String {
    let g = &preset.geo;
    let castle = (m.flags & mflag::CASTLE != 0).then(|| &preset.castles[m.extra as usize]);
    let mut s = match castle {
        // A piece gated on the rook's square: Fairy-Stockfish writes the rook's square first.
        Some(c) if m.gate != 0 && m.flags & mflag::GATE_ROOK != 0 => {
            format!("{}{}", g.name(c.rook_from), g.name(m.from))
        }
        _ => format!("{}{}", g.name(m.from), g.name(m.to)),
    };
    if m.promo != 0 {
        s += &promo_suffix(preset, pos.cells[m.from.idx()], m.promo);
    }
    if m.gate != 0 {
        s += &drop_label(preset, m.gate).to_ascii_lowercase();
    }
    s
}

fn part_text(preset: &Preset, pos: &Position, p: TurnPart) -> String {
    let g = &preset.geo;
    match p {
        TurnPart::Move(m) => move_text(preset, pos, m),
        TurnPart::Drop(code, sq) => format!("{}@{}", drop_label(preset, code), g.name(sq)),
        TurnPart::Remove(sq) | TurnPart::Construct(sq) => format!("@-{}", g.name(sq)),
        TurnPart::Destroy(sq) => format!("-{}", g.name(sq)),
        TurnPart::Discard(code) => format!("@*{}", drop_label(preset, code)),
    }
}

/// A legal turn as an engine protocol writes it, in the position before it. A turn of no parts
/// is `0000`.
pub fn text(preset: &Preset, pos: &Position, t: &Turn) -> String {
    match t.parts() {
        [] => "0000".into(),
        [p] => part_text(preset, pos, *p),
        parts => {
            // Each part in the position the parts before it leave.
            let mut scratch = pos.clone();
            let mut out = Vec::with_capacity(parts.len());
            for &p in parts {
                out.push(part_text(preset, &scratch, p));
                apply_raw(preset, &mut scratch, p);
            }
            out.join(",")
        }
    }
}

/// The turns of a line (a principal variation), each in the position the ones before it leave
/// (played without hooks: enough to name the pieces that move). Each is a whole turn, begun and
/// ended: the side to move changes, and an en-passant square is set for the next turn (without
/// it, an en-passant capture later in the line took the wrong square, and the next turn's piece
/// could be gone: a panic).
pub fn line_text(preset: &Preset, pos: &Position, line: &[Turn]) -> String {
    let mut scratch = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for t in line {
        out.push(text(preset, &scratch, t));
        scratch.begin_turn();
        for &p in t.parts() {
            apply_raw(preset, &mut scratch, p);
        }
        scratch.end_turn(preset);
    }
    out.join(" ")
}

/// The legal turn a protocol text names: written exactly as [`text`] writes it, or else the same
/// letters in another case when that names one turn only (`E7E8Q`, `p@e4`).
pub fn find(preset: &Preset, pos: &Position, legal: &[Turn], given: &str) -> Option<Turn> {
    let texts: Vec<String> = legal.iter().map(|t| text(preset, pos, t)).collect();
    if let Some(i) = texts.iter().position(|t| t == given) {
        return Some(legal[i]);
    }
    let mut loose = texts.iter().enumerate().filter(|(_, t)| t.eq_ignore_ascii_case(given));
    match (loose.next(), loose.next()) {
        (Some((i, _)), None) => Some(legal[i]),
        _ => None,
    }
}

/// The legal turns whose text begins with `given` and goes on with more parts (`e1d2` of
/// `e1d2,@-h1`), for an error that says what is missing.
pub fn continuations(preset: &Preset, pos: &Position, legal: &[Turn], given: &str) -> Vec<String> {
    let head = format!("{given},");
    let mut out: Vec<String> = legal.iter().map(|t| text(preset, pos, t)).filter(|t| t.starts_with(&head)).collect();
    out.sort();
    out
}
