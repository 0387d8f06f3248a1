//! The sandbox's accounting, each attack rebuilt from its description: work charged by its size,
//! `say` charged and bounded, the native stack, turns of several parts, every turn listed once.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Kings and a rook on a small board: a quick base for hostile scripts.
const BASE: &str = "board 4 x 4\npiece King K royal moves \"K\"\npiece Rook R moves \"R\"\nsetup \"k3/4/4/R2K w\"\n";

/// Write a preset into a fresh temporary folder; its path.
fn preset_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("herald-sandbox-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.preset"));
    std::fs::write(&path, text).expect("writes");
    path.to_string_lossy().into_owned()
}

/// Run the CLI: exit status, stdout, stderr; fails if it takes longer than `limit`.
fn herald(args: &[&str], limit: Duration) -> (i32, String, String) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_herald")).args(args).stdin(Stdio::null()).output().expect("herald runs");
    assert!(start.elapsed() < limit, "{args:?} took {:?}, more than {limit:?}", start.elapsed());
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// A function recursing `depth` deep whose call sits in `blocks` nested blocks under `negs` negations.
fn deep_recursion(depth: u32, blocks: usize, negs: usize) -> String {
    let mut body = format!("if n > 0 {{ return {}f(n - 1) }}\nreturn 0", "- ".repeat(negs));
    for _ in 1..blocks {
        body = format!("if true {{ {body} }}");
    }
    format!("{BASE}fn f(n) {{ {body} }}\non turn_start {{ let x = f({depth}) }}\n")
}

#[test]
fn recursion_at_every_documented_limit_at_once_fits_the_stack_on_every_thread() {
    // 62 calls deep (the hook is the 63rd level) in 98 blocks (the function's braces and the
    // call's parentheses make 100) under 197 negations (the call makes the 200th level).
    let path = preset_file("stack", &deep_recursion(62, 98, 197));
    let (code, out, err) = herald(&["moves", &path], Duration::from_secs(20));
    assert_eq!((code, out.lines().last()), (0, Some("8 legal")), "{err}");
    let (code, out, err) = herald(&["perft", &path, "2", "--threads", "2"], Duration::from_secs(20));
    assert!(code == 0 && out.starts_with("perft 2 nodes 13 "), "{out}{err}");
    // One level more is the documented error, not a crash.
    let path = preset_file("stack2", &deep_recursion(64, 98, 197));
    let (code, _, err) = herald(&["perft", &path, "2", "--threads", "2"], Duration::from_secs(20));
    assert!(code == 2 && err.contains("error: calls nest deeper than 64 levels"), "{err}");
}
