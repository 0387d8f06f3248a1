//! What can go wrong with a REPL line, typed: a front end shows it after `error: `, and can tell a
//! command used wrongly from an illegal turn, a bad position or a preset that did not load.

use crate::check::LoadError;
use crate::game::MoveError;
use crate::setup::SetupError;

#[derive(Debug, thiserror::Error)]
pub enum ReplError {
    /// A command refused with its reason: wrong arguments, nothing to undo, an unknown command.
    #[error("{0}")]
    Refused(String),
    /// A turn that is illegal or unreadable, or a script that failed while turns were listed or played.
    #[error(transparent)]
    Turn(#[from] MoveError),
    /// A FEN or seed the preset cannot start from.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A preset that did not load, shown as its first diagnostic's headline.
    #[error("{}", super::report::load_error_line(.0))]
    Load(Box<LoadError>),
    /// A file that could not be read or written, or a saved game that does not replay.
    #[error("{0}")]
    File(String),
    /// A bug in Herald caught while running the line; the game was put back.
    #[error("internal error (a bug in herald, see above); the game is as it was")]
    Internal,
}

impl From<String> for ReplError {
    fn from(reason: String) -> ReplError {
        ReplError::Refused(reason)
    }
}

impl From<&str> for ReplError {
    fn from(reason: &str) -> ReplError {
        ReplError::Refused(reason.to_string())
    }
}

impl From<LoadError> for ReplError {
    fn from(e: LoadError) -> ReplError {
        ReplError::Load(Box::new(e))
    }
}

/// What a REPL line answers: its text, or why it changed nothing.
pub type Answer = Result<String, ReplError>;
