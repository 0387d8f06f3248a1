//! The sandbox's accounting, each attack rebuilt from its description: work charged by its size,
//! `say` charged and bounded, the native stack, turns of several parts, every turn listed once.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Kings and a rook on a small board: a quick base for hostile scripts.
const BASE: &str = "board 4 x 4\npiece King K royal moves \"K\"\npiece Rook R moves \"R\"\nsetup \"k3/4/4/R2K w\"\n";

/// Write a preset into a fresh temporary folder (removed when the folder is dropped); the folder
/// and the preset's path.
fn preset_file(name: &str, text: &str) -> (common::Scratch, String) {
    let dir = common::Scratch::new(&format!("sandbox-{name}"));
    let path = dir.join(format!("{name}.preset"));
    std::fs::write(&path, text).expect("writes");
    (dir, path.to_string_lossy().into_owned())
}

/// Run the CLI: exit status, stdout, stderr; fails if it takes longer than `limit`.
fn herald(args: &[&str], limit: Duration) -> (i32, String, String) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_herald")).args(args).stdin(Stdio::null()).output().expect("herald runs");
    assert!(start.elapsed() < limit, "{args:?} took {:?}, more than {limit:?}", start.elapsed());
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// A function recursing `depth` deep whose call sits in `blocks` nested blocks under `negs` negations.
fn deep_recursion(depth: u32, blocks: usize, negs: usize) -> String {
    let mut body = format!("if n > 0 {{ return {}f(n - 1) }}\nreturn 0", "- ".repeat(negs));
    for _ in 1..blocks {
        body = format!("if true {{ {body} }}");
    }
    format!("{BASE}fn f(n) {{ {body} }}\non turn_start {{ let x = f({depth}) }}\n")
}

#[test]
fn recursion_at_every_documented_limit_at_once_fits_the_stack_on_every_thread() {
    // 62 calls deep (the hook is the 63rd level) in 98 blocks (the function's braces and the
    // call's parentheses make 100) under 197 negations (the call makes the 200th level).
    let (_dir, path) = preset_file("stack", &deep_recursion(62, 98, 197));
    let (code, out, err) = herald(&["moves", &path], Duration::from_secs(20));
    assert_eq!((code, out.lines().last()), (0, Some("8 legal")), "{err}");
    let (code, out, err) = herald(&["perft", &path, "2", "--threads", "2"], Duration::from_secs(20));
    assert!(code == 0 && out.starts_with("perft 2 nodes 13 "), "{out}{err}");
    // The search runs the hook at every node, up to 96 plies of its own recursion above it.
    let (code, out, err) = herald(&["selfplay", &path, "--depth", "3", "--max-plies", "2"], Duration::from_secs(30));
    assert!(code == 0 && out.starts_with("game 1: unfinished after 2 plies"), "{out}{err}");
    // One level more is the documented error, not a crash.
    let (_dir, path) = preset_file("stack2", &deep_recursion(64, 98, 197));
    let (code, _, err) = herald(&["perft", &path, "2", "--threads", "2"], Duration::from_secs(20));
    assert!(code == 2 && err.contains("error: calls nest deeper than 64 levels"), "{err}");
}

fn load(text: &str) -> std::sync::Arc<herald::preset::Preset> {
    let preset = herald::check::load_text("hostile.preset", text).unwrap_or_else(|e| panic!("loads: {}", e.render()));
    std::sync::Arc::new(preset)
}

/// The error a script gives when the first turns are listed, within a few seconds.
fn script_error(script: &str) -> String {
    let mut game = herald::game::Game::new(load(&format!("{BASE}{script}")), None, None).expect("setup parses");
    let start = Instant::now();
    let e = game.legal_texts().expect_err("the script must fail").to_string();
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    e
}

#[test]
fn reading_a_large_value_costs_a_step_per_element() {
    // A hook may hold millions of items; each of these reads them all, and used to cost one
    // step: a loop of them ran for hours within the step budget.
    for read in [
        "let b = 5 in l",
        "let b = -1 not in l",
        "let m = max(l)",
        "let m = min(l, l)",
        "say l",
        "let t = str(l)",
        "let t = \"\" + l",
        "let b = l == k",
        "if l == k { }",
        "let d = discard(l, 5)",
        "let n = len(s)",
        "let b = \"y\" in s",
        "g = l",
    ] {
        let script = format!(
            "state g = 0\non turn_start {{\n  let l = range(0, 1900000)\n  let k = range(0, 1900000)\n  \
             let s = \"{}\"\n  while true {{\n    {read}\n  }}\n}}\n",
            "x".repeat(100)
        );
        let script = script.replace("let s = \"", "let s = \"x\"\n  for i in 18 { s = s + s }\n  let u = \"");
        let e = script_error(&script);
        // Shown as text, a value is charged its reading (steps) and its text (memory): either ends it.
        let over = ["ran for more than 2000000 steps in `on turn_start`", "built more than 4000000 values"];
        assert!(over.iter().any(|o| e.contains(o)), "{read}: {e}");
    }
}

#[test]
fn reads_of_small_values_stay_cheap() {
    // Ten thousand reads of a list of ten fit the budget many times over.
    let preset = load(&format!(
        "{BASE}on turn_start {{\n  let l = range(0, 10)\n  for i in 10000 {{ if 5 in l and max(l) == 9 {{ }} }}\n}}\n"
    ));
    let mut game = herald::game::Game::new(preset, None, None).expect("setup parses");
    assert_eq!(game.legal_texts().expect("runs").len(), 8);
}

#[test]
fn what_is_said_is_charged_and_a_turn_keeps_a_bounded_part_of_it() {
    // Before: each `say l` kept a new 600 KB message, unbounded: 4 GB and an abort.
    // A piece shows as `piece_of(Rook,white)`: the text weighs more than the list.
    let text = format!(
        "{BASE}on announce {{\n  let l = [piece_of(Rook, white)]\n  for i in 17 {{ l = l + l }}\n  while true {{ say l }}\n}}\n"
    );
    let mut game = herald::game::Game::new(load(&text), None, None).expect("setup parses");
    let e = game.play("R a1-b1").expect_err("over the memory budget").to_string();
    assert!(e.contains("built more than 4000000 values in `on announce`"), "{e}");
    assert!(game.played.is_empty(), "the turn is not played");
    // Many small messages: the turn keeps 64 lines, the last saying that more was said.
    let text = format!("{BASE}on announce {{\n  for i in 100000 {{ say i }}\n}}\n");
    let mut game = herald::game::Game::new(load(&text), None, None).expect("setup parses");
    game.play("R a1-b1").expect("plays");
    let said = game.said();
    assert_eq!(said.len(), herald::script::interp::MAX_SAID);
    assert_eq!((said[0].as_str(), said[62].as_str()), ("0", "62"));
    assert_eq!(said[63], "(more was said than a turn keeps)");
    // Long messages: bounded by bytes.
    let text = format!(
        "{BASE}on announce {{\n  let s = \"x\"\n  for i in 12 {{ s = s + s }}\n  for i in 100 {{ say s }}\n}}\n"
    );
    let mut game = herald::game::Game::new(load(&text), None, None).expect("setup parses");
    game.play("R a1-b1").expect("plays");
    let bytes: usize = game.said().iter().map(String::len).sum();
    assert!(bytes <= herald::script::interp::MAX_SAID_BYTES + 64 && game.said().len() == 5, "{bytes}");
}

#[test]
fn two_atoms_reaching_one_square_list_the_move_once_and_it_plays() {
    // `RW`: the wazir step is also the rook's first step; it was listed twice (perft 1 = 17)
    // (`WmR`: its moves were, its captures were not)
    // and refused by its own text as ambiguous.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    let preset = |rook: &str| {
        load(&format!("board 8 x 8\npiece King K royal moves \"K\"\npiece Rook R moves \"{rook}\"\nsetup \"{fen}\"\n"))
    };
    // Each overlapping piece against the same piece written with atoms that do not overlap.
    for (rook, same) in
        [("RW", "R"), ("WR", "R"), ("RWmW", "R"), ("RR", "R"), ("mRcRW", "R"), ("WmR", "mRcW"), ("mRW", "mRcW")]
    {
        let (p, plain) = (preset(rook), preset(same));
        for depth in 1..=3 {
            let count = |p: &std::sync::Arc<herald::preset::Preset>| {
                let mut pos = herald::play::fen::parse(p, fen).expect("fen");
                herald::play::perft::try_perft(&mut pos, p, depth, true).expect("counts")
            };
            assert_eq!(count(&p), count(&plain), "{rook} perft {depth}");
        }
        let mut game = herald::game::Game::new(p, None, None).expect("setup");
        let legal = game.legal_texts().expect("lists");
        let once: std::collections::BTreeSet<_> = legal.iter().collect();
        assert_eq!((legal.len(), once.len()), (15, 15), "{rook}: {legal:?}");
        for text in &legal {
            game.play(text).unwrap_or_else(|e| panic!("{rook}: `{text}` does not play: {e}"));
            game.undo();
        }
    }
}

/// A board of `files` x `ranks` all holes but the kings' squares and a rook's, with turns of four
/// `construct` parts (every hole a candidate): holes^4 sequences if each is tried.
fn constructions(files: usize, ranks: usize, side: char, extra: &str) -> String {
    let mut rows = vec![format!("kR{}", "*".repeat(files - 2))];
    rows.extend(std::iter::repeat_n("*".repeat(files), ranks - 2));
    rows.push(format!("K{}", "*".repeat(files - 1)));
    format!(
        "board {files} x {ranks}\npiece King K royal moves \"K\"\npiece Rook R moves \"R\"\nsetup \"{} {side} - - 0 1\"\n\
         turn {{\n    construct\n    construct\n    construct\n    construct\n}}\n{extra}",
        rows.join("/")
    )
}

#[test]
fn turns_of_several_parts_that_cannot_end_legally_are_pruned() {
    // Black is in check, and building squares only opens lines: no turn is legal. 1659 holes
    // (days before), found at once.
    let (_dir, path) = preset_file("check4", &constructions(26, 64, 'b', ""));
    let (code, out, err) = herald(&["moves", &path], Duration::from_secs(10));
    assert_eq!((code, out.as_str()), (0, "0 legal\n"), "{err}");
    let (code, out, err) = herald(&["show", &path], Duration::from_secs(10));
    assert!(code == 0 && out.contains("result: white wins (checkmate)"), "{out}{err}");
    let (code, out, err) = herald(&["perft", &path, "2"], Duration::from_secs(10));
    assert!(code == 0 && out.starts_with("perft 2 nodes 0 "), "{out}{err}");
}

#[test]
fn turns_of_several_parts_stop_at_the_partial_turn_budget() {
    // `validate` refuses every fourth part: nothing the engine can tell beforehand, so it tries
    // sequences until the budget of partial turns, then says so at the turn's part.
    let refuse = "on validate construct {\n    if len(this_turn()) == 4 { reject \"never\" }\n}\n";
    let (_dir, path) = preset_file("validate4", &constructions(26, 64, 'w', refuse));
    for args in [vec!["moves", &path], vec!["show", &path], vec!["perft", &path, "1"]] {
        let (code, _, err) = herald(&args, Duration::from_secs(10));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains(":9:5: error: listing the turns tried more than 1000000 partial turns"),
            "{args:?}: {err}"
        );
    }
    let (code, out, _) = herald(&["check", &path], Duration::from_secs(10));
    assert!(code == 0 && out.ends_with(": ok (validate4)\n"), "{out}");
    // Within the budget (12 holes: 12 + 144 + 1728 + 20736 partial turns), every turn is listed.
    let (_small_dir, small) = preset_file("validate4small", &constructions(3, 5, 'w', ""));
    let (code, out, err) = herald(&["moves", &small], Duration::from_secs(10));
    assert_eq!((code, out.lines().last()), (0, Some("11880 legal")), "{err}");
}

#[test]
fn a_command_that_lists_turns_again_and_again_has_one_budget_shared_by_its_threads() {
    use herald::budget::{Budget, under};
    use herald::play::perft;
    // Twelve holes and turns of four `construct` parts: 11,880 turns, below each of which Black has
    // 1,680; each listing is far within one listing's limit, but a perft lists again below every
    // turn. Under a command budget of 100,000 partial turns (the CLI's is 200,000,000), `perft 2`
    // on two threads stops with the budget's error.
    let preset = load(
        "board 3 x 5\npiece King K royal moves \"K\"\npiece Rook R moves \"R\"\nsetup \"k**/***/***/***/K*R w - - 0 1\"\n\
         turn {\n    construct\n    construct\n    construct\n    construct\n}\n",
    );
    let mut game = herald::game::Game::new(preset.clone(), None, None).expect("setup parses");
    let budget = Some(std::sync::Arc::new(Budget::limited(100_000, u64::MAX)));
    let e = under(budget, || perft::parallel(&mut game.pos, &preset, 2, true, 2)).expect_err("over the budget");
    assert!(e.to_string().contains("this command tried more than 100000 partial turns in all"), "{e}");
    assert_eq!(perft::try_perft(&mut game.pos, &preset, 1, true).expect("no budget"), 11880);
    // Hooks' steps too: a hook of a thousand steps on each part (22,620 runs in one listing).
    let slow = "on validate construct {\n    let t = 0\n    for i in 300 { t = t + 1 }\n}\n";
    let preset = load(&constructions(3, 5, 'w', slow));
    let mut game = herald::game::Game::new(preset.clone(), None, None).expect("setup parses");
    let budget = Some(std::sync::Arc::new(Budget::limited(u64::MAX, 1_000_000)));
    let e = under(budget, || perft::try_perft(&mut game.pos, &preset, 1, true)).expect_err("over the budget");
    assert!(e.to_string().contains("this command's hooks ran for more than 1000000 steps in all"), "{e}");
    // The position is as it was, and with no command budget the listing ends.
    assert_eq!(game.legal_texts().expect("one listing fits").len(), 11880);
}

#[test]
fn a_from_reused_for_a_board_of_the_same_shape_charges_its_steps_as_if_it_ran() {
    use herald::budget::{Budget, under};
    use herald::play::perft;
    // Constructing's `buildable()` is worked out once per board shape and mover for all the
    // listings of a perft (about 700 shapes among the 35,332 listings of `perft 3`); each reuse
    // still charges the steps the run took (about 520), so the command's budget of hook steps is
    // reached as when it ran every time (some 18M steps; the shapes alone spend under 1M).
    let preset = herald::check::load("constructing").map(std::sync::Arc::new).expect("loads");
    let mut game = herald::game::Game::new(preset.clone(), None, None).expect("setup");
    let budget = Some(std::sync::Arc::new(Budget::limited(u64::MAX, 3_000_000)));
    let e = under(budget, || perft::try_perft(&mut game.pos, &preset, 3, true)).expect_err("over the budget");
    assert!(e.to_string().contains("this command's hooks ran for more than 3000000 steps in all"), "{e}");
    assert_eq!(perft::try_perft(&mut game.pos, &preset, 2, true).expect("no budget"), 35177);
}
