//! Tab completion: command names, preset names for `load`, and the legal turns in full and short notation.

use crate::engine::board::cell;
use crate::engine::position::{Move, mflag};
use crate::engine::{Position, notation};
use crate::game::Game;
use crate::preset::Preset;
use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use std::cell::RefCell;

/// The rustyline helper; the REPL refreshes `turns` after every command.
#[derive(Default)]
pub struct Helper {
    pub turns: RefCell<Vec<String>>,
    files: rustyline::completion::FilenameCompleter,
}

impl Helper {
    pub fn refresh(&self, game: &mut Game) {
        *self.turns.borrow_mut() = turn_words(game);
    }
}

/// Every way to type a legal turn that completion offers: canonical, without the label, short.
pub fn turn_words(game: &mut Game) -> Vec<String> {
    let Ok(turns) = game.legal() else { return Vec::new() };
    let mut words = Vec::new();
    let singles: Vec<Move> = turns.iter().filter_map(|t| t.only_move()).collect();
    for t in &turns {
        let text = game.text(t);
        if let Some((_, bare)) = text.split_once(' ').filter(|_| !text.contains(';')) {
            words.push(bare.to_string());
        }
        words.push(text);
    }
    words.extend(singles.iter().filter_map(|&m| short_text(&game.preset, &game.pos, m, &singles)));
    words.sort();
    words.dedup();
    words
}

/// The shortest short-notation text that names exactly this move (`e4`, `Nbd2`, `exd5`, `e8=Q`, `O-O`).
pub fn short_text(p: &Preset, pos: &Position, m: Move, legal: &[Move]) -> Option<String> {
    let unique = |s: &str| notation::match_short(p, pos, s, legal) == [m];
    if m.flags & mflag::CASTLE != 0 {
        let long = p.geo.file(m.to) < p.geo.file(m.from);
        let s = if long { "O-O-O" } else { "O-O" };
        return unique(s).then(|| s.to_string());
    }
    let label = &p.kinds[cell::kind(pos.cells[m.from.idx()])].labels.0[0];
    let piece = match label.as_str() {
        "P" => String::new(),
        l if l.len() == 1 => l.to_string(),
        l => format!("({l})"),
    };
    let x = if m.flags & mflag::CAPTURE != 0 { "x" } else { "" };
    let promo = if m.promo != 0 { format!("={}", p.kinds[cell::kind(m.promo)].labels.0[0]) } else { String::new() };
    let (file, rank) = (((b'a' + p.geo.file(m.from) as u8) as char).to_string(), (p.geo.rank(m.from) + 1).to_string());
    let to = p.geo.name(m.to);
    let pawn_capture = piece.is_empty() && !x.is_empty();
    // Pawn captures always name the file they leave (`exd5`).
    let choices = [String::new(), file.clone(), rank.clone(), format!("{file}{rank}")];
    choices.iter().skip(usize::from(pawn_capture)).map(|dis| format!("{piece}{dis}{x}{to}{promo}")).find(|s| unique(s))
}

const SETTINGS: &[(&str, &[&str])] = &[("trace", &["on", "off"])];

impl Completer for Helper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _: &rustyline::Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let typed = &line[..pos];
        let command = typed.split_once(' ').and_then(|(w, rest)| Some((super::commands::find(w)?.name, rest)));
        let Some((name, rest)) = command else {
            let turns = self.turns.borrow();
            let commands = super::commands::COMMANDS.iter().map(|c| c.name);
            return Ok((0, pairs(commands.chain(turns.iter().map(String::as_str)), typed)));
        };
        let at = typed.len() - rest.len();
        let pool: Vec<&str> = match name {
            "load" if crate::presets::NAMES.iter().any(|n| n.starts_with(rest)) => crate::presets::NAMES.to_vec(),
            "load" | "open" | "save" => return self.files.complete_path(typed, typed.len()),
            "help" => super::commands::COMMANDS.iter().map(|c| c.name).collect(),
            _ => SETTINGS.iter().find(|s| s.0 == name).map_or(Vec::new(), |s| s.1.to_vec()),
        };
        Ok((at, pairs(pool.into_iter(), rest)))
    }
}

fn pairs<'a>(pool: impl Iterator<Item = &'a str>, prefix: &str) -> Vec<Pair> {
    pool.filter(|w| w.starts_with(prefix))
        .map(|w| Pair { display: w.to_string(), replacement: w.to_string() })
        .collect()
}

impl Hinter for Helper {
    type Hint = String;
}
impl Highlighter for Helper {}
impl Validator for Helper {}
impl rustyline::Helper for Helper {}
