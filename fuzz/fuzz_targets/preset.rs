//! Fuzz the preset parser and checker: any text loads or fails with diagnostics that render.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = herald_fuzz::text(data);
    match herald::check::load_text("fuzz.preset", &text) {
        Ok(preset) => {
            if let Ok(mut game) = herald::game::Game::new(std::sync::Arc::new(preset), None, Some(1)) {
                let _ = game.legal_texts();
                let _ = game.result();
            }
        }
        Err(e) => {
            let _ = e.render();
        }
    }
});
