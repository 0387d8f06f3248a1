//! The REPL driven through its command layer: each command, its errors, and that errors change nothing.

use herald::game::Game;
use herald::repl::{Repl, complete};
use std::path::PathBuf;

fn repl_on(preset: &str) -> Repl {
    let preset = herald::repl::load(preset).expect("preset loads");
    Repl::new(Game::new(preset, None, None).expect("setup parses"))
}

fn repl() -> Repl {
    repl_on("chess")
}

fn run(r: &mut Repl, lines: &[&str]) {
    for l in lines {
        r.execute(l).unwrap_or_else(|e| panic!("`{l}` failed: {e}"));
    }
}

/// A fresh folder under the system's temporary folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("herald-repl-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp folder");
    dir
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

#[test]
fn play_undo_and_fen() {
    let mut r = repl();
    assert_eq!(r.execute("e4"), Ok("1. P e2-e4".into()));
    assert_eq!(r.execute("e5"), Ok("1. p e7-e5".into()));
    assert_eq!(r.execute("undo"), Ok("undid p e7-e5".into()));
    assert_eq!(r.execute("fen"), Ok(AFTER_E4.into()));
}

#[test]
fn errors_change_nothing() {
    let mut r = repl();
    let before = r.execute("fen");
    assert_eq!(r.execute("e5"), Err("no white P can move to e5".into()));
    assert_eq!(r.execute("P e2-e5"), Err("P on e2 cannot move to e5".into()));
    assert_eq!(r.execute("P e3-e4"), Err("no piece on e3".into()));
    assert_eq!(r.execute("undo"), Err("nothing to undo".into()));
    assert_eq!(r.execute("perft"), Err("perft takes a depth, e.g. `perft 4`".into()));
    assert_eq!(r.execute("fen"), before);
}

#[test]
fn an_unknown_command_suggests_the_nearest() {
    let mut r = repl();
    assert_eq!(
        r.execute("hlep"),
        Err("unknown command `hlep`; did you mean `help`? (type `help` for the list)".into())
    );
    assert_eq!(
        r.execute("sav x"),
        Err("unknown command `sav`; did you mean `save`? (type `help` for the list)".into())
    );
    assert_eq!(r.execute("xyzzy"), Err("unknown command `xyzzy` (type `help` for the list)".into()));
    assert_eq!(r.execute("fen"), Ok(START.into()));
}

#[test]
fn help_lists_and_explains() {
    let mut r = repl();
    let all = r.execute("help").expect("help");
    for c in herald::repl::commands::COMMANDS {
        assert!(all.contains(c.usage), "help lacks {}", c.usage);
    }
    assert_eq!(r.execute("help undo"), Ok("undo [N]: take back the last turn (or N turns) (also: u, back)".into()));
    assert_eq!(r.execute("? u"), r.execute("help undo"));
    assert_eq!(r.execute("help sve"), Err("no command `sve`; did you mean `save`?".into()));
}

#[test]
fn resignation_ends_the_game_and_can_be_undone() {
    let mut r = repl();
    r.execute("e4").expect("legal");
    assert!(r.execute("resign").is_ok_and(|s| s.contains("white wins (black resigns)")));
    assert!(r.execute("e5").is_err_and(|e| e.contains("the game is over")));
    assert_eq!(r.execute("undo"), Ok("undid resign".into()));
    assert_eq!(r.execute("e5"), Ok("1. p e7-e5".into()));
}

#[test]
fn moves_of_one_square_and_perft() {
    let mut r = repl();
    assert_eq!(r.execute("moves g1"), Ok("N g1-f3\nN g1-h3\n2 legal".into()));
    assert_eq!(r.execute("moves e4"), Ok("e4 is empty, and nothing can be dropped there\n0 legal".into()));
    assert_eq!(r.execute("moves z9"), Err("z9 is not a square of this board".into()));
    assert!(r.execute("moves").is_ok_and(|s| s.lines().count() == 21 && s.ends_with("\n20 legal")));
    assert!(r.execute("perft 3").is_ok_and(|s| s.starts_with("perft 3 nodes 8902 time ")));
    let divide = r.execute("perft 2 --divide").expect("divide");
    assert_eq!(divide.lines().count(), 21);
    assert!(divide.starts_with("N b1-a3: 20\n") && divide.contains("\nperft 2 nodes 400 time "));
    assert_eq!(r.execute("perft 2 --fast"), Err("perft takes a depth and `--divide`, not `--fast`".into()));
    assert_eq!(r.execute("fen"), Ok(START.into()));
}

#[test]
fn undo_several_then_redo_in_order() {
    let mut r = repl();
    run(&mut r, &["e4", "e5", "Nf3"]);
    assert_eq!(r.execute("undo 2"), Ok("undid N g1-f3, p e7-e5".into()));
    assert_eq!(r.execute("redo"), Ok("1. p e7-e5".into()));
    assert_eq!(r.execute("redo"), Ok("2. N g1-f3".into()));
    assert_eq!(r.execute("redo"), Err("nothing to redo".into()));
    assert_eq!(r.execute("undo 9"), Ok("undid N g1-f3, p e7-e5, P e2-e4".into()));
    assert_eq!(r.execute("undo 0"), Err("undo takes a positive number, not `0`".into()));
    assert_eq!(r.execute("undo x"), Err("undo takes a positive number, not `x`".into()));
    // A new turn forgets what could be redone.
    run(&mut r, &["d4"]);
    assert_eq!(r.execute("redo"), Err("nothing to redo".into()));
}

#[test]
fn new_setfen_and_their_errors() {
    let mut r = repl();
    run(&mut r, &["e4"]);
    assert_eq!(r.execute("new --seed x"), Err("--seed takes a number, not `x`".into()));
    assert_eq!(r.execute("new 3"), Err("new takes `--seed N` or nothing, not `3`".into()));
    assert_eq!(r.execute("fen"), Ok(AFTER_E4.into()));
    assert_eq!(r.execute("new --seed 7"), Ok("new game of Chess".into()));
    assert_eq!(r.game.seed, None, "chess draws no setup: the seed is not kept, so a saved game names none");
    assert_eq!(r.execute("fen"), Ok(START.into()));
    let kk = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(r.execute(&format!("setfen {kk}")), Ok(kk.into()));
    assert!(r.execute("setfen 8/8 w").is_err_and(|e| e.starts_with("bad FEN: ")));
    assert!(r.execute("setfen").is_err_and(|e| e.starts_with("setfen takes a position")));
    assert_eq!(r.execute("fen"), Ok(kk.into()));
    assert_eq!(r.execute("history"), Ok("no turns yet".into()));
}

#[test]
fn load_another_preset_or_fail_cleanly() {
    let mut r = repl();
    run(&mut r, &["e4"]);
    let err = r.execute("load nopreset").expect_err("no such preset");
    assert!(err.contains("no preset `nopreset`") && !err.contains('\n'), "{err}");
    assert_eq!(r.execute("fen"), Ok(AFTER_E4.into()));
    assert_eq!(r.execute("load modern-chaturanga"), Ok("new game of Modern Chaturanga".into()));
    assert_eq!(r.execute("fen"), Ok("rnekcenr/pppppppp/8/8/8/8/PPPPPPPP/RNECKENR w - - 0 1".into()));
    assert!(r.execute("load").is_err_and(|e| e.starts_with("load takes a preset: chess, maidens")));
}

#[test]
fn reload_replays_until_a_turn_is_no_longer_legal() {
    let dir = scratch("reload");
    let file = dir.join("mine.preset");
    let chess = std::fs::read_to_string("presets/chess.preset").expect("chess preset");
    std::fs::write(&file, &chess).expect("write preset");
    let mut r = repl_on(file.to_str().expect("utf-8 path"));
    run(&mut r, &["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(r.execute("reload"), Ok("reloaded Chess; replayed 4 turns".into()));
    // The inventor makes knights into wazirs: the third turn no longer stands.
    std::fs::write(&file, chess.replace("moves \"N\"", "moves \"W\"")).expect("edit preset");
    assert_eq!(
        r.execute("reload"),
        Ok("reloaded Chess; turn 3 `N g1-f3` is no longer legal (N on g1 cannot move to f3); stopped after 2 turns (`redo` tries the rest)"
            .into())
    );
    assert_eq!(r.game.played.len(), 2);
    assert_eq!(r.execute("fen"), Ok("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".into()));
    // A broken edit is one line and changes nothing.
    std::fs::write(&file, "board 8 x\n").expect("break preset");
    let err = r.execute("reload").expect_err("broken preset");
    assert!(err.contains("mine.preset:") && !err.contains('\n'), "{err}");
    assert_eq!(r.game.played.len(), 2);
    // Put right, the game comes back: reload, then redo the turns that waited.
    std::fs::write(&file, &chess).expect("restore preset");
    assert_eq!(r.execute("reload"), Ok("reloaded Chess; replayed 2 turns".into()));
    assert_eq!(r.execute("redo"), Ok("2. N g1-f3".into()));
    assert_eq!(r.execute("redo"), Ok("2. n b8-c6".into()));
    assert_eq!(r.execute("redo"), Err("nothing to redo".into()));
}

#[test]
fn eval_reads_the_position_and_changes_nothing() {
    let mut r = repl();
    assert_eq!(r.execute("eval len(legal_moves())"), Ok("20".into()));
    assert_eq!(r.execute("= 2 + 3 * 4"), Ok("14".into()));
    assert_eq!(r.execute("eval nosuch"), Err("unknown name `nosuch`".into()));
    assert!(r.execute("eval 1 +").is_err_and(|e| e.contains("found the end of the expression")));
    assert!(r.execute("eval").is_err_and(|e| e.starts_with("eval takes an expression")));
    let mut m = repl_on("maidens");
    run(&mut m, &["e4", "d5", "Nc3"]);
    assert_eq!(m.execute("eval huffable"), Ok("{e4}".into()));
    assert_eq!(m.execute("eval len(huffable) == 1"), Ok("true".into()));
    assert_eq!(
        m.execute("fen"),
        Ok("rnbqkbnr/ppp1pppp/8/3p4/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 2 {huffable={e4}}".into())
    );
}

#[test]
fn trace_shows_the_hooks_of_played_turns() {
    let mut m = repl_on("maidens");
    assert_eq!(m.execute("trace maybe"), Err("trace takes `on` or `off`, not `maybe`".into()));
    assert_eq!(m.execute("trace on"), Ok("trace on".into()));
    run(&mut m, &["e4", "d5"]);
    assert_eq!(
        m.execute("Nc3"),
        Ok("trace: on turn_start: no effect\n\
            trace: on before move: chances {} -> {e4}\n\
            trace: on after move (b1-c3): huffable {} -> {e4}\n\
            2. N b1-c3"
            .into())
    );
    // A part that is not a move names the square it acts on.
    assert_eq!(
        m.execute("@-e4; n g8-f6"),
        Ok("trace: on turn_start: no effect\n\
            trace: on validate remove (remove e4): no effect\n\
            trace: on before move: no effect\n\
            trace: on after move (g8-f6): huffable {e4} -> {}\n\
            2. @-e4; n g8-f6"
            .into())
    );
    assert_eq!(m.execute("trace off"), Ok("trace off".into()));
    assert_eq!(m.execute("Nf3"), Ok("3. N g1-f3".into()));
}

#[test]
fn history_is_numbered() {
    let mut r = repl();
    run(&mut r, &["e4", "e5", "Nf3"]);
    assert_eq!(r.execute("history"), Ok("1. P e2-e4 p e7-e5\n2. N g1-f3".into()));
    // From a position with Black to move, numbered as its FEN counts.
    r.execute("setfen 4k3/4p3/8/8/8/8/8/4K3 b - - 0 7").expect("setfen");
    run(&mut r, &["e5", "Kd2", "Kd8"]);
    assert_eq!(r.execute("history"), Ok("7... p e7-e5\n8. K e1-d2 k e8-d8".into()));
}

#[test]
fn save_writes_a_sample_game_that_passes_and_opens() {
    let dir = scratch("save");
    let file = dir.join("fools.yaml");
    let mut r = repl();
    run(&mut r, &["f3", "e5", "g4", "Qh4"]);
    assert_eq!(r.execute(&format!("save {}", file.display())), Ok(format!("saved 4 turns to {}", file.display())));
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
        o.execute(&format!("open {}", file.display())),
        Ok("opened Chess - a game saved from the REPL: 4 turns; expect holds".into())
    );
    assert_eq!(o.game.preset.name, "Chess");
    assert_eq!(o.execute("history"), r.execute("history"));
    assert_eq!(o.execute("undo"), Ok("undid q d8-h4".into()));
}

#[test]
fn save_and_open_errors_change_nothing() {
    let dir = scratch("open-errors");
    let mut r = repl();
    run(&mut r, &["e4"]);
    assert!(r.execute("save /nonexistent-herald-dir/x.yaml").is_err_and(|e| e.starts_with("cannot write ")));
    assert!(r.execute("save").is_err_and(|e| e.starts_with("save takes a file name")));
    let missing = dir.join("missing.yaml");
    assert!(r.execute(&format!("open {}", missing.display())).is_err_and(|e| e.contains("missing.yaml: ")));
    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, "preset: chess\nsteps:\n  - play: \"e4\"\n  - play: \"e4\"\n").expect("write");
    assert_eq!(
        r.execute(&format!("open {}", bad.display())),
        Err(format!("{}: turn 2 `e4`: no black P can move to e4", bad.display()))
    );
    let wrong = dir.join("wrong.yaml");
    std::fs::write(&wrong, "preset: chess\nsteps:\n  - play: \"e4\"\nexpect:\n  result: white\n").expect("write");
    assert_eq!(
        r.execute(&format!("open {}", wrong.display())),
        Ok("opened Chess: 1 turn; expect does not hold: result is ongoing (ongoing), expected white".into())
    );
    assert_eq!(r.execute("fen"), Ok(AFTER_E4.into()));
}

#[test]
fn info_names_the_preset_and_its_pieces() {
    let mut r = repl_on("modern-chaturanga");
    let info = r.execute("info").expect("info");
    let lines: Vec<&str> = info.lines().collect();
    assert_eq!(lines[0], "Modern Chaturanga");
    assert_eq!(lines[1], "by Henry A. Davidson (1949); promotion rules by Jose Carrillo");
    assert!(lines.contains(&"  C Counselor: moves \"F\", value 2"));
    assert!(lines.contains(&"  K King: moves \"K\", value 0, royal"));
}

#[test]
fn the_plain_board_shows_colours_holes_hands_and_the_last_turn() {
    let mut r = repl();
    run(&mut r, &["e4"]);
    let board = r.execute("board").expect("board");
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(lines[0], "   a  b  c  d  e  f  g  h");
    assert_eq!(lines[1], "8  r  n  b  q  k  b  n  r  8   black: -");
    assert_eq!(lines[5], "4  .  :  .  :  P  :  .  :  4   black to move");
    assert_eq!(lines[7], "2  P  P  P  P  .  P  P  P  2");
    assert_eq!(lines[8], "1  R  N  B  Q  K  B  N  R  1   white: -");
    assert_eq!(&lines[10..], ["last: P e2-e4", "result: ongoing"]);
    let mut c = repl_on("constructing");
    let board = c.execute("board").expect("board");
    assert!(
        board.contains("\n14                                               14\n"),
        "a missing rank is blank:\n{board}"
    );
}

#[test]
fn the_terminal_board_colours_squares_and_draws_glyphs() {
    let mut r = repl();
    r.style = herald::repl::Style { colour: true, glyphs: true };
    run(&mut r, &["e4"]);
    let board = r.execute("board").expect("board");
    assert!(board.contains("\x1b[48;5;180;1;38;5;231m ♖ \x1b[0m"), "a1: a white rook on a dark square:\n{board}");
    assert!(board.contains("\x1b[48;5;186;1;38;5;231m ♙ \x1b[0m"), "e4 is highlighted as the last turn");
    assert!(!board.contains("last:"), "the terminal highlights the last turn instead of naming it");
    let mut m = repl_on("modern-chaturanga");
    m.style = herald::repl::Style { colour: true, glyphs: true };
    assert!(m.execute("board").is_ok_and(|b| b.contains(" C ") && b.contains(" ♚ ")), "no glyph for a Counselor");
}

#[test]
fn said_messages_follow_the_turn() {
    let mut m = repl_on("modern-chaturanga");
    run(&mut m, &["e3", "d6", "Ke2", "d5", "Kd3", "c6"]);
    assert_eq!(m.execute("Ke4"), Ok("4. K d3-e4\nsaid: check".into()));
    m.style = herald::repl::Style { colour: true, glyphs: false };
    assert!(m.execute("board").is_ok_and(|b| b.contains("\nsaid: check\n")));
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
    assert_eq!(r.execute("quit"), Ok(String::new()));
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
fn black_moves_in_full_notation_are_not_one_letter_commands() {
    let mut r = repl();
    run(&mut r, &["e4"]);
    // `n` is `new` and `q` is `quit`, but `n g8-f6` is a knight's move.
    assert_eq!(r.execute("n g8-f6"), Ok("1. n g8-f6".into()));
    run(&mut r, &["d4"]);
    // Blocked by its own pawn: refused as a move, and the REPL does not quit.
    assert!(r.execute("q d8-d4").is_err_and(|e| e.contains("d8")));
    assert!(!r.done, "a queen's move does not quit");
    assert_eq!(r.game.played.len(), 3);
    assert!(r.execute("q").is_ok() && r.done);
}

#[test]
fn the_computer_answers_when_it_plays_a_side() {
    let mut r = repl();
    let set = r.execute("auto black 2").expect("auto");
    assert!(set.starts_with("the computer plays black"), "{set}");
    let out = r.execute("e4").expect("a turn");
    assert!(out.starts_with("1. P e2-e4\n1. p "), "the computer answered: {out}");
    assert_eq!(r.game.played.len(), 2);
    let hint = r.execute("hint 2").expect("hint");
    assert!(hint.starts_with("hint: "), "{hint}");
    assert_eq!(r.game.played.len(), 2, "a hint plays nothing");
    assert!(r.execute("go 2").is_ok());
    assert_eq!(r.game.played.len(), 4, "go played White's turn and the computer Black's");
    assert!(r.execute("auto sideways").is_err());
    assert!(r.execute("go banana").is_err_and(|e| e.contains("banana")));
    assert_eq!(r.game.played.len(), 4, "errors change nothing");
}
