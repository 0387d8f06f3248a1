//! Fuzz the sample-game YAML loader and runner: any text runs or fails with a message.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = herald_fuzz::text(data);
    let mut runner = herald::games::Runner::default();
    if let Err(f) = runner.run_text(std::path::Path::new("fuzz/game.yaml"), &text) {
        let _ = f.to_string();
    }
});
