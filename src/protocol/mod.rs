//! Herald as an engine for GUIs and match runners: UCI and XBoard/CECP (docs/engine.md).

pub mod moves;
pub mod session;
pub mod timeman;
pub mod uci;
pub mod xboard;
