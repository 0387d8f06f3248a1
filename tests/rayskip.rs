//! The shaped paths' skips (`Ray::skip`): where a path is stopped by a piece before its first
//! destination, the paths it lets move generation pass over are stopped there too. Checked against
//! that definition for every square of every kind of every shipped preset, and move generation
//! with the skips against a plain walk of every path, at every node of small Universal trees.

use herald::engine::board::cell;
use herald::engine::movement::Ray;
use herald::engine::{Position, Sq};
use herald::game::Game;
use herald::preset::Preset;
use std::collections::BTreeSet;
use std::sync::Arc;

#[test]
fn skipped_paths_share_the_stopping_square() {
    let mut skipping = 0;
    for name in herald::presets::NAMES {
        let preset = herald::check::load(name).expect("preset loads");
        for side in herald::engine::Side::BOTH {
            for (kind, cells) in preset.movement.rays[side].iter().enumerate() {
                for (at, rays) in cells.iter().enumerate() {
                    for (i, r) in rays.iter().enumerate() {
                        assert!(r.skip.len() <= r.first_dest as usize, "{name} kind {kind} cell {at} path {i}");
                        for (p, &n) in r.skip.iter().enumerate() {
                            skipping += n as usize;
                            for (j, o) in rays[i + 1..=i + n as usize].iter().enumerate() {
                                assert!(
                                    o.first_dest as usize > p && o.squares.get(..=p) == Some(&r.squares[..=p]),
                                    "{name} kind {kind} cell {at}: path {} is skipped after path {i} is stopped at \
                                     its square {p}, but does not stop there",
                                    i + 1 + j
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    // Universal's multi-leg pieces (the Sissa, the Dancing Horse, the Gryphon) share first legs.
    assert!(skipping > 1000, "only {skipping} skips");
}

/// The squares the paths of the piece on `sq` reach, each path walked to its end without skips.
fn walked(pos: &Position, rays: &[Ray], us: usize) -> BTreeSet<Sq> {
    let mut out = BTreeSet::new();
    for r in rays {
        for (i, &to) in r.squares.iter().enumerate() {
            let c = pos.cells[to.idx()];
            if i < r.first_dest as usize {
                if c != cell::EMPTY {
                    break;
                }
                continue;
            }
            if c == cell::EMPTY {
                if r.flags & herald::engine::movement::flag::MOVE != 0 {
                    out.insert(to);
                }
                continue;
            }
            if cell::is_piece(c)
                && cell::side(c) as usize != us
                && r.flags & herald::engine::movement::flag::CAPTURE != 0
            {
                out.insert(to);
            }
            break;
        }
    }
    out
}

/// At every node to `depth`: each piece of the side to move that has shaped paths reaches, by
/// them, only squares among its pseudo-legal moves, and every square its walked paths reach.
fn walk(pos: &mut Position, preset: &Preset, depth: usize, checked: &mut u64) {
    let us = pos.side;
    for sq in preset.geo.squares.clone() {
        let c = pos.cells[sq.idx()];
        if !cell::is_piece(c) || cell::side(c) != us {
            continue;
        }
        let rays = &preset.movement.rays[us][cell::kind(c)][sq.idx()];
        if rays.is_empty() {
            continue;
        }
        let mut moves = Vec::new();
        pos.piece_pseudo_moves(preset, sq, &mut moves);
        let listed: BTreeSet<Sq> = moves.iter().map(|m| m.to).collect();
        let want = walked(pos, rays, us as usize);
        assert!(
            want.is_subset(&listed),
            "{}: the piece on {} misses {:?}",
            herald::engine::fen::write(preset, pos),
            preset.geo.name(sq),
            want.difference(&listed).map(|&s| preset.geo.name(s)).collect::<Vec<_>>()
        );
        *checked += 1;
    }
    if depth > 1 {
        let mut moves = Vec::new();
        pos.legal_moves(preset, &mut moves);
        for m in moves {
            pos.make(preset, m);
            walk(pos, preset, depth - 1, checked);
            pos.unmake();
        }
    }
}

#[test]
fn skips_keep_every_move_of_the_paths() {
    let preset = Arc::new(herald::check::load("universal").expect("preset loads"));
    let mut checked = 0;
    for seed in 1..=6 {
        let mut game = Game::new(preset.clone(), None, Some(seed)).expect("setup draws");
        walk(&mut game.pos, &preset, 3, &mut checked);
    }
    assert!(checked > 10_000, "only {checked} pieces checked");
}
