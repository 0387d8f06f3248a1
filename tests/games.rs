//! Every sample game under tests/games, run through the same code as `herald test`.

use herald::games::{Runner, collect};
use std::path::PathBuf;

#[test]
fn sample_games_pass() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let files = collect(&[root]).expect("tests/games is readable");
    assert!(!files.is_empty(), "no sample games found");
    let summary = Runner::default().run_all(&files);
    let report: Vec<String> = summary.failures.iter().map(ToString::to_string).collect();
    assert!(report.is_empty(), "{} passed, {} failed:\n{}", summary.passed, report.len(), report.join("\n"));
}
