//! Every committed fuzz corpus file replayed through its target's code (`herald::fuzzing`), as the
//! cargo-fuzz binaries run it: the targets start clean, and stay so on stable. Under `cargo test`
//! (the test profile has debug assertions) an arithmetic overflow is a panic here too.

use std::path::Path;

#[test]
fn every_committed_corpus_file_runs_clean_through_its_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    for (name, target) in herald::fuzzing::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{name}: no corpus");
        for f in files {
            let data = std::fs::read(&f).expect("reads");
            if std::panic::catch_unwind(|| target(&data)).is_err() {
                panic!("fuzz target `{name}` fails on {}", f.display());
            }
        }
    }
}
