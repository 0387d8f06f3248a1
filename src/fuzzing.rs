//! The fuzz targets' bodies, in the library so that the cargo-fuzz binaries (fuzz/) and a stable
//! test replaying their committed corpora (tests/fuzz_corpus.rs) run the same code. Each takes
//! the fuzzer's bytes and panics only on a bug; each runs on a thread with the commands' stack.

use crate::game::Game;
use crate::preset::Preset;
use std::sync::{Arc, OnceLock};

/// A target's body: the fuzzer's bytes in, a panic only on a bug.
pub type Target = fn(&[u8]);

/// The targets by name, as fuzz/corpus/<name>/ and fuzz/fuzz_targets/<name>.rs name them.
pub const TARGETS: &[(&str, Target)] =
    &[("preset", preset), ("fen", fen), ("notation", notation), ("games", games), ("mutate", mutate)];

/// Every shipped preset, loaded once per process.
pub fn shipped() -> &'static [Arc<Preset>] {
    static ALL: OnceLock<Vec<Arc<Preset>>> = OnceLock::new();
    ALL.get_or_init(|| {
        crate::presets::NAMES.iter().map(|n| Arc::new(crate::check::load(n).expect("shipped preset loads"))).collect()
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
            assert!(matches!(e, crate::game::MoveError::Script(_)), "listed turn `{text}` refused: {e}");
            return;
        }
        let _ = game.result();
    }
}

/// The preset parser and checker: any text loads or fails with diagnostics that render.
pub fn preset(data: &[u8]) {
    crate::stack::run(|| {
        let text = text(data);
        match crate::check::load_text("fuzz.preset", &text) {
            Ok(preset) => {
                if let Ok(mut game) = Game::new(Arc::new(preset), None, Some(1)) {
                    let _ = game.legal_texts();
                    let _ = game.result();
                }
            }
            Err(e) => {
                let _ = e.render();
            }
        }
    })
}

/// The FEN parser on every shipped preset: a FEN that parses writes back to a fixed point.
pub fn fen(data: &[u8]) {
    use crate::play::fen;
    let Some((&pick, rest)) = data.split_first() else { return };
    crate::stack::run(|| {
        let presets = shipped();
        let preset = &presets[pick as usize % presets.len()];
        let text = text(rest);
        let Ok(pos) = fen::parse(preset, &text) else { return };
        let once = fen::write(preset, &pos);
        let again = fen::parse(preset, &once).unwrap_or_else(|e| panic!("own FEN `{once}` does not parse: {e}"));
        assert_eq!(fen::write(preset, &again), once, "FEN is not a fixed point");
        assert_eq!(again.hash, pos.hash, "hash differs after a FEN round trip");
        let Ok(mut game) = Game::new(preset.clone(), Some(&text), None) else { return };
        let _ = game.legal_texts();
        let _ = game.result();
    })
}

/// The move-notation reader through a game: arbitrary text played as turns (`|` between them).
pub fn notation(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    crate::stack::run(|| {
        let presets = shipped();
        let preset = &presets[pick as usize % presets.len()];
        let Ok(mut game) = Game::new(preset.clone(), None, Some(pick as u64)) else { return };
        let text = text(rest);
        for turn in text.split('|').take(16) {
            let _ = crate::engine::notation::read(turn);
            play_or_unchanged(&mut game, turn);
        }
        let _ = game.legal_texts();
    })
}

/// The sample-game YAML loader and runner: any text runs or fails with a message.
pub fn games(data: &[u8]) {
    crate::stack::run(|| {
        let text = text(data);
        let mut runner = crate::games::Runner::default();
        if let Err(f) = runner.run_text(std::path::Path::new("fuzz/game.yaml"), &text) {
            let _ = f.to_string();
        }
    })
}

/// Fragments worth splicing into a preset, a FEN or a move text: they reach deeper into the
/// parsers than random bytes. The fuzz targets and tests/properties.rs share them.
pub const TOKENS: &[&str] = &[
    " ",
    "\n",
    "0",
    "1",
    "-1",
    "64",
    "999999",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "\"",
    ";",
    ",",
    "=",
    "+",
    "*",
    "-",
    " x ",
    "board",
    "piece",
    "royal",
    "moves",
    "setup",
    "on",
    "fn",
    "return",
    "if",
    "else",
    "while",
    "for",
    "in",
    "true",
    "false",
    "none",
    "mover",
    "opponent",
    "part",
    "reject",
    "win",
    "draw",
    "say",
    "state",
    "var",
    "remove",
    "place",
    "construct",
    "turn_start",
    "validate",
    "after_move",
    "announce",
    "\"K\"",
    "\"Q\"",
    "\"mWcF\"",
    "\"N\"",
    "\"WW\"",
    "\"fmWfcF\"",
    "K",
    "k",
    "Q",
    "P",
    "a1",
    "e4",
    "z99",
    "range(0, 9)",
    "len(x)",
    "x + x",
    "[x, x]",
    "while true { }",
    "fn f(n) { return f(n) }",
    "/8",
    "*",
    "[Qq]",
    "99999999999999999999",
    "{:}",
    "/",
    "@",
    "|",
    "x",
    "not",
    "(Nr)",
    "KQkq",
    "\u{e9}",
    "\u{0}",
];

/// A shipped preset's text with edits the bytes choose, then random legal turns in it.
pub fn mutate(data: &[u8]) {
    crate::stack::run(|| {
        let mut bytes = Bytes(data);
        let names = crate::presets::NAMES;
        let name = names[bytes.below(names.len())];
        let mut text = crate::presets::shipped(name).unwrap_or_default().as_bytes().to_vec();
        for _ in 0..1 + bytes.below(4) {
            edit(&mut text, &mut |n| bytes.below(n));
        }
        let text = String::from_utf8_lossy(&text).into_owned();
        let Ok(preset) = crate::check::load_text("fuzz.preset", &text) else { return };
        let seed = bytes.byte() as u64;
        let Ok(mut game) = Game::new(Arc::new(preset), None, Some(seed)) else { return };
        random_turns(&mut game, &mut bytes, 12);
        while game.undo().is_some() {}
        assert_eq!(game.fen(), crate::engine::fen::write(&game.preset, &game.pos));
    })
}

/// One edit at a place `pick` chooses (`pick(n)` is a number below `n`): delete a stretch, insert
/// one of [`TOKENS`], or copy a stretch elsewhere. The fuzz targets pick by their input's bytes,
/// tests/properties.rs by a seeded generator.
pub fn edit(text: &mut Vec<u8>, pick: &mut dyn FnMut(usize) -> usize) {
    let at = pick(text.len() + 1);
    let len = pick(16).min(text.len() - at);
    match pick(3) {
        0 => {
            text.drain(at..at + len);
        }
        1 => {
            let t = TOKENS[pick(TOKENS.len())];
            text.splice(at..at, t.bytes());
        }
        _ => {
            let from = pick(text.len() - len + 1);
            let piece: Vec<u8> = text[from..from + len].to_vec();
            text.splice(at..at, piece);
        }
    }
}
