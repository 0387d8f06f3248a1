//! The evaluation's structure terms, derived from the preset's pawn-like pieces (promotable
//! kinds whose moves all go one way along the ranks): compared between positions that differ
//! only in the term's condition.

use herald::game::Game;
use herald::search::eval::Evaluator;
use std::sync::Arc;

/// The static evaluation of a position of a shipped preset, for the side to move.
fn static_eval(name: &str, fen: &str) -> i32 {
    let p = Arc::new(herald::check::load(name).unwrap_or_else(|e| panic!("{}", e.render())));
    let mut g = Game::new(Arc::clone(&p), Some(fen), None).expect("fen parses");
    Evaluator::new(&p).evaluate(&p, &mut g.pos).expect("evaluates")
}

/// A pawn with no enemy pawn ahead of it on its file or the next ones is worth more than one a
/// pawn could stop: the black pawn on d7 stops e5 (it may take on e6), the one on b7 does not.
/// Everything else is alike (each black pawn has the same moves, and stands away from both kings).
#[test]
fn a_passed_pawn_is_worth_more() {
    let passed = static_eval("chess", "7k/1p6/8/4P3/8/8/8/K7 w - - 0 1");
    let stopped = static_eval("chess", "7k/3p4/8/4P3/8/8/8/K7 w - - 0 1");
    assert!(passed > stopped + 20, "passed {passed}, stopped {stopped}");
    // Black's view of the same: its pawn on b7 is passed too, and White's on e5 as well.
    let black = static_eval("chess", "7k/1p6/8/4P3/8/8/8/K7 b - - 0 1");
    let black_stopped = static_eval("chess", "7k/3p4/8/4P3/8/8/8/K7 b - - 0 1");
    assert!(black < black_stopped, "black {black}, black stopped {black_stopped}");
}

/// Makruk's pawns promote on the sixth rank and move only forward: pawn-like, so the same holds
/// (the term comes from the declarations, not the preset's name). The black pawns stand on the
/// seventh rank: on d6 the pawns would attack each other (a threat term of their own).
#[test]
fn a_passed_pawn_is_worth_more_in_makruk() {
    let passed = static_eval("makruk", "7k/1p6/8/4P3/8/8/8/K7 w - - 0 1");
    let stopped = static_eval("makruk", "7k/3p4/8/4P3/8/8/8/K7 w - - 0 1");
    assert!(passed > stopped + 10, "passed {passed}, stopped {stopped}");
}

/// Two pawns on one file are worth less than two on files next to each other.
#[test]
fn doubled_pawns_are_worth_less() {
    let doubled = static_eval("chess", "7k/8/8/8/8/4P3/4P3/K7 w - - 0 1");
    let side_by_side = static_eval("chess", "7k/8/8/8/8/3P4/4P3/K7 w - - 0 1");
    assert!(doubled < side_by_side - 10, "doubled {doubled}, side by side {side_by_side}");
}
