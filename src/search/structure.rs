//! Structure terms of the evaluation, derived from what the preset declares about its pawn-like
//! pieces (promotable kinds that only ever move one way along the ranks): passed ones, doubled and
//! isolated ones, and open lines for the pieces that ride along files.

use super::attacks::alone_on_each_square;
use super::weights::EvalWeights;
use crate::engine::board::{Sq, cell};
use crate::engine::{Position, Side};
use crate::preset::Preset;

/// Boards wider than this get no structure terms (the per-file counts live on the stack).
const MAX_FILES: usize = 32;

/// A pawn-like kind: promotable to something worth more, its moves all going one way along the
/// ranks (for each side), never back.
struct PawnKind {
    codes: [u8; 2],
    /// Per side, +1 when its moves go up the ranks, -1 when down.
    forward: [i32; 2],
    /// `[side][square]`: the promotion-distance bonus, which a passed piece earns again in part.
    bonus: [Vec<i32>; 2],
    /// Its value, for the doubled and isolated penalties.
    value: i32,
}

/// The structure terms of a preset: see the module's documentation.
pub struct Structure {
    pawns: Vec<PawnKind>,
    /// `[code]`: the open-file bonus of a kind that rides along files (0 for the others).
    file_rider: [i32; 128],
    /// `[code]`: whether the kind is pawn-like or a file rider (what [`Structure::score`] finds).
    tracked: [bool; 128],
    /// [`Structure::score`]'s list of the pieces it found (kept to spare an allocation).
    found: Vec<(u8, Side, Sq)>,
    /// The terms of recent structures, by the hash of the pieces found ([`Kept`]).
    kept: Vec<Kept>,
    /// The weights of the passed, doubled and isolated terms ([`EvalWeights`]).
    passed_early: i32,
    passed_late: i32,
    doubled: i32,
    isolated: i32,
}

/// The structure cache has `2^KEPT_BITS` entries.
const KEPT_BITS: u32 = 12;
/// At most this many passed pieces are kept with a structure (more: it is not kept).
const KEPT_PASSED: usize = 16;

/// A structure's terms: the same pieces on the same squares score the same, but for the passed
/// ones, whose bonus moves with the officers gone (so each is kept, signed, to be weighed again).
/// Most positions a search evaluates share their pawn-like pieces with many others.
#[derive(Clone, Copy)]
struct Kept {
    /// The Zobrist keys of the pieces found, combined (0: an empty slot).
    key: u64,
    fixed: i32,
    n: u8,
    passed: [i32; KEPT_PASSED],
}

const EMPTY: Kept = Kept { key: 0, fixed: 0, n: 0, passed: [0; KEPT_PASSED] };

/// Per side and file: how many pawn-like pieces, and their lowest and highest rank.
#[derive(Clone, Copy)]
struct FileCount {
    n: i32,
    lo: i32,
    hi: i32,
}

const NONE: FileCount = FileCount { n: 0, lo: i32::MAX, hi: i32::MIN };

impl Structure {
    /// Whether the piece in cell code `code` is pawn-like (its passed bonus is counted here).
    pub fn is_pawn_like(&self, code: u8) -> bool {
        self.pawns.iter().any(|pk| pk.codes.contains(&code))
    }

    /// `None` where the preset has no pawn-like kind or its board is too wide.
    pub fn new(preset: &Preset, values: &[i32; 128], w: &EvalWeights) -> Option<Structure> {
        let g = &preset.geo;
        if g.files > MAX_FILES {
            return None;
        }
        // Per kind and side, from its moves and attacks on an empty board: the steps up and down
        // the ranks, the moves along its file and in all, and whether one along the file goes two
        // squares or more (a ride).
        let mut pawns = Vec::new();
        let mut file_rider = [0; 128];
        for (k, kind) in preset.kinds.iter().enumerate() {
            let mut forward = [0; 2];
            let mut bonus = [vec![0; g.cells], vec![0; g.cells]];
            for side in Side::BOTH {
                let code = cell::piece(k, side);
                let (mut up, mut down, mut along, mut all, mut rides) = (0, 0, 0, 0, false);
                alone_on_each_square(preset, code, |pos, sq, moves| {
                    let targets = moves.iter().map(|m| m.to).chain(pos.attacks_from(preset, sq));
                    for to in targets.filter(|&to| to != sq) {
                        let dy = g.rank(to) as i32 - g.rank(sq) as i32;
                        up += (dy > 0) as i32;
                        down += (dy < 0) as i32;
                        all += 1;
                        if g.file(to) == g.file(sq) {
                            along += 1;
                            rides |= dy.abs() >= 2;
                        }
                    }
                });
                forward[side.index()] = if up > 0 && down == 0 {
                    1
                } else if down > 0 && up == 0 {
                    -1
                } else {
                    0
                };
                if !kind.royal && rides && all > 0 {
                    file_rider[code as usize] = w.open_file * 2 * along / all;
                }
                for &sq in &g.squares {
                    bonus[side.index()][sq.idx()] = promotion_bonus(preset, values, w.promotion, k, side, sq);
                }
            }
            let promotes = bonus.iter().any(|b| b.iter().any(|&v| v > 0));
            if !kind.royal && promotes && forward[0] != 0 && forward[1] != 0 {
                pawns.push(PawnKind {
                    codes: [cell::piece(k, Side::White), cell::piece(k, Side::Black)],
                    forward,
                    bonus,
                    value: values[cell::piece(k, Side::White) as usize],
                });
                // A pawn-like piece is no file rider (a double step is not a ride).
                for side in Side::BOTH {
                    file_rider[cell::piece(k, side) as usize] = 0;
                }
            }
        }
        if pawns.is_empty() {
            return None;
        }
        let mut tracked = [false; 128];
        for (code, t) in tracked.iter_mut().enumerate() {
            *t = file_rider[code] != 0 || pawns.iter().any(|pk| pk.codes.contains(&(code as u8)));
        }
        Some(Structure {
            pawns,
            file_rider,
            tracked,
            found: Vec::with_capacity(64),
            kept: vec![EMPTY; 1 << KEPT_BITS],
            passed_early: w.passed_early,
            passed_late: w.passed_late,
            doubled: w.doubled,
            isolated: w.isolated,
        })
    }

    /// The structure terms, White minus Black; `late` of `full` is how far the officers have
    /// gone (0: all on the board).
    pub fn score(&mut self, preset: &Preset, pos: &Position, late: i32, full: i32) -> i32 {
        let g = &preset.geo;
        let files = g.files;
        let full = full.max(1);
        let late = late.clamp(0, full);
        // The passed pieces' signed bonuses weighed by how far the officers have gone.
        let (early_w, late_w) = (self.passed_early, self.passed_late);
        let weigh = |b: i32| b * (early_w * (full - late) + late_w * late) / (100 * full);
        // The pieces these terms look at, found in one pass over each side's pieces (the rest of
        // the board is not walked again for each kind and term).
        let found = &mut self.found;
        found.clear();
        let mut key = 0;
        let tracked = &self.tracked;
        for side in Side::BOTH {
            pos.for_each_piece(
                preset,
                side,
                |code| tracked[code as usize & 127],
                #[inline(always)]
                |code, at| {
                    found.push((code, side, at));
                    key ^= preset.zobrist.piece(code, at);
                },
            );
        }
        let slot = key as usize & (self.kept.len() - 1);
        let k = &self.kept[slot];
        if k.key == key && key != 0 {
            return k.fixed + k.passed[..k.n as usize].iter().map(|&b| weigh(b)).sum::<i32>();
        }
        let mut kept = Kept { key, ..EMPTY };
        let (mut s, mut passed) = (0, 0);
        // All pawn-like pieces per side and file, for the open files.
        let mut any = [[0i32; MAX_FILES]; 2];
        for pk in &self.pawns {
            let mut fc = [[NONE; MAX_FILES]; 2];
            for &(code, side, at) in found.iter() {
                if code != pk.codes[side.index()] {
                    continue;
                }
                let (f, r) = (g.file(at), g.rank(at) as i32);
                let c = &mut fc[side.index()][f];
                c.n += 1;
                c.lo = c.lo.min(r);
                c.hi = c.hi.max(r);
                any[side.index()][f] += 1;
            }
            for (side, sign) in [(Side::White, 1), (Side::Black, -1)] {
                let us = side.index();
                if pos.counts[pk.codes[us] as usize] == 0 {
                    continue;
                }
                for f in 0..files {
                    let c = fc[us][f];
                    if c.n == 0 {
                        continue;
                    }
                    let near = |d: i32| {
                        let x = f as i32 + d;
                        if x < 0 || x >= files as i32 { NONE } else { fc[us][x as usize] }
                    };
                    s -= sign * (c.n - 1) * pk.value * self.doubled / 100;
                    if near(-1).n == 0 && near(1).n == 0 {
                        s -= sign * c.n * pk.value * self.isolated / 100;
                    }
                }
            }
            for &(code, side, at) in found.iter() {
                let (us, them) = (side.index(), side.other().index());
                if code != pk.codes[us] {
                    continue;
                }
                let sign = if side == Side::White { 1 } else { -1 };
                let fwd = pk.forward[us];
                let (f, r) = (g.file(at) as i32, g.rank(at) as i32);
                let lo = (f - 1).max(0) as usize;
                let hi = ((f + 1) as usize).min(files - 1);
                // Passed: no enemy piece of its kind ahead of it on its file or the next ones.
                let stopped = fc[them][lo..=hi].iter().any(|e| e.n > 0 && if fwd > 0 { e.hi > r } else { e.lo < r });
                if !stopped {
                    let b = sign * pk.bonus[us][at.idx()];
                    passed += weigh(b);
                    if (kept.n as usize) < KEPT_PASSED {
                        kept.passed[kept.n as usize] = b;
                    } else {
                        kept.key = 0;
                    }
                    kept.n = kept.n.saturating_add(1);
                }
            }
        }
        for &(code, side, at) in found.iter() {
            let b = self.file_rider[code as usize];
            if b == 0 {
                continue;
            }
            let (us, them) = (side.index(), side.other().index());
            let sign = if side == Side::White { 1 } else { -1 };
            let f = g.file(at);
            if any[us][f] == 0 {
                s += sign * if any[them][f] == 0 { b } else { b / 2 };
            }
        }
        if kept.key != 0 {
            kept.fixed = s;
            self.kept[slot] = kept;
        }
        s + passed
    }
}

/// What a promotable piece on `sq` gains, by its distance to the zone: see the evaluation's `Tables`
/// (`promotion`: the share of the gain next to the zone, in hundredths, [`EvalWeights`]).
pub(super) fn promotion_bonus(
    preset: &Preset,
    values: &[i32; 128],
    promotion: i32,
    k: usize,
    side: Side,
    sq: Sq,
) -> i32 {
    let Some(Some(pr)) = preset.promotions.get(k) else {
        return 0;
    };
    let own = values[cell::piece(k, side) as usize];
    let best = pr.choices.iter().map(|&c| values[cell::piece(c, side) as usize]).max().unwrap_or(own);
    let gain = best - own;
    if gain <= 0 {
        return 0;
    }
    let g = &preset.geo;
    let zone = &pr.zone[side];
    let dist = |a: Sq| {
        g.squares
            .iter()
            .filter(|&&z| zone.get(z.idx()).copied().unwrap_or(false))
            .map(|&z| (g.file(a) as i32 - g.file(z) as i32).abs().max((g.rank(a) as i32 - g.rank(z) as i32).abs()))
            .min()
    };
    let Some(d) = dist(sq) else {
        return 0;
    };
    let far = (g.files.max(g.ranks) as i32 - 1).max(1);
    let near = (far - d).max(0);
    gain * near * near * promotion / (far * far * 100)
}
