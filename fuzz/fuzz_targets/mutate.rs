//! Fuzz a shipped preset's text with edits the bytes choose, then play random legal turns in it.
#![no_main]

// The body is herald::fuzzing::mutate, which tests/fuzz_corpus.rs replays on stable over corpus/mutate/.
libfuzzer_sys::fuzz_target!(|data: &[u8]| herald::fuzzing::mutate(data));
