//! Fuzz a shipped preset's text with edits the bytes choose, then play random legal turns in it.
#![no_main]

use herald_fuzz::Bytes;
use libfuzzer_sys::fuzz_target;

/// Fragments worth splicing into a preset: they reach deeper than random bytes.
const TOKENS: &[&str] = &[
    " ", "\n", "0", "1", "-1", "64", "999999", "(", ")", "[", "]", "{", "}", "\"", ";", ",", "=", "+", "*", "-",
    " x ", "board", "piece", "royal", "moves", "setup", "on", "fn", "return", "if", "else", "while", "for", "in",
    "true", "false", "none", "mover", "opponent", "part", "reject", "win", "draw", "say", "state", "var",
    "remove", "place", "construct", "turn_start", "validate", "after_move", "announce", "\"K\"", "\"Q\"",
    "\"mWcF\"", "\"N\"", "\"WW\"", "\"fmWfcF\"", "K", "k", "Q", "P", "a1", "e4", "z99", "range(0, 9)",
    "len(x)", "x + x", "[x, x]", "while true { }", "fn f(n) { return f(n) }", "/8", "*", "[Qq]",
];

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let names = herald::presets::NAMES;
    let name = names[bytes.below(names.len())];
    let mut text = herald::presets::shipped(name).unwrap_or_default().as_bytes().to_vec();
    for _ in 0..1 + bytes.below(4) {
        edit(&mut text, &mut bytes);
    }
    let text = String::from_utf8_lossy(&text).into_owned();
    let Ok(preset) = herald::check::load_text("fuzz.preset", &text) else { return };
    let seed = bytes.byte() as u64;
    let Ok(mut game) = herald::game::Game::new(std::sync::Arc::new(preset), None, Some(seed)) else { return };
    herald_fuzz::random_turns(&mut game, &mut bytes, 12);
    while game.undo().is_some() {}
    assert_eq!(game.fen(), herald::engine::fen::write(&game.preset, &game.pos));
});

/// One edit at a place the bytes choose: delete a stretch, insert a token, or copy a stretch elsewhere.
fn edit(text: &mut Vec<u8>, b: &mut Bytes) {
    let at = b.below(text.len() + 1);
    let len = b.below(16).min(text.len() - at);
    match b.byte() % 3 {
        0 => {
            text.drain(at..at + len);
        }
        1 => {
            let t = TOKENS[b.below(TOKENS.len())];
            text.splice(at..at, t.bytes());
        }
        _ => {
            let from = b.below(text.len() - len + 1);
            let piece: Vec<u8> = text[from..from + len].to_vec();
            text.splice(at..at, piece);
        }
    }
}
