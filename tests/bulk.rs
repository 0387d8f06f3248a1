//! Bulk counting of scripted presets skips what cannot refuse a turn: it must count what playing counts.

use herald::engine::perft::try_perft;
use herald::game::Game;
use herald::syntax::script::PartKind;
use std::sync::Arc;

/// Every entry of tests/perft.txt, at the depths small enough to play out: bulk and played agree.
#[test]
fn bulk_counts_equal_played_counts() {
    let limit = if cfg!(debug_assertions) { 3_000 } else { 60_000 };
    for line in include_str!("perft.txt").lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        let preset = Arc::new(herald::check::load(f[0]).expect("preset loads"));
        let seed = f[1].strip_prefix("seed ").map(|n| n.trim().parse::<u64>().expect("a seed"));
        let fen = (f[1] != "setup" && seed.is_none()).then_some(f[1]);
        let mut game = Game::new(preset.clone(), fen, seed).expect("fen parses");
        for (i, want) in f[2].split_whitespace().map(|n| n.parse::<u64>().expect("a count")).enumerate() {
            if want > limit {
                break;
            }
            let played = try_perft(&mut game.pos, &preset, i + 1, false).expect("scripts run");
            let bulk = try_perft(&mut game.pos, &preset, i + 1, true).expect("scripts run");
            assert_eq!((bulk, played), (want, want), "{line}: depth {}", i + 1);
        }
    }
}

fn inert(text: &str) -> herald::script::inert::Inert {
    let p = herald::check::load_text("inline.preset", text).unwrap_or_else(|e| panic!("{}", e.render()));
    p.script.inert.clone()
}

const BASE: &str = r#"
    board 4 x 4
    piece King K royal moves "K"
    piece Rook R value 5 moves "R"
    setup "k3/4/4/R2K w - - 0 1"
"#;

#[test]
fn hooks_that_may_reject_or_change_the_board_are_not_skipped() {
    let quiet = inert(&format!("{BASE}\nvar n = 0\non after move {{\n    n = n + 1\n    win mover \"x\"\n}}\n"));
    assert!(quiet.part[PartKind::Move as usize] && quiet.end);
    let rejects = inert(&format!("{BASE}\non validate move {{\n    reject \"no\"\n}}\n"));
    assert!(!rejects.part[PartKind::Move as usize] && rejects.part[PartKind::Drop as usize]);
    let fn_places =
        format!("{BASE}\nfn put(s) {{\n    place(piece_of(Rook, white), s)\n}}\non turn_end {{\n    put(a2)\n}}\n");
    assert!(!inert(&fn_places).end);
    let shipped = herald::check::load("maidens").expect("maidens loads").script.inert;
    assert!(shipped.part[PartKind::Move as usize] && !shipped.part[PartKind::Remove as usize] && shipped.end);
}
