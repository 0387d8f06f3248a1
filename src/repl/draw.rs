//! The REPL's board for people: labels or chess glyphs, light and dark squares, holes, hands, the last turn.

use crate::display;
use crate::engine::board::{Sq, cell};
use crate::engine::turn::TurnPart;
use crate::engine::{Position, Side};
use crate::game::Game;
use crate::preset::{Kind, Preset};

/// How the board may be drawn: ANSI colour and Unicode glyphs only on a terminal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    pub colour: bool,
    pub glyphs: bool,
}

const LIGHT: u8 = 180;
const DARK: u8 = 137;
const LIGHT_LAST: u8 = 186;
const DARK_LAST: u8 = 143;

/// The FIDE pieces that have a Unicode glyph: name, label, glyph. Both sides use the solid
/// glyph, told apart by colour (glyphs are drawn only when colour is, on a terminal).
const GLYPHS: &[(&str, &str, char)] = &[
    ("King", "K", '♚'),
    ("Queen", "Q", '♛'),
    ("Rook", "R", '♜'),
    ("Bishop", "B", '♝'),
    ("Knight", "N", '♞'),
    ("Pawn", "P", '♟'),
];

fn glyph(kind: &Kind) -> Option<char> {
    GLYPHS.iter().find(|g| g.0 == kind.name && g.1 == kind.labels.0[0]).map(|g| g.2)
}

/// The whole picture: board with hands and side to move beside it, then the last turn and what was said.
pub fn board(game: &Game, style: Style) -> String {
    let (p, pos) = (&game.preset, &game.pos);
    let last = last_squares(game);
    let mut rows = grid(p, pos, style, &last);
    let side_notes = [
        (1, format!("{}: {}", Side::Black, hand(p, pos, Side::Black))),
        (rows.len() / 2, format!("{} to move", pos.side)),
        (rows.len() - 2, format!("{}: {}", Side::White, hand(p, pos, Side::White))),
    ];
    for (i, note) in side_notes {
        if let Some(r) = rows.get_mut(i) {
            r.push_str("   ");
            r.push_str(&note);
        }
    }
    let mut out = rows.join("\n");
    if !style.colour
        && let Some(t) = game.played.last()
    {
        out.push_str(&format!("\nlast: {}", t.text));
    }
    for m in game.said() {
        out.push_str(&format!("\nsaid: {m}"));
    }
    let state = display::state(p, pos);
    if !state.is_empty() {
        out.push('\n');
        out.push_str(state.trim_end());
    }
    out
}

fn hand(p: &Preset, pos: &Position, side: Side) -> String {
    let h = &pos.hands[side];
    if h.is_empty() {
        return "-".into();
    }
    h.iter().map(|&k| p.kinds[k as usize].labels[side].clone()).collect::<Vec<_>>().join(" ")
}

/// The squares the last turn touched, to highlight.
fn last_squares(game: &Game) -> Vec<Sq> {
    let Some(t) = game.played.last() else { return Vec::new() };
    t.turn
        .parts()
        .iter()
        .flat_map(|p| match *p {
            TurnPart::Move(m) => vec![m.from, m.to],
            TurnPart::Remove(s) | TurnPart::Drop(_, s) | TurnPart::Construct(s) | TurnPart::Destroy(s) => vec![s],
            TurnPart::Discard(_) => vec![],
        })
        .collect()
}

/// File letters, then one line per rank from the top, then the letters again.
fn grid(p: &Preset, pos: &Position, style: Style, last: &[Sq]) -> Vec<String> {
    let g = &p.geo;
    let shown = |k: &Kind| if style.glyphs && glyph(k).is_some() { 1 } else { k.labels.0[0].len() };
    let width = p.kinds.iter().map(shown).max().unwrap_or(1);
    let rank_w = g.ranks.to_string().len();
    let files: String = (0..g.files).map(|f| format!(" {:^width$} ", (b'a' + f as u8) as char)).collect();
    let letters = format!("{:>rank_w$} {files}", "").trim_end().to_string();
    let mut rows = vec![letters.clone()];
    for rank in (0..g.ranks).rev() {
        let mut line = format!("{:>rank_w$} ", rank + 1);
        for file in 0..g.files {
            let sq = g.square(file, rank);
            line.push_str(&square(p, pos, sq, style, width, last.contains(&sq)));
        }
        line.push_str(&format!(" {}", rank + 1));
        rows.push(line);
    }
    rows.push(letters);
    rows
}

/// One square, three columns or more: ` P `, ` . ` (light) / ` : ` (dark) when empty, blank when missing.
fn square(p: &Preset, pos: &Position, sq: Sq, style: Style, width: usize, last: bool) -> String {
    let c = pos.cells[sq as usize];
    let light = p.geo.is_light(sq);
    let text = match c {
        cell::HOLE => " ".to_string(),
        cell::EMPTY if style.colour => " ".to_string(),
        cell::EMPTY if light => ".".to_string(),
        cell::EMPTY => ":".to_string(),
        _ => piece(p, c, style),
    };
    let body = format!(" {text:^width$} ");
    if !style.colour || c == cell::HOLE {
        return body;
    }
    let bg = match (light, last) {
        (true, false) => LIGHT,
        (false, false) => DARK,
        (true, true) => LIGHT_LAST,
        (false, true) => DARK_LAST,
    };
    let fg = if cell::is_piece(c) && cell::side(c) == Side::White { "1;38;5;231" } else { "1;38;5;16" };
    format!("\x1b[48;5;{bg};{fg}m{body}\x1b[0m")
}

fn piece(p: &Preset, c: u8, style: Style) -> String {
    match glyph(&p.kinds[cell::kind(c)]) {
        Some(g) if style.glyphs => g.to_string(),
        _ => p.label_of(c).to_string(),
    }
}
