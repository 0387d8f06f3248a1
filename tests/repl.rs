//! The REPL where a transcript cannot show it: files written and read, times, the terminal's colours,
//! completion, and state behind the text. Commands and their errors are golden transcripts in
//! tests/repl/*.txt (tests/transcripts.rs).

use herald::game::Game;
use herald::repl::{Repl, complete};

mod common;

/// A REPL line's answer, its error as the text the REPL shows.
fn ex(r: &mut Repl, line: &str) -> Result<String, String> {
    r.execute(line).map_err(|e| e.to_string())
}

fn repl_on(preset: &str) -> Repl {
    let preset = herald::repl::load(preset).expect("preset loads");
    Repl::new(Game::new(preset, None, None).expect("setup parses"))
}

fn repl() -> Repl {
    repl_on("chess")
}

fn run(r: &mut Repl, lines: &[&str]) {
    for l in lines {
        ex(r, l).unwrap_or_else(|e| panic!("`{l}` failed: {e}"));
    }
}

/// A fresh folder under the system's temporary folder for one test, removed when dropped.
fn scratch(test: &str) -> common::Scratch {
    common::Scratch::new(&format!("repl-{test}"))
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

#[test]
fn help_lists_every_command() {
    let all = ex(&mut repl(), "help").expect("help");
    for c in herald::repl::commands::COMMANDS {
        assert!(all.contains(c.usage), "help lacks {}", c.usage);
    }
}

/// Perft prints its time, so it is checked here rather than in a transcript.
#[test]
fn perft_counts_and_divides() {
    let mut r = repl();
    assert!(ex(&mut r, "perft 3").is_ok_and(|s| s.starts_with("perft 3 nodes 8902 time ")));
    let divide = ex(&mut r, "perft 2 --divide").expect("divide");
    assert_eq!(divide.lines().count(), 21);
    assert!(divide.starts_with("N b1-a3: 20\n") && divide.contains("\nperft 2 nodes 400 time "));
    assert_eq!(ex(&mut r, "fen"), Ok(START.into()));
}

#[test]
fn a_new_game_of_a_fixed_setup_keeps_no_seed() {
    let mut r = repl();
    run(&mut r, &["e4"]);
    assert_eq!(ex(&mut r, "new --seed 7"), Ok("new game of Chess".into()));
    assert_eq!(r.game.seed, None, "chess draws no setup: the seed is not kept, so a saved game names none");
}

/// The errors list every shipped preset, so they are checked by their start rather than in a transcript
/// (tests/repl/new-setfen-load.txt plays the rest).
#[test]
fn load_errors_are_one_line_and_keep_the_game() {
    let mut r = repl();
    run(&mut r, &["e4"]);
    let err = ex(&mut r, "load nopreset").expect_err("no such preset");
    assert!(err.contains("no preset `nopreset`") && !err.contains('\n'), "{err}");
    assert_eq!(ex(&mut r, "fen"), Ok(AFTER_E4.into()));
    assert!(ex(&mut r, "load").is_err_and(|e| e.starts_with("load takes a preset: chess, maidens")));
}

#[test]
fn reload_replays_until_a_turn_is_no_longer_legal() {
    let dir = scratch("reload");
    let file = dir.join("mine.preset");
    let chess = std::fs::read_to_string("presets/chess.preset").expect("chess preset");
    std::fs::write(&file, &chess).expect("write preset");
    let mut r = repl_on(file.to_str().expect("utf-8 path"));
    run(&mut r, &["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(ex(&mut r, "reload"), Ok("reloaded Chess; replayed 4 turns".into()));
    // The inventor makes knights into wazirs: the third turn no longer stands.
    std::fs::write(&file, chess.replace("moves \"N\"", "moves \"W\"")).expect("edit preset");
    assert_eq!(
        ex(&mut r, "reload"),
        Ok("reloaded Chess; turn 3 `N g1-f3` is no longer legal (N on g1 cannot move to f3); stopped after 2 turns (`redo` tries the rest)"
            .into())
    );
    assert_eq!(r.game.played.len(), 2);
    assert_eq!(ex(&mut r, "fen"), Ok("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".into()));
    // A broken edit is one line and changes nothing.
    std::fs::write(&file, "board 8 x\n").expect("break preset");
    let err = ex(&mut r, "reload").expect_err("broken preset");
    assert!(err.contains("mine.preset:") && !err.contains('\n'), "{err}");
    assert_eq!(r.game.played.len(), 2);
    // Put right, the game comes back: reload, then redo the turns that waited.
    std::fs::write(&file, &chess).expect("restore preset");
    assert_eq!(ex(&mut r, "reload"), Ok("reloaded Chess; replayed 2 turns".into()));
    assert_eq!(ex(&mut r, "redo"), Ok("2. N g1-f3".into()));
    assert_eq!(ex(&mut r, "redo"), Ok("2. n b8-c6".into()));
    assert_eq!(ex(&mut r, "redo"), Err("nothing to redo".into()));
}

#[test]
fn save_writes_a_sample_game_that_passes_and_opens() {
    let dir = scratch("save");
    let file = dir.join("fools.yaml");
    let mut r = repl();
    run(&mut r, &["f3", "e5", "g4", "Qh4"]);
    assert_eq!(ex(&mut r, &format!("save {}", file.display())), Ok(format!("saved 4 turns to {}", file.display())));
    let text = std::fs::read_to_string(&file).expect("saved");
    assert_eq!(
        text,
        "name: \"Chess - a game saved from the REPL\"\npreset: \"chess\"\nsteps:\n  - play: \"P f2-f3\"\n  \
         - play: \"p e7-e5\"\n  - play: \"P g2-g4\"\n  - play: \"q d8-h4\"\nexpect:\n  result: black\n  \
         reason: \"checkmate\"\n  fen: \"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\"\n"
    );
    let summary = herald::games::Runner::default().run_all(std::slice::from_ref(&file));
    assert_eq!((summary.passed, summary.failures.len()), (1, 0));
    let leftovers: Vec<_> = std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("fools.yaml")], "no temporary file stays behind");
    let mut o = repl_on("maidens");
    assert_eq!(
        ex(&mut o, &format!("open {}", file.display())),
        Ok("opened Chess - a game saved from the REPL: 4 turns; expect holds".into())
    );
    assert_eq!(o.game.preset.name, "Chess");
    assert_eq!(ex(&mut o, "history"), ex(&mut r, "history"));
    assert_eq!(ex(&mut o, "undo"), Ok("undid q d8-h4".into()));
}

#[test]
fn save_and_open_errors_change_nothing() {
    let dir = scratch("open-errors");
    let mut r = repl();
    run(&mut r, &["e4"]);
    assert!(ex(&mut r, "save /nonexistent-herald-dir/x.yaml").is_err_and(|e| e.starts_with("cannot write ")));
    assert!(ex(&mut r, "save").is_err_and(|e| e.starts_with("save takes a file name")));
    let missing = dir.join("missing.yaml");
    assert!(ex(&mut r, &format!("open {}", missing.display())).is_err_and(|e| e.contains("missing.yaml: ")));
    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, "preset: chess\nsteps:\n  - play: \"e4\"\n  - play: \"e4\"\n").expect("write");
    assert_eq!(
        ex(&mut r, &format!("open {}", bad.display())),
        Err(format!("{}: turn 2 `e4`: no black P can move to e4", bad.display()))
    );
    let wrong = dir.join("wrong.yaml");
    std::fs::write(&wrong, "preset: chess\nsteps:\n  - play: \"e4\"\nexpect:\n  result: white\n").expect("write");
    assert_eq!(
        ex(&mut r, &format!("open {}", wrong.display())),
        Ok("opened Chess: 1 turn; expect does not hold: result is ongoing (ongoing), expected white".into())
    );
    assert_eq!(ex(&mut r, "fen"), Ok(AFTER_E4.into()));
}

#[test]
fn the_terminal_board_colours_squares_and_draws_glyphs() {
    let mut r = repl();
    r.style = herald::repl::Style { colour: true, glyphs: true };
    run(&mut r, &["e4"]);
    let board = ex(&mut r, "board").expect("board");
    assert!(board.contains("\x1b[48;5;180;1;38;5;231m ♖ \x1b[0m"), "a1: a white rook on a dark square:\n{board}");
    assert!(board.contains("\x1b[48;5;186;1;38;5;231m ♙ \x1b[0m"), "e4 is highlighted as the last turn");
    assert!(!board.contains("last:"), "the terminal highlights the last turn instead of naming it");
    let mut m = repl_on("modern-chaturanga");
    m.style = herald::repl::Style { colour: true, glyphs: true };
    assert!(ex(&mut m, "board").is_ok_and(|b| b.contains(" C ") && b.contains(" ♚ ")), "no glyph for a Counselor");
}

#[test]
fn completion_offers_full_bare_and_short_turns() {
    let mut r = repl();
    let words = complete::turn_words(&mut r.game);
    for w in ["P e2-e4", "e2-e4", "e4", "N g1-f3", "g1-f3", "Nf3"] {
        assert!(words.contains(&w.to_string()), "{w} missing from {words:?}");
    }
    assert_eq!(words.len(), 60);
    run(&mut r, &["setfen 4k3/3P4/8/8/8/5N2/8/1N2K2R w K - 0 1"]);
    let words = complete::turn_words(&mut r.game);
    for w in ["Nbd2", "Nfd2", "O-O", "d8=Q", "Kd2", "Rg1", "Nh4"] {
        assert!(words.contains(&w.to_string()), "{w} missing from {words:?}");
    }
    run(&mut r, &["setfen 4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"]);
    assert!(complete::turn_words(&mut r.game).contains(&"exd5".to_string()));
}

#[test]
fn tab_completes_commands_presets_and_turns() {
    use rustyline::completion::Completer;
    let mut r = repl();
    let helper = complete::Helper::default();
    helper.refresh(&mut r.game);
    let history = rustyline::history::DefaultHistory::new();
    let ctx = rustyline::Context::new(&history);
    let complete = |line: &str| {
        let (start, pairs) = helper.complete(line, line.len(), &ctx).expect("complete");
        (start, pairs.into_iter().map(|p| p.replacement).collect::<Vec<_>>())
    };
    assert_eq!(complete("Nf"), (0, vec!["Nf3".to_string()]));
    assert_eq!(complete("P e2"), (0, vec!["P e2-e3".to_string(), "P e2-e4".to_string()]));
    assert_eq!(complete("re"), (0, vec!["redo".to_string(), "reload".to_string()]));
    assert_eq!(complete("load modern-"), (5, vec!["modern-chaturanga".to_string()]));
    assert_eq!(complete("load mo"), (5, vec!["modern-chaturanga".to_string(), "modern".to_string()]));
    assert_eq!(complete("trace o"), (6, vec!["on".to_string(), "off".to_string()]));
    assert_eq!(complete("help un"), (5, vec!["undo".to_string()]));
    let dir = scratch("complete");
    std::fs::write(dir.join("fools.yaml"), "").expect("write");
    std::fs::write(dir.join("mine.preset"), "").expect("write");
    let d = dir.display().to_string();
    assert_eq!(complete(&format!("open {d}/fo")), (5, vec![format!("{d}/fools.yaml")]));
    assert_eq!(complete(&format!("load {d}/mi")), (5, vec![format!("{d}/mine.preset")]));
}

#[test]
fn quit_ends_the_session() {
    let mut r = repl();
    assert_eq!(ex(&mut r, "quit"), Ok(String::new()));
    assert!(r.done);
}

#[test]
fn the_readme_lists_every_command() {
    let readme = include_str!("../README.md");
    for c in herald::repl::commands::COMMANDS {
        assert!(readme.contains(&format!("| `{}", c.name)) || readme.contains(&format!(", `{}", c.name)), "{}", c.name);
    }
}

#[test]
fn a_queen_move_does_not_quit_but_q_does() {
    let mut r = repl();
    run(&mut r, &["e4", "n g8-f6", "d4"]);
    assert!(ex(&mut r, "q d8-d4").is_err_and(|e| e.contains("d8")));
    assert!(!r.done, "a queen's move does not quit (tests/repl/one-letter-commands.txt)");
    assert!(ex(&mut r, "q").is_ok() && r.done);
}

#[test]
fn the_computer_answers_when_it_plays_a_side() {
    let mut r = repl();
    let set = ex(&mut r, "auto black 2").expect("auto");
    assert!(set.starts_with("the computer plays black"), "{set}");
    let out = ex(&mut r, "e4").expect("a turn");
    assert!(out.starts_with("1. P e2-e4\n1. p "), "the computer answered: {out}");
    assert_eq!(r.game.played.len(), 2);
    let hint = ex(&mut r, "hint 2").expect("hint");
    assert!(hint.starts_with("hint: "), "{hint}");
    assert_eq!(r.game.played.len(), 2, "a hint plays nothing");
    assert!(ex(&mut r, "go 2").is_ok());
    assert_eq!(r.game.played.len(), 4, "go played White's turn and the computer Black's");
    assert!(ex(&mut r, "auto sideways").is_err());
    assert!(ex(&mut r, "go banana").is_err_and(|e| e.contains("banana")));
    assert_eq!(r.game.played.len(), 4, "errors change nothing");
}
