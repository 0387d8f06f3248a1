//! The REPL's computer-player commands, one function each: `go`, `hint`, `auto`. Each takes the
//! game and the rest of the command line and returns the text to print or a one-line error.

use super::{Limits, SearchResult, Searcher};
use crate::engine::Side;
use crate::game::Game;

/// How long `go`, `hint` and the automatic player think when not told.
pub const DEFAULT_TIME_MS: u64 = 1000;

/// Which sides the computer plays by itself (`auto`); the REPL keeps one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Auto {
    pub white: bool,
    pub black: bool,
    /// How long it thinks per turn (`auto both 200ms`); default: [`DEFAULT_TIME_MS`].
    pub limits: Limits,
}

impl Auto {
    pub fn plays(&self, side: Side) -> bool {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }
}

/// `go [DEPTH | TIME | NODES]`: a bare number is a depth; `2s` or `500ms` a time; `20000 nodes` a
/// node count (repeatable, for matches at equal nodes). Default: one second.
pub fn parse_limits(arg: &str) -> Result<Limits, String> {
    let a = arg.trim();
    let bad = || format!("`{a}` is neither a depth (like 5), a time (like 2s or 500ms) nor nodes (like 20000 nodes)");
    if a.is_empty() {
        return Ok(Limits::time_ms(DEFAULT_TIME_MS));
    }
    if let Some(n) = a.strip_suffix("nodes") {
        return n.trim().parse().ok().filter(|&n| n > 0).map(Limits::nodes).ok_or_else(bad);
    }
    if let Some(ms) = a.strip_suffix("ms") {
        return ms.parse().ok().filter(|&t| t > 0).map(Limits::time_ms).ok_or_else(bad);
    }
    if let Some(s) = a.strip_suffix('s') {
        return s
            .parse::<f64>()
            .ok()
            .filter(|&t| t > 0.0)
            .map(|t| Limits::time_ms((t * 1000.0) as u64))
            .ok_or_else(bad);
    }
    a.parse().ok().filter(|&d| (1..=40).contains(&d)).map(Limits::depth).ok_or_else(bad)
}

fn think(game: &mut Game, limits: &Limits) -> Result<SearchResult, String> {
    if let Some(r) = game.result().map_err(|e| e.to_string())? {
        return Err(format!("the game is over: {r}"));
    }
    let preset = std::sync::Arc::clone(&game.preset);
    Searcher::new().search(&preset, &mut game.pos, limits).map_err(|e| e.to_string())
}

fn report(r: &SearchResult) -> String {
    format!(
        "depth {}, score {}, {} nodes, {} ms, line: {}",
        r.depth,
        r.score_text(),
        r.nodes,
        r.time_ms,
        r.pv.join(" | ")
    )
}

/// Play the computer's chosen turn; what it played, what the scripts said, and a result if any.
fn play_best(game: &mut Game, limits: &Limits) -> Result<String, String> {
    let r = think(game, limits)?;
    let shown = game.play(&r.text).map_err(|e| format!("the computer's turn {} was refused: {e}", r.text))?;
    let mut out = format!("{shown}   ({})", report(&r));
    for s in game.said() {
        out += &format!("\n{s}");
    }
    if let Some(res) = game.result().map_err(|e| e.to_string())? {
        out += &format!("\nresult: {res}");
    }
    Ok(out)
}

/// `go [depth|time]`: the computer plays the side to move.
pub fn go(game: &mut Game, arg: &str) -> Result<String, String> {
    let limits = parse_limits(arg)?;
    play_best(game, &limits)
}

/// `hint [depth|time]`: the turn the computer would play, without playing it.
pub fn hint(game: &mut Game, arg: &str) -> Result<String, String> {
    let r = think(game, &parse_limits(arg)?)?;
    Ok(format!("hint: {}   ({})", r.text, report(&r)))
}

/// `auto white|black|both|off [depth|time]`: set which sides the computer plays, then play for
/// them until a human side is to move or the game ends (with `both`, self-play to the end, every
/// turn printed).
pub fn auto(game: &mut Game, arg: &str, sides: &mut Auto) -> Result<String, String> {
    let (which, rest) = arg.trim().split_once(' ').unwrap_or((arg.trim(), ""));
    let limits = parse_limits(rest)?;
    let (white, black) = match which {
        "white" => (true, false),
        "black" => (false, true),
        "both" => (true, true),
        "off" => (false, false),
        other => return Err(format!("`auto {other}`: say white, black, both or off")),
    };
    *sides = Auto { white, black, limits };
    let mut out = format!("the computer plays {}", describe(sides));
    let moves = auto_reply(game, sides)?;
    if !moves.is_empty() {
        out += "\n";
        out += &moves;
    }
    Ok(out)
}

fn describe(a: &Auto) -> &'static str {
    match (a.white, a.black) {
        (true, true) => "both sides",
        (true, false) => "white",
        (false, true) => "black",
        (false, false) => "neither side",
    }
}

/// The most turns `auto both` plays before handing back (a game that never ends still returns).
const AUTO_MAX_TURNS: usize = 500;

/// Let the computer play while it is its side's turn (call after each human turn); the turns played.
pub fn auto_reply(game: &mut Game, sides: &Auto) -> Result<String, String> {
    let mut lines = Vec::new();
    while sides.plays(game.pos.side) && lines.len() < AUTO_MAX_TURNS {
        if game.result().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        let n = game.played.len() / 2 + 1;
        let line = play_best(game, &sides.limits)?;
        lines.push(format!("{n}. {line}"));
    }
    Ok(lines.join("\n"))
}
