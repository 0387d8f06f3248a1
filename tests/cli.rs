//! The built `herald` binary driven through a pipe, as a script or another program would.

mod common;

use common::text;
use std::path::Path;
use std::process::Output;

/// Run `herald ARGS` with `input` on stdin, in `dir`; its output.
fn herald(args: &[&str], input: &str, dir: &Path) -> Output {
    common::output(dir, args, input.as_bytes())
}

fn scratch(test: &str) -> common::Scratch {
    common::Scratch::new(&format!("cli-{test}"))
}

#[test]
fn piped_session_prints_the_position_after_e4() {
    let out = herald(&["play", "chess"], "e4\ne5\nundo\nfen\nquit\n", &std::env::temp_dir());
    assert_eq!(
        text(&out.stdout),
        "1. P e2-e4\n1. p e7-e5\nundid p e7-e5\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
    );
    assert_eq!(text(&out.stderr), "");
    assert!(out.status.success());
}

#[test]
fn a_session_plays_undoes_saves_and_reopens() {
    let dir = scratch("session");
    let input = "f3\ne5\nNc3\nundo\nqq\ng4\nQh4\nsave fools.yaml\nquit\nfen\n";
    let out = herald(&["play", "chess", "--ascii"], input, &dir);
    assert_eq!(
        text(&out.stdout),
        "1. P f2-f3\n1. p e7-e5\n2. N b1-c3\nundid N b1-c3\n\
         error: `qq` is not a legal turn here\n\
         2. P g2-g4\n2. q d8-h4 (check)\nresult: black wins (checkmate)\nsaved 4 turns to fools.yaml\n"
    );
    assert!(out.status.success());
    let saved = std::fs::read_to_string(dir.join("fools.yaml")).expect("saved file");
    assert!(saved.contains("  - play: \"q d8-h4\"\nexpect:\n  result: black\n  reason: \"checkmate\"\n"), "{saved}");

    let out = herald(&["play", "maidens"], "open fools.yaml\nhistory\nundo\nfen\n", &dir);
    assert_eq!(
        text(&out.stdout),
        "opened Chess - a game saved from the REPL: 4 turns; expect holds\n\
         1. P f2-f3 p e7-e5\n2. P g2-g4 q d8-h4\nundid q d8-h4\n\
         rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2\n"
    );
    let out = herald(&["test", "fools.yaml"], "", &dir);
    assert_eq!(text(&out.stdout), "1 passed, 0 failed\n");
}

#[test]
fn piped_errors_are_one_line_each_and_the_session_goes_on() {
    let out = herald(&["play", "chess"], "hlep\nload nope\nP e2-e5\ne4\n", &std::env::temp_dir());
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0], "error: unknown command `hlep`; did you mean `help`? (type `help` for the list)");
    assert!(lines[1].starts_with("error: ") && lines[1].contains("no preset `nope`"));
    assert_eq!(lines[2], "error: P on e2 cannot move to e5");
    assert_eq!(lines[3], "1. P e2-e4");
}

#[test]
fn play_with_spaces_hints_at_the_separator_and_odd_fens_are_warned_about() {
    let here = Path::new(".");
    let out = herald(&["moves", "chess", "--play", "e4 e5"], "", here);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("(turns in --play are separated by `|`: \"e4 | e5\")"), "{}", text(&out.stderr));
    let out = herald(&["moves", "chess", "--fen", "4k3/8/8/8/8/8/4R3/P7 w - - 0 1"], "", here);
    assert_eq!(out.status.code(), Some(0), "a warning is not an error");
    assert_eq!(
        text(&out.stderr),
        "warning: --fen: white has no royal piece (King or another) on the board\n\
         warning: --fen: black, not to move, is in check: white could take the King at once\n\
         warning: --fen: the Pawn on a1 stands on white's first rank\n"
    );
    assert!(text(&out.stdout).ends_with(" legal\n"));
}

/// `perft --no-draws` counts through the 50-move rule and insufficient material, as
/// Fairy-Stockfish does (FS `go perft 2` gives 56 and 9 for these two); without it the game is over
/// at the root.
#[test]
fn perft_no_draws_counts_through_claimable_draws() {
    let dir = std::env::temp_dir();
    let fen = "6k1/8/8/8/8/8/8/K6R w - - 99 80";
    let out = herald(&["perft", "chess", "2", "--fen", fen], "", &dir);
    assert!(text(&out.stdout).starts_with("perft 2 nodes 0 "), "{}", text(&out.stdout));
    let out = herald(&["perft", "chess", "2", "--fen", fen, "--no-draws"], "", &dir);
    assert!(text(&out.stdout).starts_with("perft 2 nodes 56 "), "{}", text(&out.stdout));
    // Bare kings: insufficient material ends the game, unless draws are ignored.
    let fen = "7k/8/8/8/8/8/8/K7 w - - 0 1";
    let out = herald(&["perft", "chess", "2", "--fen", fen], "", &dir);
    assert!(text(&out.stdout).starts_with("perft 2 nodes 0 "), "{}", text(&out.stdout));
    let out = herald(&["perft", "chess", "2", "--fen", fen, "--no-draws", "--divide"], "", &dir);
    let shown = text(&out.stdout);
    assert!(shown.starts_with("K a1-a2: 3\n") && shown.contains("\nperft 2 nodes 9 "), "{shown}");
}

/// `end checks 3`: the checks each side has left are written and read as Fairy-Stockfish writes
/// them (FS's `d` prints this FEN after 1. e4 f5 2. Qh5+); a count above the preset's is refused.
/// Horde's FEN, with White's pawns on its first rank and no white king, draws no warning: the
/// preset's setup is so.
#[test]
fn counted_checks_in_the_fen_and_horde_positions_without_warnings() {
    let here = Path::new(".");
    let out = herald(&["show", "3check", "--play", "e4 | f5 | Qh5"], "", here);
    assert!(
        text(&out.stdout).contains("fen: rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+3 1 2\n"),
        "{}",
        text(&out.stdout)
    );
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4+3 0 1";
    let out = herald(&["show", "3check", "--fen", fen], "", here);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stderr), "error: bad FEN: checks `4+3`: `4` is not a count of checks from 0 to 3\n");
    let out = herald(&["moves", "horde", "--fen", "4k3/8/8/8/8/1p6/8/P1P5 w - - 0 1"], "", here);
    assert_eq!(text(&out.stderr), "");
    assert!(text(&out.stdout).ends_with("\n4 legal\n"), "{}", text(&out.stdout));
}

/// `perft --max-turns N` runs the count under a raised command budget: the same count (the option
/// only raises the limit, so a small N changes nothing), on the threads too, and a bad N is refused.
#[test]
fn perft_max_turns_raises_the_budget_for_one_count() {
    let dir = scratch("perft_max_turns");
    for args in [
        &["perft", "ruddigore", "3", "--max-turns", "1"][..],
        &["perft", "ruddigore", "3", "--max-turns", "300000000", "--threads", "2"],
    ] {
        let out = herald(args, "", &dir);
        assert!(text(&out.stdout).starts_with("perft 3 nodes 411921 "), "{}", text(&out.stdout));
    }
    let out = herald(&["perft", "ruddigore", "2", "--max-turns", "lots"], "", &dir);
    assert!(!out.status.success() && text(&out.stderr).contains("--max-turns"), "{}", text(&out.stderr));
}

/// `values --games 0` is refused before anything is played (it used to announce 0 games and play one).
#[test]
fn values_refuses_zero_games() {
    let dir = scratch("values_zero_games");
    let out = herald(&["values", "chess", "--games", "0"], "", &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("'0' for '--games"), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
}

#[test]
fn a_reader_that_stops_early_is_no_panic() {
    use std::process::{Command, Stdio};
    // `herald perft ... --divide | head -1` where the reader is gone before the count is written
    // (here it closes the pipe before reading anything): herald used to panic at the write.
    for args in [&["perft", "chess", "3", "--divide"][..], &["check", "presets/chess.preset"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("herald runs");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("herald ends");
        assert_eq!(text(&out.stderr), "", "{args:?}");
        assert!(out.status.success(), "{args:?}");
    }
}

/// `qscores` scores FENs under the weights in force; `--eval-weights` replaces them (here the
/// tempo, which moves a quiet position's score by the difference) and names a bad line.
#[test]
fn qscores_follow_the_eval_weights_and_a_bad_file_is_named() {
    let dir = scratch("qscores_weights");
    let fens = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t0.5\t20\n\
                rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n";
    let scores = |out: &Output| -> Vec<i32> { text(&out.stdout).lines().map(|l| l.parse().unwrap()).collect() };
    let before = herald(&["qscores", "chess"], fens, &dir);
    assert!(before.status.success(), "{}", text(&before.stderr));
    std::fs::write(dir.join("w"), "# more tempo\nTEMPO 30\n").unwrap();
    let after = herald(&["--eval-weights", "w", "qscores", "chess"], fens, &dir);
    assert!(after.status.success(), "{}", text(&after.stderr));
    let (b, a) = (scores(&before), scores(&after));
    assert_eq!((a[0] - b[0], a[1] - b[1]), (20, -20), "{b:?} {a:?}");
    let shown = herald(&["--eval-weights", "w", "qscores", "chess", "--print-weights"], "", &dir);
    assert!(text(&shown.stdout).contains("\nTEMPO 30\n"), "{}", text(&shown.stdout));
    std::fs::write(dir.join("bad"), "TEMPO 30\nTEMPI 3\n").unwrap();
    let bad = herald(&["--eval-weights", "bad", "qscores", "chess"], fens, &dir);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).starts_with("error: --eval-weights bad:2: no weight is called `TEMPI`"),
        "{}",
        text(&bad.stderr)
    );
    let bad_fen = herald(&["qscores", "chess"], "nonsense\n", &dir);
    assert_eq!(bad_fen.status.code(), Some(2));
    assert!(text(&bad_fen.stderr).starts_with("error: line 1:"), "{}", text(&bad_fen.stderr));
}
