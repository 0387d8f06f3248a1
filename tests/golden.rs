//! Golden diagnostics: each tests/diagnostics/NAME.preset must fail to load with exactly NAME.expected.
//! `HERALD_BLESS=1 cargo test --test golden` rewrites the expected files.

use std::path::Path;

#[test]
fn diagnostics_match_golden_files() {
    let dir = Path::new("tests/diagnostics");
    let bless = std::env::var("HERALD_BLESS").is_ok_and(|v| v == "1");
    let mut presets: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/diagnostics exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "preset"))
        .collect();
    presets.sort();
    assert!(!presets.is_empty(), "no broken presets in tests/diagnostics");
    let mut mismatches = Vec::new();
    for path in &presets {
        let shown = path.to_string_lossy().into_owned();
        let got = match herald::check::load(&shown) {
            Ok(_) => "(loaded without error)\n".to_string(),
            Err(e) => format!("{}\n", e.render()),
        };
        let expected_path = path.with_extension("expected");
        if bless {
            std::fs::write(&expected_path, &got).expect("expected file is writable");
            continue;
        }
        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != want {
            mismatches.push(format!("{shown}:\n--- expected\n{want}--- got\n{got}"));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
