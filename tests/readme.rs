//! The README's examples stay true: every `herald ...` line of a ```sh block that shows its output
//! is run and its output compared. Output shown is either the `# ` lines right after the command
//! (one per output line; `...` in a line stands for any text, such as times, and a line `...`
//! alone for any number of lines), or an inline comment beginning with `perft ` (perft's last line).
//! Other inline comments describe the command and are not checked.

use std::process::Command;

/// (command words, expected lines) for each example that shows its output.
fn examples(readme: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut lines = readme.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("```") {
            in_sh = !in_sh && line.trim() == "```sh";
            continue;
        }
        if !in_sh || !line.starts_with("herald ") {
            continue;
        }
        let (command, comment) = match line.split_once(" # ") {
            Some((c, m)) => (c.trim().to_string(), Some(m.trim().to_string())),
            None => (line.trim().to_string(), None),
        };
        let mut expected = Vec::new();
        while let Some(next) = lines.next_if(|l| l.starts_with("# ")) {
            expected.push(next[2..].to_string());
        }
        if expected.is_empty()
            && let Some(c) = comment.filter(|c| c.starts_with("perft "))
        {
            expected = vec!["...".to_string(), c];
        }
        if !expected.is_empty() {
            out.push((command, expected));
        }
    }
    out
}

/// Split a command line into words, with "double quotes" grouping.
fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn matches(expected: &[String], got: &[&str]) -> bool {
    match expected.split_first() {
        None => got.is_empty(),
        Some((e, rest)) if e == "..." => (0..=got.len()).any(|k| matches(rest, &got[k..])),
        Some((e, rest)) => {
            let Some((g, more)) = got.split_first() else { return false };
            glob(e, g) && matches(rest, more)
        }
    }
}

/// A line with `...` standing for any text (times, speeds).
fn glob(pattern: &str, line: &str) -> bool {
    let pieces: Vec<&str> = pattern.split("...").map(str::trim).collect();
    let Some((first, rest)) = pieces.split_first() else { return pattern == line };
    if rest.is_empty() {
        return line == pattern;
    }
    let Some(mut left) = line.strip_prefix(first) else { return false };
    for (i, p) in rest.iter().enumerate() {
        if i + 1 == rest.len() {
            return left.ends_with(p);
        }
        match left.find(p) {
            Some(at) => left = &left[at + p.len()..],
            None => return false,
        }
    }
    true
}

#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    let readme = include_str!("../README.md");
    let all = examples(readme);
    assert!(all.iter().any(|(c, _)| c.starts_with("herald selfplay")), "the selfplay example is checked");
    let mut wrong = Vec::new();
    for (command, expected) in &all {
        let w = words(command);
        let out = Command::new(env!("CARGO_BIN_EXE_herald"))
            .args(&w[1..])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("herald runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let got: Vec<&str> = stdout.lines().collect();
        if !out.status.success() || !matches(expected, &got) {
            wrong.push(format!(
                "`{command}`\n--- the README shows\n{}\n--- it prints\n{stdout}{}",
                expected.join("\n"),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
