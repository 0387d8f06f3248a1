//! Limits that turn abuse into clear errors, where the input is generated or timed: long chains,
//! megabyte files and lines, linear-time parsing, bad YAML, hostile CLI arguments. The rest is data:
//! script budgets in tests/scripts/*.txt, nesting and sizes in tests/diagnostics/, hostile REPL lines
//! in tests/repl/hostile-lines.txt.

mod common;

use common::within;
use herald::game::Game;
use herald::repl::Repl;
use std::sync::Arc;
use std::time::Duration;

/// A REPL line's answer, its error as the text the REPL shows.
fn ex(r: &mut Repl, line: &str) -> Result<String, String> {
    r.execute(line).map_err(|e| e.to_string())
}

/// Kings and a rook on a small board: a quick base for hostile scripts.
const BASE: &str = "board 4 x 4\npiece King K royal moves \"K\"\npiece Rook R moves \"R\"\nsetup \"k3/4/4/R2K w\"\n";

fn load(text: &str) -> Result<Arc<herald::preset::Preset>, String> {
    herald::check::load_text("hostile.preset", text).map(Arc::new).map_err(|e| e.render())
}

/// The error a script gives when the first turns are listed.
fn script_error(script: &str) -> String {
    let preset = load(&format!("{BASE}{script}")).unwrap_or_else(|e| panic!("loads: {e}"));
    let mut game = Game::new(preset, None, None).expect("setup parses");
    game.legal_texts().expect_err("the script must fail").to_string()
}

/// The first diagnostic line of a preset that must not load.
fn load_error(text: &str) -> String {
    load(text).expect_err("must not load").lines().next().unwrap_or_default().to_string()
}

#[test]
fn shared_nesting_is_counted_in_full() {
    // Each [l, l] shares its halves, yet printing or comparing it walks every copy.
    let e = within(Duration::from_secs(5), || {
        script_error("on turn_start {\n  let l = [1]\n  for i in 64 { l = [l, l] }\n  say str(l)\n}\n")
    });
    assert!(e.starts_with("hostile.preset:7:") && e.contains("built more than 4000000 values"), "{e}");
}

#[test]
fn long_operator_chains_are_refused_before_they_overflow_the_stack() {
    for (what, expr) in [
        ("sum", format!("{}1", "1 + ".repeat(100_000))),
        ("not", format!("{}true", "not ".repeat(100_000))),
        ("negation", format!("{}1", "- ".repeat(100_000))),
        ("index", format!("[1]{}", "[0]".repeat(100_000))),
    ] {
        let e = load_error(&format!("{BASE}state x = {expr}\n"));
        // A chain is reported at the operator that goes too deep (the 200th `+`), the rest where they begin.
        let col = if what == "sum" { 11 + 4 * 199 + 2 } else { 11 };
        let want = format!("hostile.preset:5:{col}: error: this expression nests deeper than 200 levels; split it up");
        assert_eq!(e, want, "{what}");
    }
    assert!(load(&format!("{BASE}state x = {}1\n", "1 + ".repeat(150))).is_ok(), "150 terms are fine");
}

#[test]
fn a_long_else_if_chain_parses_and_runs() {
    let chain = "else if false { } ".repeat(5000);
    let text = format!("{BASE}on announce {{ if false {{ }} {chain}else {{ say \"last\" }} }}\n");
    let mut game = Game::new(load(&text).expect("loads"), None, None).expect("setup parses");
    game.play("R a1-b1").expect("the hook runs through the chain");
    assert_eq!(game.said(), ["last"]);
}

#[test]
fn nested_braces_parse_in_linear_time() {
    let text = format!("{BASE}state x = {}1{}\n", "{".repeat(40), "}".repeat(40));
    let loaded = within(Duration::from_secs(2), || load(&text));
    assert!(loaded.is_ok(), "40 nested sets load");
    let broken = format!("{BASE}state x = {}\n", "{".repeat(90));
    within(Duration::from_secs(2), || load(&broken)).expect_err("unclosed braces");
}

#[test]
fn nested_braces_in_a_fen_state_parse_in_linear_time() {
    // Found by the `fen` fuzz target: 20 open braces took seconds, each one doubling the time.
    let preset = herald::check::load("maidens").expect("maidens loads");
    let fen = format!("4k3/8/8/8/8/8/8/4K3 w - - 0 1 {{huffable={}---f{{{{,c4}}}}", "{".repeat(60));
    within(Duration::from_secs(2), || herald::play::fen::parse(&preset, &fen)).expect_err("unbalanced braces");
}

#[test]
fn a_fen_state_error_at_a_multibyte_space_is_reported() {
    // Found by the `fen` fuzz target: the error message cut U+0085 (next line) in half and panicked.
    // (The same character in a preset: tests/diagnostics/syntax-error-at-next-line-character.preset.)
    let preset = herald::check::load("maidens").expect("maidens loads");
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 {huffable=\u{85}}";
    let e = herald::play::fen::parse(&preset, fen).expect_err("no value");
    assert!(e.to_string().contains("expected"), "{e}");
}

#[test]
fn a_fen_of_megabytes_is_refused_at_once() {
    let preset = herald::check::load("chess").expect("chess loads");
    let huge = "8/".repeat(1_000_000);
    let e = within(Duration::from_millis(500), || herald::play::fen::parse(&preset, &huge)).expect_err("too long");
    assert_eq!(e.to_string(), "the FEN is 2000000 bytes long; the limit is 65536");
    // Just under the limit: many ranks, rejected quickly too.
    let long = format!("{}8 w", "8/".repeat(30_000));
    within(Duration::from_millis(500), || herald::play::fen::parse(&preset, &long)).expect_err("too many ranks");
    let state = format!("8/8/8/8/8/8/8/8 w - - 0 1 {{{}}}", "x=1,".repeat(10_000));
    within(Duration::from_millis(500), || herald::play::fen::parse(&preset, &state)).expect_err("no such state");
}

#[test]
fn a_preset_of_megabytes_loads_fast_or_is_refused_with_the_limit() {
    let big = format!("{BASE}{}", "// padding padding padding padding padding padding padding\n".repeat(16_000));
    assert!(big.len() < 1 << 20);
    within(Duration::from_secs(5), || load(&big)).expect("a preset just under a megabyte loads");
    let dir = std::env::temp_dir().join(format!("herald-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("huge.preset");
    std::fs::write(&path, format!("{big}{big}")).expect("writes");
    let e = herald::check::load(&path.to_string_lossy()).expect_err("too large").render();
    assert!(e.ends_with("is larger than the limit of 1048576 bytes"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_yaml_is_a_failure_not_a_panic() {
    let mut runner = herald::games::Runner::default();
    let file = std::path::Path::new("tests/games/bad.yaml");
    for (text, at) in [
        ("preset: chess\nsteps: [ {play: ", "yaml"),
        ("preset: chess\nsteps:\n  - dance: e4\n", "yaml"),
        ("preset: [chess]\n", "yaml"),
        ("\u{0}\u{1}\u{2}", "yaml"),
        ("preset: no-such-preset\n", "preset"),
        ("preset: chess\nfen: \"xyz\"\n", "fen"),
        ("preset: chess\nseed: -1\n", "yaml"),
        ("preset: chess\nsteps:\n  - check: { legal_count: 99999999999999999999999 }\n", "yaml"),
    ] {
        let f = runner.run_text(file, text).expect_err(text);
        assert_eq!(f.at, at, "{text}: {f}");
    }
}

#[test]
fn yaml_alias_bombs_are_refused_quickly() {
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (i, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().enumerate() {
        let prev = if i == 0 { "a".to_string() } else { ["b", "c", "d", "e", "f", "g", "h"][i - 1].to_string() };
        bomb.push_str(&format!("{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
    }
    bomb.push_str("preset: chess\n");
    let mut runner = herald::games::Runner::default();
    let f = within(Duration::from_secs(5), || runner.run_text(std::path::Path::new("bomb.yaml"), &bomb));
    assert_eq!(f.expect_err("unknown keys, or too many aliases").at, "yaml");
}

#[test]
fn an_error_in_a_hook_during_a_turn_leaves_the_position_as_it_was() {
    // The hook changes state, then fails, only when the rook reaches c1.
    let script = "state moved = 0\non announce {\n  if piece_at(c1) != none { let x = 1 / 0 }\n}\n\
                  on after move {\n  moved = moved + 1\n}\n";
    let preset = load(&format!("{BASE}{script}")).unwrap_or_else(|e| panic!("{e}"));
    let mut game = Game::new(preset, None, None).expect("setup");
    game.play("R a1-b1").expect("an ordinary turn");
    game.play("k a4-a3").expect("an ordinary turn");
    let (fen, hash, cells, state, hands) =
        (game.fen(), game.pos.hash, game.pos.cells.clone(), game.pos.state.clone(), game.pos.hands.clone());
    let e = game.play("R b1-c1").expect_err("the hook fails").to_string();
    assert!(e.contains("division by zero"), "{e}");
    assert_eq!((game.fen(), game.pos.hash, &game.pos.cells, &game.pos.state), (fen, hash, &cells, &state));
    assert_eq!(game.pos.hands, hands);
    assert_eq!(game.played.len(), 2);
    assert_eq!(game.play("R b1-b2"), Ok("R b1-b2".into()), "the game goes on");
}

/// Lines of a megabyte, too long for a transcript; the other hostile lines are in
/// tests/repl/hostile-lines.txt.
#[test]
fn the_repl_survives_lines_of_a_megabyte_and_keeps_the_game() {
    let mut r = Repl::new(Game::new(herald::repl::load("chess").expect("loads"), None, None).expect("setup"));
    ex(&mut r, "e4").expect("plays");
    let before = ex(&mut r, "fen");
    let long = "x".repeat(1 << 20);
    for line in [format!("setfen {long}"), long.clone(), format!("moves {long}")] {
        assert!(ex(&mut r, &line).is_err(), "a megabyte line should fail");
        assert_eq!(ex(&mut r, "fen"), before, "a megabyte line changed the game");
    }
    assert_eq!(ex(&mut r, "history"), Ok("1. P e2-e4".into()));
}

fn herald(args: &[&str], stdin: &str) -> (i32, String, String) {
    common::herald_in(std::path::Path::new("."), args, stdin.as_bytes())
}

#[test]
fn every_cli_command_turns_hostile_arguments_into_one_line_errors() {
    let long_fen = "8/".repeat(60_000); // over the FEN limit, under the kernel's 128 KB per argument
    let cases: Vec<Vec<&str>> = vec![
        vec!["moves", "no-such-preset"],
        vec!["moves", "/dev/zero"],
        vec!["moves", "chess", "--fen", "garbage"],
        vec!["moves", "chess", "--fen", &long_fen],
        vec!["moves", "chess", "--play", "e4 | e4"],
        vec!["moves", "chess", "--play", "P e2-e9; @*Q; -z0"],
        vec!["show", "chess", "--fen", "k7/8/8/8/8/8/8/7K[ZZ] w"],
        vec!["show", "chess", "--play", "||Ñ|"],
        vec!["perft", "chess", "1000000"],
        vec!["perft", "chess", "33", "--divide"],
        vec!["perft", "maidens", "2", "--fen", "{{{{{"],
        vec!["play", "chess", "--fen", "8/8 x"],
        vec!["play", "/nonexistent/x.preset"],
    ];
    for args in &cases {
        let (code, out, err) = herald(args, "");
        let shown = args.join(" ").chars().take(60).collect::<String>();
        assert_eq!(code, 2, "{shown}: exit {code}, stderr {err}");
        assert_eq!(err.lines().count(), 1, "{shown}: one line expected, got {err}");
        assert!(!err.contains("panicked"), "{shown}: {err}");
        assert!(out.is_empty(), "{shown}: printed {out}");
    }
}

#[test]
fn check_and_test_report_hostile_files_without_panicking() {
    let (code, out, err) = herald(&["check", "/dev/zero", "chess"], "");
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("/dev/zero: error: preset `/dev/zero` is not read: it is a device, not a regular file"),
        "{out}"
    );
    assert!(out.contains("chess: ok"), "{out}");
    let (code, out, _) = herald(&["test", "/dev/zero"], "");
    assert_eq!((code, out.lines().last()), (1, Some("0 passed, 1 failed")));
    let (code, _, err) = herald(&["test", "/no/such/folder"], "");
    assert_eq!((code, err.trim()), (2, "error: /no/such/folder: no such file or folder"));
}

#[test]
fn the_piped_repl_survives_hostile_lines_and_keeps_the_game() {
    let lines = "e4\nperft 1000\nsetfen {{{{\nmoves zz9\n\u{0}\u{7}\nundo 99999999999999999999999\n\
                 Ñf3\n;;;\ne5\nfen\nquit\n";
    let (code, out, err) = herald(&["play", "chess"], lines);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("panicked") && !err.contains("panicked"));
    assert!(out.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"), "{out}");
}
