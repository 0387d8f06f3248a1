//! Perft: count the leaves of the legal-turn tree, with bulk counting at the last ply.

use super::position::{Move, Position};
use crate::preset::Preset;

/// Move buffers, one per ply, allocated once for a whole perft run.
pub struct Buffers(Vec<Vec<Move>>);

impl Buffers {
    pub fn new(depth: usize) -> Buffers {
        Buffers((0..=depth).map(|_| Vec::with_capacity(256)).collect())
    }
}

/// Leaf count at `depth`. A finished game has no legal turns, so it counts as no leaves.
pub fn perft(pos: &mut Position, preset: &Preset, depth: usize, bufs: &mut Buffers) -> u64 {
    count(pos, preset, depth, bufs, true)
}

/// Like [`perft`], but plays every leaf move too (no bulk counting): for honest speed figures.
pub fn perft_no_bulk(pos: &mut Position, preset: &Preset, depth: usize, bufs: &mut Buffers) -> u64 {
    count(pos, preset, depth, bufs, false)
}

fn count(pos: &mut Position, preset: &Preset, depth: usize, bufs: &mut Buffers, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.static_result(preset).is_some() {
        return 0;
    }
    let mut moves = std::mem::take(&mut bufs.0[depth]);
    pos.legal_moves(preset, &mut moves);
    let n = if depth == 1 && bulk {
        moves.len() as u64
    } else {
        let mut sum = 0;
        for &m in &moves {
            pos.make(preset, m);
            sum += count(pos, preset, depth - 1, bufs, bulk);
            pos.unmake();
        }
        sum
    };
    bufs.0[depth] = moves;
    n
}

/// Per root move counts, for `--divide`.
pub fn divide(pos: &mut Position, preset: &Preset, depth: usize) -> Vec<(Move, u64)> {
    let mut bufs = Buffers::new(depth);
    let mut moves = Vec::new();
    if depth == 0 || pos.static_result(preset).is_some() {
        return Vec::new();
    }
    pos.legal_moves(preset, &mut moves);
    moves
        .into_iter()
        .map(|m| {
            pos.make(preset, m);
            let n = perft(pos, preset, depth - 1, &mut bufs);
            pos.unmake();
            (m, n)
        })
        .collect()
}
