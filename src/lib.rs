//! Herald: an interpreter for chess-variant presets.
//!
//! The pipeline: [`syntax`] (grammar → AST) → [`check`] (AST → [`preset::Preset`]) →
//! [`engine`] (positions, moves, results) → [`game`] → the CLI, the REPL and [`games`] (sample games).
//!
//! ```
//! let preset = herald::check::load_text("tiny.preset", r#"
//!     board 3 x 3
//!     piece King K royal moves "K"
//!     setup "k2/3/2K w"
//! "#).unwrap();
//! let mut game = herald::game::Game::new(std::sync::Arc::new(preset), None, None).unwrap();
//! // b2 is next to the black king, so it is not among them.
//! assert_eq!(game.legal_texts().unwrap(), ["K c1-b1", "K c1-c2"]);
//! ```

pub mod budget;
pub mod check;
pub mod diag;
pub mod display;
pub mod engine;
pub mod files;
pub mod fuzzing;
pub mod game;
pub mod games;
pub mod play;
pub mod preset;
pub mod presets;
pub mod protocol;
pub mod repl;
pub mod rng;
pub mod script;
pub mod search;
pub mod server;
pub mod setup;
pub mod stack;
pub mod syntax;
