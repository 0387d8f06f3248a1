//! `herald qscores`: the quiescence score of many positions at once, from White's view, under the
//! weights in force (`--eval-weights`): what `bench/tune.py` fits the evaluation's weights with.

use super::Searcher;
use crate::engine::Side;
use crate::preset::Preset;
use std::io::{BufRead, Write};
use std::sync::Arc;

/// Read one extended FEN per line from `input` (anything after a tab is ignored, so a data set's
/// lines can be given whole; empty lines and `#` lines are skipped) and write one score per line
/// to `out`. Returns how many positions were scored; a FEN that does not parse is an error with
/// its line number.
pub fn qscores(p: &Arc<Preset>, input: impl BufRead, out: &mut impl Write) -> Result<usize, String> {
    let mut searcher = Searcher::new();
    let mut n = 0;
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("line {}: {e}", i + 1))?;
        let fen = line.split('\t').next().unwrap_or("").trim();
        if fen.is_empty() || fen.starts_with('#') {
            continue;
        }
        let mut pos = crate::play::fen::parse(p, fen).map_err(|e| format!("line {}: {e}", i + 1))?;
        let score = searcher.quiet_score(p, &mut pos).map_err(|e| format!("line {}: {e}", i + 1))?;
        let white = if pos.side == Side::White { score } else { -score };
        writeln!(out, "{white}").map_err(|e| e.to_string())?;
        n += 1;
    }
    Ok(n)
}
