//! The REPL: a table of commands, one function each; typed turns are played. Works on a TTY or a pipe.

use crate::check;
use crate::display;
use crate::engine::perft;
use crate::game::Game;
use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

pub struct Repl {
    pub game: Game,
    /// Draw the board after each turn (on a terminal).
    pub verbose: bool,
    pub done: bool,
}

type Handler = fn(&mut Repl, &str) -> Result<String, String>;

struct Command {
    name: &'static str,
    aliases: &'static [&'static str],
    usage: &'static str,
    help: &'static str,
    run: Handler,
}

const COMMANDS: &[Command] = &[
    Command {
        name: "help",
        aliases: &["h", "?"],
        usage: "help [COMMAND]",
        help: "list the commands, or explain one",
        run: Repl::help,
    },
    Command { name: "board", aliases: &["b", "show"], usage: "board", help: "draw the position", run: Repl::board },
    Command {
        name: "moves",
        aliases: &["m", "legal"],
        usage: "moves [SQUARE]",
        help: "list the legal turns, or those of the piece on SQUARE",
        run: Repl::moves,
    },
    Command {
        name: "undo",
        aliases: &["u", "back"],
        usage: "undo [N]",
        help: "take back the last turn (or N turns)",
        run: Repl::undo,
    },
    Command { name: "fen", aliases: &[], usage: "fen", help: "print the position as an extended FEN", run: Repl::fen },
    Command {
        name: "setfen",
        aliases: &[],
        usage: "setfen FEN",
        help: "start from a position given as FEN",
        run: Repl::setfen,
    },
    Command {
        name: "new",
        aliases: &["n"],
        usage: "new",
        help: "start a new game from the preset's setup",
        run: Repl::new_game,
    },
    Command {
        name: "perft",
        aliases: &[],
        usage: "perft DEPTH [--divide]",
        help: "count the legal-turn tree to DEPTH",
        run: Repl::perft,
    },
    Command {
        name: "history",
        aliases: &["hist"],
        usage: "history",
        help: "the turns played so far",
        run: Repl::history,
    },
    Command {
        name: "info",
        aliases: &["i"],
        usage: "info",
        help: "the preset's name, inventor, description and pieces",
        run: Repl::info,
    },
    Command { name: "quit", aliases: &["q", "exit"], usage: "quit", help: "leave the REPL", run: Repl::quit },
];

impl Repl {
    pub fn new(game: Game) -> Repl {
        Repl { game, verbose: false, done: false }
    }

    /// Run one line: a command, or else a turn to play. Errors leave the game as it was.
    pub fn execute(&mut self, line: &str) -> Result<String, String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(String::new());
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        if let Some(c) = find(word) {
            return (c.run)(self, rest.trim());
        }
        match self.game.play(line) {
            Ok(text) => Ok(self.after_turn(&text)),
            Err(e) => Err(self.unknown(word, e.to_string())),
        }
    }

    fn unknown(&self, word: &str, move_error: String) -> String {
        let looks_like_command = word.chars().all(|c| c.is_ascii_lowercase())
            && word.len() > 2
            && !matches!(word, "won" | "lost" | "drawn" | "resign");
        if looks_like_command {
            let names: Vec<String> = COMMANDS.iter().map(|c| c.name.to_string()).collect();
            let hint = check::suggest(word, names.iter().collect());
            if !hint.is_empty() {
                return format!("unknown command `{word}`{hint} (type `help` for the list)");
            }
        }
        move_error
    }

    fn after_turn(&mut self, text: &str) -> String {
        let n = self.game.played.len();
        let mut out = format!("{}. {text}", n.div_ceil(2));
        if self.verbose {
            out = format!("{}\n{out}", display::diagram(&self.game.preset, &self.game.pos));
        }
        if self.game.pos.in_check(&self.game.preset, self.game.pos.side) {
            out.push_str(" (check)");
        }
        for m in self.game.said() {
            out.push_str(&format!("\n{m}"));
        }
        match self.game.result() {
            Ok(Some(r)) => out.push_str(&format!("\nresult: {r}")),
            Ok(None) => {}
            Err(e) => out.push_str(&format!("\nerror: {e}")),
        }
        out
    }

    fn help(&mut self, arg: &str) -> Result<String, String> {
        if !arg.is_empty() {
            let c = find(arg).ok_or_else(|| format!("no command `{arg}`"))?;
            let aliases =
                if c.aliases.is_empty() { String::new() } else { format!(" (also: {})", c.aliases.join(", ")) };
            return Ok(format!("{}: {}{aliases}", c.usage, c.help));
        }
        let mut out =
            String::from("Type a turn to play it (`P e2-e4`, `e4`, `Nf3`, `O-O`, `P e7-e8; Q-e8`), or a command:\n");
        for c in COMMANDS {
            out.push_str(&format!("  {:<24} {}\n", c.usage, c.help));
        }
        Ok(out.trim_end().to_string())
    }

    fn board(&mut self, _: &str) -> Result<String, String> {
        status(&mut self.game).map_err(|e| e.to_string())
    }

    fn moves(&mut self, arg: &str) -> Result<String, String> {
        let mut moves = self.game.legal_texts().map_err(|e| e.to_string())?;
        if !arg.is_empty() {
            self.game.preset.geo.parse_square(arg).ok_or_else(|| format!("{arg} is not a square of this board"))?;
            let needle = format!(" {arg}-");
            moves.retain(|m| m.contains(&needle));
        }
        let n = moves.len();
        moves.push(format!("{n} legal"));
        Ok(moves.join("\n"))
    }

    fn undo(&mut self, arg: &str) -> Result<String, String> {
        let n: usize =
            if arg.is_empty() { 1 } else { arg.parse().map_err(|_| format!("undo takes a number, not `{arg}`"))? };
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
        Ok(format!("undid {}", undone.join(", ")))
    }

    fn fen(&mut self, _: &str) -> Result<String, String> {
        Ok(self.game.fen())
    }

    fn setfen(&mut self, arg: &str) -> Result<String, String> {
        let g = Game::new(self.game.preset.clone(), Some(arg), self.game.seed).map_err(|e| format!("bad FEN: {e}"))?;
        self.game = g;
        Ok(self.game.fen())
    }

    fn new_game(&mut self, _: &str) -> Result<String, String> {
        let g = Game::new(self.game.preset.clone(), None, self.game.seed).map_err(|e| format!("bad setup: {e}"))?;
        self.game = g;
        Ok(format!("new game of {}", self.game.preset.name))
    }

    fn perft(&mut self, arg: &str) -> Result<String, String> {
        let mut words = arg.split_whitespace();
        let depth: usize = words.next().and_then(|d| d.parse().ok()).ok_or("perft takes a depth, e.g. `perft 4`")?;
        let divide = words.any(|w| w == "--divide");
        perft_report(&mut self.game, depth, divide)
    }

    fn history(&mut self, _: &str) -> Result<String, String> {
        if self.game.played.is_empty() {
            return Ok("no turns yet".into());
        }
        let lines: Vec<String> =
            self.game.played.iter().enumerate().map(|(i, p)| format!("{}. {}", i + 1, p.text)).collect();
        Ok(lines.join("\n"))
    }

    fn info(&mut self, _: &str) -> Result<String, String> {
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

    fn quit(&mut self, _: &str) -> Result<String, String> {
        self.done = true;
        Ok(String::new())
    }
}

fn find(word: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == word || c.aliases.contains(&word))
}

/// The diagram plus side to move, hands, FEN and result: `herald show` and the REPL's `board`.
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

/// Perft output as CONTRACTS.md section 1 fixes it.
pub fn perft_report(game: &mut Game, depth: usize, divide: bool) -> Result<String, String> {
    perft_report_with(game, depth, divide, true)
}

/// `bulk: false` plays the moves of the last ply too, for speed figures without bulk counting.
pub fn perft_report_with(game: &mut Game, depth: usize, divide: bool, bulk: bool) -> Result<String, String> {
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
        perft::try_perft(&mut game.pos, &preset, depth, bulk).map_err(|e| e.render(&preset))?
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { (nodes as f64 / secs) as u64 } else { 0 };
    out.push_str(&format!("perft {depth} nodes {nodes} time {secs:.3} nps {nps}"));
    Ok(out)
}

/// Run the REPL on stdin: line editing on a terminal, plain lines from a pipe.
pub fn run(game: Game) -> std::io::Result<()> {
    let mut repl = Repl::new(game);
    if std::io::stdin().is_terminal() { run_terminal(&mut repl) } else { run_piped(&mut repl) }
}

fn run_piped(repl: &mut Repl) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        match repl.execute(&line) {
            Ok(s) if s.is_empty() => {}
            Ok(s) => writeln!(out, "{s}")?,
            Err(e) => writeln!(out, "error: {e}")?,
        }
        if repl.done {
            break;
        }
    }
    Ok(())
}

fn run_terminal(repl: &mut Repl) -> std::io::Result<()> {
    repl.verbose = true;
    let mut rl = rustyline::DefaultEditor::new().map_err(std::io::Error::other)?;
    println!("{} - type `help` for commands, a turn to play it.", repl.game.preset.name);
    match status(&mut repl.game) {
        Ok(s) => println!("{s}"),
        Err(e) => println!("error: {e}"),
    }
    loop {
        let prompt = format!("{}> ", repl.game.pos.side);
        match rl.readline(&prompt) {
            Ok(line) => {
                let _ = rl.add_history_entry(line.as_str());
                match repl.execute(&line) {
                    Ok(s) if s.is_empty() => {}
                    Ok(s) => println!("{s}"),
                    Err(e) => println!("error: {e}"),
                }
                if repl.done {
                    break;
                }
            }
            Err(rustyline::error::ReadlineError::Interrupted) => continue,
            Err(rustyline::error::ReadlineError::Eof) => break,
            Err(e) => return Err(std::io::Error::other(e)),
        }
    }
    Ok(())
}

/// Load a preset for the REPL or the CLI, as an `Arc`.
pub fn load(spec: &str) -> Result<Arc<crate::preset::Preset>, check::LoadError> {
    check::load(spec).map(Arc::new)
}
