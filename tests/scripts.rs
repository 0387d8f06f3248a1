//! Rule scripts: what the transcripts in tests/scripts/ cannot show. The language's constructs, hooks,
//! state and sandbox errors are played there as golden REPL transcripts (tests/transcripts.rs); load
//! errors are golden diagnostics (tests/diagnostics/script-*.preset). Here: the position's hash.

use herald::game::Game;
use std::sync::Arc;

fn state_preset() -> Arc<herald::preset::Preset> {
    herald::repl::load("tests/scripts/state.preset").unwrap_or_else(|e| panic!("{}", e.render()))
}

#[test]
fn state_is_hashed_and_undone_with_the_turn() {
    let mut g = Game::new(state_preset(), None, None).expect("the setup loads");
    let h0 = g.pos.hash;
    g.play("R a1-a2").expect("legal");
    assert_ne!(g.pos.hash, h0);
    g.undo();
    assert_eq!(g.pos.hash, h0);
    // The same board with another state value is another position.
    let g2 = Game::new(state_preset(), Some("k3/4/4/R2K w - - 0 1 {moves_made=5}"), None).expect("fen parses");
    assert_eq!(g2.pos.state[0], herald::script::Value::Int(5));
    assert_ne!(g2.pos.hash, h0);
}
