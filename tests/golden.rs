//! Golden diagnostics: each tests/diagnostics/NAME.preset must fail to load with exactly NAME.expected.
//! `HERALD_BLESS=1 cargo test --test golden` rewrites the expected files.

mod common;

#[test]
fn diagnostics_match_golden_files() {
    common::compare_golden("tests/diagnostics", "preset", |path| {
        let got = match herald::check::load(&path.to_string_lossy()) {
            Ok(_) => "(loaded without error)\n".to_string(),
            Err(e) => format!("{}\n", e.render()),
        };
        (path.with_extension("expected"), got)
    });
}
