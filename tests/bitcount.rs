//! Counting legal moves with bitboards (`Position::count_legal`, the last ply of a perft; and
//! `Position::count_moves`, a scripted preset's move part) agrees with the listed legal moves at
//! every node of a small tree from every position of tests/perft.txt.

use herald::engine::{Move, Position};
use herald::game::Game;
use herald::preset::Preset;
use std::sync::Arc;

/// Visits each node of the tree down to `depth` (none below a decided position) with its legal
/// moves; returns the sum of what `visit` returns.
fn each_node(
    pos: &mut Position,
    preset: &Preset,
    depth: usize,
    visit: &mut impl FnMut(&mut Position, &[Move]) -> u64,
) -> u64 {
    let mut legal = Vec::new();
    pos.legal_moves(preset, &mut legal);
    let mut sum = visit(pos, &legal);
    if depth > 1 && pos.static_result(preset).is_none() {
        for m in legal {
            pos.make(preset, m);
            sum += each_node(pos, preset, depth - 1, visit);
            pos.unmake();
        }
    }
    sum
}

/// Compares the two counts at each node down to `depth`; returns the nodes counted by bitboards.
fn walk(pos: &mut Position, preset: &Preset, depth: usize, what: &str) -> u64 {
    each_node(pos, preset, depth, &mut |pos, moves| {
        // A scripted preset's moves are counted for its move parts (the tree is walked by moves alone).
        let counted = if preset.script.active { pos.count_moves(preset) } else { pos.count_legal(preset) };
        let Some(n) = counted else { return 0 };
        assert_eq!(n, moves.len() as u64, "{what}: position {}", herald::engine::fen::write(preset, pos));
        1
    })
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

/// Whether a move is quiet as the turn generator tells: no capture, promotion, castling, en
/// passant or drop.
fn quiet(pos: &Position, m: herald::engine::Move) -> bool {
    use herald::engine::position::mflag;
    m.flags & (mflag::DROP | mflag::EP | mflag::CASTLE) == 0
        && m.promo == 0
        && !herald::engine::board::cell::is_piece(pos.cells[m.to.idx()])
}

/// Compares `Position::split_moves` with the listed moves at each node down to `depth`; returns
/// the nodes it split.
fn walk_split(pos: &mut Position, preset: &Preset, depth: usize, what: &str) -> u64 {
    let key = |m: &Move| (m.from.idx(), m.to.idx(), m.promo, m.flags, m.extra, m.gate);
    each_node(pos, preset, depth, &mut |pos, legal| {
        let mut pseudo = Vec::new();
        pos.pseudo_moves(preset, &mut pseudo);
        let (mut out, mut safe) = (Vec::new(), Vec::new());
        let Some((n, sample)) = pos.split_moves(preset, &mut out, &mut safe) else { return 0 };
        let at = herald::engine::fen::write(preset, pos);
        let quiet_legal = legal.iter().filter(|&&m| quiet(pos, m)).count() as u64;
        assert_eq!(n, quiet_legal, "{what}: quiet legal moves of {at}");
        let mut rest: Vec<_> = pseudo.iter().filter(|&&m| !quiet(pos, m)).map(key).collect();
        let mut listed: Vec<_> = out.iter().map(key).collect();
        rest.sort_unstable();
        listed.sort_unstable();
        assert_eq!(listed, rest, "{what}: other moves of {at}");
        let mut rest: Vec<_> = legal.iter().filter(|&&m| !quiet(pos, m)).map(key).collect();
        let mut kept: Vec<_> = safe.iter().map(key).collect();
        rest.sort_unstable();
        kept.sort_unstable();
        assert_eq!(kept, rest, "{what}: other legal moves of {at}");
        let any_quiet = pseudo.iter().any(|&m| quiet(pos, m));
        assert_eq!(sample.is_some(), any_quiet, "{what}: a quiet move of {at}");
        if let Some(m) = sample {
            assert!(quiet(pos, m) && pseudo.contains(&m), "{what}: {m:?} is a quiet move of {at}");
        }
        1
    })
}

/// A scripted move part's quiet moves counted with bitboards and the others listed
/// (`Position::split_moves`, the last ply of a perft) agree with the listed moves, at every node
/// of a small tree from every scripted position of tests/perft.txt.
#[test]
fn split_moves_equal_listed_moves() {
    let mut split_presets = std::collections::BTreeSet::new();
    for line in include_str!("perft.txt").lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        let preset = Arc::new(herald::check::load(f[0]).expect("preset loads"));
        if !preset.script.active {
            continue;
        }
        let seed = f[1].strip_prefix("seed ").map(|n| n.trim().parse::<u64>().expect("a seed"));
        let fen = (f[1] != "setup" && seed.is_none()).then_some(f[1]);
        let mut game = Game::new(preset.clone(), fen, seed).expect("fen parses");
        let counts: Vec<u64> = f[2].split_whitespace().map(|n| n.parse().expect("a count")).collect();
        let depth = counts.iter().take_while(|&&n| n <= 3_000).count().clamp(1, 2);
        if walk_split(&mut game.pos, &preset, depth, line) > 0 {
            split_presets.insert(f[0].to_string());
        }
    }
    eprintln!("split by bitboards: {split_presets:?}");
    assert!(split_presets.contains("universal"), "universal is not split: {split_presets:?}");
}
