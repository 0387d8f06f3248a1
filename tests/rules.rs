//! Focused rule tests on presets written inline: generic features the shipped presets do not all use.

use herald::game::Game;
use std::sync::Arc;

fn game(preset: &str, fen: &str) -> Game {
    let p = herald::check::load_text("inline.preset", preset).unwrap_or_else(|e| panic!("{}", e.render()));
    Game::new(Arc::new(p), Some(fen), None).expect("fen parses")
}

const KINGS_AND_ROOK: &str = r#"
    board 8 x 8
    piece King K royal moves "K"
    piece Rook R moves "R"
    setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
"#;

#[test]
fn royal_safety_filters_moves_by_default() {
    let mut g = game(KINGS_AND_ROOK, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert_eq!(g.legal_texts().unwrap(), ["K e1-d1", "K e1-e2", "K e1-f1"]);
}

#[test]
fn royal_safety_off_allows_moving_into_attack() {
    let text = format!("{KINGS_AND_ROOK}\nroyal_safety off");
    let mut g = game(&text, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert_eq!(g.legal_texts().unwrap(), ["K e1-d1", "K e1-d2", "K e1-e2", "K e1-f1", "K e1-f2"]);
}

#[test]
fn holes_block_riders_but_not_leapers() {
    let preset = r#"
        board 4 x 1
        piece Rook R moves "R"
        piece Knightish D moves "D"
        setup "R*2 w"
    "#;
    let mut g = game(preset, "R*2 w");
    assert!(g.legal_texts().unwrap().is_empty(), "a rook cannot pass a missing square");
    let mut g = game(preset, "D*2 w");
    assert_eq!(g.legal_texts().unwrap(), ["D a1-c1"]);
}

#[test]
fn a_side_without_moves_and_without_a_rule_loses() {
    let preset = r#"
        board 3 x 1
        piece Stone S moves "fW"
        setup "S1s w"
    "#;
    let mut g = game(preset, "S1s w");
    assert_eq!(g.result_text().unwrap(), "black wins (no legal move)");
}
