//! The board, the hands and the movement diagrams as SVG text, drawn from the preset: its size, its
//! holes, its light and dark squares, figures for the FIDE pieces and labelled tokens for the rest.
//!
//! The page's contract (docs/web.md) lives here: `data-square` on every existing square,
//! `data-piece`/`data-side` on a piece inside it, `data-hand` on a piece in hand, `data-hole` on a
//! missing square (a click target when a turn may build it).

use crate::engine::board::{Sq, cell};
use crate::engine::position::mflag;
use crate::engine::{Position, Side};
use crate::preset::{Kind, Preset};
use crate::repl::draw::glyph;
use std::fmt::Write as _;

/// The side of a square, in SVG units (the page scales the drawing to fit).
const S: usize = 60;
/// Room for the rank numbers on the left and the file letters below.
const MARGIN: usize = 26;

/// Escape text for XML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// A piece drawn in a box of `size` with its top left corner at the origin: the FIDE figure as a
/// glyph (a solid one, outlined for White), any other piece as a round token with its label.
fn piece(kind: &Kind, side: Side, label: &str, size: usize) -> String {
    let (c, f) = (size as f64 / 2.0, size as f64);
    let mut out = String::new();
    let _ = write!(out, "<title>{} {}</title>", side_name(side), esc(&kind.name));
    if let (Some(solid), Some(outline)) = (glyph(kind, Side::Black), glyph(kind, Side::White)) {
        let y = f * 0.80;
        let fs = f * 0.82;
        if side == Side::White {
            let _ = write!(
                out,
                "<text class=\"fig\" x=\"{c}\" y=\"{y}\" font-size=\"{fs}\" fill=\"#fff\">{solid}</text>\
                 <text class=\"fig\" x=\"{c}\" y=\"{y}\" font-size=\"{fs}\" fill=\"#111\">{outline}</text>"
            );
        } else {
            let _ =
                write!(out, "<text class=\"fig\" x=\"{c}\" y=\"{y}\" font-size=\"{fs}\" fill=\"#111\">{solid}</text>");
        }
        return out;
    }
    let (fill, stroke, ink) =
        if side == Side::White { ("#fbf7ea", "#3a3a3a", "#222") } else { ("#33302c", "#000", "#f6efdc") };
    let r = f * 0.38;
    let fs = match label.chars().count() {
        0 | 1 => f * 0.44,
        2 => f * 0.34,
        3 => f * 0.26,
        _ => f * 0.20,
    };
    let _ = write!(
        out,
        "<circle cx=\"{c}\" cy=\"{c}\" r=\"{r}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{sw}\"/>\
         <text class=\"tok\" x=\"{c}\" y=\"{c}\" dy=\"0.35em\" font-size=\"{fs}\" fill=\"{ink}\">{}</text>",
        esc(label),
        sw = f * 0.04,
    );
    out
}

/// The piece in a cell, with its contract attributes.
fn cell_piece(p: &Preset, c: u8, size: usize) -> String {
    let (kind, side) = (&p.kinds[cell::kind(c)], cell::side(c));
    let label = p.label_of(c);
    format!(
        "<g class=\"pc\" data-piece=\"{}\" data-side=\"{}\">{}</g>",
        esc(label),
        side_name(side),
        piece(kind, side, label, size)
    )
}

/// The whole board: every square of the rectangle (holes blank but clickable), its pieces, the
/// squares of the last turn marked, file letters and rank numbers.
pub fn board(p: &Preset, pos: &Position, last: &[Sq]) -> String {
    let g = &p.geo;
    let (w, h) = (MARGIN + g.files * S + 4, g.ranks * S + MARGIN + 4);
    let mut out = format!(
        "<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" \
         data-files=\"{}\" data-ranks=\"{}\" role=\"img\" aria-label=\"the board\">",
        g.files, g.ranks
    );
    for rank in (0..g.ranks).rev() {
        for file in 0..g.files {
            let sq = g.square(file, rank);
            let name = g.name(sq);
            let (x, y) = (MARGIN + file * S, (g.ranks - 1 - rank) * S);
            let c = pos.cells[sq.idx()];
            let shade = if g.is_light(sq) { "light" } else { "dark" };
            let last = if last.contains(&sq) { " last" } else { "" };
            if c == cell::HOLE || c == cell::OFF {
                let _ = write!(
                    out,
                    "<g class=\"hole {shade}\" data-hole=\"{name}\" transform=\"translate({x},{y})\">\
                     <rect class=\"bg\" width=\"{S}\" height=\"{S}\"/><circle class=\"dot\" cx=\"{c2}\" cy=\"{c2}\" r=\"{r}\"/></g>",
                    c2 = S / 2,
                    r = S / 6,
                );
                continue;
            }
            let _ = write!(
                out,
                "<g class=\"sq {shade}{last}\" data-square=\"{name}\" transform=\"translate({x},{y})\">\
                 <rect class=\"bg\" width=\"{S}\" height=\"{S}\"/><rect class=\"mark\" width=\"{S}\" height=\"{S}\"/>"
            );
            if cell::is_piece(c) {
                out.push_str(&cell_piece(p, c, S));
            }
            let _ = write!(out, "<circle class=\"dot\" cx=\"{c2}\" cy=\"{c2}\" r=\"{r}\"/></g>", c2 = S / 2, r = S / 6);
        }
    }
    // Labels: rank numbers left of each rank, file letters under each file.
    for rank in 0..g.ranks {
        let y = (g.ranks - 1 - rank) * S + S / 2;
        let _ = write!(out, "<text class=\"coord\" x=\"{}\" y=\"{y}\" dy=\"0.35em\">{}</text>", MARGIN / 2, rank + 1);
    }
    for file in 0..g.files {
        let x = MARGIN + file * S + S / 2;
        let _ = write!(
            out,
            "<text class=\"coord\" x=\"{x}\" y=\"{}\">{}</text>",
            g.ranks * S + MARGIN - 8,
            (b'a' + file as u8) as char
        );
    }
    out.push_str("</svg>");
    out
}

/// One side's hand as HTML: a token per kind held, with how many when more than one; empty when
/// nothing is held.
pub fn hand(p: &Preset, pos: &Position, side: Side) -> String {
    let mut held: Vec<(u8, usize)> = Vec::new();
    for &k in &pos.hands[side] {
        // A hand holds kinds; the label is the side's.
        let c = cell::piece(k as usize, side);
        match held.iter_mut().find(|(k, _)| *k == c) {
            Some((_, n)) => *n += 1,
            None => held.push((c, 1)),
        }
    }
    // One small drawing per kind held, so that a long hand wraps onto more lines.
    let size = 44;
    let mut out = String::new();
    for (c, n) in &held {
        let label = p.label_of(*c);
        let _ = write!(
            out,
            "<span class=\"hp\" data-hand=\"{s}\" data-piece=\"{l}\" data-side=\"{s}\" data-click=\"hand:{l}\">\
             <svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {size} {size}\" width=\"{size}\" height=\"{size}\">{}</svg>",
            piece(&p.kinds[cell::kind(*c)], side, label, size),
            s = side_name(side),
            l = esc(label),
        );
        if *n > 1 {
            let _ = write!(out, "<b class=\"count\">{n}</b>");
        }
        out.push_str("</span>");
    }
    out
}

/// What a piece does from one square on an otherwise empty board: where it moves, captures, and
/// which of those more than a step away it reaches even with every other square filled (a leap).
#[derive(Default)]
struct Reach {
    moves: Vec<Sq>,
    captures: Vec<Sq>,
    leaps: Vec<Sq>,
    /// Captures made only over a screen.
    screened: Vec<Sq>,
}

/// The square next to `from` on the straight line (orthogonal or diagonal) to `to`, when `to` is on
/// one and two or more squares away.
fn screen_square(p: &Preset, from: Sq, to: Sq) -> Option<Sq> {
    let g = &p.geo;
    let (dx, dy) = (g.file(to) as i32 - g.file(from) as i32, g.rank(to) as i32 - g.rank(from) as i32);
    let n = dx.abs().max(dy.abs());
    if n < 2 || !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
        return None;
    }
    g.square_checked(g.file(from) as i32 + dx.signum(), g.rank(from) as i32 + dy.signum())
}

/// A blocker to test leaps with, and a victim to test captures with: any kind that is not royal.
fn other_kind(p: &Preset) -> usize {
    p.kinds.iter().position(|k| !k.royal).unwrap_or(0)
}

fn reach_from(p: &Preset, kind: usize, from: Sq) -> Reach {
    let me = cell::with_unmoved(cell::piece(kind, Side::White));
    let victim = cell::piece(other_kind(p), Side::Black);
    let base = || {
        let mut pos = Position::empty(p);
        pos.place(&p.zobrist, from, me);
        pos
    };
    let moves_of = |pos: &Position| {
        let mut out = Vec::new();
        pos.pseudo_moves(p, &mut out);
        out
    };
    let mut r = Reach::default();
    for m in moves_of(&base()) {
        if m.from == from && m.flags & (mflag::CAPTURE | mflag::EP | mflag::DROP | mflag::CASTLE) == 0 {
            r.moves.push(m.to);
        }
    }
    r.moves.sort_unstable();
    r.moves.dedup();
    for &t in &p.geo.squares {
        if t == from {
            continue;
        }
        let mut pos = base();
        pos.place(&p.zobrist, t, victim);
        if moves_of(&pos).iter().any(|m| m.from == from && m.to == t && m.flags & mflag::CAPTURE != 0) {
            r.captures.push(t);
            continue;
        }
        // A capture over a screen (a cannon's): a piece on the first square of the line towards
        // the victim, when the victim lies on a straight line two or more squares away.
        if let Some(screen) = screen_square(p, from, t) {
            pos.place(&p.zobrist, screen, cell::piece(other_kind(p), Side::White));
            if moves_of(&pos).iter().any(|m| m.from == from && m.to == t && m.flags & mflag::CAPTURE != 0) {
                r.captures.push(t);
                r.screened.push(t);
            }
        }
    }
    // Leaps: the destinations still reached when every other square holds a piece of the mover's
    // side (a friend blocks a slide, and is not captured).
    let blocker = cell::piece(other_kind(p), Side::White);
    for &t in r.moves.iter().chain(&r.captures) {
        let mut pos = base();
        for &s in &p.geo.squares {
            if s != from && s != t {
                pos.place(&p.zobrist, s, blocker);
            }
        }
        let capture = r.captures.contains(&t) && !r.moves.contains(&t);
        if capture {
            pos.place(&p.zobrist, t, victim);
        }
        // A step to a neighbouring square passes nothing: not a leap.
        let far = p.geo.file(t).abs_diff(p.geo.file(from)).max(p.geo.rank(t).abs_diff(p.geo.rank(from))) > 1;
        if far && moves_of(&pos).iter().any(|m| m.from == from && m.to == t) && !r.leaps.contains(&t) {
            r.leaps.push(t);
        }
    }
    r
}

/// A piece's movement diagram: the preset's board, empty, the piece (White's, unmoved) on the central
/// square (or, if it cannot move from there, the square it has most moves from), its destinations
/// marked: moves, captures (over a screen, for a piece that needs one), both, and leaps.
pub fn diagram(p: &Preset, kind: usize) -> String {
    let g = &p.geo;
    let centre = g.square((g.files - 1) / 2, (g.ranks - 1) / 2);
    let mut from = centre;
    let mut r = reach_from(p, kind, centre);
    if r.moves.is_empty() && r.captures.is_empty() {
        // A piece confined to a region (a palace): the square it has the most moves from.
        let counts = g.squares.iter().map(|&s| {
            let me = cell::with_unmoved(cell::piece(kind, Side::White));
            let mut pos = Position::empty(p);
            pos.place(&p.zobrist, s, me);
            let mut out = Vec::new();
            pos.pseudo_moves(p, &mut out);
            (out.len(), s)
        });
        if let Some((n, s)) = counts.max_by_key(|&(n, s)| (n, std::cmp::Reverse(s)))
            && n > 0
        {
            from = s;
            r = reach_from(p, kind, s);
        }
    }
    let d = 30;
    let (w, h) = (g.files * d, g.ranks * d);
    let mut out = format!(
        "<svg class=\"diagram\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{}\">",
        w.min(360)
    );
    for rank in 0..g.ranks {
        for file in 0..g.files {
            let sq = g.square(file, rank);
            let (x, y) = (file * d, (g.ranks - 1 - rank) * d);
            let shade = if g.is_light(sq) { "light" } else { "dark" };
            let _ = write!(out, "<rect class=\"{shade}\" x=\"{x}\" y=\"{y}\" width=\"{d}\" height=\"{d}\"/>");
            let (cx, cy) = (x + d / 2, y + d / 2);
            let (mv, leap, screened) = (r.moves.contains(&sq), r.leaps.contains(&sq), r.screened.contains(&sq));
            // A capture over a screen is a small mark of its own, on top of a move's if any.
            let cap = r.captures.contains(&sq) && !screened;
            let class = match (mv, cap) {
                (true, true) => "both",
                (true, false) => "move",
                (false, true) => "capture",
                _ => "",
            };
            if !class.is_empty() {
                let _ = write!(
                    out,
                    "<circle class=\"{class}{}\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" data-square=\"{}\"/>",
                    if leap { " leap" } else { "" },
                    d * 3 / 10,
                    g.name(sq)
                );
            }
            if screened {
                let _ = write!(
                    out,
                    "<circle class=\"capture screened\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" data-square=\"{}\"/>",
                    d / 6,
                    g.name(sq)
                );
            }
        }
    }
    let (x, y) = (g.file(from) * d, (g.ranks - 1 - g.rank(from)) * d);
    let _ = write!(
        out,
        "<g transform=\"translate({x},{y})\" data-from=\"{}\">{}</g></svg>",
        g.name(from),
        piece(&p.kinds[kind], Side::White, &p.kinds[kind].labels[Side::White], d)
    );
    out
}
