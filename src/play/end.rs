//! A position's result before any move is generated: one a script declared, then `on game_end`,
//! then the static rules (repetition, move limit, material). The hook part is why this is play's.

use super::memo::Memos;
use crate::engine::{GameOver, Position};
use crate::preset::Preset;
use crate::script::ir::Body;
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

/// [`terminal`], with `on game_end` verdicts kept in `memos` (a perft's) and reused for positions
/// with the same side to move and the same piece counts, when the hook read nothing else of the
/// position (Modern Chaturanga's king-capture and bare-king rules count pieces only).
pub fn terminal_in<'a>(
    pos: &mut Position,
    preset: &'a Preset,
    memos: &mut Memos<'a>,
) -> Result<Option<GameOver>, ScriptError> {
    if let Some(o) = &pos.over {
        return Ok(Some((**o).clone()));
    }
    if let Some(body) = &preset.script.hooks.game_end
        && let Some(r) = game_end_in(pos, preset, body, memos)?
    {
        return Ok(Some(r));
    }
    Ok(pos.static_result(preset))
}

/// `on game_end`'s verdict, from the memos when a run like it is kept (its steps charged as if it
/// ran), else run, and kept when it read only the piece counts and globals.
fn game_end_in<'a>(
    pos: &mut Position,
    preset: &'a Preset,
    body: &'a Body,
    memos: &mut Memos<'a>,
) -> Result<Option<GameOver>, ScriptError> {
    if let Some((verdict, steps)) = memos.game_end(body, pos) {
        crate::budget::steps(steps)
            .map_err(|spent| ScriptError::new(body.span, format!("{spent} (stopped in `{}`)", body.name)))?;
        return Ok(verdict);
    }
    if !memos.worth(body) {
        return hooks::game_end(preset, pos);
    }
    let verdict = hooks::game_end_tracked(preset, pos, body, memos.reads())?;
    memos.keep_game_end(body, pos, &verdict);
    Ok(verdict)
}
