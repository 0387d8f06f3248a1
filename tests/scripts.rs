//! Rule scripts on presets written inline: the language, the hooks, the state, and the sandbox.

use herald::game::Game;
use herald::repl::Repl;
use std::sync::Arc;

fn load(text: &str) -> Arc<herald::preset::Preset> {
    Arc::new(herald::check::load_text("inline.preset", text).unwrap_or_else(|e| panic!("{}", e.render())))
}

fn game(text: &str, fen: Option<&str>) -> Game {
    Game::new(load(text), fen, None).expect("fen parses")
}

/// Kings and rooks on a small board: a quick base for scripts.
const BASE: &str = r#"
    board 4 x 4
    piece King K royal moves "K"
    piece Rook R value 5 moves "R"
    setup "k3/4/4/R2K w - - 0 1"
"#;

fn with(script: &str) -> String {
    format!("{BASE}\n{script}")
}

#[test]
fn an_endless_loop_is_a_step_limit_error_naming_its_line() {
    let text = with("on turn_end {\n    let n = 0\n    while true {\n        n = n + 1\n    }\n}\n");
    let mut g = game(&text, None);
    let err = g.legal_texts().expect_err("the loop never ends").to_string();
    assert!(err.contains("more than 2000000 steps"), "{err}");
    assert!(err.starts_with("inline.preset:9:"), "names the line of the loop: {err}");
    assert!(err.contains("while true"), "quotes the source line: {err}");
}

#[test]
fn the_repl_survives_a_failing_script_and_keeps_the_game() {
    // The third turn cannot even be listed: its `turn_start` never ends.
    let text = with("on turn_start {\n    if turn_number() == 3 {\n        while true { }\n    }\n}\n");
    let mut r = Repl::new(game(&text, None));
    assert_eq!(r.execute("R a1-c1"), Ok("1. R a1-c1".into()));
    let second = r.execute("k a4-b4").expect("the second turn plays");
    assert!(second.contains("steps"), "the failure is reported: {second}");
    let before = r.execute("fen");
    assert!(r.execute("R c1-c2").is_err_and(|e| e.contains("inline.preset:9:") && e.contains("steps")));
    assert!(r.execute("moves").is_err_and(|e| e.contains("steps")));
    assert_eq!(r.execute("fen"), before);
    assert_eq!(r.execute("undo"), Ok("undid k a4-b4".into()));
    assert!(r.execute("moves").is_ok_and(|m| m.ends_with("legal")));
}

#[test]
fn runaway_recursion_is_a_depth_error() {
    let text = with("fn down(n) { return down(n + 1) }\non turn_start { down(0) }\n");
    let err = game(&text, None).legal_texts().expect_err("recursion never ends").to_string();
    assert!(err.contains("nest deeper than 64"), "{err}");
}

#[test]
fn a_huge_list_is_a_memory_error() {
    let text = with("on turn_start {\n    let l = [1]\n    while true { l = l + l }\n}\n");
    let err = game(&text, None).legal_texts().expect_err("the list grows without bound").to_string();
    assert!(err.contains("built more than"), "{err}");
}

#[test]
fn type_errors_name_the_expression() {
    let text = with("on turn_start { let x = 1 + white }\n");
    let err = game(&text, None).legal_texts().expect_err("cannot add a side").to_string();
    assert!(err.contains("cannot apply `+` to an integer and a side"), "{err}");
}

#[test]
fn unknown_names_are_load_errors_with_suggestions() {
    let e = herald::check::load_text("inline.preset", &with("state count_ = 0\non turn_end { count_ = coutn_ + 1 }\n"))
        .expect_err("typo");
    assert!(e.render().contains("unknown name `coutn_`; did you mean `count_`?"), "{}", e.render());
    let e = herald::check::load_text("inline.preset", &with("on turn_end { piece_att(a1) }\n")).expect_err("typo");
    assert!(e.render().contains("did you mean `piece_at`?"), "{}", e.render());
    let e = herald::check::load_text("inline.preset", &with("on turn_end { let x = z9 }\n")).expect_err("off board");
    assert!(e.render().contains("`z9` is not a square of this board"), "{}", e.render());
}

#[test]
fn validate_rejects_with_the_reason_shown() {
    let text = with("on validate move {\n    if part.to == a4 { reject \"the far rank is closed\" }\n}\n");
    let mut g = game(&text, None);
    assert!(!g.legal_texts().unwrap().contains(&"R a1-a4".to_string()));
    let err = g.play("R a1-a4").expect_err("refused").to_string();
    assert_eq!(err, "R a1-a4 is not allowed: the far rank is closed");
}

#[test]
fn state_is_kept_per_position_hashed_written_in_fen_and_undone() {
    let text = with("state moves_made = 0\non turn_end { moves_made = moves_made + 1 }\n");
    let mut g = game(&text, None);
    let h0 = g.pos.hash;
    g.play("R a1-a2").unwrap();
    assert_eq!(g.fen(), "k3/4/R3/3K b - - 1 1 {moves_made=1}");
    g.play("k a4-b4").unwrap();
    assert_eq!(g.fen(), "1k2/4/R3/3K w - - 2 2 {moves_made=2}");
    g.undo();
    g.undo();
    assert_eq!(g.fen(), "k3/4/4/R2K w - - 0 1");
    assert_eq!(g.pos.hash, h0);
    // A FEN with state sets it; the hash differs from the same board without it.
    let g2 = game(&text, Some("k3/4/4/R2K w - - 0 1 {moves_made=5}"));
    assert_eq!(g2.pos.state[0], herald::script::Value::Int(5));
    assert_ne!(g2.pos.hash, h0);
    let bad = Game::new(load(&text), Some("k3/4/4/R2K w - - 0 1 {moves_mad=5}"), None).expect_err("unknown");
    assert!(bad.to_string().contains("no state variable `moves_mad`; did you mean `moves_made`?"), "{bad}");
}

#[test]
fn win_in_a_hook_ends_the_game() {
    let text = with("on after move {\n    if part.to == a4 { win mover \"the rook reached the far rank\" }\n}\n");
    let mut g = game(&text, None);
    g.play("R a1-a4").unwrap();
    assert_eq!(g.result_text().unwrap(), "white wins (the rook reached the far rank)");
    assert!(g.legal_texts().unwrap().is_empty());
    g.undo();
    assert_eq!(g.result_text().unwrap(), "ongoing");
}

#[test]
fn game_end_declares_custom_results() {
    let text = with("on game_end {\n    if count(Rook) == 0 { draw \"no rooks left\" }\n}\n");
    let mut g = game(&text, Some("k3/4/1r2/R2K w - - 0 1"));
    assert_eq!(g.result_text().unwrap(), "ongoing");
    g.play("R a1-a2").unwrap();
    g.play("k a4-b4").unwrap();
    let mut g = game(&text, Some("k3/4/4/3K w - - 0 1"));
    assert_eq!(g.result_text().unwrap(), "draw (no rooks left)");
}

#[test]
fn say_reaches_the_players() {
    let text = with("on turn_end {\n    if in_check(opponent) { say \"check\" }\n}\n");
    let mut g = game(&text, None);
    g.play("R a1-c1").unwrap();
    assert!(g.said().is_empty());
    g.play("k a4-b4").unwrap();
    g.play("R c1-b1").unwrap();
    assert_eq!(g.said(), ["check"]);
}

#[test]
fn every_second_turn_runs_on_even_turns() {
    let text = with("state evens = []\non every 2 { evens = evens + [turn_number()] }\n");
    let mut g = game(&text, None);
    for t in ["R a1-a2", "k a4-b4", "R a2-c2", "k b4-a4"] {
        g.play(t).unwrap();
    }
    assert_eq!(g.fen(), "k3/4/2R1/3K w - - 4 3 {evens=[2,4]}");
}

#[test]
fn turn_parts_remove_construct_and_drop() {
    // A turn: optionally build a missing square, then move.
    let text = with("turn {\n    optional construct from holes()\n    move\n}\n");
    let mut g = game(&text, Some("k3/4/*3/R2K w - - 0 1"));
    let legal = g.legal_texts().unwrap();
    assert!(legal.contains(&"@-a2; R a1-a2".to_string()), "{legal:?}");
    assert!(!legal.contains(&"R a1-a2".to_string()), "a2 does not exist yet");
    g.play("@-a2; R a1-a3").unwrap();
    assert_eq!(g.fen(), "k3/R3/4/3K b - - 0 1");
    // Drops from hand.
    let text = with("turn {\n    drop\n}\n");
    let mut g = game(&text, Some("k3/4/4/3K[R] w - - 0 1"));
    assert_eq!(g.legal_texts().unwrap().len(), 14);
    g.play("R*b2").unwrap();
    assert_eq!(g.fen(), "k3/4/1R2/3K b - - 1 1");
}

#[test]
fn deep_nesting_is_refused_before_parsing() {
    let text = with(&format!("state x = {}1{}\n", "(".repeat(500), ")".repeat(500)));
    let e = herald::check::load_text("inline.preset", &text).expect_err("too deep");
    assert!(e.render().contains("nest deeper than 100 levels"), "{}", e.render());
}

#[test]
fn pieces_may_be_filtered_by_kind() {
    let text = with(
        "state rooks = []\nstate all = []\nstate royal = []\n\
         on turn_end {\n    rooks = pieces(white, Rook)\n    all = pieces(white, [King, Rook])\n    royal = pieces(black, {King})\n}\n",
    );
    let mut g = game(&text, None);
    g.play("R a1-a2").unwrap();
    assert_eq!(g.fen(), "k3/4/R3/3K b - - 1 1 {rooks=[a2],all=[d1,a2],royal=[a4]}");
    let bad = with("on turn_end { let x = pieces(white, 3) }\n");
    let mut g = game(&bad, None);
    let err = g.play("R a1-a2").unwrap_err().to_string();
    assert!(err.contains("expected a kind of piece"), "{err}");
}

#[test]
fn literal_lists_are_fresh_values_however_often_they_are_grown() {
    // Literals of constants are built once when the preset loads: growing one must not change it.
    let text = with(
        "state sizes = []\non turn_end {\n    let l = [1, 2]\n    l = add(l, 3)\n    let m = [4] + [5]\n    \
         sizes = sizes + [len(l) + len(m)]\n}\n",
    );
    let mut g = game(&text, None);
    g.play("R a1-a2").unwrap();
    g.play("k a4-b4").unwrap();
    assert_eq!(g.fen(), "1k2/4/R3/3K w - - 2 2 {sizes=[5,5]}");
}

#[test]
fn part_candidates_from_an_unordered_list_are_each_offered_once() {
    // Squares listed out of order and twice, and an empty one: each piece's square once.
    let text = with("turn {\n    remove from [a4, a1, b2, a4, a1]\n}\n");
    let mut g = game(&text, None);
    assert_eq!(g.legal_texts().unwrap(), ["@-a1", "@-a4"]);
    // Discards from a list of kinds, some not in hand, some twice.
    let text = with("turn {\n    discard from [Rook, King, Rook]\n}\n");
    let mut g = game(&text, Some("k3/4/4/R2K[RRk] w - - 0 1"));
    assert_eq!(g.legal_texts().unwrap(), ["@*R"]);
}

#[test]
fn follow_of_a_set_follows_each_piece_and_leaves_out_the_taken() {
    let text = with("state watched = {}\non after move {\n    watched = follow(watched)\n}\n");
    let mut g = game(&text, Some("k3/4/1r2/R2K w - - 0 1 {watched={a1,d1,a4}}"));
    g.play("R a1-a2").unwrap();
    assert_eq!(g.fen(), "k3/4/Rr2/3K b - - 1 1 {watched={d1,a2,a4}}");
    g.play("r b2-a2").unwrap();
    assert_eq!(g.fen(), "k3/4/r3/3K w - - 0 2 {watched={d1,a4}}");
    g.play("K d1-c1").unwrap();
    assert_eq!(g.fen(), "k3/4/r3/2K1 b - - 1 2 {watched={c1,a4}}");
    let list = with("state seen = {}\non after move {\n    seen = follow([d1, a1, a1])\n}\n");
    let mut g = game(&list, None);
    g.play("K d1-d2").unwrap();
    assert!(g.fen().ends_with("{seen={a1,d2}}"), "{}", g.fen());
    let bad = with("on after move {\n    let x = follow([a1, 3])\n}\n");
    let err = game(&bad, None).play("K d1-d2").expect_err("3 is no square").to_string();
    assert!(err.contains("expected a square, found an integer"), "{err}");
}

#[test]
fn lengths_counted_in_place_agree_with_the_lists() {
    let text = with(
        "state seen = []\non turn_end {\n    seen = [len(pieces(mover)), len(pieces(black)), len(this_turn()), \
         len(pieces(mover, [Rook]))]\n}\n",
    );
    let mut g = game(&text, Some("k3/4/1r2/R2K w - - 0 1"));
    g.play("R a1-a2").unwrap();
    assert!(g.fen().ends_with("{seen=[2,2,1,1]}"), "{}", g.fen());
    g.play("r b2-a2").unwrap();
    assert!(g.fen().ends_with("{seen=[2,2,1,1]}"), "{}", g.fen());
    g.play("K d1-c1").unwrap();
    assert!(g.fen().ends_with("{seen=[1,2,1,0]}"), "{}", g.fen());
    let bad = with("on turn_end {\n    let n = len(pieces(3))\n}\n");
    let err = game(&bad, None).play("K d1-d2").expect_err("3 is no side").to_string();
    assert!(err.contains("expected a side"), "{err}");
}
