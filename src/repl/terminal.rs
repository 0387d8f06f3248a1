//! The REPL's input and output: rustyline on a terminal (completion, history in the data directory), plain lines on a pipe.

use super::draw::Style;
use super::session::Repl;
use super::{complete, draw};
use crate::game::Game;
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;

/// Run the REPL on stdin: line editing on a terminal, plain lines from a pipe. `ascii` turns glyphs off.
pub fn run(game: Game, ascii: bool) -> std::io::Result<()> {
    let mut repl = Repl::new(game);
    let colour = std::io::stdout().is_terminal() && std::env::var("TERM").map_or(true, |t| t != "dumb");
    repl.style = Style { colour, glyphs: colour && !ascii && utf8_locale() };
    if std::io::stdin().is_terminal() { run_terminal(&mut repl) } else { run_piped(&mut repl) }
}

/// Whether the locale says the terminal speaks UTF-8 (the first of LC_ALL, LC_CTYPE, LANG that is set).
fn utf8_locale() -> bool {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].iter().find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()));
    locale.is_some_and(|l| {
        let l = l.to_ascii_lowercase();
        l.contains("utf-8") || l.contains("utf8")
    })
}

/// The longest line the piped REPL reads; the rest of a longer line is skipped.
const MAX_LINE: u64 = crate::files::MAX_FILE_BYTES;

fn run_piped(repl: &mut Repl) -> std::io::Result<()> {
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut buf = Vec::new();
    for number in 1.. {
        buf.clear();
        if (&mut input).take(MAX_LINE + 1).read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        if buf.last() != Some(&b'\n') && buf.len() as u64 > MAX_LINE {
            skip_line(&mut input)?;
            writeln!(out, "error: line {number} is longer than {MAX_LINE} bytes; it is skipped")?;
            continue;
        }
        let bytes = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        // A line that is not UTF-8 is one bad line, not the end of the session.
        let Ok(line) = std::str::from_utf8(bytes) else {
            writeln!(out, "error: line {number} is not UTF-8 text; it is skipped")?;
            continue;
        };
        match repl.execute_guarded(line) {
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

/// Read and drop the rest of a line, a bounded piece at a time.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    let mut scrap = Vec::new();
    loop {
        scrap.clear();
        if input.take(1 << 16).read_until(b'\n', &mut scrap)? == 0 || scrap.last() == Some(&b'\n') {
            return Ok(());
        }
    }
}

type Editor = rustyline::Editor<complete::Helper, rustyline::history::FileHistory>;

fn run_terminal(repl: &mut Repl) -> std::io::Result<()> {
    repl.verbose = true;
    let config = rustyline::Config::builder()
        .completion_type(rustyline::CompletionType::List)
        .max_history_size(5000)
        .map_err(std::io::Error::other)?
        .build();
    let mut rl: Editor = rustyline::Editor::with_config(config).map_err(std::io::Error::other)?;
    rl.set_helper(Some(complete::Helper::default()));
    let history = history_path();
    if let Some(h) = history.as_ref().filter(|h| h.exists())
        && let Err(e) = rl.load_history(h)
    {
        eprintln!("warning: could not read the history {}: {e}", h.display());
    }
    let mut welcome =
        format!("{} - type `help` for commands, a turn to play it, Tab to complete.", repl.game.preset.name);
    if let Some(seed) = repl.game.drawn_from() {
        welcome.push_str(&format!("\nThe setup was drawn from seed {seed}; `new` draws the next, `new --seed N` any."));
    }
    let r = say(&welcome)
        .and_then(|()| say(&draw::board(&repl.game, repl.style)))
        .and_then(|()| read_loop(repl, &mut rl, history.as_deref()));
    if let Some(h) = &history {
        save_history(&mut rl, h);
    }
    r
}

/// Read and run lines until `quit`, Ctrl-D or a hang-up; the history is saved after each line,
/// since a closed terminal may end the process before the loop does.
fn read_loop(repl: &mut Repl, rl: &mut Editor, history: Option<&std::path::Path>) -> std::io::Result<()> {
    use rustyline::error::ReadlineError;
    loop {
        if let Some(h) = rl.helper_mut() {
            h.refresh(&mut repl.game);
        }
        let prompt = format!("{}> ", repl.game.pos.side);
        match rl.readline(&prompt) {
            Ok(line) => {
                if !line.trim().is_empty() && rl.add_history_entry(line.as_str()).unwrap_or(false) {
                    history.inspect(|h| save_history(rl, h));
                }
                match repl.execute_guarded(&line) {
                    Ok(s) if s.is_empty() => {}
                    Ok(s) => say(&s)?,
                    Err(e) => say(&format!("error: {e}"))?,
                }
                if repl.done {
                    return Ok(());
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => return Ok(()),
            Err(e) => return Err(std::io::Error::other(e)),
        }
    }
}

/// Set once saving the history failed: the warning is said once, and saving is not tried again.
static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Print a line; a terminal that went away (hang-up) ends the session instead of panicking.
fn say(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").and_then(|()| out.flush())
}

/// `$XDG_DATA_HOME/herald/history`, else `~/.local/share/herald/history`; none if neither is known.
pub fn history_path() -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()).map(PathBuf::from).or_else(|| {
        std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".local/share"))
    })?;
    Some(data.join("herald").join("history"))
}

fn save_history(rl: &mut Editor, path: &std::path::Path) {
    if WARNED.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    if let Err(e) = write_history(rl, path) {
        WARNED.store(true, std::sync::atomic::Ordering::Relaxed);
        eprintln!("warning: could not save the history to {}: {e}", path.display());
    }
}

/// Written as `save` writes a game ([`crate::files::write_private`]): a new file of an unguessable
/// name beside it, renamed over it, readable by its owner only; never through a link, never over
/// what is not a regular file, and a session killed while saving never leaves the history cut short.
fn write_history(rl: &mut Editor, path: &std::path::Path) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    crate::files::write_private(path, &history_text(rl.history().iter())).map_err(|e| e.to_string())
}

/// rustyline's history file: `#V2`, then one line per entry with `\` and line feeds escaped.
fn history_text<'h>(entries: impl Iterator<Item = &'h String>) -> String {
    let mut text = String::from("#V2\n");
    for e in entries {
        text.push_str(&e.replace('\\', "\\\\").replace('\n', "\\n"));
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_history_is_written_as_rustyline_reads_it() {
        use rustyline::history::{FileHistory, History};
        let entries = ["e4".to_string(), "say \\ a\nb".to_string()];
        let path = std::env::temp_dir().join(format!("herald-history-{}", std::process::id()));
        crate::files::write_private(&path, &super::history_text(entries.iter())).expect("writes");
        let mut h = FileHistory::new();
        h.load(&path).expect("loads");
        let _ = std::fs::remove_file(&path);
        assert_eq!(h.iter().cloned().collect::<Vec<_>>(), entries);
    }
}
