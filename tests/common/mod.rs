//! Helpers the integration tests share: running the built `herald` binary, and a guard against
//! blow-ups in time, a temporary folder removed when done. Each test file uses some of them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Run `herald ARGS` in `dir` with `stdin` written to it; its whole output.
pub fn output(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("herald runs");
    {
        use std::io::Write;
        // herald may end before reading it all (an error at the first line): not a failure here.
        let _ = child.stdin.take().expect("stdin").write_all(stdin);
    }
    child.wait_with_output().expect("herald ends")
}

/// Bytes as text, lossily (a test must see what herald printed, whatever it is).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Run `herald ARGS` in `dir` with `stdin`: (exit code, stdout, stderr); -1 for a signal.
pub fn herald_in(dir: &Path, args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let out = output(dir, args, stdin);
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// Fails if `f` takes longer than `limit`: a guard against quadratic or exponential blow-up, far
/// above the time the work takes (the attacks it guards against took minutes or aborted).
pub fn within<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    assert!(start.elapsed() < limit, "took {:?}, more than {limit:?}", start.elapsed());
    out
}

/// Golden files: for each file of `dir` ending in `.ext`, `now(file)` gives the golden file it is
/// compared with and the text it gives now; every mismatch is reported at once. With
/// `HERALD_BLESS=1` in the environment the golden files are rewritten instead.
pub fn compare_golden(dir: &str, ext: &str, now: impl Fn(&Path) -> (std::path::PathBuf, String)) {
    let bless = std::env::var("HERALD_BLESS").is_ok_and(|v| v == "1");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .{ext} files in {dir}");
    let mut mismatches = Vec::new();
    for file in &files {
        let (golden, got) = now(file);
        if bless {
            std::fs::write(&golden, &got).unwrap_or_else(|e| panic!("{}: {e}", golden.display()));
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if got != want {
            mismatches.push(format!("{}:\n--- expected\n{want}--- got\n{got}", file.display()));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// A fresh temporary folder for one test (`herald-NAME-PID`), removed when dropped, so that test
/// runs leave nothing behind in the system's temporary folder.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("herald-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp folder");
        Scratch(d)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
