//! The REPL's commands: a table from names to functions, one function per command.

use super::error::{Answer, ReplError};
use super::session::Repl;
use super::{draw, record};
use crate::check;
use crate::game::Game;

pub type Handler = fn(&mut Repl, &str) -> Answer;

pub struct Command {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub usage: &'static str,
    pub help: &'static str,
    pub run: Handler,
}

const fn cmd(
    name: &'static str,
    aliases: &'static [&'static str],
    usage: &'static str,
    help: &'static str,
    run: Handler,
) -> Command {
    Command { name, aliases, usage, help, run }
}

pub const COMMANDS: &[Command] = &[
    cmd("help", &["h", "?"], "help [COMMAND]", "list the commands, or explain one", Repl::help),
    cmd("board", &["b", "show"], "board", "draw the position", Repl::board),
    cmd("moves", &["m", "legal"], "moves [SQUARE]", "the legal turns, or those of the piece on SQUARE", Repl::moves),
    cmd("undo", &["u", "back"], "undo [N]", "take back the last turn (or N turns)", Repl::undo),
    cmd("redo", &["r"], "redo", "play again the last turn taken back", Repl::redo),
    cmd("new", &["n"], "new [--seed N]", "a new game from the preset's setup", Repl::new_game),
    cmd("fen", &[], "fen", "the position as an extended FEN", Repl::fen),
    cmd("setfen", &["sf"], "setfen FEN", "a new game from the position FEN", Repl::setfen),
    cmd("load", &["l"], "load PRESET", "a new game of another preset (a shipped name or a file)", Repl::load),
    cmd("reload", &["rl"], "reload", "re-read the preset file and replay the game's turns", Repl::reload),
    cmd("eval", &["e", "="], "eval EXPR", "evaluate a script expression in the current position", Repl::eval),
    cmd("trace", &["t"], "trace on|off", "show every hook a played turn runs, with its effect", Repl::trace),
    cmd("perft", &[], "perft DEPTH [--divide]", "count the legal-turn tree to DEPTH", Repl::perft),
    cmd("history", &["hist"], "history", "the turns played so far, numbered", Repl::history),
    cmd("save", &["s"], "save FILE", "write the game as a sample-game YAML (a regression test)", Repl::save),
    cmd("open", &["o"], "open FILE", "replay a sample-game YAML", Repl::open),
    cmd("go", &[], "go [DEPTH|TIME]", "the computer plays the side to move (a depth like 5, a time like 2s)", Repl::go),
    cmd("hint", &[], "hint [DEPTH|TIME]", "the turn the computer would play, not played", Repl::hint),
    cmd(
        "auto",
        &[],
        "auto white|black|both|off [DEPTH|TIME]",
        "let the computer play a side (both: to the end)",
        Repl::auto,
    ),
    cmd("info", &["i"], "info", "the preset's name, inventor, description and pieces", Repl::info),
    cmd("quit", &["q", "exit"], "quit", "leave the REPL", Repl::quit),
];

pub fn find(word: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == word || c.aliases.contains(&word))
}

/// A line that is neither a command nor a legal turn: a lower-case word is a mistyped command.
pub fn unknown(word: &str, move_error: crate::game::MoveError) -> ReplError {
    let looks_like_command = word.len() > 2
        && word.chars().all(|c| c.is_ascii_lowercase())
        && !matches!(word, "won" | "lost" | "drawn" | "resign");
    if !looks_like_command {
        return ReplError::Turn(move_error);
    }
    let names: Vec<String> = COMMANDS.iter().map(|c| c.name.to_string()).collect();
    let hint = check::suggest(word, names.iter().collect());
    ReplError::Refused(format!("unknown command `{word}`{hint} (type `help` for the list)"))
}

/// A new game on the same preset; the old one stays if this fails.
fn fresh(r: &Repl, fen: Option<&str>, seed: Option<u64>) -> Result<Game, ReplError> {
    Ok(Game::new(r.game.preset.clone(), fen, seed)?)
}

impl Repl {
    fn replace(&mut self, game: Game) {
        self.game = game;
        self.redo.clear();
    }

    fn help(&mut self, arg: &str) -> Answer {
        if !arg.is_empty() {
            let c = find(arg).ok_or_else(|| format!("no command `{arg}`{}", unknown_hint(arg)))?;
            let aliases =
                if c.aliases.is_empty() { String::new() } else { format!(" (also: {})", c.aliases.join(", ")) };
            return Ok(format!("{}: {}{aliases}", c.usage, c.help));
        }
        let mut out = String::from(
            "Type a turn to play it (`P e2-e4`, `e4`, `Nf3`, `O-O`, `P e7-e8; Q-e8`; Tab completes), or a command:\n",
        );
        for c in COMMANDS {
            let aliases =
                if c.aliases.is_empty() { String::new() } else { format!(" (also `{}`)", c.aliases.join("`, `")) };
            out.push_str(&format!("  {:<24} {}{aliases}\n", c.usage, c.help));
        }
        Ok(out.trim_end().to_string())
    }

    fn board(&mut self, _: &str) -> Answer {
        let result = self.game.result_text()?;
        Ok(format!("{}\nresult: {result}", draw::board(&self.game, self.style)))
    }

    fn moves(&mut self, arg: &str) -> Answer {
        let mut moves = self.game.legal_texts()?;
        if !arg.is_empty() {
            let sq =
                self.game.preset.geo.parse_square(arg).ok_or_else(|| format!("{arg} is not a square of this board"))?;
            let (from, onto) = (format!(" {arg}-"), format!("*{arg}"));
            moves.retain(|m| m.contains(&from) || m.contains(&onto));
            if moves.is_empty() {
                return Ok(format!("{}\n0 legal", self.why_no_moves(sq, arg)));
            }
        }
        let n = moves.len();
        moves.push(format!("{n} legal"));
        Ok(moves.join("\n"))
    }

    /// Why no legal turn starts on (or drops onto) a square: what stands there.
    fn why_no_moves(&self, sq: crate::engine::board::Sq, name: &str) -> String {
        use crate::engine::board::cell;
        let (p, pos) = (&self.game.preset, &self.game.pos);
        let c = pos.cells[sq.idx()];
        match c {
            cell::HOLE => format!("{name} is not on the board (a missing square)"),
            cell::EMPTY => format!("{name} is empty, and nothing can be dropped there"),
            _ if cell::side(c) != pos.side => {
                format!("the piece on {name} is {}'s, and it is {} to move", cell::side(c), pos.side)
            }
            _ => format!("the {} on {name} has no legal turn", p.kinds[cell::kind(c)].name),
        }
    }

    fn undo(&mut self, arg: &str) -> Answer {
        let n = count(arg, "undo")?;
        let mut undone = Vec::new();
        for _ in 0..n {
            match self.game.undo() {
                Some(text) => undone.push(text),
                None => break,
            }
        }
        if undone.is_empty() {
            return Err("nothing to undo".into());
        }
        self.redo.extend(undone.iter().cloned());
        Ok(format!("undid {}", undone.join(", ")))
    }

    fn redo(&mut self, _: &str) -> Answer {
        let text = self.redo.pop().ok_or("nothing to redo")?;
        let out = self.play(&text);
        if out.is_err() {
            self.redo.push(text);
        }
        out
    }

    fn new_game(&mut self, arg: &str) -> Answer {
        let seed = match arg.split_whitespace().collect::<Vec<_>>().as_slice() {
            // A preset that draws its setup gets the next seed's: `new` is a new setup, reproducibly.
            [] => self.game.drawn_from().map(|s| s.wrapping_add(1)).or(self.game.seed),
            ["--seed", n] => Some(n.parse().map_err(|_| format!("--seed takes a number, not `{n}`"))?),
            _ => return Err(format!("new takes `--seed N` or nothing, not `{arg}`").into()),
        };
        let g = fresh(self, None, seed)?;
        self.replace(g);
        Ok(match self.game.drawn_from() {
            Some(seed) => format!("new game of {}, setup drawn from seed {seed}", self.game.preset.name),
            None => format!("new game of {}", self.game.preset.name),
        })
    }

    fn fen(&mut self, _: &str) -> Answer {
        Ok(self.game.fen())
    }

    fn setfen(&mut self, arg: &str) -> Answer {
        if arg.is_empty() {
            return Err("setfen takes a position, e.g. `setfen 8/8/8/4k3/8/8/8/4K3 w - - 0 1`".into());
        }
        let g = fresh(self, Some(arg), self.game.seed)?;
        self.replace(g);
        let warnings = crate::engine::sanity::warnings(&self.game.preset, &self.game.pos);
        // A position that is already over says so, as a played turn that ends the game does.
        let result = match self.game.result() {
            Ok(Some(r)) => Some(format!("result: {r}")),
            Ok(None) => None,
            Err(e) => Some(format!("error: {e}")),
        };
        Ok(std::iter::once(self.game.fen())
            .chain(warnings.into_iter().map(|w| format!("warning: {w}")))
            .chain(result)
            .collect::<Vec<_>>()
            .join("\n"))
    }

    fn load(&mut self, arg: &str) -> Answer {
        if arg.is_empty() {
            return Err(format!("load takes a preset: {} or a path", crate::presets::NAMES.join(", ")).into());
        }
        let preset = super::report::load(arg)?;
        // Another preset starts from its own defaults: no seed is carried over from this game.
        let g = Game::new(preset, None, None)?;
        self.replace(g);
        Ok(match self.game.drawn_from() {
            Some(seed) => format!("new game of {}, setup drawn from seed {seed}", self.game.preset.name),
            None => format!("new game of {}", self.game.preset.name),
        })
    }

    fn reload(&mut self, _: &str) -> Answer {
        let (game, note, dropped) = record::reload(&self.game).map_err(ReplError::File)?;
        // The turns that no longer stand wait in `redo`, for after the next edit.
        self.game = game;
        self.redo.extend(dropped.into_iter().rev());
        Ok(note)
    }

    fn eval(&mut self, arg: &str) -> Answer {
        if arg.is_empty() {
            return Err("eval takes an expression, e.g. `eval len(legal_moves())`".into());
        }
        let p = &self.game.preset;
        let body = crate::script::compile::standalone(p, arg)?;
        // On a copy: evaluation may not change the game, whatever the expression does.
        let mut pos = self.game.pos.clone();
        let side = pos.side;
        let v = crate::script::hooks::value(p, &mut pos, &body, side).map_err(|e| e.message)?;
        Ok(v.show(p))
    }

    fn trace(&mut self, arg: &str) -> Answer {
        self.tracing = match arg {
            "on" => true,
            "off" => false,
            _ => return Err(format!("trace takes `on` or `off`, not `{arg}`").into()),
        };
        crate::script::hooks::trace(self.tracing);
        Ok(format!("trace {arg}"))
    }

    fn perft(&mut self, arg: &str) -> Answer {
        let mut words = arg.split_whitespace();
        let depth: usize = words.next().and_then(|d| d.parse().ok()).ok_or("perft takes a depth, e.g. `perft 4`")?;
        let most = crate::play::perft::MAX_DEPTH;
        if depth > most {
            return Err(format!("perft depth {depth} is too deep; the limit is {most}").into());
        }
        let mut divide = false;
        for w in words {
            match w {
                "--divide" => divide = true,
                _ => return Err(format!("perft takes a depth and `--divide`, not `{w}`").into()),
            }
        }
        Ok(super::report::perft_report(&mut self.game, depth, divide)?)
    }

    fn history(&mut self, _: &str) -> Answer {
        if self.game.played.is_empty() && self.game.declared.is_none() {
            return Ok("no turns yet".into());
        }
        Ok(record::numbered(&self.game).join("\n"))
    }

    fn save(&mut self, arg: &str) -> Answer {
        if arg.is_empty() {
            return Err("save takes a file name, e.g. `save mygame.yaml`".into());
        }
        record::save(&mut self.game, std::path::Path::new(arg)).map_err(ReplError::File)
    }

    fn open(&mut self, arg: &str) -> Answer {
        if arg.is_empty() {
            return Err("open takes a sample-game file, e.g. `open mygame.yaml`".into());
        }
        let (game, note) = record::open(std::path::Path::new(arg)).map_err(ReplError::File)?;
        self.replace(game);
        Ok(note)
    }

    fn info(&mut self, _: &str) -> Answer {
        let p = &self.game.preset;
        let mut out = format!("{}\n", p.name);
        if !p.inventor.is_empty() {
            out.push_str(&format!("by {}\n", p.inventor));
        }
        if !p.description.is_empty() {
            out.push_str(&format!("{}\n", p.description));
        }
        for k in &p.kinds {
            let royal = if k.royal { ", royal" } else { "" };
            out.push_str(&format!("  {} {}: moves \"{}\", value {}{royal}\n", k.labels.0[0], k.name, k.betza, k.value));
        }
        Ok(out.trim_end().to_string())
    }

    fn go(&mut self, arg: &str) -> Answer {
        let out = crate::search::repl_cmds::go(&mut self.game, arg)?;
        self.redo.clear();
        let reply = crate::search::repl_cmds::auto_reply(&mut self.game, &self.auto)?;
        Ok(if reply.is_empty() { out } else { format!("{out}\n{reply}") })
    }

    fn hint(&mut self, arg: &str) -> Answer {
        Ok(crate::search::repl_cmds::hint(&mut self.game, arg)?)
    }

    fn auto(&mut self, arg: &str) -> Answer {
        let mut sides = self.auto.clone();
        let out = crate::search::repl_cmds::auto(&mut self.game, arg, &mut sides);
        self.auto = sides;
        self.redo.clear();
        Ok(out?)
    }

    fn quit(&mut self, _: &str) -> Answer {
        self.done = true;
        Ok(String::new())
    }
}

fn unknown_hint(word: &str) -> String {
    let names: Vec<String> = COMMANDS.iter().map(|c| c.name.to_string()).collect();
    check::suggest(word, names.iter().collect())
}

fn count(arg: &str, command: &str) -> Result<usize, String> {
    match arg {
        "" => Ok(1),
        _ => {
            arg.parse().ok().filter(|&n| n > 0).ok_or_else(|| format!("{command} takes a positive number, not `{arg}`"))
        }
    }
}
