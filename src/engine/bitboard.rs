//! Bitboards for boards of at most 64 squares: per-square leap masks, rider rays and lame paths
//! compiled at load from the pieces' plain moves, so the last ply of a perft can be counted with
//! popcounts ([`crate::engine::bulk`]).

use super::board::{Geometry, Sq, cell};
use super::movement::{Movement, Step, flag};
use super::side::{BySide, Side};
use super::slides;

/// A set of squares, bit `rank * files + file`.
pub type Bits = u64;

/// The bit of `hit` (not empty) nearest the start of a ray that runs toward higher bits (`up`) or
/// lower ones: the first piece a rider meets.
#[inline(always)]
pub fn nearest(hit: Bits, up: bool) -> usize {
    (if up { hit.trailing_zeros() } else { 63 - hit.leading_zeros() }) as usize & 63
}

/// One direction of rider movement: per square, the squares beyond it along the direction.
#[derive(Clone, Copy, Debug)]
pub struct Dir {
    pub ray: [Bits; 64],
    /// Whether bit indices grow along it (the nearest piece is then the lowest bit).
    pub up: bool,
    /// The index of the opposite direction.
    pub back: u8,
}

/// A leap that needs more than its target: squares on its way that must be empty (a lame leap, or a
/// square of a short ride), or a piece that has not moved yet.
#[derive(Clone, Copy, Debug)]
pub struct Special {
    pub to: u8,
    pub flags: u8,
    pub initial: bool,
    pub path: Bits,
}

/// One square of a shaped path ([`super::movement::Ray`]: crooked, circular, multi-leg moves) as
/// bits: the square `to`, reached when the squares `path` before it are empty, doing what `flags`
/// say there. Where `path` is blocked so are the path's later squares: `next` is the index of the
/// next path's first square. Where the path's first square (`lead`) holds a piece, the paths
/// after it that begin there too are blocked as well: `skip` is the index past them
/// ([`super::movement::Ray::skip`]).
#[derive(Clone, Copy, Debug)]
pub struct PathStep {
    pub to: u8,
    pub flags: u8,
    pub next: u16,
    pub lead: u8,
    pub skip: u16,
    pub path: Bits,
}

/// A leap or special of a kind as a shift of the set of its pieces: from the squares `from` to the
/// square `delta` bits on, doing what `flags` say (move, capture); the squares `path` bits on from
/// the mover must be empty, and an `initial` one is for a piece that has not moved yet. Counting
/// with shifts visits each kind's moves instead of each piece's ([`crate::engine::bulk`]).
/// `delta` and `path` are kept modulo 64, as rotations: from the squares of `from` no bit wraps.
#[derive(Clone, Copy, Debug, Default)]
pub struct Shift {
    pub delta: u8,
    pub flags: u8,
    pub initial: bool,
    pub path_len: u8,
    pub path: [u8; 4],
    pub from: Bits,
}

/// The moves of one kind for one side, per square. Masks by what the move may do there: `any`
/// moves or captures, `quiet` only moves, `take` only captures.
#[derive(Clone, Debug)]
pub struct KindBits {
    pub any: [Bits; 64],
    pub quiet: [Bits; 64],
    pub take: [Bits; 64],
    /// Leaps that capture the mover's own pieces (`d`), and whether it has any.
    pub friend: [Bits; 64],
    pub friendly: bool,
    /// Per square, the squares from which its leaps (`any` or `take`) capture there.
    pub hit_from: [Bits; 64],
    /// Unlimited rides: direction index and flags.
    pub rides: Vec<(u8, u8)>,
    /// Whether every ride both moves and captures (then its squares need only lose the own pieces).
    pub rides_any: bool,
    /// The directions (bits) of its capturing unlimited rides.
    pub cap_dirs: u64,
    /// Whether it captures along a path that must be empty (a lame leap, a short ride): a piece
    /// on that path shields the target.
    pub lame_caps: bool,
    /// Whether some special captures; whether it has specials at all.
    pub special_caps: bool,
    pub has_specials: bool,
    /// `specials[special_at[sq]..special_at[sq + 1]]`.
    pub special_at: [u16; 65],
    pub specials: Vec<Special>,
    /// Promotion: the zone, moves per promoting move (choices, plus one when optional), whether a
    /// move leaving the zone promotes too, and whether only captures promote. `mult` 0 = none.
    pub zone: Bits,
    pub mult: u32,
    pub leaving: bool,
    pub on_capture: bool,
    /// The squares from which one of its shifts may promote (set with the zone): a piece
    /// elsewhere never does, and may be counted with its kind's other pieces.
    pub promo_from: Bits,
    /// Its rides looked up in tables ([`super::slides`]).
    pub slide: slides::Slide,
    /// Its moves as shifts, when it has no rides and every move is a translation that no other
    /// move of it from the same square makes to the same square (`shifted`).
    pub shifts: Vec<Shift>,
    pub shifted: bool,
    /// Its shaped paths, for a kind in [`BitTables::moving`] only:
    /// `paths[path_at[sq]..path_at[sq + 1]]`.
    pub path_at: [u16; 65],
    pub paths: Vec<PathStep>,
}

/// The bitboard tables of a preset: `None` kinds move in ways these tables do not describe.
#[derive(Clone, Debug)]
pub struct BitTables {
    pub squares: usize,
    /// Per mailbox cell, its bit (255: no square); and per bit, its square.
    pub bit_of: Vec<u8>,
    pub square_of: Vec<Sq>,
    /// Directions in pairs (a direction, then its opposite); `n_dirs` of the 64 are used.
    pub dirs: Box<[Dir; 64]>,
    pub n_dirs: usize,
    pub kinds: BySide<Vec<Option<KindBits>>>,
    /// The kinds that `kinds` leaves out for their shaped paths alone (see [`PathStep`]), when
    /// those paths and their other moves are plain: their moves, not their attacks (a path's
    /// attack on a royal piece is no pin or check these tables know), for counting a mover's
    /// quiet moves where the royal piece's safety is judged otherwise ([`crate::engine::bulk`]'s
    /// `split_moves`).
    pub moving: BySide<Vec<Option<KindBits>>>,
    /// Direction indices of the rides each side's eligible kinds capture along (bit per direction).
    pub ride_dirs: BySide<u64>,
    /// Whether some eligible kind of the side has [`KindBits::lame_caps`].
    pub lame_caps: BySide<bool>,
    /// The piece codes of the kinds these tables do not describe (filled by `engine::bulk`).
    pub unfit: Vec<u8>,
    /// Per castling (as the preset lists them), the squares that must be empty (filled by
    /// `engine::bulk`).
    pub castle_empty: Vec<Bits>,
    /// The groups of lines whose rides are looked up in tables ([`super::slides`]).
    pub lines: slides::Lines,
}

impl BitTables {
    /// The squares beyond `sq` along direction `d` up to and including the first piece of `occ`.
    #[inline]
    pub fn ride(&self, d: usize, sq: usize, occ: Bits) -> Bits {
        let dir = &self.dirs[d & 63];
        let ray = dir.ray[sq & 63];
        let hit = ray & occ;
        if hit == 0 {
            return ray;
        }
        ray & !dir.ray[nearest(hit, dir.up)]
    }

    /// The squares `k`'s rides reach from bit `b` (the first piece in the way included), from
    /// its slide tables where it has them (`slides`, [`BitTables::slides`]), the rest walked.
    #[inline(always)]
    pub fn ride_squares(&self, slides: Option<&slides::Table>, k: &KindBits, b: usize, occ: Bits) -> Bits {
        let mut rides = 0;
        let mut walk = k.slide.dirs;
        if k.slide.n != 0
            && let Some(s) = slides
        {
            rides = s.slide(&k.slide, b, occ);
            walk = k.slide.rest;
        }
        rides | self.rides_walked(walk, b, occ)
    }

    /// [`BitTables::ride`] along each direction of `dirs` (a bit each), walked.
    #[inline]
    pub fn rides_walked(&self, mut dirs: u64, sq: usize, occ: Bits) -> Bits {
        let mut to = 0;
        while dirs != 0 {
            to |= self.ride(dirs.trailing_zeros() as usize, sq, occ);
            dirs &= dirs - 1;
        }
        to
    }

    /// Direction `d`'s ray from bit `b`, and whether bits grow along it.
    fn ray_up(&self, d: usize, b: usize) -> (Bits, bool) {
        (self.dirs[d & 63].ray[b & 63], self.dirs[d & 63].up)
    }

    /// Of the squares `to` that the piece of `k` on bit `b` moves to, those where it promotes
    /// (each counts `k.mult` moves): all of them when it leaves the zone and leaving promotes,
    /// else those in the zone; only captures where it promotes on capture alone.
    #[inline(always)]
    pub fn promotions(k: &KindBits, b: usize, to: Bits, enemy: Bits) -> Bits {
        if k.zone == 0 {
            return 0;
        }
        let promo = if k.leaving && (k.zone >> (b & 63)) & 1 != 0 { to } else { to & k.zone };
        if k.on_capture { promo & enemy } else { promo }
    }

    /// The specials of a kind from bit `b`.
    #[inline]
    pub fn specials<'a>(&self, k: &'a KindBits, b: usize) -> &'a [Special] {
        let (from, to) = (k.special_at[b & 63] as usize, k.special_at[(b & 63) + 1] as usize);
        k.specials.get(from..to).unwrap_or_default()
    }

    /// The squares the piece of `k` on bit `b` may move to along its shaped paths ([`PathStep`]),
    /// with `own` and `enemy` the two sides' pieces and `empty` the empty squares.
    #[inline]
    pub fn path_targets(&self, k: &KindBits, b: usize, own: Bits, enemy: Bits, empty: Bits) -> Bits {
        let occ = own | enemy;
        let (mut i, end) = (k.path_at[b & 63] as usize, k.path_at[(b & 63) + 1] as usize);
        let mut to = 0;
        while let Some(p) = k.paths.get(i).filter(|_| i < end) {
            if p.path & occ != 0 {
                i = if (occ >> (p.lead & 63)) & 1 != 0 { p.skip } else { p.next } as usize;
                continue;
            }
            to |= reachable(p.flags, 1 << (p.to & 63), own, empty, enemy);
            i += 1;
        }
        to
    }

    /// The squares the piece of `k` on bit `b` may move to by its leaps, rides and specials, with
    /// `own` and `enemy` the two sides' pieces and `empty` the empty squares; its leaps onto its
    /// own pieces (`d`) spare `shield` (the royal pieces). `unmoved` is asked only for initial
    /// specials. Shared by perft's count and the evaluation's, so both read the tables alike.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn targets(
        &self,
        k: &KindBits,
        b: usize,
        unmoved: impl Fn() -> bool,
        own: Bits,
        enemy: Bits,
        empty: Bits,
        shield: Bits,
    ) -> Bits {
        self.targets_in(self.slides(), k, b, unmoved, own, enemy, empty, shield)
    }

    /// [`BitTables::targets`] with the ride tables (`slides`, [`BitTables::slides`]) fetched once
    /// by a caller that asks for many pieces.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn targets_in(
        &self,
        slides: Option<&slides::Table>,
        k: &KindBits,
        b: usize,
        unmoved: impl Fn() -> bool,
        own: Bits,
        enemy: Bits,
        empty: Bits,
        shield: Bits,
    ) -> Bits {
        let b = b & 63;
        let occ = own | enemy;
        let mut to = (k.any[b] & !own) | (k.quiet[b] & empty) | (k.take[b] & enemy);
        if k.friendly {
            to |= k.friend[b] & own & !shield;
        }
        if k.rides_any {
            to |= self.ride_squares(slides, k, b, occ) & !own;
        } else {
            for &(d, fl) in &k.rides {
                to |= reachable(fl, self.ride(d as usize, b, occ), own, empty, enemy);
            }
        }
        if k.has_specials {
            for sp in self.specials(k, b) {
                if sp.path & occ == 0 && (!sp.initial || unmoved()) {
                    to |= reachable(sp.flags, 1 << sp.to, own, empty, enemy);
                }
            }
        }
        to
    }
}

/// The squares a step with these flags may reach among `to`: any but the mover's own, empty
/// ones, or enemy ones.
#[inline(always)]
pub fn reachable(flags: u8, to: Bits, own: Bits, empty: Bits, enemy: Bits) -> Bits {
    match flags & (flag::MOVE | flag::CAPTURE) {
        f if f == flag::MOVE | flag::CAPTURE => to & !own,
        flag::MOVE => to & empty,
        flag::CAPTURE => to & enemy,
        _ => 0,
    }
}

/// Whether a step is a plain leap or ride these tables describe: a ride whose range depends on
/// where it stands (`range FN`) is a short ride from each square; only a lone leap takes the
/// mover's own pieces (`d`).
fn plain(s: &Step) -> bool {
    let lone_leap = s.range == 1 && s.path_len == 0 && s.flags & flag::INITIAL == 0;
    s.flags & (flag::HOP | flag::SPECIAL) == 0
        && (s.flags & flag::FRIENDLY == 0 || lone_leap)
        && !s.calm
        && !s.grasshopper
        && s.region == 0
        && (s.range == 1 || s.path_len == 0)
}

/// The tables for a board of at most 64 squares, when at least one kind moves plainly.
pub fn compile(geo: &Geometry, mv: &Movement) -> Option<BitTables> {
    let n = geo.files * geo.ranks;
    if n > 64 {
        return None;
    }
    let mut bit_of = vec![255u8; geo.cells];
    for (i, &sq) in geo.squares.iter().enumerate() {
        bit_of[sq.idx()] = i as u8;
    }
    let at = |f: i32, r: i32| geo.square_checked(f, r).map(|s| bit_of[s.idx()] as usize);
    let longest = geo.files.max(geo.ranks);
    let mut t = BitTables {
        squares: n,
        bit_of: bit_of.clone(),
        square_of: geo.squares.clone(),
        dirs: Box::new([Dir { ray: [0; 64], up: false, back: 0 }; 64]),
        n_dirs: 0,
        kinds: BySide::new(Vec::new(), Vec::new()),
        moving: BySide::new(Vec::new(), Vec::new()),
        ride_dirs: BySide::new(0, 0),
        lame_caps: BySide::new(false, false),
        unfit: Vec::new(),
        castle_empty: Vec::new(),
        lines: Default::default(),
    };
    let mut dir_keys: Vec<(i8, i8)> = Vec::new();
    let mut dir_index = |t: &mut BitTables, d: (i8, i8)| -> Option<u8> {
        if let Some(i) = dir_keys.iter().position(|&k| k == d) {
            return Some(i as u8);
        }
        if dir_keys.len() + 2 > 64 {
            return None;
        }
        for (dx, dy) in [d, (-d.0, -d.1)] {
            let mut ray = [0; 64];
            for r in 0..geo.ranks as i32 {
                for f in 0..geo.files as i32 {
                    let Some(from) = at(f, r) else { continue };
                    let (mut x, mut y) = (f + dx as i32, r + dy as i32);
                    while let Some(b) = at(x, y) {
                        ray[from] |= 1u64 << b;
                        x += dx as i32;
                        y += dy as i32;
                    }
                }
            }
            let back = (dir_keys.len() ^ 1) as u8;
            t.dirs[t.n_dirs] = Dir { ray, up: (dy as i32) * (geo.files as i32) + dx as i32 > 0, back };
            t.n_dirs += 1;
            dir_keys.push((dx, dy));
        }
        Some((dir_keys.len() - 2) as u8)
    };
    let mut any_kind = false;
    for side in Side::BOTH {
        for (kind, steps) in mv.steps[side].iter().enumerate() {
            let code = cell::piece(kind, side);
            let shaped = (mv.ray_pieces >> code) & 1 != 0;
            let restricted = mv.hop_limits.get(kind).is_some_and(|&(o, t)| o | t != 0);
            let passes = (mv.pass_kinds >> kind) & 1 != 0;
            // A shaped kind is described for its moves alone when its paths take no own piece and
            // its steps mark no move (en passant) that a path's move to the same square would not.
            let moving = shaped
                && mv.rays[side][kind]
                    .iter()
                    .flatten()
                    .all(|r| r.flags & flag::FRIENDLY == 0 && r.squares.iter().all(|s| bit_of[s.idx()] != 255))
                && steps.iter().all(|s| s.flags & (flag::EP | flag::CREATES_EP) == 0);
            if (shaped && !moving)
                || restricted
                || passes
                || (mv.attack_only >> code) & 1 != 0
                || !steps.iter().all(plain)
            {
                t.kinds[side].push(None);
                t.moving[side].push(None);
                continue;
            }
            let mut k = KindBits {
                any: [0; 64],
                quiet: [0; 64],
                take: [0; 64],
                friend: [0; 64],
                friendly: false,
                hit_from: [0; 64],
                rides: Vec::new(),
                cap_dirs: 0,
                rides_any: true,
                lame_caps: false,
                special_caps: false,
                has_specials: false,
                special_at: [0; 65],
                specials: Vec::new(),
                zone: 0,
                mult: 0,
                leaving: false,
                on_capture: false,
                promo_from: 0,
                slide: Default::default(),
                shifts: Vec::new(),
                shifted: false,
                path_at: [0; 65],
                paths: Vec::new(),
            };
            let mut specials: Vec<Vec<Special>> = vec![Vec::new(); n];
            let mut ok = true;
            for (s, &(dx, dy)) in steps.iter().zip(&mv.dirs[side][kind]) {
                let moves = s.flags & (flag::MOVE | flag::CAPTURE);
                let unlimited = s.range > 1 && s.limit == 0 && s.range as usize + 1 >= longest;
                if unlimited && s.flags & flag::INITIAL == 0 {
                    match dir_index(&mut t, (dx, dy)) {
                        Some(d) => {
                            k.rides.push((d, moves));
                            k.rides_any &= moves == flag::MOVE | flag::CAPTURE;
                            if moves & flag::CAPTURE != 0 && !moving {
                                k.cap_dirs |= 1 << d;
                                t.ride_dirs[side] |= 1 << d;
                            }
                        }
                        None => ok = false,
                    }
                    continue;
                }
                for r in 0..geo.ranks as i32 {
                    for f in 0..geo.files as i32 {
                        let from = at(f, r).unwrap_or(0);
                        // Squares passed on the way: a lame leap's path, or a short ride's squares.
                        let mut path = 0u64;
                        let mut inside = true;
                        for &p in &s.path[..s.path_len as usize] {
                            let (px, py) = (p as i32 % geo.stride as i32, p as i32 / geo.stride as i32);
                            // A mailbox delta back to files and ranks (the stride is wider than any leap).
                            let (px, py) = fix_delta(px, py, geo.stride as i32);
                            match at(f + px, r + py) {
                                Some(b) => path |= 1u64 << b,
                                None => inside = false,
                            }
                        }
                        if !inside {
                            continue;
                        }
                        let range = match geo.square_checked(f, r) {
                            Some(sq) => mv.range_at(s.range, s.limit, sq.idx()),
                            None => continue,
                        };
                        for i in 1..=range as i32 {
                            let Some(to) = at(f + i * dx as i32, r + i * dy as i32) else { break };
                            let lone = s.path_len == 0 && s.range == 1 && s.flags & flag::INITIAL == 0;
                            if lone && s.flags & flag::FRIENDLY != 0 {
                                k.friend[from] |= 1u64 << to;
                                k.friendly = true;
                            }
                            if lone {
                                match moves {
                                    m if m == flag::MOVE | flag::CAPTURE => k.any[from] |= 1u64 << to,
                                    flag::MOVE => k.quiet[from] |= 1u64 << to,
                                    flag::CAPTURE => k.take[from] |= 1u64 << to,
                                    _ => {}
                                }
                            } else {
                                specials[from].push(Special {
                                    to: to as u8,
                                    flags: moves,
                                    initial: s.flags & flag::INITIAL != 0,
                                    path,
                                });
                            }
                            path |= 1u64 << to;
                        }
                    }
                }
            }
            if !ok {
                t.kinds[side].push(None);
                t.moving[side].push(None);
                continue;
            }
            for (i, list) in specials.into_iter().enumerate() {
                k.special_at[i] = k.specials.len() as u16;
                k.specials.extend(list);
            }
            for i in n..65 {
                k.special_at[i] = k.specials.len() as u16;
            }
            for a in 0..n {
                let mut hits = k.any[a] | k.take[a];
                while hits != 0 {
                    k.hit_from[hits.trailing_zeros() as usize & 63] |= 1 << a;
                    hits &= hits - 1;
                }
            }
            if let Some(shifts) = shifts_of(&k, n) {
                k.shifts = shifts;
                k.shifted = true;
            }
            if moving {
                let bit = |s: Sq| 1u64 << (bit_of[s.idx()] & 63);
                for (b, &sq) in geo.squares.iter().enumerate() {
                    k.path_at[b] = k.paths.len() as u16;
                    let rays = &mv.rays[side][kind][sq.idx()];
                    let mut starts = Vec::with_capacity(rays.len() + 1);
                    for r in rays {
                        let (start, mut path) = (k.paths.len(), 0);
                        starts.push(start);
                        let lead = r.squares.first().map_or(0, |&s| bit_of[s.idx()] & 63);
                        for (i, &s) in r.squares.iter().enumerate() {
                            if i >= r.first_dest as usize {
                                let flags = r.flags & (flag::MOVE | flag::CAPTURE);
                                let to = bit_of[s.idx()];
                                k.paths.push(PathStep { to, flags, next: 0, lead, skip: 0, path });
                            }
                            path |= bit(s);
                        }
                    }
                    starts.push(k.paths.len());
                    for (ri, r) in rays.iter().enumerate() {
                        let next = starts[ri + 1];
                        // Stopped at its first square (before any destination), the ray stops
                        // the next `skip[0]` rays too.
                        let stops = if r.first_dest > 0 { r.skip.first().map_or(0, |&n| n as usize) } else { 0 };
                        let skip = starts[(ri + 1 + stops).min(rays.len())];
                        k.paths[starts[ri]..next].iter_mut().for_each(|p| {
                            p.next = next as u16;
                            p.skip = skip as u16;
                        });
                    }
                }
                for i in n..65 {
                    k.path_at[i] = k.paths.len() as u16;
                }
                if k.paths.len() > u16::MAX as usize {
                    t.kinds[side].push(None);
                    t.moving[side].push(None);
                    continue;
                }
                t.kinds[side].push(None);
                t.moving[side].push(Some(k));
                continue;
            }
            k.lame_caps = k.specials.iter().any(|sp| sp.flags & flag::CAPTURE != 0 && sp.path != 0);
            k.special_caps = k.specials.iter().any(|sp| sp.flags & flag::CAPTURE != 0);
            k.has_specials = !k.specials.is_empty();
            t.lame_caps[side] |= k.lame_caps;
            any_kind = true;
            t.kinds[side].push(Some(k));
            t.moving[side].push(None);
        }
    }
    assign_slides(&mut t);
    any_kind.then_some(t)
}

/// The moves of `k` on a board of `n` bits as shifts ([`Shift`]): `None` when it rides or takes its
/// own pieces, when two of its moves from one square reach the same square (the per-piece count
/// makes one move of them), when a path is longer than a shift holds, or when there are too many.
fn shifts_of(k: &KindBits, n: usize) -> Option<Vec<Shift>> {
    if k.friendly || !k.rides.is_empty() {
        return None;
    }
    let mut out: Vec<Shift> = Vec::new();
    let mut add = |f: usize, to: usize, flags: u8, initial: bool, path: Bits| -> Option<()> {
        // Bits on, modulo 64 (a rotation).
        let on = |b: usize| (b as isize - f as isize).rem_euclid(64) as u8;
        let delta = on(to);
        let (mut rel, mut len, mut left) = ([0u8; 4], 0, path);
        while left != 0 {
            let p = left.trailing_zeros() as usize;
            left &= left - 1;
            *rel.get_mut(len)? = on(p);
            len += 1;
        }
        let same = |s: &&mut Shift| {
            s.delta == delta && s.flags == flags && s.initial == initial && s.path[..s.path_len as usize] == rel[..len]
        };
        match out.iter_mut().find(same) {
            Some(s) => s.from |= 1 << f,
            None => out.push(Shift { delta, flags, initial, path_len: len as u8, path: rel, from: 1 << f }),
        }
        Some(())
    };
    let both = flag::MOVE | flag::CAPTURE;
    for f in 0..n {
        let mut seen: Bits = 0;
        for (table, flags) in [(&k.any, both), (&k.quiet, flag::MOVE), (&k.take, flag::CAPTURE)] {
            let mut to = table[f];
            if to & seen != 0 {
                return None;
            }
            seen |= to;
            while to != 0 {
                add(f, to.trailing_zeros() as usize, flags, false, 0)?;
                to &= to - 1;
            }
        }
        let (from, to) = (k.special_at[f] as usize, k.special_at[f + 1] as usize);
        for sp in k.specials.get(from..to).unwrap_or_default() {
            if sp.flags & both == 0 {
                continue;
            }
            if (seen >> sp.to) & 1 != 0 {
                return None;
            }
            seen |= 1 << sp.to;
            add(f, sp.to as usize, sp.flags & both, sp.initial, sp.path)?;
        }
    }
    (out.len() <= 16).then_some(out)
}

/// Groups the rides of the tables' kinds for [`super::slides`] and tells each kind its groups.
fn assign_slides(t: &mut BitTables) {
    let dirs = |k: &KindBits| k.rides.iter().fold(0u64, |m, &(d, _)| m | 1u64 << (d & 63));
    let any: Vec<u64> =
        t.kinds.0.iter().flatten().flatten().filter(|k| k.rides_any).map(dirs).filter(|&d| d != 0).collect();
    let lines = {
        let t = &*t;
        let ray = |d: usize, b: usize| t.ray_up(d, b);
        slides::plan(t.n_dirs, &any, |g| (0..t.squares).map(|b| 1usize << slides::mask(g, b, &ray).count_ones()).sum())
    };
    for k in t.kinds.0.iter_mut().chain(t.moving.0.iter_mut()).flatten().flatten() {
        k.slide = lines.slide(dirs(k), k.rides_any);
    }
    t.lines = lines;
}

impl BitTables {
    /// The board's squares: one bit each.
    #[inline]
    pub fn board(&self) -> Bits {
        if self.squares >= 64 { !0 } else { (1u64 << self.squares) - 1 }
    }

    /// The ride tables ([`super::slides`]), built on first use; `None` without PEXT or groups.
    #[inline]
    pub fn slides(&self) -> Option<&slides::Table> {
        self.lines.table(|groups| slides::Table::build(groups, self.squares, |d, b| self.ray_up(d, b)))
    }
}

/// Files and ranks of a mailbox delta split as `delta % stride`, `delta / stride` (both truncated).
fn fix_delta(mut dx: i32, mut dy: i32, stride: i32) -> (i32, i32) {
    if dx > stride / 2 {
        dx -= stride;
        dy += 1;
    } else if dx < -stride / 2 {
        dx += stride;
        dy -= 1;
    }
    (dx, dy)
}
