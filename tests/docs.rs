//! The language reference names every built-in and every hook, so the table cannot drift from the code.

#[test]
fn the_reference_lists_every_builtin() {
    let doc = include_str!("../grammar/README.md");
    for herald::script::table::Def { name, .. } in herald::script::builtins::TABLE {
        assert!(doc.contains(&format!("`{name}(")), "grammar/README.md does not document `{name}`");
    }
}

#[test]
fn the_reference_lists_every_hook_and_part() {
    let doc = include_str!("../grammar/README.md");
    for hook in [
        "on turn_start",
        "on before PART",
        "on validate PART",
        "on capture",
        "on after PART",
        "on turn_end",
        "on every N",
        "on game_end",
        "on announce",
    ] {
        assert!(doc.contains(hook), "grammar/README.md does not document `{hook}`");
    }
    for part in herald::syntax::script::PartKind::ALL {
        assert!(doc.contains(&format!("| `{}` |", part.word())), "no row for the `{}` part", part.word());
    }
}

#[test]
fn the_hook_examples_load() {
    let doc = include_str!("../grammar/README.md");
    let from = doc.find("Examples, one per hook:").expect("the examples are there");
    let block = doc[from..].split("```").nth(1).expect("a code block follows");
    let text = format!(
        "extends \"chess\"\nvar was_checked = false\nvar checked = false\nstate moved_king = false\n\
         turn {{ optional remove move }}\n{block}"
    );
    let preset = herald::check::load_text("examples.preset", &text).unwrap_or_else(|e| panic!("{}", e.render()));
    let mut game = herald::game::Game::new(std::sync::Arc::new(preset), None, None).expect("setup");
    assert!(game.legal_texts().is_ok());
}

/// grammar/README.md's table of crooked, circular and multi-leg examples: each piece alone on an
/// empty board reaches exactly the squares the table lists from a1.
#[test]
fn the_shaped_move_examples_hold() {
    let doc = include_str!("../grammar/README.md");
    let from = doc.find("| moves | board | reaches from a1 |").expect("the table is there");
    let rows: Vec<&str> = doc[from..].lines().skip(2).take_while(|l| l.starts_with('|')).collect();
    assert!(rows.len() >= 4, "the examples cover z, q, [..] and =");
    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (moves, board, squares) = (cells[1].trim_matches('`'), cells[2], cells[3]);
        let (files, ranks) = board.split_once(" x ").expect("FILES x RANKS");
        let (files, ranks): (usize, usize) = (files.parse().expect("files"), ranks.parse().expect("ranks"));
        let rank = |n: usize| if n == 0 { String::new() } else { n.to_string() };
        let fen: Vec<String> = (0..ranks)
            .map(|r| if r + 1 == ranks { format!("X{}", rank(files - 1)) } else { files.to_string() })
            .collect();
        let text = format!("board {board}\npiece Walker X moves \"{moves}\"\nsetup \"{} w - - 0 1\"\n", fen.join("/"));
        let preset = herald::check::load_text("example.preset", &text).unwrap_or_else(|e| panic!("{}", e.render()));
        let mut game = herald::game::Game::new(std::sync::Arc::new(preset), None, None).expect("setup");
        let got: Vec<String> =
            game.legal_texts().expect("legal turns").iter().map(|t| t.replace("X a1-", "")).collect();
        assert_eq!(got.join(" "), squares, "`{moves}` on {board}");
    }
}

/// Every Markdown file of the repository (not under target/, fuzz/corpus/ or .git/).
fn markdown_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | ".git" | "corpus" | "artifacts") {
                markdown_files(&path, out);
            }
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// The targets of a Markdown text's inline links, `[text](target)`.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].trim().to_string());
        }
    }
    out
}

/// A clone alone is enough: no Markdown file links outside the repository (`../shared`, an
/// absolute path) or to a repository file that does not exist.
#[test]
fn markdown_links_stay_inside_the_repository_and_resolve() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).canonicalize().expect("the repository");
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    assert!(files.iter().any(|f| f.ends_with("README.md")) && files.iter().any(|f| f.ends_with("docs/formats.md")));
    let mut bad = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable Markdown");
        let shown = file.strip_prefix(&root).unwrap_or(file).display().to_string();
        if text.contains("../shared") || text.contains("CONTRACTS.md") {
            bad.push(format!("{shown}: names a file outside the repository (../shared, CONTRACTS.md)"));
        }
        for target in link_targets(&text) {
            if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:") {
                continue;
            }
            let path = target.split('#').next().unwrap_or_default();
            if path.is_empty() {
                continue;
            }
            if path.starts_with('/') || path.starts_with('~') {
                bad.push(format!("{shown}: `{target}` is an absolute path"));
                continue;
            }
            let dir = file.parent().expect("a file has a folder");
            match dir.join(path).canonicalize() {
                Ok(p) if p.starts_with(&root) => {}
                Ok(_) => bad.push(format!("{shown}: `{target}` is outside the repository")),
                Err(_) => bad.push(format!("{shown}: `{target}` does not exist")),
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
