//! Text pictures of a position: the board diagram used by `herald show` and the REPL.

use crate::engine::board::cell;
use crate::engine::{Position, Side};
use crate::preset::Preset;
use std::fmt::Write as _;

/// A plain-text diagram: ranks from the top, `.` for an empty square, `*` for a missing one.
pub fn diagram(preset: &Preset, pos: &Position) -> String {
    let g = &preset.geo;
    let width = preset.kinds.iter().map(|k| k.labels.0[0].len()).max().unwrap_or(1);
    let rank_w = g.ranks.to_string().len();
    let mut out = String::new();
    for rank in (0..g.ranks).rev() {
        let _ = write!(out, "{:>rank_w$} ", rank + 1);
        for file in 0..g.files {
            let c = pos.cells[g.square(file, rank).idx()];
            let s = match c {
                cell::EMPTY => ".".to_string(),
                cell::HOLE => "*".to_string(),
                _ => preset.label_of(c).to_string(),
            };
            let _ = write!(out, " {s:<width$}");
        }
        out.push('\n');
    }
    let _ = write!(out, "{:>rank_w$} ", "");
    for file in 0..g.files {
        let _ = write!(out, " {:<width$}", (b'a' + file as u8) as char);
    }
    out.push('\n');
    out
}

/// Pieces in hand, e.g. `white: Q R  black: -`.
pub fn hands(preset: &Preset, pos: &Position) -> String {
    Side::BOTH
        .iter()
        .map(|&s| {
            let h = &pos.hands[s];
            let list = if h.is_empty() {
                "-".to_string()
            } else {
                h.iter().map(|&k| preset.kinds[k as usize].labels[s].clone()).collect::<Vec<_>>().join(" ")
            };
            format!("{s}: {list}")
        })
        .collect::<Vec<_>>()
        .join("  ")
}

/// The preset's state variables that differ from their start values, one line: `state: name=value ...`.
pub fn state(preset: &Preset, pos: &Position) -> String {
    let items: Vec<String> = preset
        .script
        .globals
        .iter()
        .enumerate()
        .filter(|(_, g)| g.state)
        .map(|(i, g)| format!("{}={}", g.name, pos.state[i].show(preset)))
        .collect();
    if items.is_empty() { String::new() } else { format!("state: {}\n", items.join(" ")) }
}
