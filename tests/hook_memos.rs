//! The turn generator reuses a hook run's effect from its memos while what the run read is
//! unchanged (`play::memo`); a `follow` over squares the part leaves alone is reused for other
//! parts that leave them alone. Every listed turn must leave the position (board, `state`, hash)
//! exactly as playing it does, where every hook runs.

use herald::engine::Position;
use herald::engine::fen;
use herald::game::Game;
use herald::play::turngen::{for_each_turn, play};
use herald::preset::Preset;
use std::sync::Arc;

/// Compares, at every node down to `depth`, each listed turn's position with the turn played on
/// a copy; returns the turns compared.
fn walk(pos: &mut Position, preset: &Preset, depth: usize, what: &str) -> u64 {
    let mut listed = Vec::new();
    for_each_turn(pos, preset, &mut |p, t| {
        listed.push((*t, fen::write(preset, p), p.hash));
        Ok(())
    })
    .expect("scripts run");
    for (turn, after, hash) in &listed {
        let mut played = pos.clone();
        play(&mut played, preset, turn, &mut Vec::new()).expect("a listed turn plays");
        let text = herald::engine::turn::format_turn(preset, pos, turn);
        let at = format!("{what}: {} then {text}", fen::write(preset, pos));
        assert_eq!(&fen::write(preset, &played), after, "{at}");
        assert_eq!(played.hash, *hash, "{at}: hash");
    }
    let mut n = listed.len() as u64;
    if depth > 1 {
        for_each_turn(pos, preset, &mut |p, _| {
            n += walk(p, preset, depth - 1, what);
            Ok(())
        })
        .expect("scripts run");
    }
    n
}

fn check(preset: Preset, fen: Option<&str>, depth: usize) -> u64 {
    let preset = Arc::new(preset);
    let mut game = Game::new(preset.clone(), fen, None).expect("fen parses");
    walk(&mut game.pos, &preset, depth, fen.unwrap_or("setup"))
}

/// Maidens: `huffable = follow(chances)` after every move, reused for the moves of the pieces
/// that had no capture; the moves of those that had one, castling with such a rook, captures,
/// huffs and checks.
#[test]
fn maidens_listed_turns_leave_what_played_turns_leave() {
    let deep = if cfg!(debug_assertions) { 2 } else { 3 };
    let maidens = || herald::check::load("maidens").expect("maidens loads");
    let mut n = check(maidens(), None, deep);
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 {huffable={e5,f3,d5}}",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1 {huffable={e5,f3,d5}}",
        // Rooks that can capture, and may castle: the rook a castling moves is followed.
        "r3k2r/8/8/8/8/8/8/Rn2K1nR w KQkq - 0 1",
        "4k3/4r3/8/8/4n3/8/2n5/4K3 w - - 0 1 {huffable={e4,c2}}",
    ] {
        n += check(maidens(), Some(fen), deep - 1);
    }
    assert!(n > 5_000, "{n} turns compared");
}

/// `follow` over a list (not a set) and over one square, in an inline preset: a list whose
/// squares the move leaves alone gives the same set whatever the move, unless an earlier part
/// of the turn (a removal) emptied one of them.
#[test]
fn follow_of_a_list_and_of_a_square_listed_as_played() {
    let text = r#"
        board 5 x 5
        piece King K royal moves "K"
        piece Rook R value 5 moves "R"
        piece Knight N value 3 moves "N"
        setup "k1n2/5/1R3/5/K1N1r w - - 0 1"
        state tracked = {}
        state one = none
        turn {
            optional remove from [c5, e1, b3]
            move
        }
        on validate move {
            one = follow(c1)
        }
        on after move {
            tracked = follow([b3, c1, e1, c5])
        }
    "#;
    let preset = herald::check::load_text("inline.preset", text).unwrap_or_else(|e| panic!("{}", e.render()));
    assert!(check(preset, None, 3) > 100);
}

/// Leaves below `depth` counted with every `on game_end` run (no memo), turn by turn.
fn plain_perft(pos: &mut Position, preset: &Preset, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    if herald::play::end::terminal(pos, preset).expect("scripts run").is_some() {
        return 0;
    }
    let mut n = 0;
    for_each_turn(pos, preset, &mut |p, _| {
        n += plain_perft(p, preset, depth - 1);
        Ok(())
    })
    .expect("scripts run");
    n
}

/// Perft keeps `on game_end` verdicts by the side to move and the piece counts when the run read
/// nothing else of the position (`play::end::terminal_in`): the counts must be those of running
/// it at every node, for a hook that counts pieces only (Modern Chaturanga), one that reads a
/// square in some positions, and one that reads a `state` variable beside the counts.
#[test]
fn game_end_verdicts_reused_only_where_they_hold() {
    let deep = if cfg!(debug_assertions) { 3 } else { 4 };
    let chaturanga = herald::check::load("modern-chaturanga").expect("loads");
    let board = r#"
        extends "chess"
        on game_end {
            if count(Queen, mover) == 0 {
                if piece_at(e4) != none {
                    win opponent "queenless with e4 taken"
                }
            }
            if len(pieces(opponent)) < 15 and count(Knight) < 4 {
                draw "a piece down"
            }
        }
    "#;
    let state = r#"
        extends "chess"
        state takes = 0
        on after move {
            if part.capture {
                takes = takes + 1
            }
        }
        on game_end {
            if takes >= 2 and count(Pawn, mover) < 8 {
                draw "two takes"
            }
        }
    "#;
    let inline = |text| herald::check::load_text("inline.preset", text).unwrap_or_else(|e| panic!("{}", e.render()));
    for (preset, fen) in [
        (chaturanga, None),
        (inline(board), Some("rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2")),
        (inline(board), Some("rnb1kbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNB1KBNR w KQkq - 0 2")),
        (inline(state), Some("rnbqkbnr/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3")),
    ] {
        let preset = Arc::new(preset);
        let mut game = Game::new(preset.clone(), fen, None).expect("fen parses");
        let depth = if fen.is_some() { deep - 1 } else { deep };
        let want = plain_perft(&mut game.pos.clone(), &preset, depth);
        let got = herald::play::perft::try_perft(&mut game.pos, &preset, depth, false).expect("perft");
        assert_eq!(got, want, "{}", fen.unwrap_or("setup"));
        assert!(want > 1000, "{want}");
    }
}
