//! Play: what combines the position layer with the script runtime. Turn generation with hooks,
//! scripted perft, the hook part of a game's end, the FEN's state field and the pools their hot
//! loops reuse live here, so that neither layer below needs the other.

pub mod perft;
pub mod turngen;
