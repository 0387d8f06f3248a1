//! Every shape the script compiler gives an IR node of its own (`Ex::IsConst`, `Ex::LocalField`,
//! `Ex::PartField`, `Ex::CountPieces`, `St::AddToLocal`, `St::ForThisTurn`, and
//! the readers' `Ex::Read`) agrees with the general nodes: a shipped preset whose scripts use the
//! shapes is rewritten into forms the compiler does not specialise (`[p][0].capture` for
//! `p.capture`, `1 == n` for `n == 1`, `add(x + [], i)` for `add(x, i)`, `list(...)` around a list),
//! and both must count the same perft, which tests/perft.txt pins for the shipped text.

use herald::game::Game;
use herald::play::perft::try_perft;
use herald::repl::Repl;
use std::sync::Arc;

/// The preset's text with each `(from, to)` replaced everywhere; each `from` must occur, so that a
/// change to the preset cannot leave a shape untested without this failing.
fn rewritten(name: &str, edits: &[(&str, &str)]) -> String {
    let path = format!("presets/{name}.preset");
    let mut text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    for (from, to) in edits {
        assert!(text.contains(from), "{path} no longer contains `{from}`");
        text = text.replace(from, to);
    }
    text
}

fn perft_of(preset: Arc<herald::preset::Preset>, fen: Option<&str>, depth: usize) -> u64 {
    let mut game = Game::new(preset.clone(), fen, None).expect("fen parses");
    try_perft(&mut game.pos, &preset, depth, true).expect("scripts run")
}

/// The shipped preset and its rewriting count the same at each position and depth, and the
/// rewriting compiles to none of the specialised nodes it stands in for (`edits` remove them).
fn agree(name: &str, edits: &[(&str, &str)], runs: &[(Option<&str>, usize)]) {
    let shipped = Arc::new(herald::check::load(name).expect("the shipped preset loads"));
    let text = rewritten(name, edits);
    let path = format!("presets/general-{name}.preset");
    let general = herald::check::load_text(&path, &text).unwrap_or_else(|e| panic!("{}", e.render()));
    let general = Arc::new(general);
    for &(fen, depth) in runs {
        let (a, b) = (perft_of(shipped.clone(), fen, depth), perft_of(general.clone(), fen, depth));
        assert_eq!(a, b, "{name} {fen:?} depth {depth}: specialised {a}, general {b}");
        assert!(a > 0, "{name} {fen:?} depth {depth}: no turns, nothing compared");
    }
}

#[test]
fn ruddigore_for_this_turn_len_this_turn_field_and_constant_tests() {
    agree(
        "ruddigore",
        &[
            // St::ForThisTurn and Ex::LocalField in a test.
            (
                "for p in this_turn() {\n        if p.capture {",
                "for p in list(this_turn()) {\n        if [p][0].capture {",
            ),
            // Ex::IsConst, and the list this_turn() shares with the position against a copy.
            ("len(this_turn()) == 1", "1 == len(list(this_turn()))"),
            ("move_number() % 2 == 1", "1 == move_number() % 2"),
        ],
        // The curse falls at the root of the second row (an even move) and at ply 3 of the first.
        &[
            (None, 3),
            (Some("r3x2r/8/8/8/8/8/8/R3X2R w KQkq - 0 2"), 2),
            (Some("4x3/8/8/3H4/8/8/8/4X3[Qp] w - - 0 2"), 2),
        ],
    );
}

#[test]
fn maidens_add_to_local_part_fields_and_local_fields() {
    agree(
        "maidens",
        &[
            // St::AddToLocal on a set.
            ("chances = add(chances, m.from)", "chances = add(chances + {}, [m][0].from)"),
            // Ex::LocalField under a field, in a `not`.
            ("not m.piece.royal", "not [m][0].piece.royal"),
            // Ex::PartField in a test and in a value.
            ("part.capture or checked_at_move", "[part][0].capture or checked_at_move"),
            ("\" + part.to + \"", "\" + [part][0].to + \""),
        ],
        &[
            (None, 4),
            (Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 {huffable={e5,f3,d5}}"), 2),
        ],
    );
}

#[test]
fn constructing_add_to_local_on_a_list_and_readers() {
    agree(
        "constructing",
        &[
            // St::AddToLocal on a list, and Ex::IsConst inside a comparison of two values.
            ("out = add(out, s)", "out = add(out + [], s)"),
            ("light(s) == (mover == white)", "(white == mover) == light(s)"),
        ],
        &[(None, 2)],
    );
}

#[test]
fn universal_part_fields_against_globals_and_constants() {
    agree(
        "universal",
        &[
            ("part.capture and part.captured_on == open", "[part][0].capture and open == [part][0].captured_on"),
            ("kind_of(part.captured) != Pawn", "Pawn != kind_of([part][0].captured)"),
            ("rights_of(mover) == 0", "0 == rights_of(mover)"),
            ("out = add(out, sq)", "out = add(out + [], sq)"),
        ],
        // An exchange completed at once (`open`) and a drop right held.
        &[
            (None, 3),
            (Some("r2qk2r/ppp2ppp/4p3/3N4/8/8/PPP2PPP/3RK2R[NHnh] b - - 0 1 {open=d5,rights={white:1,black:0}}"), 2),
        ],
    );
}

#[test]
fn modern_chaturanga_count_pieces() {
    agree(
        "modern-chaturanga",
        &[("len(pieces(side))", "len(list(pieces(side)))")],
        &[(Some("4k3/2PpC3/4K3/8/1p6/p7/P7/8 b - - 0 1"), 4), (Some("8/8/3k4/R3n3/8/8/8/4K3 w - - 0 1"), 3)],
    );
}

/// The values themselves, in one position with a turn in progress (`R a1-a2` made, the second part
/// to come), through the REPL's `eval`: each specialised form beside its general form.
#[test]
fn specialised_expressions_give_the_general_values() {
    let preset = Arc::new(herald::check::load("ruddigore").expect("loads"));
    let mut repl = Repl::new(Game::new(preset, Some("r3x2r/8/8/8/8/8/8/R3X2R w KQkq - 0 2"), None).expect("fen"));
    let pairs = [
        ("len(pieces(white))", "len(list(pieces(white)))"),
        ("len(pieces(black))", "len(list(pieces(black)))"),
        ("len(this_turn())", "len(list(this_turn()))"),
        // The lists shared with the position, against copies of them.
        ("pieces(white)", "list(pieces(white))"),
        ("this_turn()", "list(this_turn())"),
        ("move_number() == 2", "2 == move_number()"),
        ("move_number() != 2", "2 != move_number()"),
        ("empty(e4)", "empty(list([e4])[0])"),
        ("piece_at(a1)", "piece_at(list([a1])[0])"),
        (
            "[kind_of(a1), side_of(a1), is_royal(e1), value_of(a1)]",
            "[kind_of([a1][0]), side_of([a1][0]), is_royal([e1][0]), value_of([a1][0])]",
        ),
    ];
    for (special, general) in pairs {
        let a = repl.execute(&format!("eval {special}")).map_err(|e| e.to_string());
        let b = repl.execute(&format!("eval {general}")).map_err(|e| e.to_string());
        assert!(a.is_ok(), "eval {special}: {a:?}");
        assert_eq!(a, b, "`{special}` and `{general}` differ");
    }
}

/// Constructing's `buildable()` reads only the board's shape and the mover, so the turn generator
/// works it out once per position and reuses it after every move that builds nothing
/// (`Inert::from_shape`); made to read a hand as well, it is worked out again after every move, and
/// both count the same.
#[test]
fn constructing_from_of_the_shape_alone_is_reused_and_counts_as_worked_out_again() {
    let shipped = herald::check::load("constructing").expect("the shipped preset loads");
    assert_eq!(shipped.script.inert.from_shape, [false, true]);
    let text = rewritten(
        "constructing",
        &[("if light(s) == (mover == white) {", "if light(s) == (mover == white) and len(hand(mover)) >= 0 {")],
    );
    let general = herald::check::load_text("presets/general-constructing.preset", &text)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(general.script.inert.from_shape, [false, false]);
    let (a, b) = (perft_of(Arc::new(shipped), None, 2), perft_of(Arc::new(general), None, 2));
    assert_eq!((a, b), (35177, 35177));
}
