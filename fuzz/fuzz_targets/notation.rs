//! Fuzz the move-notation reader through a game: arbitrary text played as turns (`|` between them).
#![no_main]

// The body is herald::fuzzing::notation, which tests/fuzz_corpus.rs replays on stable over corpus/notation/.
libfuzzer_sys::fuzz_target!(|data: &[u8]| herald::fuzzing::notation(data));
