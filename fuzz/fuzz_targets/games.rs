//! Fuzz the sample-game YAML loader and runner: any text runs or fails with a message.
#![no_main]

// The body is herald::fuzzing::games, which tests/fuzz_corpus.rs replays on stable over corpus/games/.
libfuzzer_sys::fuzz_target!(|data: &[u8]| herald::fuzzing::games(data));
