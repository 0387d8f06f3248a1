//! The REPL's session: the game and the settings the commands change. Commands (`commands.rs`) and
//! the line loop (`mod.rs`) act on it.

use super::draw::Style;
use crate::game::Game;

/// A REPL session.
pub struct Repl {
    pub game: Game,
    /// Draw the board after each turn (on a terminal).
    pub verbose: bool,
    pub style: Style,
    pub done: bool,
    /// Turns taken back by `undo`, latest last, for `redo`; a new turn clears them.
    pub redo: Vec<String>,
    pub tracing: bool,
    /// The sides the computer plays (`auto`), answering each human turn.
    pub auto: crate::search::repl_cmds::Auto,
}

impl Repl {
    pub fn new(game: Game) -> Repl {
        Repl {
            game,
            verbose: false,
            style: Style::default(),
            done: false,
            redo: Vec::new(),
            tracing: false,
            auto: Default::default(),
        }
    }
}
