//! Fuzz the FEN parser on every shipped preset: a FEN that parses writes back to a fixed point.
#![no_main]

// The body is herald::fuzzing::fen, which tests/fuzz_corpus.rs replays on stable over corpus/fen/.
libfuzzer_sys::fuzz_target!(|data: &[u8]| herald::fuzzing::fen(data));
