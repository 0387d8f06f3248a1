//! Engine-protocol transcripts: each tests/protocol/NAME.txt is a session with `herald uci` or
//! `herald xboard` (the first line says which: `# uci` or `# xboard`), lines `> COMMAND` followed
//! by the lines the engine answered. The test runs the real binary and sends one command at a
//! time; after each it waits for the engine to be done with it (UCI: `isready` → `readyok`, after a
//! search its `bestmove`; XBoard: `ping N` → `pong N`, which waits for a move being thought).
//!
//! Search output depends on the search's tuning, so expected lines may hold wildcards: `*` stands
//! for one word and a final `...` for the rest of the line. `info` lines have their `nps` and
//! `time` replaced by `*` before comparing. `HERALD_BLESS=1 cargo test --test protocol` rewrites
//! the files from what the engine says now, keeping each expected line that still matches.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// Long enough for any search of the transcripts on a loaded machine: only a hang fails on it.
const PATIENCE: Duration = Duration::from_secs(120);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    xboard: bool,
    pings: u32,
    /// A `go infinite` is running: its `bestmove` comes after `stop`.
    endless: bool,
}

impl Engine {
    fn start(protocol: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
            .arg(protocol)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("herald starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines, xboard: protocol == "xboard", pings: 0, endless: false }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("herald reads");
        self.stdin.flush().expect("herald reads");
    }

    /// Lines until one for which `done` holds (that one included when `keep`).
    fn until(&mut self, command: &str, done: impl Fn(&str) -> bool, keep: bool) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|_| panic!("no answer to `{command}` (so far: {out:?})"));
            if done(&line) {
                if keep {
                    out.push(line);
                }
                return out;
            }
            out.push(line);
        }
    }

    /// Send a command and gather everything it answers.
    fn command(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        if command == "quit" {
            let _ = self.child.wait();
            return self.lines.try_iter().collect();
        }
        let mut out = Vec::new();
        let word = command.split_whitespace().next().unwrap_or("");
        let answers = match word {
            // Its lines come until `stop`, as many as the machine's speed allows: `stop` shows
            // only the move.
            "go" if command.contains("infinite") => {
                self.endless = true;
                return Vec::new();
            }
            "go" => !command.contains("perft"),
            "stop" => std::mem::take(&mut self.endless),
            _ => false,
        };
        if !self.xboard && answers {
            out = self.until(command, |l| l.starts_with("bestmove"), true);
            if word == "stop" {
                out.retain(|l| !l.starts_with("info depth"));
            }
        }
        if word == "isready" || word == "ping" {
            // The command is its own end: its answer is the last line.
            let end = if self.xboard { "pong" } else { "readyok" };
            out.extend(self.until(command, |l| l.starts_with(end), true));
        } else if self.xboard {
            self.pings += 1;
            let pong = format!("pong {}", self.pings);
            self.send(&format!("ping {}", self.pings));
            out.extend(self.until(command, |l| l == pong, false));
        } else {
            self.send("isready");
            out.extend(self.until(command, |l| l == "readyok", false));
        }
        out
    }
}

/// `info` lines without their timings.
fn steady(line: &str) -> String {
    if !line.starts_with("info ") {
        return line.to_string();
    }
    let mut words: Vec<&str> = line.split(' ').collect();
    for i in 1..words.len() {
        if matches!(words[i - 1], "nps" | "time") {
            words[i] = "*";
        }
    }
    words.join(" ")
}

/// Whether an actual line matches an expected one with wildcards.
fn matches(expected: &str, actual: &str) -> bool {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.split(' ').collect(), actual.split(' ').collect());
    for (i, w) in e.iter().enumerate() {
        if *w == "..." && i == e.len() - 1 {
            return a.len() >= i;
        }
        match a.get(i) {
            Some(x) if w == x || *w == "*" => {}
            _ => return false,
        }
    }
    e.len() == a.len()
}

/// Replay a transcript and write the one it gives now (expected lines that match kept as written).
fn replay(text: &str) -> Result<String, String> {
    let mut lines = text.lines().peekable();
    let header = lines.next().ok_or("empty transcript")?;
    let protocol = match header {
        "# uci" => "uci",
        "# xboard" => "xboard",
        other => return Err(format!("the first line must be `# uci` or `# xboard`, not `{other}`")),
    };
    let mut engine = Engine::start(protocol);
    let mut out = format!("{header}\n");
    while let Some(line) = lines.next() {
        if line.starts_with('#') {
            out += &format!("{line}\n");
            continue;
        }
        let Some(command) = line.strip_prefix("> ") else { continue };
        let mut expected = Vec::new();
        while let Some(l) = lines.peek().filter(|l| !l.starts_with("> ") && !l.starts_with('#')) {
            expected.push(l.to_string());
            lines.next();
        }
        out += &format!("> {command}\n");
        let said: Vec<String> = engine.command(command).iter().map(|l| steady(l)).collect();
        for (i, a) in said.iter().enumerate() {
            match expected.get(i) {
                Some(e) if matches(e, a) => out += &format!("{e}\n"),
                _ => out += &format!("{a}\n"),
            }
        }
    }
    if !text.contains("\n> quit") {
        engine.command("quit");
    }
    Ok(out)
}

#[test]
fn protocol_transcripts_match() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/protocol");
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("tests/protocol").flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    assert!(!files.is_empty(), "no transcripts in {}", dir.display());
    let bless = std::env::var_os("HERALD_BLESS").is_some();
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable transcript");
        let now = match replay(&text) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        if now == text {
            continue;
        }
        if bless {
            std::fs::write(path, &now).expect("writable transcript");
            continue;
        }
        let first = text
            .lines()
            .zip(now.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(text.lines().count().min(now.lines().count()));
        failures.push(format!(
            "{}: line {} differs\n  expected: {}\n  now:      {}",
            path.display(),
            first + 1,
            text.lines().nth(first).unwrap_or("(end)"),
            now.lines().nth(first).unwrap_or("(end)")
        ));
    }
    assert!(failures.is_empty(), "{}\n(HERALD_BLESS=1 rewrites the files)", failures.join("\n"));
}

#[test]
fn wildcards_match_words_and_the_rest_of_a_line() {
    assert!(matches("bestmove *", "bestmove e2e4"));
    assert!(!matches("bestmove *", "bestmove e2e4 ponder e7e5"));
    assert!(!matches("info depth 1 score * pv ...", "info depth 1 score cp 20 pv e2e4 e7e5"));
    assert!(matches("info depth 1 score * * pv ...", "info depth 1 score cp 20 pv e2e4 e7e5"));
    assert!(!matches("info depth 2 ...", "info depth 1 score cp 20"));
    assert_eq!(steady("info depth 1 nps 5000 time 3 pv e2e4"), "info depth 1 nps * time * pv e2e4");
}
