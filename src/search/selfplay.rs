//! Self-play: the computer plays a preset against itself, game after game, to show inventors what
//! their rules lead to. Each game can be saved as a sample game (docs/formats.md).

use super::{Limits, Searcher};
use crate::engine::GameOver;
use crate::engine::turn::Turn;
use crate::game::Game;
use crate::preset::Preset;
use crate::rng::Rng;
use std::sync::Arc;

/// How a series of self-play games is run.
#[derive(Clone, Debug)]
pub struct Options {
    pub games: u32,
    pub seed: u64,
    pub limits: Limits,
    /// A game not over after this many plies stops, unfinished.
    pub max_plies: usize,
    /// The first plies of a game pick at random among turns close to the best, so games differ.
    pub random_plies: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { games: 1, seed: 1, limits: Limits::nodes(20_000), max_plies: 300, random_plies: 4 }
    }
}

/// Turns within this much of the best count as close enough for a varied opening.
const CLOSE: i32 = 30;

/// One game played: the start, the turns in canonical notation, and how it ended.
#[derive(Clone, Debug)]
pub struct Record {
    pub start_fen: String,
    pub seed: Option<u64>,
    pub turns: Vec<String>,
    /// `None`: stopped at the ply limit.
    pub result: Option<GameOver>,
    /// Nodes searched and milliseconds spent searching, over the whole game.
    pub nodes: u64,
    pub ms: u64,
}

impl Record {
    /// `white wins (checkmate) in 41 plies`, or `unfinished after 300 plies`.
    pub fn summary(&self) -> String {
        let how = match &self.result {
            Some(r) => format!("{r} in {} plies", self.turns.len()),
            None => format!("unfinished after {} plies", self.turns.len()),
        };
        let nps = self.nodes * 1000 / self.ms.max(1);
        format!("{how} ({} nodes, {:.1} s, {nps} nodes/s)", self.nodes, self.ms as f64 / 1000.0)
    }
}

/// Play one game from the preset's setup (or `fen`).
pub fn play_game(
    preset: &Arc<Preset>,
    fen: Option<&str>,
    setup_seed: Option<u64>,
    rng: &mut Rng,
    opts: &Options,
) -> Result<Record, String> {
    let mut game = Game::new(Arc::clone(preset), fen, setup_seed).map_err(|e| e.to_string())?;
    let mut searcher = Searcher::new();
    let mut result = None;
    let (mut nodes, mut ms) = (0, 0);
    while game.played.len() < opts.max_plies {
        if let Some(r) = game.result().map_err(|e| e.to_string())? {
            result = Some(r);
            break;
        }
        let turn = if game.played.len() < opts.random_plies {
            varied_turn(&mut searcher, &mut game, rng)?
        } else {
            let r = searcher.search(&game.preset, &mut game.pos, &opts.limits).map_err(|e| e.to_string())?;
            nodes += r.nodes;
            ms += r.time_ms;
            r.turn
        };
        play_checked(&mut game, &turn)?;
    }
    if result.is_none() {
        result = game.result().map_err(|e| e.to_string())?;
    }
    let turns = game.played.iter().map(|p| p.text.clone()).collect();
    Ok(Record { start_fen: game.start_fen.clone(), seed: setup_seed, turns, result, nodes, ms })
}

/// A turn chosen at random among those scoring close to the best in a shallow search.
fn varied_turn(searcher: &mut Searcher, game: &mut Game, rng: &mut Rng) -> Result<Turn, String> {
    let scored = searcher.root_scores(&game.preset, &mut game.pos, 1).map_err(|e| e.to_string())?;
    let best = scored.iter().map(|s| s.1).max().ok_or("no legal turn to choose from")?;
    let close: Vec<Turn> = scored.iter().filter(|s| s.1 >= best - CLOSE).map(|s| s.0).collect();
    Ok(close[rng.below(close.len())])
}

/// Play a chosen turn through the game, as a player would type it, and make sure it was that turn.
fn play_checked(game: &mut Game, turn: &Turn) -> Result<(), String> {
    let text = game.text(turn);
    game.play(&text).map_err(|e| format!("the computer's turn `{text}` was refused: {e}"))?;
    if game.played.last().map(|p| p.turn) != Some(*turn) {
        return Err(format!("the computer's turn `{text}` was read back as another turn"));
    }
    Ok(())
}

/// Totals over a series of games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub white: u32,
    pub black: u32,
    pub draws: u32,
    pub unfinished: u32,
    pub plies: usize,
}

impl Summary {
    pub fn add(&mut self, r: &Record) {
        match r.result.as_ref().map(|o| o.winner) {
            Some(Some(crate::engine::Side::White)) => self.white += 1,
            Some(Some(crate::engine::Side::Black)) => self.black += 1,
            Some(None) => self.draws += 1,
            None => self.unfinished += 1,
        }
        self.plies += r.turns.len();
    }

    pub fn games(&self) -> u32 {
        self.white + self.black + self.draws + self.unfinished
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let avg = self.plies as f64 / self.games().max(1) as f64;
        write!(
            f,
            "{} games: white wins {}, black wins {}, draws {}, unfinished {}; average length {avg:.1} plies",
            self.games(),
            self.white,
            self.black,
            self.draws,
            self.unfinished
        )
    }
}

/// A game as a sample-game YAML file, its `expect` filled in from how it ended.
pub fn to_yaml(preset_spec: &str, title: &str, r: &Record) -> String {
    let mut y = format!("name: {}\npreset: {}\n", quote(title), quote(preset_spec));
    y += &format!("fen: {}\n", quote(&r.start_fen));
    if let Some(s) = r.seed {
        y += &format!("seed: {s}\n");
    }
    y += "steps:\n";
    for t in &r.turns {
        y += &format!("  - play: {}\n", quote(t));
    }
    y += "expect:\n";
    match &r.result {
        None => y += "  result: ongoing\n",
        Some(o) => {
            let who = match o.winner {
                Some(s) => s.to_string(),
                None => "draw".into(),
            };
            y += &format!("  result: {}\n  reason: {}\n", quote(&who), quote(&o.reason));
        }
    }
    y
}

/// A YAML double-quoted string.
fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// Play `opts.games` games, printing each result and then the summary; with `save`, write each
/// game there as `NAME-seedS-N.yaml`. Game `i` of seed `S` starts from setup seed `S + i`.
pub fn run(
    preset: &Arc<Preset>,
    spec: &str,
    opts: &Options,
    save: Option<&std::path::Path>,
    out: &mut dyn std::io::Write,
) -> Result<Summary, String> {
    let mut rng = Rng::new(opts.seed);
    let mut summary = Summary::default();
    let stem = std::path::Path::new(spec).file_stem().map_or("game".into(), |s| s.to_string_lossy().to_string());
    for i in 1..=opts.games {
        let setup_seed = opts.seed.wrapping_add(i as u64 - 1);
        // Each game is one command, with its own budget (each search in it has its own too).
        let r = crate::budget::fresh(|| play_game(preset, None, Some(setup_seed), &mut rng, opts))
            .map_err(|e| format!("game {i}: {e}"))?;
        summary.add(&r);
        writeln!(out, "game {i}: {}", r.summary()).map_err(|e| e.to_string())?;
        if let Some(dir) = save {
            let title = format!("Self-play: {} game {i} of seed {}", preset.name, opts.seed);
            let path = dir.join(format!("{stem}-seed{}-{i}.yaml", opts.seed));
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            // As the REPL's `save`: never through a planted link, never over what is not a file.
            crate::files::write_text(&path, &to_yaml(&yaml_preset(spec), &title, &r))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    writeln!(out, "{summary}").map_err(|e| e.to_string())?;
    Ok(summary)
}

/// The preset as a sample game names it: a shipped name as is, a file by its absolute path.
fn yaml_preset(spec: &str) -> String {
    if crate::presets::shipped(spec).is_some() {
        return spec.to_string();
    }
    std::fs::canonicalize(spec).map_or(spec.to_string(), |p| p.display().to_string())
}
