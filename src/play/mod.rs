//! Play: what combines the position layer with the script runtime. Turn generation with hooks (and
//! the candidate lists it reuses), scripted perft, the hook part of a game's end and the FEN's
//! state field live here, so that neither layer below needs the other.

pub mod end;
pub mod fen;
pub mod leafcount;
pub mod memo;
pub mod perft;
pub mod turngen;
