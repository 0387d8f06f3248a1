//! The extended FEN with its state field: the position layer reads the board, hands, castling,
//! en passant and clocks; the state field's values are script literals, compiled and evaluated
//! here.

use crate::diag::suggest;
use crate::engine::Position;
use crate::engine::fen;
use crate::preset::Preset;

pub use crate::engine::fen::{FenError, parse_board_only, write};

/// Parse a whole extended FEN into a position of this preset.
pub fn parse(preset: &Preset, fen: &str) -> Result<Position, FenError> {
    fen::parse_with(preset, fen, &read_state)
}

/// `{name=value,...}`: values of `state` variables, written as script literals.
fn read_state(preset: &Preset, text: &str, pos: &mut Position) -> Result<(), FenError> {
    use crate::script::compile::Compiler;
    let mut sources = crate::diag::Sources::default();
    let src = sources.add("state", text);
    let bindings = crate::syntax::parse::parse_fen_state(src, text).map_err(|d| FenError::BadState(d.message))?;
    for (name, expr) in bindings {
        let Some(i) = preset.script.global(&name.node).filter(|&i| preset.script.globals[i].state) else {
            let names: Vec<&String> = preset.script.globals.iter().filter(|g| g.state).map(|g| &g.name).collect();
            let hint = suggest(&name.node, names);
            return Err(FenError::BadState(format!("this preset has no state variable `{}`{hint}", name.node)));
        };
        let mut c = Compiler::new(&preset.kinds, &preset.geo);
        let code = c.expr_alone(&expr);
        if let Some(d) = c.diags.first() {
            return Err(FenError::BadState(format!("{}: {}", name.node, d.message)));
        }
        let v = crate::script::hooks::constant(preset, &code)
            .map_err(|e| FenError::BadState(format!("{}: {}", name.node, e.message)))?;
        pos.state[i] = v;
    }
    Ok(())
}
