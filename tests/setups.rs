//! Setups drawn by `on setup`, promotions from hand and drops restricted to some pieces: the
//! generic pieces Universal Chess is built from, on small inline presets.

use herald::game::Game;
use std::sync::Arc;

fn load(text: &str) -> Arc<herald::preset::Preset> {
    Arc::new(herald::check::load_text("inline.preset", text).unwrap_or_else(|e| panic!("{}", e.render())))
}

const BASE: &str = r#"
    board 4 x 4
    piece King K royal moves "K"
    piece Rook R value 5 moves "R"
    piece Knight N value 3 moves "N"
    piece Pawn P value 1 moves "fmW"
    region last_rank = rank 4
    setup "k3/4/4/3K w - - 0 1"
"#;

fn with(script: &str) -> Arc<herald::preset::Preset> {
    load(&format!("{BASE}\n{script}"))
}

fn start(preset: &Arc<herald::preset::Preset>, seed: u64) -> String {
    Game::new(preset.clone(), None, Some(seed)).expect("a setup is drawn").fen()
}

#[test]
fn a_seed_always_draws_the_same_setup_and_seeds_differ() {
    let p = with(
        "on setup {\n    let files = random_order([1, 2, 3, 4])\n    place(piece_of(Rook, white), square_at(files[0], 2))\n}\n",
    );
    let fens: Vec<String> = (1..=40).map(|s| start(&p, s)).collect();
    assert_eq!(fens, (1..=40).map(|s| start(&p, s)).collect::<Vec<_>>());
    let mut distinct = fens.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "every file is drawn by some seed: {fens:?}");
    // No seed: seed 1, and the game records it.
    let g = Game::new(p.clone(), None, None).expect("drawn");
    assert_eq!((g.fen(), g.seed), (fens[0].clone(), Some(1)));
}

#[test]
fn a_rejected_setup_is_drawn_again_from_the_declared_setup() {
    // Only a rook on a2 is accepted, and nothing placed by a rejected drawing survives it.
    let p = with(
        "on setup {\n    place(piece_of(Rook, white), square_at(random(4) + 1, 2))\n    if piece_at(a2) == none { reject \"not on a2\" }\n}\n",
    );
    for seed in 1..=20 {
        assert_eq!(start(&p, seed), "k3/4/R3/3K w - - 0 1", "seed {seed}");
    }
}

#[test]
fn a_setup_never_accepted_is_a_clear_error() {
    let p = with("on setup {\n    reject \"nothing pleases me\"\n}\n");
    let err = Game::new(p, None, Some(1)).expect_err("no setup").to_string();
    assert!(err.contains("rejected 100 setups in a row"), "{err}");
    assert!(err.contains("nothing pleases me"), "{err}");
}

#[test]
fn a_given_fen_is_not_redrawn() {
    let p = with("on setup {\n    place(piece_of(Rook, white), a2)\n}\n");
    assert_eq!(Game::new(p.clone(), Some("k3/4/4/K3 w - - 0 1"), Some(5)).expect("fen").fen(), "k3/4/4/K3 w - - 0 1");
    assert_eq!(start(&p, 5), "k3/4/R3/3K w - - 0 1");
}

#[test]
fn random_numbers_outside_on_setup_are_an_error_naming_the_line() {
    let p = with("on turn_start {\n    let x = random(3)\n}\n");
    let mut g = Game::new(p, None, None).expect("setup");
    let err = g.legal_texts().expect_err("random in turn_start").to_string();
    assert!(err.contains("only available in `on setup`, not in `on turn_start`"), "{err}");
    assert!(err.starts_with("inline.preset:11:"), "{err}");
    let p = with("on setup {\n    let x = random(0)\n}\n");
    let err = Game::new(p, None, None).expect_err("random(0)").to_string();
    assert!(err.contains("random(0): n must be at least 1"), "{err}");
}

#[test]
fn checkmates_lists_the_mating_moves_of_either_side() {
    let p = with(
        "on setup {\n    if len(checkmates(white)) != 1 or len(checkmates(black)) != 0 { reject \"wrong count\" }\n}\n",
    );
    // Only R d1-d4 mates: the king on b2 guards a3 and b3, the rook the rest of rank 4.
    let p2 = load(&format!("{BASE}\non setup {{\n    let m = checkmates(white)\n    if len(m) != 1 or m[0].to != d4 {{ reject \"not Rd4\" }}\n}}\n").replace(
        "setup \"k3/4/4/3K w - - 0 1\"",
        "setup \"k3/4/1K2/3R w - - 0 1\"",
    ));
    assert_eq!(start(&p2, 1), "k3/4/1K2/3R w - - 0 1");
    assert!(Game::new(p, None, None).is_err(), "the bare setup has no mate");
}

fn promo(rule: &str, fen: &str) -> Vec<String> {
    let p = with(&format!("promote Pawn in last_rank to {rule}\n"));
    let mut g = Game::new(p, Some(fen), None).expect("fen");
    g.legal_texts().expect("legal").into_iter().filter(|t| t.starts_with("P ")).collect()
}

#[test]
fn promotions_take_their_piece_from_hand() {
    let fen = "k3/1P2/4/3K[NRNr] w - - 0 1";
    assert_eq!(promo("hand", fen), ["P b3-b4; N-b4", "P b3-b4; R-b4"]);
    assert_eq!(promo("hand first", fen), ["P b3-b4; N-b4"]);
    assert_eq!(promo("hand last else Rook", fen), ["P b3-b4; N-b4"]);
    // An empty hand: the `else` choices, or no promotion at all (and so no such move).
    assert_eq!(promo("hand last else Rook", "k3/1P2/4/3K[r] w - - 0 1"), ["P b3-b4; R-b4"]);
    assert!(promo("hand", "k3/1P2/4/3K w - - 0 1").is_empty());
    // The piece leaves the hand from the end the rule names, and comes back on undo.
    let p = with("promote Pawn in last_rank to hand last\n");
    let mut g = Game::new(p, Some("k3/1P2/4/3K[NRN] w - - 0 1"), None).expect("fen");
    let h0 = g.pos.hash;
    g.play("P b3-b4; N-b4").unwrap();
    assert_eq!(g.fen(), "kN2/4/4/3K[NR] b - - 0 1");
    g.undo().expect("undo");
    assert_eq!((g.fen(), g.pos.hash), ("k3/1P2/4/3K[NRN] w - - 0 1".to_string(), h0));
}

#[test]
fn a_drop_from_a_list_with_pieces_drops_only_those() {
    let p = with("turn {\n    move or drop from [piece_of(Rook, mover), a2, b2, c4]\n}\n");
    let mut g = Game::new(p, Some("k3/4/4/3K[NR] w - - 0 1"), None).expect("fen");
    let drops: Vec<String> = g.legal_texts().unwrap().into_iter().filter(|t| t.contains('*')).collect();
    assert_eq!(drops, ["R*a2", "R*b2", "R*c4"]);
}

/// Whether a side, having the move, could mate at once or take a pawn its owner does not defend.
fn spoiled(g: &mut Game, side: herald::engine::Side) -> bool {
    use herald::engine::board::cell;
    let preset = g.preset.clone();
    let pawn = preset.kind_by_name("Pawn").expect("a pawn");
    let moves = g.pos.safe_moves_for(&preset, side);
    let wins_pawn = moves.iter().any(|m| {
        let c = g.pos.cells[m.to.idx()];
        cell::is_piece(c) && cell::kind(c) == pawn && !g.pos.attacked(&preset, m.to, side.other())
    });
    wins_pawn || !g.pos.checkmates_by(&preset, side).is_empty()
}

#[test]
fn universal_setups_obey_the_pregame_rule_which_does_throw_some_away() {
    use herald::engine::Side;
    let shipped = herald::repl::load("universal").expect("loads");
    // The same preset without the pregame rule: the setups it would have kept.
    let text = herald::presets::shipped("universal").expect("shipped");
    let rule = "reject \"a side could mate or win a pawn at once\"";
    assert!(text.contains(rule));
    let lax = load(&text.replace(rule, ""));
    let mut thrown_away = 0;
    for seed in 1..=40 {
        let mut g = Game::new(shipped.clone(), None, Some(seed)).expect("drawn");
        assert!(!spoiled(&mut g, Side::White) && !spoiled(&mut g, Side::Black), "seed {seed}: {}", g.fen());
        let mut first = Game::new(lax.clone(), None, Some(seed)).expect("drawn");
        if spoiled(&mut first, Side::White) || spoiled(&mut first, Side::Black) {
            thrown_away += 1;
            assert_ne!(first.fen(), g.fen(), "seed {seed}");
        } else {
            assert_eq!(first.fen(), g.fen(), "seed {seed}: a good first drawing is kept");
        }
    }
    assert!(thrown_away > 0, "some first drawings break the rule");
}
