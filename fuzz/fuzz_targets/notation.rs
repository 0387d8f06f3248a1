//! Fuzz the move-notation reader through a game: arbitrary text played as turns (`|` between them).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let presets = herald_fuzz::shipped();
    let preset = &presets[pick as usize % presets.len()];
    let Ok(mut game) = herald::game::Game::new(preset.clone(), None, Some(pick as u64)) else { return };
    let text = herald_fuzz::text(rest);
    for turn in text.split('|').take(16) {
        let _ = herald::engine::notation::read(turn);
        herald_fuzz::play_or_unchanged(&mut game, turn);
    }
    let _ = game.legal_texts();
});
