//! Movement compiled once per preset: Betza moves become per-side step tables and reverse attack tables.

use super::betza::BetzaMove;
use super::board::{Geometry, cell};
use super::side::{BySide, Side};
use crate::syntax::ast::Direction;

pub mod flag {
    pub const MOVE: u8 = 1;
    pub const CAPTURE: u8 = 2;
    pub const EP: u8 = 4;
    pub const INITIAL: u8 = 8;
    /// A non-capturing lame leap or ride: the squares it passes may be taken en passant.
    pub const CREATES_EP: u8 = 16;
    /// May capture the mover's own (non-royal) pieces.
    pub const FRIENDLY: u8 = 32;
    /// Reaches only squares beyond exactly one piece on its line (cannon-like).
    pub const HOP: u8 = 64;
}

/// One direction of one move of a piece, in mailbox deltas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub delta: i16,
    /// 1 = a leap; more = a rider of that range.
    pub range: u8,
    pub flags: u8,
    /// Squares (relative to the origin) that must be empty for a lame leap.
    pub path: [i16; 2],
    pub path_len: u8,
    /// For a rider whose range depends on where it stands: an index into [`Movement::ranges`]; 0 = none.
    pub limit: u8,
}

impl Step {
    /// The range of this step from `from`.
    #[inline]
    pub fn range_from(&self, mv: &Movement, from: usize) -> u8 {
        if self.limit == 0 { self.range } else { mv.ranges[self.limit as usize][from] }
    }
}

/// A rider line seen backwards from the attacked square.
#[derive(Clone, Debug, Default)]
pub struct RideAttack {
    pub delta: i16,
    /// The same step in files and ranks.
    pub dir: (i8, i8),
    /// Piece codes (bits) that ride this line without a range limit.
    pub unlimited: u128,
    /// Piece codes with a limited range along it: code, range, and a [`Movement::ranges`] table (0 = none).
    pub limited: Vec<(u8, u8, u8)>,
}

/// Everything one side can capture with, arranged for "is this square attacked?".
#[derive(Clone, Debug, Default)]
pub struct AttackTables {
    pub leaps: Vec<(i16, u128)>,
    pub rides: Vec<RideAttack>,
    /// Moves that need the general check (lame or initial-only captures).
    pub special: Vec<(u8, Step)>,
}

/// Compiled movement of every kind for both sides.
#[derive(Clone, Debug, Default)]
pub struct Movement {
    /// steps[side][kind]
    pub steps: BySide<Vec<Vec<Step>>>,
    /// Leap per step in files and ranks, parallel to `steps`.
    pub dirs: BySide<Vec<Vec<(i8, i8)>>>,
    pub attacks: BySide<AttackTables>,
    /// Piece codes that can capture en passant (to decide whether an e.p. square matters).
    pub ep_capturers: u128,
    /// Per-square ranges of riders limited by the board (`range FN`): ranges[limit][cell]. Entry 0 is unused.
    pub ranges: Vec<Vec<u8>>,
}

/// A piece's range function, evaluated once: `table[n]` is the range of a rider for which `n` steps
/// fit on the board in that direction from where it stands.
pub type RangeFn = Option<Vec<u8>>;

/// Turn a relative image into board coordinates for a side facing `dir`.
pub fn orient((dx, dy): (i32, i32), dir: Direction) -> (i32, i32) {
    match dir {
        Direction::Up => (dx, dy),
        Direction::Down => (-dx, -dy),
        Direction::Left => (-dy, dx),
        Direction::Right => (dy, -dx),
    }
}

pub fn compile(geo: &Geometry, kinds: &[Vec<BetzaMove>], limits: &[RangeFn], forward: BySide<Direction>) -> Movement {
    let mut m = Movement { ranges: vec![Vec::new()], ..Default::default() };
    let max_range = geo.files.max(geo.ranks).min(255) as u32;
    for side in Side::BOTH {
        for (kind, moves) in kinds.iter().enumerate() {
            let mut steps = Vec::new();
            let mut dirs = Vec::new();
            for bm in moves {
                for &img in &bm.images {
                    let (ax, ay) = orient(img, forward[side]);
                    let mut s = step(geo, bm, (ax, ay), max_range);
                    if let Some(Some(table)) = limits.get(kind)
                        && s.range > 1
                        && m.ranges.len() < 256
                    {
                        s.limit = m.ranges.len() as u8;
                        m.ranges.push(board_ranges(geo, (ax, ay), table));
                    }
                    steps.push(s);
                    dirs.push((ax as i8, ay as i8));
                }
            }
            m.steps[side].push(steps);
            m.dirs[side].push(dirs);
        }
        m.attacks[side] = attack_tables(&m.steps[side], &m.dirs[side], side, max_range as u8);
        for (kind, steps) in m.steps[side].iter().enumerate() {
            if steps.iter().any(|s| s.flags & flag::EP != 0) {
                m.ep_capturers |= 1u128 << cell::piece(kind, side);
            }
        }
    }
    m
}

fn step(geo: &Geometry, bm: &BetzaMove, (ax, ay): (i32, i32), max_range: u32) -> Step {
    let range = if bm.range == 0 || bm.range > max_range { max_range } else { bm.range };
    let mut flags = 0;
    if bm.can_move {
        flags |= flag::MOVE;
    }
    if bm.can_capture {
        flags |= flag::CAPTURE;
    }
    if bm.en_passant {
        flags |= flag::EP;
    }
    if bm.initial {
        flags |= flag::INITIAL;
    }
    if bm.friendly {
        flags |= flag::FRIENDLY;
    }
    if bm.hop {
        flags |= flag::HOP;
    }
    let mut path = [0i16; 2];
    let mut path_len = 0u8;
    if bm.lame && bm.range == 1 {
        for (px, py) in lame_path(ax, ay) {
            if (path_len as usize) < path.len() {
                path[path_len as usize] = geo.delta(px, py) as i16;
                path_len += 1;
            }
        }
    }
    if bm.can_move && !bm.can_capture && !bm.hop && (path_len > 0 || range > 1) {
        flags |= flag::CREATES_EP;
    }
    Step { delta: geo.delta(ax, ay) as i16, range: range.max(1) as u8, flags, path, path_len, limit: 0 }
}

/// For every square, the range a board-limited rider has along (ax, ay): `table[n]` where n steps fit.
fn board_ranges(geo: &Geometry, (ax, ay): (i32, i32), table: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; geo.cells];
    for &sq in &geo.squares {
        let (f, r) = (geo.file(sq) as i32, geo.rank(sq) as i32);
        let fits = (1..).take_while(|&k| geo.square_checked(f + k * ax, r + k * ay).is_some()).count();
        out[sq as usize] = table.get(fits).copied().unwrap_or(0);
    }
    out
}

/// The squares a lame leap passes: along its line, or for an oblique leap an orthogonal first step.
fn lame_path(ax: i32, ay: i32) -> Vec<(i32, i32)> {
    let (sx, sy) = (ax.signum(), ay.signum());
    if ax == 0 || ay == 0 || ax.abs() == ay.abs() {
        let n = ax.abs().max(ay.abs());
        (1..n).map(|k| (k * sx, k * sy)).collect()
    } else if ax.abs() > ay.abs() {
        vec![(sx, 0)]
    } else {
        vec![(0, sy)]
    }
}

fn attack_tables(steps: &[Vec<Step>], dirs: &[Vec<(i8, i8)>], side: Side, max_range: u8) -> AttackTables {
    let mut t = AttackTables::default();
    for (kind, ks) in steps.iter().enumerate() {
        let code = cell::piece(kind, side);
        for (s, &dir) in ks.iter().zip(&dirs[kind]).filter(|(s, _)| s.flags & flag::CAPTURE != 0) {
            if s.flags & (flag::INITIAL | flag::HOP) != 0 || s.path_len > 0 {
                t.special.push((code, *s));
            } else if s.range == 1 {
                match t.leaps.iter_mut().find(|l| l.0 == s.delta) {
                    Some(l) => l.1 |= 1u128 << code,
                    None => t.leaps.push((s.delta, 1u128 << code)),
                }
            } else {
                let idx = match t.rides.iter().position(|r| r.delta == s.delta) {
                    Some(i) => i,
                    None => {
                        t.rides.push(RideAttack { delta: s.delta, dir, ..Default::default() });
                        t.rides.len() - 1
                    }
                };
                if s.range >= max_range && s.limit == 0 {
                    t.rides[idx].unlimited |= 1u128 << code;
                } else {
                    t.rides[idx].limited.push((code, s.range, s.limit));
                }
            }
        }
    }
    t
}
