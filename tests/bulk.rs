//! Bulk counting of scripted presets skips what cannot refuse a turn: it must count what playing counts.

use herald::game::Game;
use herald::play::perft::try_perft;
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

/// `before` hooks at the last ply: a quiet one may be skipped, one that refuses or whose variables a
/// refusing hook reads must run, and the counts agree with playing every turn either way.
#[test]
fn before_hooks_are_skipped_only_when_nothing_counted_reads_them() {
    let quiet = format!("{BASE}\nvar seen = 0\non before move {{\n    seen = len(legal_moves())\n}}\n");
    let refuses = format!("{BASE}\non before move {{\n    if turn_number() == 3 {{ reject \"rest\" }}\n}}\n");
    let read_later = format!(
        "{BASE}\nvar was = false\non before move {{\n    was = in_check(mover)\n}}\n\
         on validate move {{\n    if not was and part.piece.royal {{ reject \"the king only moves out of check\" }}\n}}\n"
    );
    let facts = |text: &str| inert(text);
    assert!(facts(&quiet).before[PartKind::Move as usize]);
    assert!(!facts(&refuses).before[PartKind::Move as usize]);
    assert!(facts(&read_later).before[PartKind::Move as usize] && !facts(&read_later).part[PartKind::Move as usize]);
    for (text, counts) in [(&quiet, [8u64, 13, 104]), (&refuses, [8, 13, 0]), (&read_later, [5, 4, 18])] {
        let preset = Arc::new(herald::check::load_text("inline.preset", text).expect("loads"));
        let mut game = Game::new(preset.clone(), None, None).expect("setup");
        for (d, want) in counts.iter().enumerate() {
            let played = try_perft(&mut game.pos, &preset, d + 1, false).expect("scripts run");
            let bulk = try_perft(&mut game.pos, &preset, d + 1, true).expect("scripts run");
            assert_eq!((bulk, played), (*want, *want), "{text}: depth {}", d + 1);
        }
    }
}

/// A multi-part turn whose later part may vanish counts its quiet moves from one sample move
/// (`Position::split_moves`): a hook that reads the sample's promotion or destination must not
/// lend its judgement to the other quiet moves. A pawn one step from an optional promotion makes
/// a quiet move with no promotion onto the promotion rank, the kind of sample in question.
#[test]
fn quiet_samples_judged_only_where_every_quiet_move_is_alike() {
    let base = r#"
        board 5 x 5
        piece King K royal moves "K"
        piece Rook R value 5 moves "R"
        piece Pawn P value 1 moves "fmWfcF"
        region last_rank = rank 5
        promote Pawn in last_rank to Rook optional
        setup "k4/2P2/5/1p3/K3R w - - 0 1"
        state marks = 0
        turn {
            move
            optional remove from spoils()
        }
        fn spoils() {
            if marks == 0 {
                return []
            }
            return [b2, c3, d4]
        }
    "#;
    let hooks = [
        "on after move {\n    if part.promo != none {\n        marks = marks + 1\n    }\n}\n",
        "on after move {\n    if part.piece.kind == Pawn and rank_of(part.to, mover) == 5 {\n        marks = marks + 1\n    }\n}\n",
        "on after move {\n    if part.to == c5 {\n        marks = 1\n    }\n}\n",
    ];
    let fens = ["k4/2P2/5/1p3/K3R w - - 0 1", "k3r/1P3/2p2/5/K4 w - - 0 1", "1k3/P3P/5/1r3/K4 w - - 0 1"];
    for hook in hooks {
        let text = format!("{base}\n{hook}");
        let preset =
            Arc::new(herald::check::load_text("inline.preset", &text).unwrap_or_else(|e| panic!("{}", e.render())));
        for fen in fens {
            let mut game = Game::new(preset.clone(), Some(fen), None).expect("fen parses");
            let mut counts = Vec::new();
            for d in 1..=4 {
                let played = try_perft(&mut game.pos, &preset, d, false).expect("scripts run");
                let bulk = try_perft(&mut game.pos, &preset, d, true).expect("scripts run");
                assert_eq!(bulk, played, "{hook} {fen}: depth {d}");
                counts.push(played);
            }
            assert!(counts[3] > 100, "{hook} {fen}: {counts:?}");
        }
    }
}
