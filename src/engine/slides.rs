//! Rider moves looked up in tables instead of walked along rays: the lines (a direction and its
//! opposite) that the same kinds ride are grouped by two, and each group gets per square the squares
//! a rider reaches for every occupancy of its lines, indexed with the CPU's PEXT instruction. The
//! tables are built on first use and only when the CPU has BMI1/2, POPCNT and LZCNT (checked at run time, so a
//! plain `cargo build` serves every x86-64); elsewhere the rays are walked as before.

use std::sync::{Arc, OnceLock};

/// A set of squares, as [`super::bitboard::Bits`].
type Bits = u64;

/// The groups of lines one kind rides with tables, and the directions it still walks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Slide {
    pub groups: [u8; MAX_GROUPS],
    pub n: u8,
    /// Its ride directions (bits) that no group covers, and all of them.
    pub rest: u64,
    pub dirs: u64,
}

/// The most groups one kind looks up (more lines are walked).
const MAX_GROUPS: usize = 8;

/// Table entries one group may have, and all groups together (8 bytes each): chess's two lines of
/// orthogonal rides take 102,400, its diagonal ones 5,248.
const GROUP_BUDGET: usize = 1 << 17;
const TOTAL_BUDGET: usize = 1 << 18;

/// The groups of a preset's tables (their directions, a bit each) and, once built, their tables.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    pub groups: Vec<u64>,
    built: OnceLock<Option<Arc<Table>>>,
}

/// Per group and square: the occupancy mask (the lines' squares but the last of each ray, which
/// blocks nothing beyond it) and where its entries start in `attacks`.
#[derive(Debug)]
pub struct Table {
    at: Vec<[(Bits, u32); 64]>,
    attacks: Vec<Bits>,
}

impl Table {
    /// The squares a rider along group `g` reaches from bit `b` with `occ` on the board: up to and
    /// including the first piece each way.
    #[inline(always)]
    pub fn rides(&self, g: usize, b: usize, occ: Bits) -> Bits {
        let Some(at) = self.at.get(g) else { return 0 };
        let (mask, base) = at[b & 63];
        self.attacks.get(base as usize + pext(occ, mask)).copied().unwrap_or(0)
    }

    /// The squares the rides of `s` that have groups reach from bit `b`.
    #[inline(always)]
    pub fn slide(&self, s: &Slide, b: usize, occ: Bits) -> Bits {
        let mut to = 0;
        for &g in s.groups.iter().take(s.n as usize) {
            to |= self.rides(g as usize, b, occ);
        }
        to
    }
}

/// Whether this CPU runs PEXT, POPCNT, TZCNT and LZCNT (BMI1/2, asked once); `HERALD_NO_PEXT` set in the environment
/// answers no, to time or test the walked rays on the same machine.
pub fn fast_cpu() -> bool {
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(|| {
        if std::env::var_os("HERALD_NO_PEXT").is_some() {
            return false;
        }
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("lzcnt")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// The bits of `occ` under `mask`, packed to the low end.
#[inline(always)]
fn pext(occ: Bits, mask: Bits) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: tables are built, and so looked up, only when `fast_cpu` found BMI2.
        unsafe { core::arch::x86_64::_pext_u64(occ, mask) as usize }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (mut out, mut bit, mut m) = (0usize, 0, mask);
        while m != 0 {
            if occ & m & m.wrapping_neg() != 0 {
                out |= 1 << bit;
            }
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

impl Lines {
    /// The tables, built by `build` on first use.
    #[inline]
    pub fn table(&self, build: impl FnOnce(&[u64]) -> Option<Table>) -> Option<&Table> {
        self.built.get_or_init(|| build(&self.groups).map(Arc::new)).as_deref()
    }
}

/// The occupancy mask of the rays of `dirs` from bit `b`, `ray(d, b)` giving a direction's ray and
/// whether bits grow along it: each ray without its last square.
pub fn mask(dirs: u64, b: usize, ray: &impl Fn(usize, usize) -> (Bits, bool)) -> Bits {
    let mut m = 0;
    let mut left = dirs;
    while left != 0 {
        let d = left.trailing_zeros() as usize;
        left &= left - 1;
        let (ray, up) = ray(d, b);
        let last = if ray == 0 {
            0
        } else if up {
            1u64 << (63 - ray.leading_zeros())
        } else {
            ray & ray.wrapping_neg()
        };
        m |= ray & !last;
    }
    m
}

/// Groups the lines (directions `2i` and `2i + 1`, of `n_dirs`) that kinds ride both ways with
/// moves that both move and capture (`kinds`: each such kind's ride directions): lines ridden by
/// the same kinds, two by two (so a queen's lines form a rook's group and a bishop's), within the
/// budgets (`entries` counts a group's). Cheap: the tables themselves wait for their first use.
pub fn plan(n_dirs: usize, kinds: &[u64], entries: impl Fn(u64) -> usize) -> Lines {
    let n_lines = n_dirs / 2;
    // Per line, the kinds riding it both ways.
    let riders: Vec<Vec<usize>> =
        (0..n_lines).map(|line| (0..kinds.len()).filter(|&k| (kinds[k] >> (2 * line)) & 3 == 3).collect()).collect();
    let mut groups: Vec<u64> = Vec::new();
    let mut total = 0;
    let mut done = vec![false; n_lines];
    for first in 0..n_lines {
        if done[first] || riders[first].is_empty() {
            continue;
        }
        let same: Vec<usize> = (first..n_lines).filter(|&l| !done[l] && riders[l] == riders[first]).collect();
        same.iter().for_each(|&l| done[l] = true);
        for pair in same.chunks(2) {
            let both = pair.iter().fold(0u64, |m, &l| m | 3 << (2 * l));
            let split: Vec<u64> =
                if entries(both) <= GROUP_BUDGET { vec![both] } else { pair.iter().map(|&l| 3 << (2 * l)).collect() };
            for g in split {
                let size = entries(g);
                if size <= GROUP_BUDGET && total + size <= TOTAL_BUDGET && groups.len() < 256 {
                    total += size;
                    groups.push(g);
                }
            }
        }
    }
    Lines { groups, built: OnceLock::new() }
}

impl Lines {
    /// The groups a kind riding `dirs` looks up (all its rides both move and capture: `any`).
    pub fn slide(&self, dirs: u64, any: bool) -> Slide {
        let mut s = Slide { rest: dirs, dirs, ..Slide::default() };
        if any {
            for (i, &g) in self.groups.iter().enumerate() {
                if dirs & g == g && (s.n as usize) < MAX_GROUPS {
                    s.groups[s.n as usize] = i as u8;
                    s.n += 1;
                    s.rest &= !g;
                }
            }
        }
        s
    }
}

impl Table {
    /// The tables of `groups` on a board of `squares` bits: every occupancy of each mask (see
    /// [`mask`], `ray(d, b)` as there), in the order PEXT numbers them (the carry-rippler walk counts
    /// the packed bits up by one), with the squares the group's rays reach. `None` without PEXT.
    pub fn build(groups: &[u64], squares: usize, ray: impl Fn(usize, usize) -> (Bits, bool)) -> Option<Table> {
        if groups.is_empty() || !fast_cpu() {
            return None;
        }
        let mut table = Table { at: Vec::new(), attacks: Vec::new() };
        let mut rays = Vec::new();
        for &g in groups {
            let mut at = [(0, 0); 64];
            for (b, slot) in at.iter_mut().enumerate().take(squares) {
                let m = mask(g, b, &ray);
                *slot = (m, u32::try_from(table.attacks.len()).ok()?);
                // The group's rays from `b`, fetched once for all its occupancies.
                rays.clear();
                let mut left = g;
                while left != 0 {
                    rays.push(ray(left.trailing_zeros() as usize, b));
                    left &= left - 1;
                }
                table.attacks.reserve(1 << m.count_ones());
                let mut occ: Bits = 0;
                loop {
                    table.attacks.push(rays.iter().fold(0, |to, &(r, up)| to | reach(r, up, occ)));
                    occ = occ.wrapping_sub(m) & m;
                    if occ == 0 {
                        break;
                    }
                }
            }
            table.at.push(at);
        }
        Some(table)
    }
}

/// The squares of `ray` (bits growing along it when `up`) up to and including its first piece of
/// `occ`.
#[inline]
fn reach(ray: Bits, up: bool, occ: Bits) -> Bits {
    let hit = ray & occ;
    if hit == 0 {
        ray
    } else if up {
        // Up to the lowest bit of `hit`.
        ray & (hit ^ (hit - 1))
    } else {
        // From the highest bit of `hit` on.
        ray & (1u64 << (63 - hit.leading_zeros())).wrapping_neg()
    }
}
