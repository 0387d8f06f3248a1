//! Fuzz the FEN parser on every shipped preset: a FEN that parses writes back to a fixed point.
#![no_main]

use herald::engine::fen;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let presets = herald_fuzz::shipped();
    let preset = &presets[pick as usize % presets.len()];
    let text = herald_fuzz::text(rest);
    let Ok(pos) = fen::parse(preset, &text) else { return };
    let once = fen::write(preset, &pos);
    let again = fen::parse(preset, &once).unwrap_or_else(|e| panic!("own FEN `{once}` does not parse: {e}"));
    assert_eq!(fen::write(preset, &again), once, "FEN is not a fixed point");
    assert_eq!(again.hash, pos.hash, "hash differs after a FEN round trip");
    let Ok(mut game) = herald::game::Game::new(preset.clone(), Some(&text), None) else { return };
    let _ = game.legal_texts();
    let _ = game.result();
});
