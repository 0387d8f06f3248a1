//! The REPL: a table of commands (one function each) and typed turns; line editing on a terminal, plain lines on a pipe.

pub mod commands;
pub mod complete;
pub mod draw;
pub mod record;
pub mod terminal;

mod error;
mod report;
mod session;

use crate::engine::notation::{self, Typed};
pub use draw::Style;
pub use error::{Answer, ReplError};
pub use report::{load, load_error_line, perft_report, perft_report_threads, perft_report_with, status};
pub use session::Repl;
pub use terminal::{history_path, run};

impl Repl {
    /// Run one line: a command, or else a turn to play. Errors leave the game as it was. Each line
    /// is one command, with its own budget ([`crate::budget`]).
    pub fn execute(&mut self, line: &str) -> Answer {
        crate::budget::fresh(|| self.execute_line(line))
    }

    fn execute_line(&mut self, line: &str) -> Answer {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(String::new());
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        // `n g8-f6` and `q d8-d5` are Black's moves in full notation, not `new` and `quit`.
        let read = (!rest.is_empty() && word.len() == 1).then(|| notation::read(line));
        let typed = match read {
            Some(Ok(t @ Typed::Full(_))) => Some(t),
            _ => None,
        };
        if let Some(c) = commands::find(word).filter(|_| typed.is_none()) {
            return self.command(c, rest.trim());
        }
        match self.play_read(line, typed) {
            Ok(text) => {
                self.redo.clear();
                // The computer answers when it plays the side now to move (`auto`).
                let reply = crate::search::repl_cmds::auto_reply(&mut self.game, &self.auto)?;
                Ok(if reply.is_empty() { text } else { format!("{text}\n{reply}") })
            }
            Err(ReplError::Turn(e)) => Err(commands::unknown(word, e)),
            Err(e) => Err(e),
        }
    }

    /// `execute`, but a bug that panics becomes an error line and the game is put back as it was.
    pub fn execute_guarded(&mut self, line: &str) -> Answer {
        let saved = self.game.clone();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.execute(line))) {
            Ok(r) => r,
            Err(_) => {
                self.game = saved;
                Err(ReplError::Internal)
            }
        }
    }

    /// Run a command; on a terminal, draw the board again when the command moved the game.
    fn command(&mut self, c: &commands::Command, arg: &str) -> Answer {
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
    pub fn play(&mut self, line: &str) -> Answer {
        self.play_read(line, None)
    }

    /// [`Repl::play`] of a line already read, if it was: it is not read again.
    fn play_read(&mut self, line: &str, typed: Option<Typed>) -> Answer {
        let text = match typed {
            Some(t) => self.game.play_typed(line, t),
            None => self.game.play(line),
        };
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
