//! Movement compiled once per preset: Betza moves become per-side step tables and reverse attack tables.

use super::betza::{BetzaMove, Leg, Shape};
use super::board::{Geometry, Sq, cell};
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
    /// Its captures go by the general attack test (confined, or restricted in what it takes).
    pub const SPECIAL: u8 = 128;
}

/// One direction of one move of a piece, in mailbox deltas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// `within REGION`: an index into [`Movement::regions`] (0 = none); every square the move
    /// touches, its origin included, must lie in that region.
    pub region: u8,
    /// A grasshopper's hop (`g`): lands only on the square just beyond the screen.
    pub grasshopper: bool,
    /// `unless_checked`: not made while the mover's royal piece is attacked.
    pub calm: bool,
}

impl Step {
    /// The range of this step from `from`.
    #[inline]
    pub fn range_from(&self, mv: &Movement, from: usize) -> u8 {
        mv.range_at(self.range, self.limit, from)
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
    /// Every code that rides this line, limited or not: the first piece met is mostly none of them
    /// (a defender's own piece), and then the line is done with one test.
    pub any: u128,
}

/// Everything one side can capture with, arranged for "is this square attacked?".
#[derive(Clone, Debug, Default)]
pub struct AttackTables {
    pub leaps: Vec<(i16, u128)>,
    pub rides: Vec<RideAttack>,
    /// Moves that need the general check (lame or initial-only captures).
    pub special: Vec<(u8, Step)>,
    /// Each special capture's step in files and ranks, parallel to `special`.
    pub special_dirs: Vec<(i8, i8)>,
    /// Piece codes with capturing [`Ray`]s, checked from each such piece.
    pub ray_codes: Vec<u8>,
    /// The captures of `special`, compiled backwards from each target cell (regions and the board's
    /// edges resolved at load): `back_at[cell]..back_at[cell + 1]` index `back_leaps`, and
    /// `line_at` likewise `back_lines`. Empty when `special` is.
    pub back_at: Vec<u32>,
    pub back_leaps: Vec<LeapBack>,
    pub line_at: Vec<u32>,
    pub back_lines: Vec<LineBack>,
    /// The capturing [`Ray`]s of `ray_codes`, compiled backwards from each target cell, so that
    /// "is this square attacked?" looks at the few paths ending there instead of every path of
    /// every such piece: `path_at[cell * ray_codes.len() + j]..` (to the next entry) index
    /// `back_paths` for the `j`th code. Empty when `ray_codes` is.
    pub path_at: Vec<u32>,
    pub back_paths: Vec<PathBack>,
}

/// A capturing shaped path seen from its target: the piece on `origin` captures there when the
/// first `at` squares of its ray (`rays[side][kind][origin][ray]`) are empty.
#[derive(Clone, Copy, Debug)]
pub struct PathBack {
    pub origin: Sq,
    pub at: u16,
    pub ray: u32,
    /// The index in `back_paths` of the next entry of another origin (or of the next target or
    /// code): where no piece of the code stands on `origin`, its other paths are passed over.
    pub next: u32,
}

/// A lame, confined or initial-only leap seen from its target: a piece of `codes` on `origin`
/// captures there when the squares of `path` are empty.
#[derive(Clone, Copy, Debug)]
pub struct LeapBack {
    pub codes: u128,
    pub origin: Sq,
    pub path: [Sq; 2],
    pub path_len: u8,
    /// Only a piece that has not moved yet captures so.
    pub initial: bool,
    /// What it takes depends on the piece taken (`spares`): asked of [`Movement::hop_allows`].
    pub restricted: bool,
}

/// A confined, range-limited or hopping line seen from its target: `squares` back from it, as far as
/// the board and the region let the capturing piece stand.
#[derive(Clone, Debug)]
pub struct LineBack {
    pub code: u8,
    pub hop: Hop,
    pub initial: bool,
    pub restricted: bool,
    pub range: u8,
    /// A [`Movement::ranges`] table (0 = none).
    pub limit: u8,
    pub squares: Vec<Sq>,
}

/// How a [`LineBack`] passes other pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hop {
    /// Not at all: the first piece met is the capturer or nothing.
    No,
    /// Over exactly one piece (the screen), anywhere between.
    Screen,
    /// A grasshopper's: the screen stands next to the target.
    Grasshopper,
}

/// A path compiled for one square, for moves that are not one straight line (crooked, circular,
/// multi-leg): the squares in order; the first `first_dest` must be empty and are never reached.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ray {
    pub squares: Vec<Sq>,
    pub first_dest: u8,
    pub flags: u8,
    /// Per square before `first_dest`: how many of the rays after this one (of its square's list)
    /// pass the same squares up to that one and reach no destination before it, so that where
    /// this ray is stopped there (a piece in the way), they are too and need not be walked (a
    /// multi-leg move's paths share their first legs). Set once the list is final ([`set_skips`]).
    pub skip: Vec<u8>,
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
    /// rays[side][kind][cell]: the paths of shaped moves from that square.
    pub rays: BySide<Vec<Vec<Vec<Ray>>>>,
    /// Piece codes (bits) that have any rays, so the hot path skips the lookup for the others.
    pub ray_pieces: u128,
    /// Per-square ranges of riders limited by the board (`range FN`): ranges[limit][cell]. Entry 0 is unused.
    pub ranges: Vec<Vec<u8>>,
    /// Regions that moves are confined to (`moves "..." within REGION`): regions[i][side][cell].
    /// Entry 0 is unused (a step's `region` 0 means none).
    pub regions: Vec<BySide<Vec<bool>>>,
    /// Per kind: the kinds (bits) it may not hop over (`hops_not_over`) and may not capture (`spares`).
    pub hop_limits: Vec<(u64, u64)>,
    /// Kinds (bits) that may pass (`passes`): a move from their square to itself.
    pub pass_kinds: u64,
    /// reach[side][kind][i * cells + from]: how many squares step `i` of the kind may go from
    /// cell `from` before its range, the board's edge or its region stops it (0 also when its
    /// origin or lame path lies outside its region or the board), so that generation reads no
    /// region and meets no edge.
    pub reach: BySide<Vec<Vec<u8>>>,
    /// quick[side][kind]: per origin cell, only the steps that go somewhere from it, with their
    /// reach; `None` for a kind whose table would be too large (generation then reads `reach`).
    pub quick: BySide<Vec<Option<QuickTable>>>,
    /// Piece codes (bits) with moves that only attack (`attacks "..."`): their attacks are not
    /// their moves.
    pub attack_only: u128,
}

/// One step of a kind that goes at least one square from a given cell ([`Movement::quick`]).
#[derive(Clone, Copy, Debug)]
pub struct Quick {
    pub delta: i16,
    /// Its index in the kind's `steps`.
    pub step: u16,
    /// How far it may go (its `reach`, never 0).
    pub n: u8,
    pub flags: u8,
    /// A hop or `unless_checked`: generated by the general step code.
    pub slow: bool,
    /// Its lame path must be empty.
    pub lame: bool,
}

/// The steps of one kind per origin cell: `list[at[cell]..at[cell + 1]]`.
#[derive(Clone, Debug, Default)]
pub struct QuickTable {
    pub at: Vec<u32>,
    pub list: Vec<Quick>,
    /// Every entry a plain leap or ride that moves and captures (no e.p., first-move, lame, hop or
    /// friendly step): the knight, bishop, rook, queen and king of chess.
    pub simple: bool,
}

/// Entries of all [`Movement::quick`] tables together at most (8 bytes each): beyond, a kind keeps
/// only its `reach` table.
const MAX_QUICK: usize = 1 << 22;

/// The [`QuickTable`] of one kind's steps from their reach table, or `None` past `left` entries.
fn quick_table(cells: usize, steps: &[Step], reach: &[u8], left: &mut usize) -> Option<QuickTable> {
    let entries = reach.iter().filter(|&&n| n > 0).count();
    if entries > *left || steps.len() > u16::MAX as usize {
        return None;
    }
    *left -= entries;
    let mut t = QuickTable { at: Vec::with_capacity(cells + 1), list: Vec::with_capacity(entries), simple: true };
    for from in 0..cells {
        t.at.push(t.list.len() as u32);
        for (i, s) in steps.iter().enumerate() {
            let n = reach[i * cells + from];
            if n > 0 {
                let slow = s.flags & flag::HOP != 0 || s.calm;
                let lame = s.path_len > 0;
                t.simple &= s.flags == flag::MOVE | flag::CAPTURE && !slow && !lame;
                t.list.push(Quick { delta: s.delta, step: i as u16, n, flags: s.flags, slow, lame });
            }
        }
    }
    t.at.push(t.list.len() as u32);
    Some(t)
}

impl Movement {
    /// A rider's range from cell `from`: `range`, or the board-limited table `limit` when there is one.
    #[inline]
    pub fn range_at(&self, range: u8, limit: u8, from: usize) -> u8 {
        if limit == 0 { range } else { self.ranges[limit as usize][from] }
    }

    /// Whether a step's region (0: none) holds cell `at` for `side`.
    #[inline]
    pub fn inside(&self, region: u8, side: Side, at: usize) -> bool {
        region == 0 || self.regions[region as usize][side][at]
    }

    /// Whether a piece of `kind` may hop over (`screen`) or capture (`!screen`) the piece in cell `c`.
    #[inline]
    pub fn hop_allows(&self, kind: usize, c: u8, screen: bool) -> bool {
        match self.hop_limits.get(kind) {
            Some(&(over, take)) => (if screen { over } else { take }) >> cell::kind(c) & 1 == 0,
            None => true,
        }
    }
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

/// What a preset adds to its pieces' Betza moves: regions their moves may be confined to (index 0
/// unused) and, per kind, the kinds it may not hop over and may not capture.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub regions: Vec<BySide<Vec<bool>>>,
    pub hop_limits: Vec<(u64, u64)>,
    /// Kinds (bits) that may pass: stay on their square as their move.
    pub pass_kinds: u64,
}

/// The load-time work of compiling one preset's movement: one unit per step of a straight move,
/// per square a shaped move's path visits, and per square of every path kept (each side counted).
/// A multi-leg move whose paths multiply at each leg (twenty sideways legs: 2^20 paths from every
/// square) reaches it quickly and is refused instead of exhausting memory.
pub const MAX_MOVEMENT_WORK: u64 = 4_000_000;

/// What is left of [`MAX_MOVEMENT_WORK`]; once spent, the compilation stops at the next chance.
struct Work {
    left: u64,
}

impl Work {
    /// Charge `n` units; false once the budget is spent.
    #[inline]
    fn spend(&mut self, n: u64) -> bool {
        self.left = self.left.saturating_sub(n);
        self.left > 0
    }
}

/// The movement of piece kind `kind` (in declaration order) took more than [`MAX_MOVEMENT_WORK`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooMuchWork {
    pub kind: usize,
}

pub fn compile(
    geo: &Geometry,
    kinds: &[Vec<BetzaMove>],
    limits: &[RangeFn],
    forward: BySide<Direction>,
    extra: &Limits,
) -> Result<Movement, TooMuchWork> {
    let mut m = Movement {
        ranges: vec![Vec::new()],
        regions: extra.regions.clone(),
        hop_limits: extra.hop_limits.clone(),
        pass_kinds: extra.pass_kinds,
        ..Default::default()
    };
    if m.regions.is_empty() {
        m.regions.push(BySide::new(Vec::new(), Vec::new()));
    }
    let mut attacking: Vec<Vec<Step>> = Vec::new();
    let mut attacking_dirs: Vec<Vec<(i8, i8)>> = Vec::new();
    let mut work = Work { left: MAX_MOVEMENT_WORK };
    let max_range = geo.files.max(geo.ranks).min(255) as u32;
    let mut quick_left = MAX_QUICK;
    for side in Side::BOTH {
        for (kind, moves) in kinds.iter().enumerate() {
            let mut steps = Vec::new();
            let mut dirs = Vec::new();
            let mut rays = vec![Vec::new(); geo.cells];
            for bm in moves.iter().filter(|bm| bm.shape != Shape::Straight) {
                let flags = step(geo, bm, (1, 0), max_range).flags & !flag::CREATES_EP;
                for &sq in &geo.squares {
                    rays[sq.idx()].extend(shaped_rays(geo, bm, forward[side], sq, max_range, flags, &mut work));
                    if !work.spend(0) {
                        return Err(TooMuchWork { kind });
                    }
                }
            }
            // The same path twice (a move written twice, or ranges that the board clamps alike)
            // would be generated twice at every position.
            rays.iter_mut().filter(|r| r.len() > 1).for_each(dedup_rays);
            rays.iter_mut().for_each(|r| set_skips(r));
            if rays.iter().any(|r| !r.is_empty()) {
                m.ray_pieces |= 1u128 << cell::piece(kind, side);
            }
            if rays.iter().any(|r| r.iter().any(|r| r.flags & (flag::CAPTURE) != 0)) {
                m.attacks[side].ray_codes.push(cell::piece(kind, side));
            }
            m.rays[side].push(rays);
            let restricted = m.hop_limits.get(kind).is_some_and(|&(o, t)| o | t != 0);
            let mut only_attacks = Vec::new();
            let mut only_attack_dirs = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for bm in moves.iter().filter(|bm| bm.shape == Shape::Straight) {
                for &img in &bm.images {
                    if !work.spend(1 + geo.cells as u64 * u64::from(limits.get(kind).is_some_and(Option::is_some))) {
                        return Err(TooMuchWork { kind });
                    }
                    let (ax, ay) = orient(img, forward[side]);
                    let mut s = step(geo, bm, (ax, ay), max_range);
                    // `W1W2...W99999` on a board of 8: one step, not thousands alike.
                    if !seen.insert((s, bm.attack_only)) {
                        continue;
                    }
                    if let Some(Some(table)) = limits.get(kind)
                        && s.range > 1
                        && m.ranges.len() < 256
                    {
                        s.limit = m.ranges.len() as u8;
                        m.ranges.push(board_ranges(geo, (ax, ay), table));
                    }
                    if restricted {
                        // A capture that depends on what is taken goes by the general attack test.
                        s.flags |= flag::SPECIAL;
                    }
                    if bm.attack_only {
                        m.attack_only |= 1u128 << cell::piece(kind, side);
                        only_attacks.push(s);
                        only_attack_dirs.push((ax as i8, ay as i8));
                    } else {
                        steps.push(s);
                        dirs.push((ax as i8, ay as i8));
                    }
                }
            }
            drop_covered(&mut steps, &mut dirs);
            // Only a piece that itself captures en passant leaves squares to be taken that way (the
            // pawn's double step); a rook's or a cannon's quiet ride does not.
            if !steps.iter().any(|s| s.flags & flag::EP != 0) {
                steps.iter_mut().for_each(|s| s.flags &= !flag::CREATES_EP);
            }
            // The reach table's bytes, a unit per 16: thousands of distinct leaps on a large board
            // would otherwise fill memory here.
            if !work.spend((steps.len() * geo.cells / 16) as u64) {
                return Err(TooMuchWork { kind });
            }
            let reach = reach_table(geo, &m, side, &steps, &dirs);
            m.quick[side].push(quick_table(geo.cells, &steps, &reach, &mut quick_left));
            m.reach[side].push(reach);
            attacking.push(steps.iter().chain(&only_attacks).copied().collect());
            attacking_dirs.push(dirs.iter().chain(&only_attack_dirs).copied().collect());
            m.steps[side].push(steps);
            m.dirs[side].push(dirs);
        }
        let ray_codes = std::mem::take(&mut m.attacks[side].ray_codes);
        m.attacks[side] = attack_tables(&attacking, &attacking_dirs, side, max_range as u8);
        compile_back(geo, &mut m, side);
        attacking.clear();
        attacking_dirs.clear();
        m.attacks[side].ray_codes = ray_codes;
        if !compile_back_paths(geo, &mut m, side, &mut work) {
            let kind = m.attacks[side].ray_codes.first().map_or(0, |&c| cell::kind(c));
            return Err(TooMuchWork { kind });
        }
        for (kind, steps) in m.steps[side].iter().enumerate() {
            if steps.iter().any(|s| s.flags & flag::EP != 0) {
                m.ep_capturers |= 1u128 << cell::piece(kind, side);
            }
        }
    }
    Ok(m)
}

/// What a move may do on the squares it reaches: a step keeps only what no other step of the
/// piece does there already.
const CAN: u8 = flag::MOVE | flag::CAPTURE | flag::EP | flag::FRIENDLY;

/// Whether step `a` reaches every square `b` reaches, the same way: same direction and lame path,
/// at least its range, and the same conditions (initial-only, hopping). `RW`'s wazir step is
/// reached by its rook ride; so is `WmR`'s, for moving.
fn reaches(a: &Step, b: &Step) -> bool {
    const IF: u8 = flag::INITIAL | flag::HOP;
    a.delta == b.delta
        && a.path_len == b.path_len
        && a.path == b.path
        && a.limit == b.limit
        && a.range >= b.range
        && a.flags & IF == b.flags & IF
        && (!a.calm || b.calm)
}

/// Take from each step what another step of the piece does on its squares already, and drop the
/// steps left with nothing (of equal steps the first stays), at load: two atoms reaching the same
/// square would list the move twice, and the turn played by its text would be ambiguous.
fn drop_covered(steps: &mut Vec<Step>, dirs: &mut Vec<(i8, i8)>) {
    let n = steps.len();
    for i in 0..n {
        for j in 0..n {
            let (a, b) = (steps[j], steps[i]);
            // Of two steps reaching as far, the first takes precedence.
            if j != i && a.flags & CAN != 0 && reaches(&a, &b) && (j < i || a.range > b.range) {
                steps[i].flags &= !(a.flags & CAN);
            }
        }
    }
    let keep: Vec<bool> = steps.iter().map(|s| s.flags & CAN != 0).collect();
    let mut k = 0;
    steps.retain(|_| {
        k += 1;
        keep[k - 1]
    });
    let mut k = 0;
    dirs.retain(|_| {
        k += 1;
        keep[k - 1]
    });
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
    Step {
        delta: geo.delta(ax, ay) as i16,
        range: range.max(1) as u8,
        flags,
        path,
        path_len,
        limit: 0,
        region: bm.within,
        grasshopper: bm.grasshopper,
        calm: bm.calm,
    }
}

/// The paths of a crooked, circular or multi-leg move from one square.
fn shaped_rays(
    geo: &Geometry,
    bm: &BetzaMove,
    dir: Direction,
    from: Sq,
    max: u32,
    flags: u8,
    work: &mut Work,
) -> Vec<Ray> {
    let imgs: Vec<(i32, i32)> = bm.images.iter().map(|&i| orient(i, dir)).collect();
    let range = if bm.range == 0 || bm.range > max { max } else { bm.range };
    let start = (geo.file(from) as i32, geo.rank(from) as i32);
    let mut out = Vec::new();
    let mut walk = |dirs: &mut dyn FnMut(u32) -> (i32, i32), steps: u32| {
        let mut at = start;
        let mut squares = Vec::new();
        for k in 0..steps {
            let d = dirs(k);
            at = (at.0 + d.0, at.1 + d.1);
            match geo.square_checked(at.0, at.1) {
                Some(sq) if sq != from => squares.push(sq),
                _ => break,
            }
        }
        work.spend(1 + 2 * squares.len() as u64);
        if !squares.is_empty() {
            out.push(Ray { squares, first_dest: 0, flags, skip: Vec::new() });
        }
    };
    match &bm.shape {
        Shape::Straight => {}
        Shape::Crooked => {
            let range = if bm.range == 1 { max } else { range };
            for &d in &imgs {
                for p in [(-d.1, d.0), (d.1, -d.0)] {
                    walk(&mut |k| if k % 2 == 0 { d } else { p }, range);
                }
            }
        }
        Shape::Circular => {
            let mut round = imgs.clone();
            round.sort_by(|a, b| (a.1 as f64).atan2(a.0 as f64).total_cmp(&(b.1 as f64).atan2(b.0 as f64)));
            let n = round.len();
            let range = if bm.range == 1 { max } else { range }.min(n as u32 - 1);
            for s in 0..n {
                for sense in [1, n - 1] {
                    walk(&mut |k| round[(s + k as usize * sense) % n], range);
                }
            }
        }
        Shape::Legs(legs) => {
            let legs: Vec<Leg> = legs
                .iter()
                .map(|l| Leg { images: l.images.iter().map(|&i| orient(i, dir)).collect(), ..l.clone() })
                .collect();
            for &d in &imgs {
                let mut at = start;
                let mut path = Vec::new();
                for k in 1..=range {
                    at = (at.0 + d.0, at.1 + d.1);
                    let Some(sq) = geo.square_checked(at.0, at.1) else { break };
                    path.push(sq);
                    later_legs(geo, &legs, &mut path.clone(), at, d, k, max, flags, &mut out, work);
                }
            }
        }
    }
    out.retain(|r| !r.squares.contains(&from));
    out
}

/// Drop the later copies of a path in one square's list, keeping the first's place. Equal paths
/// are found side by side in an order sorted by their squares (a stable sort keeps the first copy
/// first): hashing each path (with a clone of it) was most of the load time of Universal's shaped
/// kinds, thousands of paths of a dozen squares.
fn dedup_rays(list: &mut Vec<Ray>) {
    fn key(r: &Ray) -> (&[Sq], u8, u8) {
        (&r.squares, r.first_dest, r.flags)
    }
    let mut order: Vec<usize> = (0..list.len()).collect();
    order.sort_by(|&a, &b| key(&list[a]).cmp(&key(&list[b])));
    let mut keep = vec![true; list.len()];
    for w in order.windows(2) {
        if list[w[0]] == list[w[1]] {
            keep[w[1]] = false;
        }
    }
    let mut i = 0;
    list.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}

/// Fill each ray's [`Ray::skip`] from the rays after it in its square's list.
fn set_skips(list: &mut [Ray]) {
    for i in 0..list.len() {
        let (head, rest) = list.split_at_mut(i + 1);
        let r = &mut head[i];
        // Past 32 squares no skips are kept (a longer lead-in before the first destination is rare).
        let reach = (r.first_dest as usize).min(r.squares.len()).min(32);
        if reach == 0 || rest.first().is_none_or(|o| o.squares.first() != r.squares.first()) {
            continue;
        }
        // For each ray after this one, up to the first that shares nothing: how far it goes along
        // this one's squares before a destination of its own. Stopped at square `p`, this ray
        // stops the ones before the first that goes no further than `p`.
        let mut skip = [0u8; 32];
        let skip = &mut skip[..reach];
        for (j, o) in rest.iter().take(u8::MAX as usize).enumerate() {
            let along = o.squares.iter().zip(&r.squares[..reach]).take_while(|(a, b)| a == b).count();
            let along = along.min(o.first_dest as usize);
            if along == 0 {
                break;
            }
            // Rays stopped at `p < along` include this one, if every ray before it was.
            for (p, n) in skip.iter_mut().enumerate().take(along) {
                if *n as usize == j && p < along {
                    *n = j as u8 + 1;
                }
            }
        }
        if skip.iter().any(|&n| n > 0) {
            r.skip = skip.to_vec();
        }
    }
}

/// Continue a multi-leg path after `path` (which ended at `at`, going `prev`; the first leg took `count` steps).
#[allow(clippy::too_many_arguments)]
fn later_legs(
    geo: &Geometry,
    legs: &[Leg],
    path: &mut Vec<Sq>,
    at: (i32, i32),
    prev: (i32, i32),
    count: u32,
    max: u32,
    flags: u8,
    out: &mut Vec<Ray>,
    work: &mut Work,
) {
    let Some((leg, rest)) = legs.split_first() else { return };
    let steps = if leg.same_count {
        count
    } else if leg.range == 0 {
        max
    } else {
        leg.range.min(max)
    };
    for &d in leg.images.iter().filter(|&&d| leg.turn.allows(prev, d)) {
        let base = path.len();
        let mut cur = at;
        for k in 1..=steps {
            cur = (cur.0 + d.0, cur.1 + d.1);
            let Some(sq) = geo.square_checked(cur.0, cur.1) else { break };
            if !work.spend(1) {
                return;
            }
            path.push(sq);
            if !rest.is_empty() {
                later_legs(geo, rest, path, cur, d, count, max, flags, out, work);
            } else if leg.same_count && k == steps && work.spend(1 + path.len() as u64) {
                out.push(Ray { squares: path.clone(), first_dest: (path.len() - 1) as u8, flags, skip: Vec::new() });
            }
        }
        if rest.is_empty() && !leg.same_count && path.len() > base && work.spend(1 + path.len() as u64) {
            out.push(Ray { squares: path.clone(), first_dest: base as u8, flags, skip: Vec::new() });
        }
        path.truncate(base);
    }
}

/// For every square, the range a board-limited rider has along (ax, ay): `table[n]` where n steps fit.
fn board_ranges(geo: &Geometry, (ax, ay): (i32, i32), table: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; geo.cells];
    for &sq in &geo.squares {
        let (f, r) = (geo.file(sq) as i32, geo.rank(sq) as i32);
        let fits = (1..).take_while(|&k| geo.square_checked(f + k * ax, r + k * ay).is_some()).count();
        out[sq.idx()] = table.get(fits).copied().unwrap_or(0);
    }
    out
}

/// The squares a lame leap passes: along its line, or for an oblique leap its orthogonal steps
/// first, then its diagonal ones (the knight's one square, the (3,2) leap's two).
fn lame_path(ax: i32, ay: i32) -> Vec<(i32, i32)> {
    let (sx, sy) = (ax.signum(), ay.signum());
    if ax == 0 || ay == 0 || ax.abs() == ay.abs() {
        let n = ax.abs().max(ay.abs());
        (1..n).map(|k| (k * sx, k * sy)).collect()
    } else {
        let (long, short) = (ax.abs().max(ay.abs()), ax.abs().min(ay.abs()));
        let straight = long - short;
        let at = |k: i32, j: i32| if ax.abs() > ay.abs() { (k * sx, j * sy) } else { (j * sx, k * sy) };
        let mut v: Vec<(i32, i32)> = (1..=straight).map(|k| at(k, 0)).collect();
        v.extend((1..short).map(|j| at(straight + j, j)));
        v
    }
}

/// [`Movement::reach`] of one kind's steps (`dirs` their leaps in files and ranks).
fn reach_table(geo: &Geometry, m: &Movement, side: Side, steps: &[Step], dirs: &[(i8, i8)]) -> Vec<u8> {
    let mut out = vec![0u8; steps.len() * geo.cells];
    for (i, (s, &(dx, dy))) in steps.iter().zip(dirs).enumerate() {
        let inside = |sq: i32| geo.on_board(Sq::new(sq as usize)) && m.inside(s.region, side, sq as usize);
        for &from in &geo.squares {
            if !inside(from.idx() as i32)
                || !s.path[..s.path_len as usize].iter().all(|&p| inside(from.idx() as i32 + p as i32))
            {
                continue;
            }
            let (f, r) = (geo.file(from) as i32, geo.rank(from) as i32);
            let range = s.range_from(m, from.idx()) as i32;
            let mut n = 0;
            while n < range
                && geo
                    .square_checked(f + (n + 1) * dx as i32, r + (n + 1) * dy as i32)
                    .is_some_and(|to| inside(to.idx() as i32))
            {
                n += 1;
            }
            out[i * geo.cells + from.idx()] = n as u8;
        }
    }
    out
}

/// The reverse tables of `side`'s special captures ([`AttackTables::special`]), per target cell: what
/// the slow general test would look for, with everything that does not depend on the position
/// (regions, the board's edges, lame paths) worked out once.
fn compile_back(geo: &Geometry, m: &mut Movement, side: Side) {
    let special = std::mem::take(&mut m.attacks[side].special);
    if special.is_empty() {
        return;
    }
    let inside = |region: u8, at: Sq| region == 0 || m.regions[region as usize][side][at.idx()];
    let max_of = |s: &Step| -> u8 {
        if s.limit == 0 { s.range } else { m.ranges[s.limit as usize].iter().copied().max().unwrap_or(0) }
    };
    let (mut back_at, mut leaps, mut line_at, mut lines) =
        (vec![0u32; geo.cells + 1], Vec::new(), vec![0u32; geo.cells + 1], Vec::<LineBack>::new());
    for target in 0..geo.cells {
        back_at[target] = leaps.len() as u32;
        line_at[target] = lines.len() as u32;
        let t = Sq::new(target);
        if !geo.on_board(t) {
            continue;
        }
        for (&(code, s), &(dx, dy)) in special.iter().zip(&m.attacks[side].special_dirs) {
            let (dx, dy) = (dx as i32, dy as i32);
            let restricted = s.flags & flag::SPECIAL != 0;
            let initial = s.flags & flag::INITIAL != 0;
            if !inside(s.region, t) {
                continue;
            }
            let (f, r) = (geo.file(t) as i32, geo.rank(t) as i32);
            if s.flags & flag::HOP == 0 && s.range == 1 {
                let Some(origin) = geo.square_checked(f - dx, r - dy) else { continue };
                let mut path = [Sq::NONE; 2];
                let mut ok = inside(s.region, origin);
                for (at, &d) in path.iter_mut().zip(&s.path[..s.path_len as usize]) {
                    let p = origin.idx() as i32 + d as i32;
                    ok &= p >= 0 && geo.on_board(Sq::new(p as usize)) && inside(s.region, Sq::new(p as usize));
                    *at = Sq::new(p.max(0) as usize);
                }
                if !ok {
                    continue;
                }
                let same = |l: &LeapBack| {
                    l.origin == origin
                        && l.path_len == s.path_len
                        && l.path == path
                        && l.initial == initial
                        && !l.restricted
                };
                match leaps[back_at[target] as usize..].iter_mut().find(|l| !restricted && same(l)) {
                    Some(l) => l.codes |= 1u128 << code,
                    None => leaps.push(LeapBack {
                        codes: 1u128 << code,
                        origin,
                        path,
                        path_len: s.path_len,
                        initial,
                        restricted,
                    }),
                }
                continue;
            }
            let hop = match (s.flags & flag::HOP != 0, s.grasshopper) {
                (false, _) => Hop::No,
                (true, false) => Hop::Screen,
                (true, true) => Hop::Grasshopper,
            };
            if hop != Hop::No && s.range < 2 {
                continue;
            }
            let mut squares = Vec::new();
            for k in 1..=max_of(&s) as i32 {
                match geo.square_checked(f - k * dx, r - k * dy) {
                    Some(sq) if inside(s.region, sq) => squares.push(sq),
                    _ => break,
                }
            }
            if !squares.is_empty() {
                lines.push(LineBack { code, hop, initial, restricted, range: s.range, limit: s.limit, squares });
            }
        }
    }
    back_at[geo.cells] = leaps.len() as u32;
    line_at[geo.cells] = lines.len() as u32;
    let t = &mut m.attacks[side];
    t.special = special;
    (t.back_at, t.back_leaps, t.line_at, t.back_lines) = (back_at, leaps, line_at, lines);
}

/// The reverse table of `side`'s capturing shaped paths ([`AttackTables::back_paths`]): for each
/// path, the first square at or after its first destination where each target is met (further on,
/// the same target would need the same squares empty and more). One unit of `work` per entry; false
/// once it is spent.
fn compile_back_paths(geo: &Geometry, m: &mut Movement, side: Side, work: &mut Work) -> bool {
    let codes = m.attacks[side].ray_codes.clone();
    if codes.is_empty() {
        return true;
    }
    let n = codes.len();
    // (bucket, entry), sorted by bucket (target cell, then code) below.
    let mut found: Vec<(u32, PathBack)> = Vec::new();
    for (j, &code) in codes.iter().enumerate() {
        let by_cell = &m.rays[side][cell::kind(code)];
        for (origin, rays) in by_cell.iter().enumerate() {
            for (ri, r) in rays.iter().enumerate().filter(|(_, r)| r.flags & flag::CAPTURE != 0) {
                for (i, &to) in r.squares.iter().enumerate().skip(r.first_dest as usize) {
                    if r.squares[r.first_dest as usize..i].contains(&to) {
                        continue;
                    }
                    if !work.spend(1) {
                        return false;
                    }
                    let bucket = (to.idx() * n + j) as u32;
                    found.push((bucket, PathBack { origin: Sq::new(origin), at: i as u16, ray: ri as u32, next: 0 }));
                }
            }
        }
    }
    // Within a bucket the entries were found by origin, then ray, each (origin, ray) once: a
    // stable placement by bucket (a counting sort) orders them by (bucket, origin, ray).
    let mut path_at = vec![0u32; geo.cells * n + 1];
    for &(b, _) in &found {
        path_at[b as usize + 1] += 1;
    }
    for b in 1..path_at.len() {
        path_at[b] += path_at[b - 1];
    }
    let mut place = path_at.clone();
    let mut sorted = vec![(0u32, PathBack { origin: Sq::NONE, at: 0, ray: 0, next: 0 }); found.len()];
    for &(b, e) in &found {
        sorted[place[b as usize] as usize] = (b, e);
        place[b as usize] += 1;
    }
    let mut found = sorted;
    let mut next = found.len() as u32;
    for i in (0..found.len()).rev() {
        if i + 1 < found.len() && (found[i + 1].0, found[i + 1].1.origin) != (found[i].0, found[i].1.origin) {
            next = i as u32 + 1;
        }
        found[i].1.next = next;
    }
    let t = &mut m.attacks[side];
    t.path_at = path_at;
    t.back_paths = found.into_iter().map(|(_, e)| e).collect();
    true
}

fn attack_tables(steps: &[Vec<Step>], dirs: &[Vec<(i8, i8)>], side: Side, max_range: u8) -> AttackTables {
    let mut t = AttackTables::default();
    for (kind, ks) in steps.iter().enumerate() {
        let code = cell::piece(kind, side);
        for (s, &dir) in ks.iter().zip(&dirs[kind]).filter(|(s, _)| s.flags & flag::CAPTURE != 0) {
            if s.flags & (flag::INITIAL | flag::HOP | flag::SPECIAL) != 0 || s.path_len > 0 || s.region != 0 {
                t.special.push((code, *s));
                t.special_dirs.push(dir);
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
                t.rides[idx].any |= 1u128 << code;
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::lame_path;

    #[test]
    fn lame_oblique_leaps_pass_straight_then_diagonal_squares() {
        assert_eq!(lame_path(2, 1), vec![(1, 0)]);
        assert_eq!(lame_path(-1, 2), vec![(0, 1)]);
        assert_eq!(lame_path(3, 2), vec![(1, 0), (2, 1)]);
        assert_eq!(lame_path(-2, -3), vec![(0, -1), (-1, -2)]);
        assert_eq!(lame_path(3, 1), vec![(1, 0), (2, 0)]);
        assert_eq!(lame_path(2, 2), vec![(1, 1)]);
    }
}
