//! Exact perft counts from the table in tests/perft.txt; deep entries run in release builds only.

use herald::game::Game;
use herald::play::perft::try_perft;
use std::sync::Arc;

struct Entry {
    preset: String,
    fen: Option<String>,
    /// `seed N`: the setup the preset draws from that seed.
    seed: Option<u64>,
    counts: Vec<u64>,
}

fn table() -> Vec<Entry> {
    let text = include_str!("perft.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(f.len(), 3, "bad perft line: {l}");
            let seed = f[1].strip_prefix("seed ").map(|n| n.trim().parse().expect("a seed"));
            Entry {
                preset: f[0].to_string(),
                fen: (f[1] != "setup" && seed.is_none()).then(|| f[1].to_string()),
                seed,
                counts: f[2].split_whitespace().map(|n| n.parse().expect("a count")).collect(),
            }
        })
        .collect()
}

/// Check every depth whose count is at most `limit` nodes.
fn run(limit: u64) {
    for e in table() {
        let preset = Arc::new(herald::check::load(&e.preset).expect("preset loads"));
        let mut game = Game::new(preset.clone(), e.fen.as_deref(), e.seed).expect("fen parses");
        for (i, &want) in e.counts.iter().enumerate().filter(|(_, n)| **n <= limit) {
            let depth = i + 1;
            let got = try_perft(&mut game.pos, &preset, depth, true).expect("scripts run");
            assert_eq!(got, want, "{} {:?} seed {:?} depth {depth}", e.preset, e.fen, e.seed);
        }
    }
}

#[test]
fn perft_shallow() {
    run(100_000);
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn perft_deep() {
    run(u64::MAX);
}
