//! The REPL driven through its command layer: every error leaves the game as it was.

use herald::game::Game;
use herald::repl::Repl;

fn repl() -> Repl {
    let preset = herald::repl::load("chess").expect("chess loads");
    Repl::new(Game::new(preset, None, None).expect("setup parses"))
}

#[test]
fn play_undo_and_fen() {
    let mut r = repl();
    assert_eq!(r.execute("e4"), Ok("1. P e2-e4".into()));
    assert_eq!(r.execute("e5"), Ok("1. p e7-e5".into()));
    assert_eq!(r.execute("undo"), Ok("undid p e7-e5".into()));
    assert_eq!(r.execute("fen"), Ok("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into()));
}

#[test]
fn errors_change_nothing() {
    let mut r = repl();
    let before = r.execute("fen");
    assert_eq!(r.execute("e5"), Err("no white P can move to e5".into()));
    assert_eq!(r.execute("P e2-e5"), Err("P on e2 cannot move to e5".into()));
    assert_eq!(r.execute("undo"), Err("nothing to undo".into()));
    assert_eq!(r.execute("perft"), Err("perft takes a depth, e.g. `perft 4`".into()));
    assert!(r.execute("hlep").is_err_and(|e| e.contains("did you mean `help`")));
    assert_eq!(r.execute("fen"), before);
}

#[test]
fn resignation_ends_the_game_and_can_be_undone() {
    let mut r = repl();
    r.execute("e4").expect("legal");
    assert!(r.execute("resign").is_ok_and(|s| s.contains("white wins (black resigns)")));
    assert!(r.execute("e5").is_err_and(|e| e.contains("the game is over")));
    assert_eq!(r.execute("undo"), Ok("undid resign".into()));
    assert_eq!(r.execute("e5"), Ok("1. p e7-e5".into()));
}

#[test]
fn moves_of_one_square_and_perft() {
    let mut r = repl();
    assert_eq!(r.execute("moves g1"), Ok("N g1-f3\nN g1-h3\n2 legal".into()));
    assert!(r.execute("perft 3").is_ok_and(|s| s.starts_with("perft 3 nodes 8902 time ")));
}
