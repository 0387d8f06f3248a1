//! A game's result: who won (or a draw) and why. Vocabulary shared by the position (a result a
//! script declared), the static rules and the hooks' `game_end`.

use super::side::Side;
use std::fmt;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOver {
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub reason: String,
}

impl fmt::Display for GameOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(s) => write!(f, "{s} wins ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}
