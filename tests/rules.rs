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

/// A keyword ends at a word boundary: `royal_safety off` right after a piece line is not the piece's
/// `royal` attribute followed by junk.
#[test]
fn royal_safety_parses_right_after_a_piece_line() {
    let preset = r#"
        board 8 x 8
        piece King K moves "K"
        piece Rook R moves "R"
        royal_safety off
        setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    "#;
    let p = herald::check::load_text("inline.preset", preset).unwrap_or_else(|e| panic!("{}", e.render()));
    assert!(!p.royal_safety);
    assert!(!p.kinds[0].royal, "`royal_safety` is not the attribute `royal`");
}

const CASTLING: &str = r#"
    board 8 x 8
    piece Rook R moves "R"
    castle K e1-g1 R h1-f1 "K"
    castle k e8-g8 r h8-f8 "k"
    setup "4k2r/8/8/8/8/8/8/4K2R w Kk - 0 1"
"#;

/// Castling's attack test protects a royal king: a king that is not royal castles through and into
/// attacked squares (as in giveaway), whether royal safety is on or off; a royal one does not.
#[test]
fn castling_attack_test_follows_royalty() {
    let fen = "4k2r/8/8/8/8/8/8/4K2R w Kk - 0 1";
    // The black rook on h8 does not attack f1 or g1 here; put one on the f-file.
    let attacked = "4kr2/8/8/8/8/8/8/4K2R w K - 0 1";
    for (king, safety, castles) in [
        ("piece King K moves \"K\"", "royal_safety off", true),
        ("piece King K moves \"K\"", "", true),
        ("piece King K royal moves \"K\"", "royal_safety off", true),
        ("piece King K royal moves \"K\"", "", false),
    ] {
        let text = format!("{king}\n{CASTLING}\n{safety}");
        let mut g = game(&text, fen);
        assert!(g.legal_texts().unwrap().contains(&"K e1-g1".to_string()), "{text}");
        let mut g = game(&text, attacked);
        assert_eq!(g.legal_texts().unwrap().contains(&"K e1-g1".to_string()), castles, "{text}");
    }
}

#[test]
fn attack_only_groups_stay_attacks_in_the_betza_text_whatever_their_order() {
    // The General's `attacks "vR"` written first: its text (shown by the REPL, the web page and
    // XBoard's `piece` lines) must not read it as moves.
    let g = game(
        r#"
        board 9 x 10
        region palace = d1 e1 f1 d2 e2 f2 d3 e3 f3 d8 e8 f8 d9 e9 f9 d10 e10 f10
        piece General K royal attacks "vR" moves "W" within palace
        piece Watcher W attacks "R"
        piece Rook R moves "R"
        setup "4k4/9/9/9/9/9/9/9/9/R3K3W w - - 0 1"
    "#,
        "4k4/9/9/9/9/9/9/9/9/R3K3W w - - 0 1",
    );
    let betza: Vec<&str> = g.preset.kinds.iter().map(|k| k.betza.as_str()).collect();
    assert_eq!(betza, ["W within palace\" attacks \"vR", "\" attacks \"R", "R"]);
    let setup = herald::protocol::xboard::setup_text(&g);
    assert!(setup.lines().any(|l| l == "piece K& W"), "{setup}");
    assert!(setup.lines().any(|l| l == "piece W& "), "{setup}");
    // The attacks still count and are still no moves: the Generals face each other on the open
    // e-file, so White must step off it, and neither the rook nor the Watcher can help.
    let mut g = g;
    let mut moves = g.legal_texts().expect("legal turns");
    moves.sort();
    assert_eq!(moves, ["K e1-d1", "K e1-f1"]);
}
