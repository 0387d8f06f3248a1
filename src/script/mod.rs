//! Rule scripts: values, the compiler that resolves names at load time, the sandboxed interpreter
//! and its built-ins. The engine calls in through [`hooks`].

pub mod builtins;
pub mod compile;
pub mod hooks;
pub mod inert;
pub mod interp;
pub mod ir;
pub mod reads;
pub mod table;
pub mod value;

pub use interp::{Interp, Outcome, ScriptError};
pub use value::{PartVal, Value};
