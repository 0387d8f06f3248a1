//! The `herald` command line (docs/formats.md): argument parsing and exit codes only.

use clap::{Parser, Subcommand};
use herald::game::Game;
use herald::search::values as selfplay_values;
use herald::search::{Limits, selfplay};
use herald::{check, games, repl};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "herald", version, about = "An interpreter for chess-variant presets")]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// Piece values for the computer player, from a values file (see `herald values`).
    #[arg(long, global = true, value_name = "FILE")]
    values: Option<PathBuf>,
    /// The evaluation's weights, from a weights file (see `herald qscores` and bench/tune.py).
    #[arg(long, global = true, value_name = "FILE")]
    eval_weights: Option<PathBuf>,
}

#[derive(clap::Args, Clone)]
struct Position {
    /// A preset: a shipped name (chess, ...) or a path to a .preset file.
    preset: String,
    /// Start from this extended FEN instead of the preset's setup.
    #[arg(long)]
    fen: Option<String>,
    /// Seed for presets with random setups.
    #[arg(long)]
    seed: Option<u64>,
    /// Turns to play first, separated by `|`.
    #[arg(long)]
    play: Option<String>,
}

#[derive(Subcommand)]
enum Cmd {
    /// The REPL on a preset.
    Play {
        preset: String,
        #[arg(long)]
        fen: Option<String>,
        #[arg(long)]
        seed: Option<u64>,
        /// Draw pieces as their labels, not as Unicode chess glyphs.
        #[arg(long)]
        ascii: bool,
    },
    /// Parse and validate presets.
    Check {
        #[arg(required = true)]
        presets: Vec<String>,
    },
    /// List every legal turn in the position reached.
    Moves(Position),
    /// Show the position reached.
    Show(Position),
    /// Count the leaf turns of the legal-turn tree.
    Perft {
        #[command(flatten)]
        at: Position,
        depth: usize,
        /// One line per legal turn with its count first.
        #[arg(long)]
        divide: bool,
        /// Play the last ply's moves instead of counting them (speed without bulk counting).
        #[arg(long)]
        no_bulk: bool,
        /// Threads to split the count over at the root (1: one thread).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Count through draws and other ends by repetition, move limit and insufficient material,
        /// as Fairy-Stockfish and published perft suites do (checkmate and stalemate still end).
        #[arg(long)]
        no_draws: bool,
        /// Partial turns (parts applied with their hooks) this count may try in all, for a deep
        /// perft of a scripted preset; hook steps are raised in proportion (default and minimum:
        /// 200000000 partial turns, 4000000000 steps).
        #[arg(long, value_name = "N")]
        max_turns: Option<u64>,
    },
    /// Run sample games (default: tests/games).
    Test { paths: Vec<PathBuf> },
    /// The computer plays the preset against itself; prints each result and a summary.
    Selfplay {
        preset: String,
        #[arg(long, default_value_t = 1)]
        games: u32,
        /// Seeds the choice of opening turns (and random setups), so a run can be repeated.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Milliseconds per turn.
        #[arg(long)]
        time: Option<u64>,
        /// Nodes per turn (the default: 20000; repeatable results).
        #[arg(long)]
        nodes: Option<u64>,
        /// Depth per turn.
        #[arg(long)]
        depth: Option<u32>,
        /// A game still going after this many plies stops, unfinished.
        #[arg(long, default_value_t = 300)]
        max_plies: usize,
        /// The first plies of each game choose at random among near-best turns, so games differ.
        #[arg(long, default_value_t = 4)]
        random_plies: usize,
        /// Write each game as a sample-game YAML file in this folder.
        #[arg(long)]
        save: Option<PathBuf>,
    },
    /// Be an engine over UCI (docs/engine.md): for GUIs, python-chess and match runners.
    Uci,
    /// Be an engine over XBoard/CECP v2 (docs/engine.md).
    Xboard,
    /// A local web board (docs/web.md): play, inspect and debug a preset in the browser.
    Serve {
        /// The preset the page opens with: a shipped name or a path to a .preset file.
        #[arg(default_value = "chess")]
        preset: String,
        #[arg(long, default_value_t = 8000)]
        port: u16,
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Seed for presets with random setups.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Estimate each piece kind's value for a preset (in pawns), from mobility in self-play,
    /// cross-checked by self-play games with one piece missing; prints a values file.
    Values {
        preset: String,
        /// Self-play games for the mobility proxy, and per kind for the cross-check (at least 1).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Nodes per turn in every game.
        #[arg(long, default_value_t = 2000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Plies before a game stops (a draw for the cross-check).
        #[arg(long, default_value_t = 160)]
        max_plies: usize,
        /// The mobility proxy only (no cross-check games).
        #[arg(long)]
        proxy_only: bool,
    },
    /// Read extended FENs from standard input, one per line (anything after a tab ignored), and
    /// print each one's quiescence score from White's view, under the weights in force
    /// (`--eval-weights`): for tuning them (bench/tune.py).
    Qscores {
        preset: String,
        /// Print the weights in force as a weights file instead.
        #[arg(long)]
        print_weights: bool,
    },
}

/// Why a command failed; reported on stderr with exit status 2.
enum Fail {
    /// A preset that did not load: one `path:line:col: error: message` line per diagnostic.
    Load(check::LoadError),
    /// Anything else: one message, shown after `error: `.
    Message(String),
}

impl From<String> for Fail {
    fn from(message: String) -> Fail {
        Fail::Message(message)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // On a stack large enough for the deepest recursion a preset may ask for (see `herald::stack`).
    // One budget for the command (see `herald::budget`); `test` and `selfplay` give each game its own.
    herald::stack::run(|| herald::budget::fresh(|| command(cli)))
}

fn command(cli: Cli) -> ExitCode {
    if let Some(file) = &cli.values {
        let read = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()));
        match read.and_then(|text| selfplay_values::parse_file(&file.display().to_string(), &text)) {
            Ok(v) => selfplay_values::set_learned(v),
            Err(e) => {
                eprintln!("error: --values {e}");
                return ExitCode::from(2);
            }
        }
    }
    if let Some(file) = &cli.eval_weights {
        let read = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()));
        match read.and_then(|text| herald::search::weights::parse_file(&file.display().to_string(), &text)) {
            Ok(w) => herald::search::weights::set(w),
            Err(e) => {
                eprintln!("error: --eval-weights {e}");
                return ExitCode::from(2);
            }
        }
    }
    let result = match cli.command {
        None => play("chess", None, None, false),
        Some(Cmd::Play { preset, fen, seed, ascii }) => play(&preset, fen, seed, ascii),
        Some(Cmd::Check { presets }) => return check_presets(&presets),
        Some(Cmd::Moves(p)) => moves(&p),
        Some(Cmd::Show(p)) => show(&p),
        Some(Cmd::Perft { at, depth, divide, no_bulk, threads, no_draws, max_turns }) => {
            let budget = max_turns.map(|n| std::sync::Arc::new(herald::budget::Budget::raised(n)));
            herald::budget::under(budget, || perft(&at, depth, divide, !no_bulk, threads, no_draws))
        }
        Some(Cmd::Test { paths }) => return test(paths),
        Some(Cmd::Selfplay { preset, games, seed, time, nodes, depth, max_plies, random_plies, save }) => {
            let limits = Limits { depth, nodes, time_ms: time };
            let limits = if limits == Limits::default() { Limits::nodes(20_000) } else { limits };
            let opts = selfplay::Options { games, seed, limits, max_plies, random_plies };
            selfplay(&preset, &opts, save.as_deref())
        }
        Some(Cmd::Uci) => herald::protocol::uci::run(std::io::stdin().lock(), herald::protocol::session::stdout())
            .map_err(Fail::Message),
        Some(Cmd::Xboard) => {
            herald::protocol::xboard::run(std::io::stdin().lock(), herald::protocol::session::stdout())
                .map_err(Fail::Message)
        }
        Some(Cmd::Serve { preset, port, host, seed }) => {
            herald::server::run(&herald::server::Options { preset, host, port, seed }).map_err(Fail::Message)
        }
        Some(Cmd::Values { preset, games, nodes, seed, max_plies, proxy_only }) => {
            let opts = selfplay_values::ValuesOptions { games, nodes, seed, max_plies, proxy_only };
            values(&preset, &opts)
        }
        Some(Cmd::Qscores { preset, print_weights }) => qscores(&preset, print_weights),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail::Load(e)) => {
            for (at, message) in e.headlines() {
                eprintln!("{at}: error: {message}");
            }
            ExitCode::from(2)
        }
        Err(Fail::Message(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn load_game(preset: &str, fen: Option<&str>, seed: Option<u64>) -> Result<Game, Fail> {
    let p = repl::load(preset).map_err(Fail::Load)?;
    let game = Game::new(p, fen, seed).map_err(|e| e.to_string())?;
    if fen.is_some() {
        for w in herald::engine::sanity::warnings(&game.preset, &game.pos) {
            eprintln!("warning: --fen: {w}");
        }
    }
    Ok(game)
}

fn reach(p: &Position) -> Result<Game, Fail> {
    let mut game = load_game(&p.preset, p.fen.as_deref(), p.seed)?;
    for turn in p.play.iter().flat_map(|s| s.split('|')).map(str::trim).filter(|t| !t.is_empty()) {
        game.play(turn).map_err(|e| {
            // `--play "e4 e5"`: two turns where one was expected.
            let words: Vec<&str> = turn.split_whitespace().collect();
            let hint = if words.len() > 1 && !turn.contains(';') && words[0].contains(|c: char| c.is_ascii_digit()) {
                format!(" (turns in --play are separated by `|`: \"{}\")", words.join(" | "))
            } else {
                String::new()
            };
            format!("turn `{turn}`: {e}{hint}")
        })?;
    }
    Ok(game)
}

fn play(preset: &str, fen: Option<String>, seed: Option<u64>, ascii: bool) -> Result<(), Fail> {
    let game = load_game(preset, fen.as_deref(), seed)?;
    Ok(repl::run(game, ascii).map_err(|e| e.to_string())?)
}

/// Writes a command's output. A reader that stops early (`| head`) is not an error worth a panic
/// (`println!` panics on a closed pipe): what it did not read is simply not written.
fn emit(text: &str) {
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
}

/// `println!` through [`emit`].
macro_rules! outln {
    ($($arg:tt)*) => {
        emit(&format!("{}\n", format_args!($($arg)*)))
    };
}

fn check_presets(presets: &[String]) -> ExitCode {
    let mut ok = true;
    for p in presets {
        match check::load(p) {
            Ok(preset) => outln!("{}: ok ({})", p, preset.name),
            Err(e) => {
                ok = false;
                outln!("{}", e.render());
            }
        }
    }
    if ok { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

fn moves(p: &Position) -> Result<(), Fail> {
    let mut game = reach(p)?;
    let list = game.legal_texts().map_err(|e| e.to_string())?;
    let mut out = String::with_capacity(list.len() * 16);
    for m in &list {
        out.push_str(m);
        out.push('\n');
    }
    out.push_str(&format!("{} legal\n", list.len()));
    emit(&out);
    Ok(())
}

fn show(p: &Position) -> Result<(), Fail> {
    let mut game = reach(p)?;
    outln!("{}", repl::status(&mut game).map_err(|e| e.to_string())?);
    Ok(())
}

fn perft(p: &Position, depth: usize, divide: bool, bulk: bool, threads: u16, no_draws: bool) -> Result<(), Fail> {
    if depth > herald::play::perft::MAX_DEPTH {
        return Err(format!("perft depth {depth} is too deep; the limit is {}", herald::play::perft::MAX_DEPTH).into());
    }
    let mut game = reach(p)?;
    if no_draws {
        game.preset = std::sync::Arc::new(game.preset.without_static_ends());
    }
    let report = repl::perft_report_threads(&mut game, depth, divide, bulk, threads as usize)?;
    outln!("{report}");
    Ok(())
}

fn selfplay(preset: &str, opts: &selfplay::Options, save: Option<&std::path::Path>) -> Result<(), Fail> {
    let p = repl::load(preset).map_err(Fail::Load)?;
    Ok(selfplay::run(&p, preset, opts, save, &mut std::io::stdout()).map(|_| ())?)
}

fn values(preset: &str, opts: &selfplay_values::ValuesOptions) -> Result<(), Fail> {
    let p = repl::load(preset).map_err(Fail::Load)?;
    let rows = selfplay_values::estimate(&p, opts, &mut |line| eprintln!("{line}"))?;
    emit(&selfplay_values::table(&p, &rows, opts));
    Ok(())
}

fn qscores(preset: &str, print_weights: bool) -> Result<(), Fail> {
    let p = repl::load(preset).map_err(Fail::Load)?;
    if print_weights {
        emit(&herald::search::weights::current().to_file());
        return Ok(());
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    herald::search::tuning::qscores(&p, std::io::stdin().lock(), &mut out)?;
    Ok(())
}

fn test(paths: Vec<PathBuf>) -> ExitCode {
    let paths = if paths.is_empty() { vec![PathBuf::from("tests/games")] } else { paths };
    let files = match games::collect(&paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let summary = games::Runner::default().run_all(&files);
    for f in &summary.failures {
        outln!("{f}");
    }
    outln!("{} passed, {} failed", summary.passed, summary.failures.len());
    if summary.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
