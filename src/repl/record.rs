//! Games kept and brought back: the numbered history, `save` and `open` as sample-game YAML, `reload`.

use crate::game::Game;
use crate::games::{self, Step};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Every turn of the game as typed again: the played turns, then a resignation if there was one.
fn turn_texts(game: &Game) -> Vec<String> {
    let mut texts: Vec<String> = game.played.iter().map(|p| p.text.clone()).collect();
    if game.declared.is_some() {
        texts.push("resign".into());
    }
    texts
}

/// `1 turn`, `2 turns`.
fn turns(n: usize) -> String {
    if n == 1 { "1 turn".into() } else { format!("{n} turns") }
}

/// `1. P e2-e4 p e7-e5`, `2. N g1-f3`: one line per move number, as the FEN counts them
/// (`1... p e7-e5` when the game began with Black to move).
pub fn numbered(game: &Game) -> Vec<String> {
    let (mut number, mut side) = match crate::play::fen::parse(&game.preset, &game.start_fen) {
        Ok(p) => (p.fullmove, p.side),
        Err(_) => (1, crate::engine::Side::White),
    };
    let mut lines: Vec<String> = Vec::new();
    for t in turn_texts(game) {
        match side {
            crate::engine::Side::White => lines.push(format!("{number}. {t}")),
            crate::engine::Side::Black => {
                match lines.last_mut() {
                    Some(line) if line.starts_with(&format!("{number}. ")) => line.push_str(&format!(" {t}")),
                    _ => lines.push(format!("{number}... {t}")),
                }
                number += 1;
            }
        }
        side = side.other();
    }
    lines
}

/// The start FEN when it is not the preset's own setup.
fn custom_start(game: &Game) -> Option<&str> {
    (game.start_fen != game.preset.setup).then_some(game.start_fen.as_str())
}

/// Replay turns on a fresh game; the first that fails ends it: (turns played, the failure).
fn replay(game: &mut Game, texts: &[String]) -> Option<(usize, String, String)> {
    for (i, t) in texts.iter().enumerate() {
        if let Err(e) = game.play(t) {
            return Some((i, t.clone(), e.to_string()));
        }
    }
    None
}

/// Re-read the preset from where it came and replay the game on it, stopping at a turn no longer legal;
/// the turns not replayed are returned too, in the order they were played.
pub fn reload(game: &Game) -> Result<(Game, String, Vec<String>), String> {
    let preset =
        super::report::load(reload_spec(&game.preset.origin)).map_err(|e| super::report::load_error_line(&e))?;
    let name = preset.name.clone();
    let start = if custom_start(game).is_some() { Some(game.start_fen.as_str()) } else { None };
    let mut fresh = Game::new(preset, start, game.seed).map_err(|e| format!("after the edit: {e}"))?;
    let texts = turn_texts(game);
    Ok(match replay(&mut fresh, &texts) {
        None => (fresh, format!("reloaded {name}; replayed {}", turns(texts.len())), Vec::new()),
        Some((i, t, why)) => {
            let note = format!(
                "reloaded {name}; turn {} `{t}` is no longer legal ({why}); stopped after {} (`redo` tries the rest)",
                i + 1,
                turns(i)
            );
            (fresh, note, texts[i..].to_vec())
        }
    })
}

/// The game as a sample game (docs/formats.md), `expect` filled from the current result.
pub fn yaml(game: &mut Game, file: &Path) -> Result<String, String> {
    let mut out = String::new();
    let _ = writeln!(out, "name: {}", quote(&format!("{} - a game saved from the REPL", game.preset.name)));
    let _ = writeln!(out, "preset: {}", quote(&preset_reference(&game.preset.origin, file)));
    if let Some(f) = custom_start(game) {
        let _ = writeln!(out, "fen: {}", quote(f));
    }
    if let Some(s) = game.seed {
        let _ = writeln!(out, "seed: {s}");
    }
    let texts = turn_texts(game);
    out.push_str(if texts.is_empty() { "steps: []\n" } else { "steps:\n" });
    for t in &texts {
        let _ = writeln!(out, "  - play: {}", quote(t));
    }
    let result = game.result().map_err(|e| e.to_string())?;
    let _ = writeln!(out, "expect:");
    let winner = match result.as_ref().map(|r| r.winner) {
        None => "ongoing",
        Some(Some(crate::engine::Side::White)) => "white",
        Some(Some(crate::engine::Side::Black)) => "black",
        Some(None) => "draw",
    };
    let _ = writeln!(out, "  result: {winner}");
    if let Some(r) = &result {
        let _ = writeln!(out, "  reason: {}", quote(&r.reason));
    }
    let _ = writeln!(out, "  fen: {}", quote(&game.fen()));
    Ok(out)
}

/// A YAML double-quoted string.
fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The shipped preset a loaded preset's origin (`presets/NAME.preset`) names, if it is one.
fn shipped_name(origin: &str) -> Option<&str> {
    let name = origin.strip_prefix("presets/")?.strip_suffix(".preset")?;
    crate::presets::shipped(name).map(|_| name)
}

/// Where `reload` reads a preset again: the file it came from; a shipped one from `presets/` when
/// that file is here (an inventor editing the repository's preset), else from the binary.
fn reload_spec(origin: &str) -> &str {
    match shipped_name(origin) {
        Some(name) if !Path::new(origin).is_file() => name,
        _ => origin,
    }
}

/// A shipped name as it is; a file as a path relative to the YAML file when it lies below it, else absolute.
fn preset_reference(origin: &str, file: &Path) -> String {
    if let Some(name) = shipped_name(origin) {
        return name.to_string();
    }
    let preset = std::fs::canonicalize(origin).unwrap_or_else(|_| PathBuf::from(origin));
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    preset.strip_prefix(&dir).unwrap_or(&preset).display().to_string()
}

/// Write the game to `file` atomically and safely ([`crate::files::write_text`]).
pub fn save(game: &mut Game, file: &Path) -> Result<String, String> {
    let text = yaml(game, file)?;
    crate::files::write_text(file, &text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    Ok(format!("saved {} to {}", turns(turn_texts(game).len()), file.display()))
}

/// Replay a sample game: its `play` steps, from its FEN; then say whether its `expect` holds.
pub fn open(file: &Path) -> Result<(Game, String), String> {
    let at = |why: String| format!("{}: {why}", file.display());
    let text = crate::files::read_text(file).map_err(|e| at(e.to_string()))?;
    let g = games::parse_game(&text).map_err(at)?;
    let spec = if crate::presets::shipped(&g.preset).is_some() {
        g.preset.clone()
    } else {
        file.parent().unwrap_or(Path::new(".")).join(&g.preset).display().to_string()
    };
    let preset =
        crate::check::load_named(&spec).map(std::sync::Arc::new).map_err(|e| super::report::load_error_line(&e))?;
    let mut game = Game::new(preset, g.fen.as_deref(), g.seed).map_err(|e| at(e.to_string()))?;
    let plays: Vec<String> =
        g.steps.iter().filter_map(|s| if let Step::Play(t) = s { Some(t.clone()) } else { None }).collect();
    if let Some((i, t, why)) = replay(&mut game, &plays) {
        return Err(at(format!("turn {} `{t}`: {why}", i + 1)));
    }
    let verdict = match g.expect.as_ref().map(|c| games::verify(&mut game, c)) {
        None => "no expect".to_string(),
        Some(Ok(())) => "expect holds".to_string(),
        Some(Err(why)) => format!("expect does not hold: {why}"),
    };
    let name = g.name.unwrap_or_else(|| game.preset.name.clone());
    Ok((game, format!("opened {name}: {}; {verdict}", turns(plays.len()))))
}
