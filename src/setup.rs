//! The start position of a new game: the preset's setup, or one its `on setup` hook draws from a seed.

use crate::play::fen::{self, FenError};
use crate::preset::Preset;
use crate::rng::Rng;
use crate::script::hooks;

/// The seed of a game started without one, so that every command shows the same setup.
pub const DEFAULT_SEED: u64 = 1;

/// Drawings `on setup` may reject in a row before the preset is judged unable to produce a setup.
pub const MAX_DRAWS: usize = 100;

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SetupError {
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    /// A script error, rendered with the preset's line.
    #[error("{0}")]
    Script(String),
    #[error("`on setup` rejected {draws} setups in a row (the last because {why}); no game can start")]
    Rejected { draws: usize, why: String },
}

/// The FEN a new game starts from: the preset's `setup`, passed through `on setup` when there is one.
/// Each rejected drawing is followed by the next from the same generator, so a seed always gives
/// the same setup.
pub fn draw(preset: &Preset, seed: Option<u64>) -> Result<String, SetupError> {
    let Some(body) = &preset.script.hooks.setup else { return Ok(preset.setup.clone()) };
    let mut rng = Rng::new(seed.unwrap_or(DEFAULT_SEED));
    let mut why = String::new();
    for _ in 0..MAX_DRAWS {
        let mut pos = fen::parse(preset, &preset.setup)?;
        match hooks::setup(preset, &mut pos, body, &mut rng) {
            Ok(None) => return Ok(fen::write(preset, &pos)),
            Ok(Some(reason)) => why = reason,
            Err(e) => return Err(SetupError::Script(e.render(preset))),
        }
    }
    Err(SetupError::Rejected { draws: MAX_DRAWS, why })
}
