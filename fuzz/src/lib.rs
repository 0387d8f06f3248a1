//! Helpers shared by the fuzz targets: shipped presets loaded once, and a reader of the fuzzer's bytes.

use herald::game::Game;
use herald::preset::Preset;
use std::sync::{Arc, OnceLock};

/// Every shipped preset, loaded once per process.
pub fn shipped() -> &'static [Arc<Preset>] {
    static ALL: OnceLock<Vec<Arc<Preset>>> = OnceLock::new();
    ALL.get_or_init(|| {
        herald::presets::NAMES.iter().map(|n| Arc::new(herald::check::load(n).expect("shipped preset loads"))).collect()
    })
}

/// The fuzzer's bytes read as choices: each call takes what it needs, and zeros once they run out.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    pub fn byte(&mut self) -> u8 {
        let (first, rest) = self.0.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
        self.0 = rest;
        first
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { usize::from(u16::from_le_bytes([self.byte(), self.byte()])) % n }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The rest of the input as text (lossy, so every input is tried).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Play a typed turn and insist that a refused turn changed nothing.
pub fn play_or_unchanged(game: &mut Game, turn: &str) {
    let before = (game.fen(), game.pos.hash, game.played.len());
    if game.play(turn).is_err() {
        assert_eq!((game.fen(), game.pos.hash, game.played.len()), before, "a refused turn `{turn}` changed the game");
    }
}

/// Play up to `plies` legal turns chosen by the bytes; every listed turn must play by its own text.
pub fn random_turns(game: &mut Game, bytes: &mut Bytes, plies: usize) {
    for _ in 0..plies {
        let Ok(legal) = game.legal_texts() else { return };
        if legal.is_empty() {
            return;
        }
        let text = &legal[bytes.below(legal.len())];
        if let Err(e) = game.play(text) {
            // A script may fail on a turn it listed (e.g. in its announce hook): that is an error, not a panic.
            assert!(matches!(e, herald::game::MoveError::Script(_)), "listed turn `{text}` refused: {e}");
            return;
        }
        let _ = game.result();
    }
}
