//! `herald xboard`: XBoard/CECP version 2 (docs/engine.md).

use super::session::Out;
use std::io::BufRead;

pub fn run(_input: impl BufRead, _out: Out) -> Result<(), String> {
    Err("not yet".into())
}
