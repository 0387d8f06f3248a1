//! At perft's last ply, a scripted turn's move or drop part is counted with bitboards
//! (`play::leafcount`): the count of turns must be the number of turns played out, with every
//! hook, at every node of small trees of the presets that use it.

use herald::engine::Position;
use herald::game::Game;
use herald::play::memo::Memos;
use herald::play::turngen::{count_turns, count_turns_in, for_each_turn};
use herald::preset::Preset;
use std::sync::Arc;

/// Compares the counted and the played turns at each node down to `depth`; returns the nodes.
/// Counted twice: alone, and with memos kept from the walk's earlier counts as a perft keeps
/// them (then a listing whose parts before the last offer nothing by a kept `from` is counted
/// without the generator).
fn walk<'a>(pos: &mut Position, preset: &'a Preset, depth: usize, what: &str, memos: &mut Memos<'a>) -> u64 {
    let mut played = 0u64;
    for_each_turn(pos, preset, &mut |_, _| {
        played += 1;
        Ok(())
    })
    .expect("scripts run");
    let counted = count_turns(pos, preset).expect("scripts run");
    assert_eq!(counted, played, "{what}: position {}", herald::engine::fen::write(preset, pos));
    let kept = count_turns_in(pos, preset, memos).expect("scripts run");
    assert_eq!(kept, played, "{what}, memos kept: position {}", herald::engine::fen::write(preset, pos));
    let mut nodes = 1;
    if depth > 1 {
        for_each_turn(pos, preset, &mut |p, _| {
            nodes += walk(p, preset, depth - 1, what, memos);
            Ok(())
        })
        .expect("scripts run");
    }
    nodes
}

fn check(name: &str, fen: Option<&str>, depth: usize) -> u64 {
    check_preset(name, herald::check::load(name).expect("preset loads"), fen, depth)
}

fn check_preset(name: &str, preset: Preset, fen: Option<&str>, depth: usize) -> u64 {
    let preset = Arc::new(preset);
    assert!(preset.bits.is_some(), "{name} has no bitboards");
    let mut game = Game::new(preset.clone(), fen, None).expect("fen parses");
    assert!(game.pos.count_moves(&preset).is_some(), "{name}: its moves are not counted with bitboards");
    walk(&mut game.pos, &preset, depth, &format!("{name} {}", fen.unwrap_or("setup")), &mut Memos::default())
}

/// Maidens: the move after an optional huff; huffs that expose the king, checks, castling.
#[test]
fn maidens_counts_equal_played_turns() {
    check("maidens", None, 3);
    check(
        "maidens",
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 {huffable={e5,f3,d5}}"),
        2,
    );
    check("maidens", Some("4k3/8/8/1b6/8/3N4/4R3/4K3 w - - 0 1 {huffable={d3,e2}}"), 3);
    // A huff that would open the rook's line to the king is refused; in check at the turn's start
    // (`on turn_start`), it is not.
    check("maidens", Some("4k3/4r3/8/8/4n3/8/8/R3K3 w - - 0 1 {huffable={e4}}"), 3);
    check("maidens", Some("4k3/4r3/8/8/4n3/8/2n5/4K3 w - - 0 1 {huffable={e4,c2}}"), 3);
}

/// Ruddigore: moves and drops counted on odd moves (no curse), the curse's sacrifices after them
/// on even ones; drops that must block a check; the Baronet taking its own pieces.
#[test]
fn ruddigore_counts_equal_played_turns() {
    check("ruddigore", None, 3);
    check("ruddigore", Some("4x3/8/8/8/8/8/8/4X3[P] b - - 0 3"), 3);
    check("ruddigore", Some("4x3/8/8/3H4/8/8/8/4X3[Qp] w - - 0 3"), 2);
    check("ruddigore", Some("r3x2r/8/8/8/8/8/8/R3X2R w KQkq - 0 3"), 2);
    check("ruddigore", Some("4x3/4r3/8/8/8/8/3PP3/3QXB2[QRp] w - - 0 5"), 2);
}

/// Modern Chaturanga: no royal safety (kings may be left attacked and taken), promotions.
#[test]
fn modern_chaturanga_counts_equal_played_turns() {
    check("modern-chaturanga", None, 3);
    check("modern-chaturanga", Some("4k3/2P5/8/8/8/3p4/1K6/8 w - - 0 1"), 3);
}

/// A move-or-drop part with a quiet hook: its drops are counted with bitboards too (only those
/// that block every check when in check).
#[test]
fn drops_of_a_scripted_turn_count_as_played() {
    let text = "extends \"crazyhouse\"\nvar n = 0\non after move {\n    n = n + 1\n}\n";
    let load = || herald::check::load_text("hooked.preset", text).unwrap_or_else(|e| panic!("{}", e.render()));
    assert!(load().script.active);
    check_preset("hooked crazyhouse", load(), Some("4k3/8/8/8/8/8/8/R3K2r[Qn] w Q - 0 1"), 3);
    check_preset("hooked crazyhouse", load(), Some("r3k3/8/8/8/1b6/8/8/4K2R[Pq] w K - 0 1"), 3);
    check_preset("hooked crazyhouse", load(), None, 3);
}

/// Ruddigore's curse, `if_possible remove or discard from sacrifices()`, is listed natively and
/// counted at the last ply without listing (`FromSet`): at every node, the turns listed must be
/// those (in the same order) the interpreter's list gives, with the same preset written so that
/// the engine does not take the `from` apart (`sacrifices() + []`), and the count the played
/// turns'. Pinned pieces that may not be sacrificed, discards from hand, odd (uncursed) moves, a
/// check that a drop blocks, a move that captures (no curse).
#[test]
fn ruddigore_native_curse_equals_the_scripts() {
    use herald::play::turngen::legal_turns;
    let native = Arc::new(herald::check::load("ruddigore").expect("preset loads"));
    let set = native.script.inert.from_set[1].as_ref().expect("the curse's `from` is listed natively");
    assert!(set.turn_fields.is_some() && set.hand && set.kinds != 0);
    let text = include_str!("../presets/ruddigore.preset").replace("from sacrifices()", "from sacrifices() + []");
    assert_ne!(text, include_str!("../presets/ruddigore.preset"));
    let scripted =
        herald::check::load_text("scripted-ruddigore.preset", &text).unwrap_or_else(|e| panic!("{}", e.render()));
    assert!(scripted.script.inert.from_set[1].is_none());
    let scripted = Arc::new(scripted);

    fn compare(native: &Arc<Preset>, scripted: &Arc<Preset>, pos: &mut Position, depth: usize) -> u64 {
        let fen = herald::engine::fen::write(native, pos);
        let mut other = Game::new(scripted.clone(), Some(&fen), None).expect("fen parses");
        let listed = legal_turns(pos, native).expect("scripts run");
        assert_eq!(listed, legal_turns(&mut other.pos, scripted).expect("scripts run"), "turns of {fen}");
        assert_eq!(count_turns(pos, native).expect("scripts run"), listed.len() as u64, "count of {fen}");
        let mut nodes = 1;
        if depth > 1 {
            for_each_turn(pos, native, &mut |p, _| {
                nodes += compare(native, scripted, p, depth - 1);
                Ok(())
            })
            .expect("scripts run");
        }
        nodes
    }
    let cases = [
        (None, 2),
        (Some("x3r3/8/8/8/8/8/4R3/4X3[Q] w - - 0 2"), 3),
        (Some("x3r3/8/8/8/8/8/4R3/4X3[Q] w - - 0 3"), 3),
        (Some("x7/8/8/8/1b6/8/3P4/4X3[Qr] w - - 0 2"), 2),
        (Some("x7/8/8/8/8/3h4/8/1B2X3[Pq] w - - 0 4"), 2),
        (Some("4x3/8/4q3/8/8/8/4P3/1H2X3[H] b - - 0 2"), 3),
        (Some("4x3/8/8/8/8/8/8/r2X4[Qp] w - - 0 2"), 3),
        (Some("rhbqxbhr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RHBQXBHR[p] w KQkq - 0 2"), 2),
    ];
    for (fen, depth) in cases {
        let mut game = Game::new(native.clone(), fen, None).expect("fen parses");
        assert!(compare(&native, &scripted, &mut game.pos, depth) > 1);
    }
}

/// Universal: a move part before an optional drop, its quiet moves counted with bitboards and
/// the rest tried (`Position::split_moves`); an exchange that earns a drop, pins, checks,
/// promotions from hand, en passant, castling, shaped and hopping pieces listed.
#[test]
fn universal_counts_equal_played_turns() {
    let preset = Arc::new(herald::check::load("universal").expect("preset loads"));
    let fens = [
        (None, 3),
        (Some("4k3/2n1r3/1a3q2/3n4/4P3/2N2N2/1H1Q4/4K2R[CAca] w - - 0 1"), 2),
        (Some("r2qk2r/ppp2ppp/4p3/3N4/8/8/PPP2PPP/3RK2R[NHnh] b - - 0 1 {open=d5,rights={white:1,black:0}}"), 2),
        (Some("r2k4/1P4P1/1n6/8/8/8/1p4p1/R3K2R[NRc] w - - 0 1 {rights={white:1,black:0}}"), 2),
        (Some("4k3/8/8/8/8/2N5/8/r3K2j[QNhn] w - - 0 1 {rights={white:1,black:1}}"), 2),
        (Some("6k1/1p3p2/2o1v3/3S1j2/2y1Z3/1X3O2/4P3/7K w - - 0 1"), 2),
        (Some("7k/2s4x/3w1V2/1J2y3/4Ys2/2O1W3/P4x2/K6R b - - 0 1"), 2),
        (Some("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"), 3),
    ];
    for (fen, depth) in fens {
        let mut game = Game::new(preset.clone(), fen, None).expect("fen parses");
        let what = format!("universal {}", fen.unwrap_or("setup"));
        walk(&mut game.pos, &preset, depth, &what, &mut Memos::default());
    }
}
