//! Fuzz the preset parser and checker: any text loads or fails with diagnostics that render.
#![no_main]

// The body is herald::fuzzing::preset, which tests/fuzz_corpus.rs replays on stable over corpus/preset/.
libfuzzer_sys::fuzz_target!(|data: &[u8]| herald::fuzzing::preset(data));
