//! Golden REPL transcripts: each tests/repl/NAME.txt is a session, lines `> INPUT` followed by what the
//! REPL answered; the test replays the inputs and compares the whole text.
//! The first line names the game: `# play PRESET [--seed N] [--fen FEN] [--board]` (`--board`: the
//! board is drawn after each turn, in plain letters, as on a terminal without colour; `--glyphs`:
//! with chess glyphs for the FIDE pieces).
//! The same for tests/scripts/NAME.txt, the script language's constructs played on small presets.
//! `HERALD_BLESS=1 cargo test --test transcripts` rewrites the files from what the REPL says now.

mod common;

use herald::game::Game;
use herald::repl::{Repl, Style};

fn start(header: &str) -> Result<Repl, String> {
    let words: Vec<&str> = header.trim_start_matches('#').split_whitespace().collect();
    let ["play", preset, rest @ ..] = words.as_slice() else {
        return Err(format!("the first line must be `# play PRESET ...`, not `{header}`"));
    };
    let (mut seed, mut fen, mut board, mut glyphs) = (None, None, false, false);
    let mut it = rest.iter();
    while let Some(w) = it.next() {
        match *w {
            "--seed" => seed = it.next().and_then(|s| s.parse().ok()),
            "--fen" => fen = Some(it.by_ref().copied().collect::<Vec<_>>().join(" ")),
            "--board" => board = true,
            "--glyphs" => glyphs = true,
            other => return Err(format!("unknown option `{other}` in `{header}`")),
        }
    }
    let preset = herald::repl::load(preset).map_err(|e| e.render())?;
    let mut repl = Repl::new(Game::new(preset, fen.as_deref(), seed).map_err(|e| e.to_string())?);
    repl.verbose = board;
    repl.style = Style { colour: false, glyphs };
    Ok(repl)
}

/// Replay a transcript's inputs and write the transcript they give now.
fn replay(text: &str) -> Result<String, String> {
    let mut lines = text.lines();
    let header = lines.next().ok_or("empty transcript")?;
    let mut repl = start(header)?;
    let mut out = format!("{header}\n");
    for line in lines {
        if let Some(input) = line.strip_prefix("> ").or(line.strip_prefix(">").filter(|l| l.is_empty())) {
            out.push_str(&format!("> {input}\n"));
            let said = match repl.execute_guarded(input) {
                Ok(s) => s,
                Err(e) => format!("error: {e}"),
            };
            for l in said.lines() {
                out.push_str(&format!("{}\n", l.trim_end()));
            }
        } else if line.starts_with("# ") || line == "#" {
            out.push_str(&format!("{line}\n"));
        }
    }
    Ok(out)
}

fn compare_transcripts(dir: &str) {
    common::compare_golden(dir, "txt", |path| {
        let want = std::fs::read_to_string(path).expect("a readable transcript");
        (path.to_path_buf(), replay(&want).unwrap_or_else(|e| format!("{}: {e}\n", path.display())))
    });
}

#[test]
fn transcripts_match_golden_files() {
    compare_transcripts("tests/repl");
}

/// The script language, one construct per transcript: tests/scripts/NAME.txt plays the presets beside
/// it (each extends tests/scripts/base.preset, a 4x4 board of kings and rooks).
#[test]
fn script_transcripts_match_golden_files() {
    compare_transcripts("tests/scripts");
}

/// A game of a preset whose setup is not drawn names no seed when saved, whatever came before it.
#[test]
fn a_saved_game_names_only_the_seed_it_was_drawn_from() {
    let dir = std::env::temp_dir().join(format!("herald-transcripts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    let mut repl = start("# play universal --seed 2").expect("universal loads");
    let saved = |repl: &mut Repl, name: &str| {
        let file = dir.join(name);
        repl.execute(&format!("save {}", file.display())).expect("saved");
        std::fs::read_to_string(&file).expect("written")
    };
    assert!(saved(&mut repl, "universal.yaml").contains("\nseed: 2\n"));
    repl.execute("load maidens").expect("maidens loads");
    assert!(!saved(&mut repl, "maidens.yaml").contains("seed"));
    repl.execute("load universal").expect("universal loads");
    assert!(saved(&mut repl, "universal-again.yaml").contains("\nseed: 1\n"));
    let _ = std::fs::remove_dir_all(&dir);
}
