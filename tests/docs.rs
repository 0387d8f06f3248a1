//! The language reference names every built-in and every hook, so the table cannot drift from the code.

#[test]
fn the_reference_lists_every_builtin() {
    let doc = include_str!("../grammar/README.md");
    for (name, ..) in herald::script::builtins::TABLE {
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
