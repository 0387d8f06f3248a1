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
