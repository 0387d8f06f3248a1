//! The REPL's board for people: labels or chess glyphs, light and dark squares, holes, hands, the last turn.

use crate::display;
use crate::engine::board::{Sq, cell};
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

/// The FIDE pieces that have a Unicode glyph: name, label, moves, White's glyph (outlined) and
/// Black's (solid), so that the sides differ even where the colours are lost (a copied board).
/// A pawn's moves are checked apart (with or without its double step).
const GLYPHS: &[(&str, &str, &str, char, char)] = &[
    ("King", "K", "K", '♔', '♚'),
    ("Queen", "Q", "Q", '♕', '♛'),
    ("Rook", "R", "R", '♖', '♜'),
    ("Bishop", "B", "B", '♗', '♝'),
    ("Knight", "N", "N", '♘', '♞'),
    ("Pawn", "P", "", '♙', '♟'),
];

/// A glyph only for a piece that is the FIDE piece: its name, its label and its moves (a `Knight`
/// that rides as a nightrider is drawn as its label).
pub fn glyph(kind: &Kind, side: Side) -> Option<char> {
    let g = GLYPHS.iter().find(|g| g.0 == kind.name && g.1 == kind.labels.0[0])?;
    let fide = if g.0 == "Pawn" { pawn_moves(&kind.betza) } else { kind.betza == g.2 };
    fide.then_some(if side == Side::White { g.3 } else { g.4 })
}

/// A pawn's moves: a step forward without capturing, a diagonal capture forward, and perhaps the
/// initial double step and en passant; nothing else.
fn pawn_moves(betza: &str) -> bool {
    let rest = ["ifmnD", "fmnDi", "fmWfceF", "fmWfcF", "fmW", "fceF", "fcF", "fmnD"]
        .iter()
        .fold(betza.to_string(), |s, part| s.replacen(part, "", 1));
    rest.is_empty() && betza.contains("fmW") && betza.contains("fc")
}

/// The whole picture: board with hands and side to move beside it, then the last turn and what was said.
pub fn board(game: &Game, style: Style) -> String {
    let (p, pos) = (&game.preset, &game.pos);
    let last = game.last_squares();
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

/// File letters, then one line per rank from the top, then the letters again.
fn grid(p: &Preset, pos: &Position, style: Style, last: &[Sq]) -> Vec<String> {
    let g = &p.geo;
    let shown = |k: &Kind| if style.glyphs && glyph(k, Side::White).is_some() { 1 } else { k.labels.0[0].len() };
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
    let c = pos.cells[sq.idx()];
    let light = p.geo.is_light(sq);
    let text = match c {
        cell::HOLE => " ".to_string(),
        // A dot even in colour, so that a board copied without its colours still shows which
        // squares exist (a board with holes, like Constructing Chess's).
        cell::EMPTY if style.glyphs => "·".to_string(),
        cell::EMPTY if style.colour => ".".to_string(),
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
    match glyph(&p.kinds[cell::kind(c)], cell::side(c)) {
        Some(g) if style.glyphs => g.to_string(),
        _ => p.label_of(c).to_string(),
    }
}
