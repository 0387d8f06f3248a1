//! The engine: the board vocabulary (board, sides, hashing keys, Betza, compiled movement) and the
//! position layer (positions, move generation, legality, turns, notation, static results, FEN).

pub mod attackbits;
pub mod betza;
pub mod bitboard;
pub mod board;
pub mod bulk;
mod facing;
pub mod fen;
pub mod gameover;
pub mod legal;
pub mod movegen;
pub mod movement;
pub mod notation;
pub mod position;
pub mod rules;
pub mod sanity;
pub mod side;
pub mod slides;
pub mod turn;
pub mod typed;
pub mod zobrist;

pub use board::Sq;
pub use gameover::GameOver;
pub use position::{Move, Position};
pub use side::{BySide, Side};
