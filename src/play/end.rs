//! A position's result before any move is generated: one a script declared, then `on game_end`,
//! then the static rules (repetition, move limit, material). The hook part is why this is play's.

use crate::engine::{GameOver, Position};
use crate::preset::Preset;
use crate::script::{ScriptError, hooks};

/// A result that needs no move generation: declared by a script, `on game_end`, or a static rule.
pub fn terminal(pos: &mut Position, preset: &Preset) -> Result<Option<GameOver>, ScriptError> {
    if let Some(o) = &pos.over {
        return Ok(Some((**o).clone()));
    }
    if let Some(r) = hooks::game_end(preset, pos)? {
        return Ok(Some(r));
    }
    Ok(pos.static_result(preset))
}
