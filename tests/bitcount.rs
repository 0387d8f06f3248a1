//! Counting legal moves with bitboards (`Position::count_legal`, the last ply of a perft; and
//! `Position::count_moves`, a scripted preset's move part) agrees with the listed legal moves at
//! every node of a small tree from every position of tests/perft.txt.

use herald::engine::Position;
use herald::game::Game;
use herald::preset::Preset;
use std::sync::Arc;

/// Compares the two counts at each node down to `depth`; returns the nodes counted by bitboards.
fn walk(pos: &mut Position, preset: &Preset, depth: usize, what: &str) -> u64 {
    let mut moves = Vec::new();
    pos.legal_moves(preset, &mut moves);
    let mut fast = 0;
    // A scripted preset's moves are counted for its move parts (the tree is walked by moves alone).
    let counted = if preset.script.active { pos.count_moves(preset) } else { pos.count_legal(preset) };
    if let Some(n) = counted {
        assert_eq!(n, moves.len() as u64, "{what}: position {}", herald::engine::fen::write(preset, pos));
        fast += 1;
    }
    if depth > 1 && pos.static_result(preset).is_none() {
        for m in moves {
            pos.make(preset, m);
            fast += walk(pos, preset, depth - 1, what);
            pos.unmake();
        }
    }
    fast
}

#[test]
fn bitboard_counts_equal_listed_moves() {
    let depth_for = |counts: &[u64]| counts.iter().take_while(|&&n| n <= 30_000).count().max(1);
    let mut fast_presets = std::collections::BTreeSet::new();
    for line in include_str!("perft.txt").lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        let preset = Arc::new(herald::check::load(f[0]).expect("preset loads"));
        let seed = f[1].strip_prefix("seed ").map(|n| n.trim().parse::<u64>().expect("a seed"));
        let fen = (f[1] != "setup" && seed.is_none()).then_some(f[1]);
        let mut game = Game::new(preset.clone(), fen, seed).expect("fen parses");
        let counts: Vec<u64> = f[2].split_whitespace().map(|n| n.parse().expect("a count")).collect();
        if walk(&mut game.pos, &preset, depth_for(&counts), line) > 0 {
            fast_presets.insert(f[0].to_string());
        }
    }
    eprintln!("counted by bitboards: {fast_presets:?}");
    // The presets whose pieces all move plainly on a board of at most 64 squares use it.
    // So do scripted presets' move parts: Ruddigore's Baronet takes its own pieces (`d`), its
    // Gentleman rides a range that depends on where it stands; Modern Chaturanga has no royal
    // safety (every move its pieces can make is legal).
    for name in ["chess", "shatranj", "makruk", "maidens", "ruddigore", "modern-chaturanga"] {
        assert!(fast_presets.contains(name), "{name} is not counted by bitboards: {fast_presets:?}");
    }
}

/// The rides looked up in `engine::slides`' tables (on a CPU with PEXT) equal the rays walked, for
/// every group of every shipped preset with bitboards, from every square, on random occupancies.
#[test]
fn ride_tables_equal_walked_rays() {
    let mut rng = herald::rng::Rng::new(22);
    let mut groups = 0;
    for name in herald::presets::NAMES {
        let preset = herald::check::load(name).expect("preset loads");
        let Some(t) = preset.bits.as_ref() else { continue };
        let Some(table) = t.slides() else { continue };
        for (g, &dirs) in t.lines.groups.iter().enumerate() {
            groups += 1;
            for b in 0..t.squares {
                for _ in 0..200 {
                    let occ = rng.next_u64() & rng.next_u64();
                    let mut walked = 0;
                    for d in (0..64).filter(|d| (dirs >> d) & 1 != 0) {
                        walked |= t.ride(d, b, occ);
                    }
                    assert_eq!(table.rides(g, b, occ), walked, "{name}: group {g} from bit {b}, occupancy {occ:#x}");
                }
            }
        }
    }
    eprintln!("ride groups checked: {groups}");
}
