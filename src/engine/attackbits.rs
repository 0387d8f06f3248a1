//! The reverse attack tables ([`AttackTables`]) as bitboards, for boards of at most 64 squares and
//! every kind of capture they describe: per target square, the squares each leaping code captures
//! from, each rider line's ray, and the origins (and the squares that must be empty) of shaped
//! paths, so that "is this square attacked?" takes a few ANDs per code instead of a walk over the
//! cells (see `Position::attacked_bits`, which the royal-safety trial asks).

use super::board::{Geometry, Sq, cell};
use super::movement::{AttackTables, Hop, Movement};
use super::side::{BySide, Side};

/// A set of squares, bit `rank * files + file` (as [`super::bitboard::Bits`]).
pub type Bits = u64;

/// One side's captures seen from each target square (a bit index).
#[derive(Clone, Debug)]
pub struct SideBits {
    /// Per leaping code: the code and, per target, the squares it leaps there from (plain leaps of
    /// [`AttackTables::leaps`]).
    pub leaps: Vec<(u8, Box<[Bits; 64]>)>,
    /// Per target: the squares any code leaps there from.
    pub leap_any: [Bits; 64],
    /// Per code, its entry in `leaps` (255: none): a piece found on a leap origin is asked of its
    /// own code's table alone, instead of every leaping code being asked.
    pub leap_index: Box<[u8; 128]>,
    /// Per rider line of [`AttackTables::rides`] (same order): per target, the squares back from it
    /// along the line, and whether bit indices grow along it (the nearest piece is the lowest bit).
    pub rides: Vec<(Box<[Bits; 64]>, bool)>,
    /// The lines that the same codes ride without a range limit, grouped: their riders' bits are
    /// gathered once per group, and a line with none of them on it is passed over at once.
    pub ride_groups: Vec<RideGroup>,
    /// The lines some code rides with a range limit (indices into `rides`), asked one by one.
    pub limited_rides: Vec<u8>,
    /// Per target: the origins of its lame, confined or initial leaps ([`AttackTables::back_leaps`]);
    /// with no piece of the side on any, they are not looked at.
    pub leap_origins: [Bits; 64],
    /// Per [`AttackTables::back_lines`] entry: its squares (no piece of its code there: no attack).
    pub line_squares: Vec<Bits>,
    /// Per [`AttackTables::back_lines`] entry: whether bit indices grow along it from its target
    /// (its pieces in order are then the lowest bits first), or `None` when they run both ways.
    pub line_up: Vec<Option<bool>>,
    /// Per target and shaped code `j` (`t * n + j`, `n` codes of [`AttackTables::ray_codes`]): the
    /// origins of the paths ending there.
    pub path_origins: Vec<Bits>,
    /// Per [`AttackTables::back_paths`] entry: its origin's bit, the squares it must find empty,
    /// and where the next origin's entries start.
    pub paths: Vec<PathBits>,
    /// Per target and shaped code (`t * n + j`), where its origins' first entries are listed in
    /// `path_groups`: one per origin of `path_origins`, lowest bit first (the entries of a target
    /// and code run by origin), so a piece's entries are found from its bit's rank among them.
    pub group_at: Vec<u32>,
    pub path_groups: Vec<u32>,
    /// Per target: the origins of every shaped code's paths ending there (`path_origins` joined).
    pub path_any: [Bits; 64],
    /// The codes of [`AttackTables::back_lines`], and per target the squares of its lines.
    pub line_codes: Vec<u8>,
    pub line_any: [Bits; 64],
    /// The codes of those lines that hop (a piece put on one may make a screen).
    pub hop_codes: Vec<u8>,
}

/// A [`super::movement::PathBack`] as bits.
#[derive(Clone, Copy, Debug, Default)]
pub struct PathBits {
    pub origin: u8,
    /// [`super::movement::PathBack::next`]: the entries up to it have the same origin.
    pub next: u32,
    pub empty: Bits,
}

/// Rider lines ridden by the same codes, all without a range limit.
#[derive(Clone, Debug)]
pub struct RideGroup {
    /// The codes that ride them.
    pub codes: Vec<u8>,
    /// Their indices in [`SideBits::rides`].
    pub lines: Vec<u8>,
    /// Per target, the squares of all its lines.
    pub reach: Box<[Bits; 64]>,
}

impl SideBits {
    /// The pieces of `codes` on the board (`code_bits`: per code, its pieces).
    #[inline(always)]
    pub fn pieces(codes: &[u8], code_bits: &[Bits; 128]) -> Bits {
        codes.iter().fold(0, |m, &c| m | code_bits[c as usize & 127])
    }

    /// Each shaped path of the target and code `key` (`t * n + j`, as `path_origins`) whose
    /// origin holds one of `pieces`: `f(entry)` until it returns true (then true). Only those
    /// origins' entries are visited ([`SideBits::group_at`]).
    #[inline(always)]
    pub fn any_path(&self, key: usize, pieces: Bits, mut f: impl FnMut(&PathBits) -> bool) -> bool {
        let (Some(&origins), Some(&base)) = (self.path_origins.get(key), self.group_at.get(key)) else {
            return false;
        };
        let mut left = origins & pieces;
        while left != 0 {
            let below = origins & ((1u64 << (left.trailing_zeros() & 63)) - 1);
            left &= left - 1;
            let Some(&start) = self.path_groups.get(base as usize + below.count_ones() as usize) else { continue };
            let mut i = start as usize;
            let Some(end) = self.paths.get(i).map(|p| p.next as usize) else { continue };
            while let Some(p) = self.paths.get(i).filter(|_| i < end) {
                if f(p) {
                    return true;
                }
                i += 1;
            }
        }
        false
    }

    /// Each unlimited rider line through bit `tb` that one of its group's riders stands on
    /// (`code_bits` less `gone`): `f(line, ray, up, riders)` with the line's squares toward `tb`,
    /// its ray table, its direction and the group's riders, until `f` returns true (then true).
    /// The royal piece's pins and the attack test walk the lines alike.
    #[inline(always)]
    pub fn any_rider_line(
        &self,
        tb: usize,
        code_bits: &[Bits; 128],
        gone: Bits,
        mut f: impl FnMut(Bits, &[Bits; 64], bool, Bits) -> bool,
    ) -> bool {
        for g in &self.ride_groups {
            let riders = Self::pieces(&g.codes, code_bits) & !gone;
            if g.reach[tb] & riders == 0 {
                continue;
            }
            for &i in &g.lines {
                let (ray, up) = &self.rides[i as usize];
                let line = ray[tb];
                if line & riders != 0 && f(line, ray, *up, riders) {
                    return true;
                }
            }
        }
        false
    }
}

/// Both sides' [`SideBits`] and the board's squares as bits.
#[derive(Clone, Debug)]
pub struct AttackBits {
    /// Per mailbox cell, its bit (255: no square); and per bit, its square.
    pub bit_of: Vec<u8>,
    pub square_of: Vec<Sq>,
    pub sides: BySide<SideBits>,
}

/// The tables for a board of at most 64 squares whose rider lines run in one bit order each.
pub fn compile(geo: &Geometry, mv: &Movement) -> Option<AttackBits> {
    if geo.files * geo.ranks > 64 {
        return None;
    }
    let mut bit_of = vec![255u8; geo.cells];
    for (i, &sq) in geo.squares.iter().enumerate() {
        bit_of[sq.idx()] = i as u8;
    }
    let bit = |sq: Sq| bit_of.get(sq.idx()).copied().filter(|&b| b != 255).map(|b| b as usize);
    let white = side_bits(geo, &mv.attacks[Side::White], mv, Side::White, &bit)?;
    let black = side_bits(geo, &mv.attacks[Side::Black], mv, Side::Black, &bit)?;
    Some(AttackBits { bit_of: bit_of.clone(), square_of: geo.squares.clone(), sides: BySide::new(white, black) })
}

fn side_bits(
    geo: &Geometry,
    t: &AttackTables,
    mv: &Movement,
    side: Side,
    bit: &dyn Fn(Sq) -> Option<usize>,
) -> Option<SideBits> {
    let cells = geo.cells as i32;
    let mut leaps: Vec<(u8, Box<[Bits; 64]>)> = Vec::new();
    for &(d, mask) in &t.leaps {
        for &target in &geo.squares {
            let Some(tb) = bit(target) else { continue };
            let from = target.idx() as i32 - d as i32;
            let Some(fb) = (0..cells).contains(&from).then(|| bit(Sq::new(from as usize))).flatten() else { continue };
            let mut codes = mask;
            while codes != 0 {
                let code = codes.trailing_zeros() as u8;
                codes &= codes - 1;
                let at = match leaps.iter().position(|(c, _)| *c == code) {
                    Some(i) => i,
                    None => {
                        leaps.push((code, Box::new([0; 64])));
                        leaps.len() - 1
                    }
                };
                leaps[at].1[tb] |= 1 << fb;
            }
        }
    }
    let mut leap_index = Box::new([255u8; 128]);
    for (i, (code, _)) in leaps.iter().enumerate() {
        leap_index[*code as usize & 127] = u8::try_from(i).ok()?;
    }
    let mut leap_any = [0u64; 64];
    for (_, from) in &leaps {
        for (any, &f) in leap_any.iter_mut().zip(from.iter()) {
            *any |= f;
        }
    }
    let mut rides = Vec::new();
    for r in &t.rides {
        let mut ray = Box::new([0u64; 64]);
        let mut up = None;
        for &target in &geo.squares {
            let Some(tb) = bit(target) else { continue };
            let (f, rk) = (geo.file(target) as i32, geo.rank(target) as i32);
            let (mut x, mut y) = (f - r.dir.0 as i32, rk - r.dir.1 as i32);
            while let Some(sq) = geo.square_checked(x, y) {
                let b = bit(sq)?;
                // Every line must run one way in bit order, for the nearest piece to be a bit scan.
                if ray[tb] == 0 {
                    let grows = b > tb;
                    if *up.get_or_insert(grows) != grows {
                        return None;
                    }
                }
                ray[tb] |= 1 << b;
                x -= r.dir.0 as i32;
                y -= r.dir.1 as i32;
            }
        }
        rides.push((ray, up.unwrap_or(true)));
    }
    let mut ride_groups: Vec<RideGroup> = Vec::new();
    let mut limited_rides = Vec::new();
    for (i, r) in t.rides.iter().enumerate() {
        let i8 = u8::try_from(i).ok()?;
        if !r.limited.is_empty() || r.any != r.unlimited {
            limited_rides.push(i8);
            continue;
        }
        let codes: Vec<u8> = (0..128u8).filter(|&c| (r.unlimited >> c) & 1 != 0).collect();
        let g = match ride_groups.iter().position(|g| g.codes == codes) {
            Some(g) => g,
            None => {
                ride_groups.push(RideGroup { codes, lines: Vec::new(), reach: Box::new([0; 64]) });
                ride_groups.len() - 1
            }
        };
        let g = &mut ride_groups[g];
        g.lines.push(i8);
        for (reach, &ray) in g.reach.iter_mut().zip(rides[i].0.iter()) {
            *reach |= ray;
        }
    }
    let mut leap_origins = [0u64; 64];
    let mut line_squares = Vec::with_capacity(t.back_lines.len());
    let mut line_up = Vec::with_capacity(t.back_lines.len());
    if !t.back_at.is_empty() {
        for &target in &geo.squares {
            let Some(tb) = bit(target) else { continue };
            let k = target.idx();
            for l in &t.back_leaps[t.back_at[k] as usize..t.back_at[k + 1] as usize] {
                leap_origins[tb] |= 1 << bit(l.origin)?;
            }
        }
        for l in &t.back_lines {
            let mut m = 0u64;
            let (mut up, mut down, mut last) = (true, true, None);
            for &s in &l.squares {
                let b = bit(s)?;
                if let Some(l) = last {
                    up &= b > l;
                    down &= b < l;
                }
                last = Some(b);
                m |= 1 << b;
            }
            line_squares.push(m);
            line_up.push(if up {
                Some(true)
            } else if down {
                Some(false)
            } else {
                None
            });
        }
    }
    let n = t.ray_codes.len();
    let mut path_origins = vec![0u64; 64 * n];
    let mut paths = vec![PathBits::default(); t.back_paths.len()];
    let mut group_at = vec![0u32; 64 * n];
    let mut path_groups = Vec::new();
    for &target in &geo.squares {
        let Some(tb) = bit(target) else { continue };
        for (j, &code) in t.ray_codes.iter().enumerate() {
            let rays = &mv.rays[side][cell::kind(code)];
            let b = target.idx() * n + j;
            let span = t.path_at[b] as usize..t.path_at[b + 1] as usize;
            // Each origin's entries are together, in the order of the origins' cells (and bits).
            group_at[tb * n + j] = u32::try_from(path_groups.len()).ok()?;
            let (mut i, mut last) = (span.start, None);
            while i < span.end {
                let ob = bit(t.back_paths[i].origin)?;
                if last.is_some_and(|l| l >= ob) {
                    return None;
                }
                last = Some(ob);
                path_groups.push(i as u32);
                i = t.back_paths[i].next as usize;
            }
            for (e, slot) in t.back_paths[span.clone()].iter().zip(&mut paths[span]) {
                let ob = bit(e.origin)?;
                path_origins[tb * n + j] |= 1 << ob;
                let mut empty = 0u64;
                for &s in rays.get(e.origin.idx())?.get(e.ray as usize)?.squares.get(..e.at as usize)? {
                    empty |= 1 << bit(s)?;
                }
                *slot = PathBits { origin: ob as u8, next: e.next, empty };
            }
        }
    }
    let mut path_any = [0u64; 64];
    for (tb, any) in path_any.iter_mut().enumerate() {
        *any = path_origins[tb * n..(tb + 1) * n].iter().fold(0, |m, &o| m | o);
    }
    let mut line_codes: Vec<u8> = t.back_lines.iter().map(|l| l.code).collect();
    line_codes.sort_unstable();
    line_codes.dedup();
    let mut hop_codes: Vec<u8> = t.back_lines.iter().filter(|l| l.hop != Hop::No).map(|l| l.code).collect();
    hop_codes.sort_unstable();
    hop_codes.dedup();
    let mut line_any = [0u64; 64];
    for &target in &geo.squares {
        let Some(tb) = bit(target) else { continue };
        let k = target.idx();
        if let Some(at) = t.line_at.get(k..k + 2) {
            line_any[tb] = line_squares[at[0] as usize..at[1] as usize].iter().fold(0, |m, &l| m | l);
        }
    }
    Some(SideBits {
        leaps,
        leap_any,
        leap_index,
        rides,
        ride_groups,
        limited_rides,
        leap_origins,
        line_squares,
        line_up,
        path_origins,
        paths,
        group_at,
        path_groups,
        path_any,
        line_codes,
        line_any,
        hop_codes,
    })
}
