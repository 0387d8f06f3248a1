//! The REPL: a table of commands (one function each) and typed turns; line editing on a terminal, plain lines on a pipe.

pub mod commands;
pub mod complete;
pub mod draw;
pub mod record;
pub mod terminal;

use crate::check;
use crate::display;
use crate::engine::perft;
use crate::game::Game;
pub use draw::Style;
use std::sync::Arc;
pub use terminal::{history_path, run};

pub struct Repl {
    pub game: Game,
    /// Draw the board after each turn (on a terminal).
    pub verbose: bool,
    pub style: Style,
    pub done: bool,
    /// Turns taken back by `undo`, latest last, for `redo`; a new turn clears them.
    pub redo: Vec<String>,
    pub tracing: bool,
    /// The sides the computer plays (`auto`), answering each human turn.
    pub auto: crate::search::repl_cmds::Auto,
}

impl Repl {
    pub fn new(game: Game) -> Repl {
        Repl {
            game,
            verbose: false,
            style: Style::default(),
            done: false,
            redo: Vec::new(),
            tracing: false,
            auto: Default::default(),
        }
    }

    /// Run one line: a command, or else a turn to play. Errors leave the game as it was. Each line
    /// is one command, with its own budget ([`crate::budget`]).
    pub fn execute(&mut self, line: &str) -> Result<String, String> {
        crate::budget::fresh(|| self.execute_line(line))
    }

    fn execute_line(&mut self, line: &str) -> Result<String, String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(String::new());
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        // `n g8-f6` and `q d8-d5` are Black's moves in full notation, not `new` and `quit`.
        let a_move = !rest.is_empty()
            && word.len() == 1
            && matches!(crate::engine::notation::read(line), Ok(crate::engine::notation::Typed::Full(_)));
        if let Some(c) = commands::find(word).filter(|_| !a_move) {
            return self.command(c, rest.trim());
        }
        match self.play(line) {
            Ok(text) => {
                self.redo.clear();
                // The computer answers when it plays the side now to move (`auto`).
                let reply = crate::search::repl_cmds::auto_reply(&mut self.game, &self.auto)?;
                Ok(if reply.is_empty() { text } else { format!("{text}\n{reply}") })
            }
            Err(e) => Err(commands::unknown(word, e)),
        }
    }

    /// `execute`, but a bug that panics becomes an error line and the game is put back as it was.
    pub fn execute_guarded(&mut self, line: &str) -> Result<String, String> {
        let saved = self.game.clone();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.execute(line))) {
            Ok(r) => r,
            Err(_) => {
                self.game = saved;
                Err("internal error (a bug in herald, see above); the game is as it was".into())
            }
        }
    }

    /// Run a command; on a terminal, draw the board again when the command moved the game.
    fn command(&mut self, c: &commands::Command, arg: &str) -> Result<String, String> {
        if !self.verbose || matches!(c.name, "board" | "redo") {
            return (c.run)(self, arg);
        }
        let before = (self.game.fen(), self.game.played.len(), self.game.preset.name.clone());
        let out = (c.run)(self, arg)?;
        // A new game (`open`, `new`, `load`, ...) is drawn even when it looks like the old one.
        let replaced = matches!(c.name, "open" | "new" | "load" | "setfen" | "reload");
        if !replaced && before == (self.game.fen(), self.game.played.len(), self.game.preset.name.clone()) {
            return Ok(out);
        }
        Ok(format!("{}\n{out}", draw::board(&self.game, self.style)))
    }

    /// Play one turn and describe it: the numbered turn, check, what was said, the result; with `trace on`, the hooks.
    pub fn play(&mut self, line: &str) -> Result<String, String> {
        let text = self.game.play(line).map_err(|e| e.to_string());
        let trace = self.trace_lines();
        let text = text?;
        let n = self.game.played.len();
        let mut out = format!("{}. {text}", n.div_ceil(2));
        if self.game.pos.in_check(&self.game.preset, self.game.pos.side) {
            out.push_str(" (check)");
        }
        if !trace.is_empty() {
            out = format!("{trace}\n{out}");
        }
        if self.verbose {
            out = format!("{}\n{out}", draw::board(&self.game, self.style));
        } else {
            for m in self.game.said() {
                out.push_str(&format!("\nsaid: {m}"));
            }
        }
        match self.game.result() {
            Ok(Some(r)) => out.push_str(&format!("\nresult: {r}")),
            Ok(None) => {}
            Err(e) => out.push_str(&format!("\nerror: {e}")),
        }
        Ok(out)
    }

    /// The hooks traced while the last turn was played, one line each.
    fn trace_lines(&self) -> String {
        if !self.tracing {
            return String::new();
        }
        let p = &self.game.preset;
        let lines: Vec<String> = crate::script::hooks::take_trace()
            .iter()
            .map(|e| {
                let mut effects: Vec<String> = e
                    .changed
                    .iter()
                    .map(|(i, b, a)| format!("{} {} -> {}", p.script.globals[*i].name, b.show(p), a.show(p)))
                    .collect();
                effects.extend(e.said.iter().map(|s| format!("says \"{s}\"")));
                effects.extend(e.rejected.iter().map(|r| format!("rejects: {r}")));
                let on = e.part.as_ref().map_or(String::new(), |v| format!(" ({})", part_squares(p, v)));
                let effect = if effects.is_empty() { "no effect".to_string() } else { effects.join("; ") };
                format!("trace: {}{on}: {effect}", e.hook)
            })
            .collect();
        lines.join("\n")
    }
}

fn part_squares(p: &crate::preset::Preset, v: &crate::script::PartVal) -> String {
    // Only a move has a square it left; other parts act on one square.
    match v.kind {
        crate::syntax::script::PartKind::Move => format!("{}-{}", p.geo.name(v.from), p.geo.name(v.to)),
        k => format!("{} {}", k.word(), p.geo.name(v.to)),
    }
}

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
    let rendered = e.render();
    let heads: Vec<String> =
        rendered.lines().filter(|l| l.contains(": error: ")).map(|l| l.replacen(": error: ", ": ", 1)).collect();
    match heads.as_slice() {
        [] => rendered.lines().next().unwrap_or("the preset did not load").to_string(),
        [one] => one.to_string(),
        [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
    }
}
