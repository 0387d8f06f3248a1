//! The engine: board, compiled movement, positions, move generation, notation, FEN, results, perft.

pub mod betza;
pub mod board;
mod facing;
pub mod fen;
mod legal;
pub mod movegen;
pub mod movement;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rules;
pub mod sanity;
pub mod side;
pub mod turn;
pub mod turngen;
pub mod zobrist;

pub use board::Sq;
pub use position::{Move, Position};
pub use rules::GameOver;
pub use side::{BySide, Side};
