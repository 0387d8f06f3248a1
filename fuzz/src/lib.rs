//! The targets' bodies live in the library (`herald::fuzzing`), so a stable test replays the same code.

pub use herald::fuzzing::*;
