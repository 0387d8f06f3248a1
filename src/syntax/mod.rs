//! Source text to AST: the pest grammar in `grammar/preset.pest`, read once into [`ast`].

pub mod ast;
mod grammar;
mod keywords;
pub mod parse;
pub mod parse_script;
pub mod script;
pub mod span;

pub use span::{SourceId, Span, Spanned};
