//! What the CLI and the REPL both print: a game's status, perft reports, and loading a preset with
//! its error as one line.

use crate::check;
use crate::display;
use crate::game::Game;
use crate::play::perft;
use std::sync::Arc;

/// The diagram plus side to move, hands, FEN and result: `herald show`.
pub fn status(game: &mut Game) -> Result<String, crate::game::MoveError> {
    let p = game.preset.clone();
    let result = game.result_text()?;
    let said: String = game.said().iter().map(|m| format!("said: {m}\n")).collect();
    Ok(format!(
        "{}side: {}\nhands: {}\n{}{said}fen: {}\nresult: {result}",
        display::diagram(&p, &game.pos),
        game.pos.side,
        display::hands(&p, &game.pos),
        display::state(&p, &game.pos),
        game.fen(),
    ))
}

/// Perft output as docs/formats.md fixes it.
pub fn perft_report(game: &mut Game, depth: usize, divide: bool) -> Result<String, String> {
    perft_report_with(game, depth, divide, true)
}

/// `bulk: false` plays the moves of the last ply too, for speed figures without bulk counting.
pub fn perft_report_with(game: &mut Game, depth: usize, divide: bool, bulk: bool) -> Result<String, String> {
    perft_report_threads(game, depth, divide, bulk, 1)
}

/// Perft on several threads, split at the root (the count is the same).
pub fn perft_report_threads(
    game: &mut Game,
    depth: usize,
    divide: bool,
    bulk: bool,
    threads: usize,
) -> Result<String, String> {
    let start = std::time::Instant::now();
    let preset = game.preset.clone();
    let mut out = String::new();
    let nodes = if divide {
        let mut rows = perft::divide(&mut game.pos, &preset, depth).map_err(|e| e.render(&preset))?;
        rows.sort();
        for (t, n) in &rows {
            out.push_str(&format!("{t}: {n}\n"));
        }
        rows.iter().map(|r| r.1).sum()
    } else {
        perft::parallel(&mut game.pos, &preset, depth, bulk, threads).map_err(|e| e.render(&preset))?
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { (nodes as f64 / secs) as u64 } else { 0 };
    out.push_str(&format!("perft {depth} nodes {nodes} time {secs:.3} nps {nps}"));
    Ok(out)
}

/// Load a preset for the REPL or the CLI, as an `Arc`.
pub fn load(spec: &str) -> Result<Arc<crate::preset::Preset>, check::LoadError> {
    check::load(spec).map(Arc::new)
}

/// A load error as one line: the first diagnostic's headline, and how many more there are. The
/// headline's own `error: ` goes, since whoever shows the line says `error: ` before it.
pub fn load_error_line(e: &check::LoadError) -> String {
    let heads: Vec<String> = e.headlines().map(|(at, message)| format!("{at}: {message}")).collect();
    match heads.as_slice() {
        [] => "the preset did not load".to_string(),
        [one] => one.to_string(),
        [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
    }
}
