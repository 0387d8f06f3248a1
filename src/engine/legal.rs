//! The royal-safety filter: pinned pieces found once per position, and trials that touch only the cells.

use super::attackbits::{AttackBits, SideBits};
use super::bitboard::nearest;
use super::board::{MAX_FILES, MAX_RANKS, PAD, Sq, cell};
use super::movegen::rides_to;
use super::movement::Hop;
use super::position::{Move, Position, mflag};
use super::side::Side;
use crate::preset::Preset;

/// Pieces that alone stand between a royal piece and an enemy rider; `None` = too many to list.
#[derive(Clone, Copy)]
pub(crate) struct Pins {
    squares: [Sq; 16],
    n: usize,
}

impl Pins {
    /// These squares, in order; `None` when they are too many to list.
    pub(crate) fn of(squares: impl Iterator<Item = Sq>) -> Option<Pins> {
        let mut pins = Pins { squares: [Sq::NONE; 16], n: 0 };
        for s in squares {
            *pins.squares.get_mut(pins.n)? = s;
            pins.n += 1;
        }
        Some(pins)
    }

    pub(crate) fn contains(&self, sq: Sq) -> bool {
        self.squares[..self.n].contains(&sq)
    }

    /// The squares (one may be listed for each line it blocks).
    pub(crate) fn squares(&self) -> &[Sq] {
        &self.squares[..self.n]
    }
}

/// Words of a [`Guard`]: every board up to 26 files by 64 ranks, with its padding.
const GUARD_WORDS: usize = ((MAX_FILES + 2 * PAD) * (MAX_RANKS + 2 * PAD)).div_ceil(64);

/// A set of cells: those where a move could expose the royal piece.
struct Guard {
    bits: [u64; GUARD_WORDS],
}

impl Guard {
    #[inline]
    fn add(&mut self, sq: Sq) {
        self.bits[sq.idx() >> 6] |= 1 << (sq.idx() & 63);
    }

    #[inline]
    fn has(&self, sq: Sq) -> bool {
        self.bits[sq.idx() >> 6] >> (sq.idx() & 63) & 1 != 0
    }
}

/// Where [`Position::guard`] marks its squares: a [`Guard`] of cells, or [`BitMarks`].
trait Marks {
    fn add(&mut self, sq: Sq);
    /// The squares of `bits` (bits of the preset's [`AttackBits`], `square_of` their squares).
    fn add_bits(&mut self, bits: u64, square_of: &[Sq]) {
        let mut left = bits;
        while left != 0 {
            let b = left.trailing_zeros() as usize;
            left &= left - 1;
            if let Some(&sq) = square_of.get(b) {
                self.add(sq);
            }
        }
    }
}

impl Marks for Guard {
    #[inline]
    fn add(&mut self, sq: Sq) {
        Guard::add(self, sq);
    }
}

/// Marks as bits of the preset's [`AttackBits`] (`bit_of`: per cell its bit, 255 off the board,
/// where a move can neither start nor end): what the bulk count reads, with no cells to convert.
struct BitMarks<'a> {
    bits: u64,
    bit_of: &'a [u8],
}

impl Marks for BitMarks<'_> {
    #[inline]
    fn add(&mut self, sq: Sq) {
        if let Some(&b) = self.bit_of.get(sq.idx())
            && b != 255
        {
            self.bits |= 1 << (b & 63);
        }
    }

    #[inline]
    fn add_bits(&mut self, bits: u64, _: &[Sq]) {
        self.bits |= bits;
    }
}

/// Cells changed by a trial, to put back in reverse order.
struct Saved {
    cells: [(Sq, u8); 4],
    n: usize,
}

impl Position {
    /// Legal moves: pseudo-legal moves that leave no royal piece of the mover attacked.
    pub fn legal_moves(&mut self, preset: &Preset, out: &mut Vec<Move>) {
        out.clear();
        self.pseudo_moves(preset, out);
        self.keep_legal(preset, out);
    }

    /// Keep the legal moves of `out`, which holds this position's moves as `pseudo_moves` gives them.
    pub fn keep_legal(&mut self, preset: &Preset, out: &mut Vec<Move>) {
        if preset.facing_break && self.royals_facing(preset) {
            return self.facing_moves(preset, out);
        }
        if preset.royal_safety {
            self.retain_safe(preset, out);
        }
        if preset.frozen_in_check != 0 && self.in_check(preset, self.side) {
            self.retain_unfrozen(preset, out);
        }
        if preset.no_checks {
            self.retain_quiet(preset, out);
        }
        // En passant is a capture too (its flag is EP alone).
        const TAKES: u8 = mflag::CAPTURE | mflag::EP;
        if preset.must_capture && out.iter().any(|m| m.flags & TAKES != 0) {
            out.retain(|m| m.flags & TAKES != 0);
        }
        if preset.must_drop && out.iter().any(|m| m.flags & mflag::DROP != 0) {
            out.retain(|m| m.flags & mflag::DROP != 0);
        }
    }

    /// `checks illegal`: drop the moves after which the opponent's royal piece is attacked.
    fn retain_quiet(&mut self, preset: &Preset, out: &mut Vec<Move>) {
        self.retain_by_check(preset, out, false);
    }

    /// Keep only the moves of `out` after which the opponent's royal piece is attacked (checks),
    /// judged as `checks illegal` judges them: what quiescence tries besides captures.
    pub fn retain_checks(&mut self, preset: &Preset, out: &mut Vec<Move>) {
        self.retain_by_check(preset, out, true);
    }

    /// Keep the moves of `out` that check (`checks`) or those that do not.
    fn retain_by_check(&mut self, preset: &Preset, out: &mut Vec<Move>, checks: bool) {
        let us = self.side;
        let them = us.other();
        // With one royal piece there, most moves are tried on the cells alone, as for the mover's
        // own safety: not when the mover's side has shaped movers (their attack test reads the
        // occupancy bits), nor for moves that bring a piece or explode, nor with drops (a piece
        // back on its setup square may count as unmoved again).
        let royal = self.royal_square(them);
        let cheap = preset.explode.is_none() && !preset.drops && preset.movement.attacks[us].ray_codes.is_empty();
        // Most moves are not even tried: those that neither land where a piece could attack the royal
        // piece nor leave a square that may uncover an attack on it ([`Self::check_guard`]).
        let (mut to, mut from) = (Guard { bits: [0; GUARD_WORDS] }, Guard { bits: [0; GUARD_WORDS] });
        let guarded = cheap && royal.is_some_and(|k| self.check_guard(preset, k, us, &mut to, &mut from));
        out.retain(|&m| {
            if guarded
                && m.promo == 0
                && m.gate == 0
                && m.flags & (mflag::DROP | mflag::EP | mflag::CASTLE) == 0
                && !to.has(m.to)
                && !from.has(m.from)
            {
                return !checks;
            }
            if let Some(k) = royal
                && cheap
                && m.promo == 0
                && m.gate == 0
                && m.to != k
                && m.flags & mflag::DROP == 0
                && let Some(attacked) = self.attacked_after_cells(preset, m, k, us)
            {
                return attacked == checks;
            }
            self.make(preset, m);
            let attacked = self.in_check(preset, them);
            self.unmake();
            attacked == checks
        });
    }

    /// Drop the moves that leave the mover's royal piece attacked (the order of the rest may change).
    fn retain_safe(&mut self, preset: &Preset, out: &mut Vec<Move>) {
        let us = self.side;
        if preset.explode.is_some() {
            return out.retain(|&m| self.safe_blast(preset, m));
        }
        let royal = self.royal_square(us);
        // Not in check: a move is safe unless it moves the royal piece, is special (e.p., castling),
        // or empties or fills a square where that could expose the royal piece (`Guard`).
        let mut g = Guard { bits: [0; GUARD_WORDS] };
        if let Some(k) = royal
            && self.guard(preset, k, us, &mut g, None)
        {
            let mut i = 0;
            while i < out.len() {
                // A gating move is judged as the move alone, as Fairy-Stockfish judges it: the piece
                // entering behind a pinned piece does not free it (and cannot expose anything).
                let m = Move { gate: 0, ..out[i] };
                let ok = if m.from != k && m.flags & (mflag::EP | mflag::CASTLE) == 0 && !g.has(m.from) && !g.has(m.to)
                {
                    !self.promotes_royal(m, Some(k)) || self.safe_by_make(preset, m)
                } else {
                    self.safe_alone(preset, m, royal)
                };
                if ok {
                    i += 1;
                } else {
                    out.swap_remove(i);
                }
            }
            return;
        }
        if royal.is_none() && self.royal_count(us) == 0 {
            // No royal piece to expose: only a move that makes one is tried (none can when no kind
            // is royal: Three Kings' kings are not).
            if !preset.kinds.iter().any(|k| k.royal) {
                return;
            }
            return out.retain(|&m| !self.promotes_royal(m, None) || self.safe_by_make(preset, Move { gate: 0, ..m }));
        }
        let mut i = 0;
        while i < out.len() {
            if self.safe_alone(preset, Move { gate: 0, ..out[i] }, royal) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// Whether a move (its gating left out) leaves the mover's royal piece, on `royal` when it has
    /// one, unattacked, judged without a [`Guard`].
    fn safe_alone(&mut self, preset: &Preset, m: Move, royal: Option<Sq>) -> bool {
        let us = self.side;
        match royal {
            Some(k) if !self.promotes_royal(m, Some(k)) => self.safe_by_cells(preset, m, k),
            None if self.royal_count(us) == 0 && !self.promotes_royal(m, None) => true,
            _ => self.safe_by_make(preset, m),
        }
    }

    /// The squares where one move of `us` (emptying its origin, filling its destination) could
    /// expose the royal piece on `k`, which is not attacked now: the pieces of `us` alone between it
    /// and an enemy rider; the lame paths of enemy leapers aimed at it; and on a line a hopper or a
    /// confined rider could attack along, the squares up to its second piece (its first two pieces
    /// decide that attack); on each shaped (crooked, multi-leg) path of an enemy piece aimed at it,
    /// its sole blocker (every square of a path with a hole).
    ///
    /// Fills `g` and returns true, or returns false when the royal piece is attacked now (the
    /// same ride walk finds the attackers and the pinned pieces).
    /// `screens`, when given, gets the squares of those that a move could expose it by filling
    /// (a hopper's lines): filling any other square only blocks.
    fn guard<M: Marks>(&self, preset: &Preset, k: Sq, us: Side, g: &mut M, mut screens: Option<&mut M>) -> bool {
        let them = us.other();
        let t = &preset.movement.attacks[them];
        if preset.geo.cells > GUARD_WORDS * 64 {
            return false;
        }
        let bits = preset.attack_bits.as_ref().filter(|_| self.counts[cell::HOLE as usize] == 0);
        match bits {
            Some(ab) => {
                if !self.pins_by_bits(preset, ab, k, us, g) {
                    return false;
                }
            }
            None => {
                let shaped = t.ray_codes.iter().any(|&code| self.counts[cell::code(code) as usize] > 0);
                // The ride walk below (`pins_unless_attacked`) looks for every other attack: with
                // such a piece on the board, an attack along a shaped path is looked for as
                // `attacked` does.
                if shaped && self.path_attack(preset, t, k.idx(), them) {
                    return false;
                }
                let Some(pins) = self.pins_unless_attacked(preset, k, us) else { return false };
                for &sq in &pins.squares[..pins.n] {
                    g.add(sq);
                }
            }
        }
        let cells = &self.cells;
        // With the bits, the target's bit: a code with no piece on any origin of a path to it
        // (or a line through it) is passed over.
        let kb = bits.map(|ab| ab.bit_of[k.idx()] as usize & 63);
        let k = k.idx();
        // The shaped paths of enemy pieces aimed at it: emptying a square of one could open it.
        let n = t.ray_codes.len();
        // With the bits, no enemy piece on any path's origin: none is looked at.
        let paths = bits.zip(kb).is_none_or(|(ab, kb)| ab.sides[them].path_any[kb] & self.side_bits[them] != 0);
        for (j, &code) in t.ray_codes.iter().enumerate().filter(|_| paths) {
            if self.counts[code as usize] == 0 {
                continue;
            }
            if let (Some(ab), Some(kb)) = (bits, kb) {
                // As bits (no holes): each path's squares that must be empty, met by the pieces.
                let s = &ab.sides[them];
                let origins = s.path_origins[kb * n + j] & self.code_bits[code as usize & 127];
                if origins == 0 {
                    continue;
                }
                let occ = self.side_bits[us] | self.side_bits[them];
                s.any_path(kb * n + j, origins, |p| {
                    let on = p.empty & occ;
                    if on & on.wrapping_sub(1) == 0 {
                        g.add_bits(if on == 0 { p.empty } else { on }, &ab.square_of);
                    }
                    false
                });
                continue;
            }
            let rays = &preset.movement.rays[them][cell::kind(code)];
            let (mut i, end) = (t.path_at[k * n + j] as usize, t.path_at[k * n + j + 1] as usize);
            while i < end {
                let e = &t.back_paths[i];
                if cell::code(cells[e.origin.idx()]) != code {
                    i = e.next as usize;
                    continue;
                }
                let path = &rays[e.origin.idx()][e.ray as usize].squares[..e.at as usize];
                // A move empties one square (its origin; filling one only blocks a path): the path
                // opens only by its sole blocker's leaving. A hole on it (which some turns build)
                // keeps every square.
                let (mut on, mut last, mut hole) = (0, Sq::NONE, false);
                for &s in path.iter().filter(|&&s| cells[s.idx()] != cell::EMPTY) {
                    (on, last, hole) = (on + 1, s, hole || !cell::is_piece(cells[s.idx()]));
                }
                match (on, hole) {
                    (1, false) => g.add(last),
                    (0, _) | (_, true) => path.iter().for_each(|&s| g.add(s)),
                    _ => {}
                }
                i += 1;
            }
        }
        if t.back_at.is_empty() {
            return true;
        }
        let near = |ab: &AttackBits, kb: usize| ab.sides[them].leap_origins[kb] & self.side_bits[them] != 0;
        if bits.zip(kb).is_none_or(|(ab, kb)| near(ab, kb)) {
            for l in &t.back_leaps[t.back_at[k] as usize..t.back_at[k + 1] as usize] {
                if (l.codes >> cell::code(cells[l.origin.idx()])) & 1 != 0 {
                    l.path[..l.path_len as usize].iter().for_each(|&p| g.add(p));
                }
            }
        }
        // Likewise no piece of a line's code on any of its lines.
        let lines = bits.zip(kb).is_none_or(|(ab, kb)| {
            let s = &ab.sides[them];
            s.line_any[kb] & SideBits::pieces(&s.line_codes, &self.code_bits) != 0
        });
        for (i, l) in t.back_lines.iter().enumerate().take(t.line_at[k + 1] as usize).skip(t.line_at[k] as usize) {
            if !lines {
                break;
            }
            if self.counts[l.code as usize] == 0 {
                continue;
            }
            if let Some(ab) = bits {
                let s = &ab.sides[them];
                let line = s.line_squares[i];
                let pieces = self.code_bits[l.code as usize & 127];
                if line & pieces == 0 {
                    continue;
                }
                // A line whose bits run one way: its first pieces are its nearest bits.
                if let Some(up) = s.line_up.get(i).copied().flatten() {
                    let occ = self.side_bits[us] | self.side_bits[them];
                    let (mut on, mut found, mut n) = (line & occ, [64; 3], 0);
                    while on != 0 && n < 3 {
                        found[n] = nearest(on, up);
                        on &= !(1 << found[n]);
                        n += 1;
                    }
                    let near = if l.hop == Hop::No { 2 } else { 3 };
                    if found[..n.min(near)].iter().any(|&b| (pieces >> b) & 1 != 0) {
                        let upto = if l.hop == Hop::No { found[0] } else { found[1] };
                        // The line up to and including that piece (all of it without one).
                        let marks = match (upto, up) {
                            (64.., _) => line,
                            (b, true) => line & (u64::MAX >> (63 - b)),
                            (b, false) => line & (u64::MAX << b),
                        };
                        g.add_bits(marks, &ab.square_of);
                        if l.hop != Hop::No
                            && let Some(screens) = screens.as_deref_mut()
                        {
                            screens.add_bits(marks, &ab.square_of);
                        }
                    }
                    continue;
                }
            }
            // The first three pieces on the line: the capturer after one move is one of them.
            let mut found = [usize::MAX; 3];
            let mut n = 0;
            for (i, &s) in l.squares.iter().enumerate() {
                if cells[s.idx()] != cell::EMPTY {
                    found[n] = i;
                    n += 1;
                    if n == 3 {
                        break;
                    }
                }
            }
            let near = if l.hop == Hop::No { 2 } else { 3 };
            if found[..n.min(near)].iter().any(|&i| cell::code(cells[l.squares[i].idx()]) == l.code) {
                let upto = if l.hop == Hop::No { found[0] } else { found[1] };
                let end = if upto == usize::MAX { l.squares.len() } else { upto + 1 };
                l.squares[..end].iter().for_each(|&s| g.add(s));
                if l.hop != Hop::No
                    && let Some(screens) = screens.as_deref_mut()
                {
                    l.squares[..end].iter().for_each(|&s| screens.add(s));
                }
            }
        }
        true
    }

    /// [`Self::guard`] as bits of the preset's [`AttackBits`] (the squares of the board in order):
    /// the squares where a move could expose the royal piece on `k` by emptying or filling them,
    /// and those of them where it could by filling them (`screens`); `None` when it is attacked
    /// now, or there are no such bits.
    pub(crate) fn guard_bits(&self, preset: &Preset, k: Sq, us: Side) -> Option<(u64, u64)> {
        let ab = preset.attack_bits.as_ref()?;
        let mut g = BitMarks { bits: 0, bit_of: &ab.bit_of };
        let mut screens = BitMarks { bits: 0, bit_of: &ab.bit_of };
        if !self.guard(preset, k, us, &mut g, Some(&mut screens)) {
            return None;
        }
        Some((g.bits, screens.bits))
    }

    /// [`Self::blocking_bits`] for the mover's royal piece on `k` once its piece on `from` is
    /// lifted off the board: the squares that piece may fill and leave `k` unattacked, unless
    /// filling one makes a screen for a hopper (the squares `guard` marks as screens).
    pub(crate) fn blocks_lifted(&mut self, preset: &Preset, ab: &AttackBits, from: Sq, k: Sq) -> Option<u64> {
        let b = *ab.bit_of.get(from.idx()).filter(|&&b| b != 255)?;
        let bit = 1u64 << (b & 63);
        let occ = (self.side_bits[Side::White] | self.side_bits[Side::Black]) & !bit;
        // The cells too: the general tables' lines are read from them.
        let old = std::mem::replace(&mut self.cells[from.idx()], cell::EMPTY);
        let block = self.blocking_bits(preset, ab, k, self.side.other(), occ, bit);
        self.cells[from.idx()] = old;
        block
    }

    /// Whether a move of the mover (not in check, its royal piece on `k`) keeps that piece safe,
    /// judged as [`Self::retain_safe`] judges it, with `guard` the squares of
    /// [`Self::guard_bits`] (`bit_of` from cells to their bits).
    pub(crate) fn safe_off_guard(&mut self, preset: &Preset, m: Move, k: Sq, guard: u64, bit_of: &[u8]) -> bool {
        let m = Move { gate: 0, ..m };
        let off = |sq: Sq| (guard >> (bit_of[sq.idx()] & 63)) & 1 == 0;
        // A move that makes or unmakes a royal piece is played out there as here.
        let plain = m.from != k && m.flags & (mflag::EP | mflag::CASTLE) == 0 && off(m.from) && off(m.to);
        (plain && !self.promotes_royal(m, Some(k))) || self.safe_alone(preset, m, Some(k))
    }

    /// [`Self::guard`]'s pinned pieces by the preset's [`AttackBits`] (the board has no holes):
    /// on each rider line to the royal piece on `k`, a piece of `us` first and an enemy riding the
    /// line that far next. Marks them in `g` and returns true, or returns false when the royal
    /// piece is attacked now.
    fn pins_by_bits(&self, preset: &Preset, ab: &AttackBits, k: Sq, us: Side, g: &mut impl Marks) -> bool {
        let them = us.other();
        let (ours, theirs) = (self.side_bits[us], self.side_bits[them]);
        let occ = ours | theirs;
        if self.counts[cell::HOLE as usize] != 0 {
            return false;
        }
        let kb = ab.bit_of[k.idx()] as usize & 63;
        let s = &ab.sides[them];
        // A line pins when the mover's piece is first on it and one of its riders second.
        let pin = |line: u64, up: bool, riders: u64, ray: &[u64; 64]| {
            let first = nearest(line & occ, up);
            if (ours >> first) & 1 == 0 {
                return None;
            }
            let beyond = ray[first] & occ;
            (beyond != 0 && (riders >> nearest(beyond, up)) & 1 != 0).then_some(first)
        };
        let attacked = s.any_rider_line(kb, &self.code_bits, 0, |line, ray, up, riders| {
            // A rider first on the line attacks: the groups' lines are asked here alone.
            if (riders >> nearest(line & occ, up)) & 1 != 0 {
                return true;
            }
            if let Some(first) = pin(line, up, riders, ray) {
                g.add(ab.square_of[first]);
            }
            false
        });
        if attacked {
            return false;
        }
        if self.attacks_bits(preset, ab, k, them, occ, 0, false, |_| true) != Some(false) {
            return false;
        }
        for &i in &s.limited_rides {
            let (r, (ray, up)) = (&preset.movement.attacks[them].rides[i as usize], &s.rides[i as usize]);
            let line = ray[kb];
            if line & theirs == 0 {
                continue;
            }
            let Some(first) = pin(line, *up, theirs, ray) else { continue };
            let second = nearest(ray[first] & occ, *up);
            let at = ab.square_of[second];
            let dist = (line & !ray[second]).count_ones() as u8;
            if rides_to(preset, r, self.cells[at.idx()], dist, at.idx()) {
                g.add(ab.square_of[first]);
            }
        }
        true
    }

    /// Whether a move changes which pieces are royal (a royal piece promotes, or a piece promotes to
    /// a royal one, or castling moves a royal partner): then only a full make tells.
    fn promotes_royal(&self, m: Move, royal: Option<Sq>) -> bool {
        if m.flags & mflag::CASTLE != 0 {
            return false;
        }
        m.promo != 0 && (self.is_royal_code(m.promo) || Some(m.from) == royal)
    }

    /// `frozen_in_check KIND`: in check, a piece of such a kind moves only to capture the piece giving
    /// check, when it is the only one (Makpong's king, as Fairy-Stockfish rules it).
    fn retain_unfrozen(&mut self, preset: &Preset, out: &mut Vec<Move>) {
        let us = self.side;
        out.retain(|m| {
            let c = self.cells[m.from.idx()];
            if m.flags & mflag::DROP != 0 || (preset.frozen_in_check >> cell::kind(c)) & 1 == 0 {
                return true;
            }
            if m.flags & mflag::CAPTURE == 0 || m.flags & mflag::CASTLE != 0 {
                return false;
            }
            // Put one of the mover's own pieces on the square taken: any check left comes from another piece.
            let taken = std::mem::replace(&mut self.cells[m.to.idx()], cell::code(c));
            let other = self.in_check_cells(preset, us);
            self.cells[m.to.idx()] = taken;
            !other
        });
    }

    /// The general trial: play the move, look, take it back.
    fn safe_by_make(&mut self, preset: &Preset, m: Move) -> bool {
        let us = self.side;
        self.make(preset, m);
        let ok = !self.in_check(preset, us);
        self.unmake();
        ok
    }

    /// With `captures explode`: a move may not destroy one of the mover's royal pieces, and must
    /// leave none attacked unless it destroys one of the opponent's (which ends the game).
    #[cold]
    #[inline(never)]
    fn safe_blast(&mut self, preset: &Preset, m: Move) -> bool {
        let us = self.side;
        let (ours, theirs) = (self.royal_count(us), self.royal_count(us.other()));
        self.make(preset, m);
        let ok = self.royal_count(us) >= ours && (self.royal_count(us.other()) < theirs || !self.in_check(preset, us));
        self.unmake();
        ok
    }

    /// The cheap trial: only the cells change (attack detection reads nothing else).
    pub(super) fn safe_by_cells(&mut self, preset: &Preset, m: Move, k: Sq) -> bool {
        match self.attacked_after_cells(preset, m, k, self.side.other()) {
            Some(attacked) => !attacked,
            None => self.safe_by_make(preset, m),
        }
    }

    /// For `checks illegal`: the cells where a plain move of `us` (no promotion, drop, e.p. or
    /// castling) could make `us` attack the royal piece on `k`, which it does not attack now. `to`:
    /// where a piece of `us` on the board could attack it from (leap origins; each rider line up to
    /// and including its first piece). `from`: the piece of `us` first on a line, when a rider of
    /// `us` stands behind it or it rides that line itself (leaving may uncover an attack). Any
    /// other move keeps the royal piece unattacked: the lines from it change only where the move
    /// empties or fills a cell. Returns false (nothing marked) when only the general trial tells:
    /// `us` attacks it now, or has lame, confined, hopping or shaped captures, or the board is
    /// larger than a [`Guard`].
    fn check_guard(&self, preset: &Preset, k: Sq, us: Side, to: &mut Guard, from: &mut Guard) -> bool {
        let t = &preset.movement.attacks[us];
        if !t.back_at.is_empty() || !t.ray_codes.is_empty() || preset.geo.cells > GUARD_WORDS * 64 {
            return false;
        }
        let cells = &self.cells;
        // The codes of `us` on the board: a line or leap no piece of `us` makes is no threat.
        let mut present = 0u128;
        for kind in 0..preset.kinds.len() {
            let code = cell::piece(kind, us);
            if self.counts[code as usize] > 0 {
                present |= 1 << code;
            }
        }
        let k = k.idx() as i32;
        for &(d, mask) in &t.leaps {
            let s = (k - d as i32) as usize;
            if (mask >> cell::code(cells[s])) & 1 != 0 {
                return false;
            }
            if mask & present != 0 {
                to.add(Sq::new(s));
            }
        }
        for r in &t.rides {
            if r.any & present == 0 {
                continue;
            }
            let mut s = k;
            let mut dist = 0u8;
            let mut first = None;
            loop {
                s -= r.delta as i32;
                dist = dist.saturating_add(1);
                let c = cells[s as usize];
                if c == cell::OFF || c == cell::HOLE {
                    break;
                }
                let Some(f) = first else {
                    to.add(Sq::new(s as usize));
                    if c == cell::EMPTY {
                        continue;
                    }
                    if rides_to(preset, r, c, dist, s as usize) {
                        return false;
                    }
                    if !cell::is_side(c, us) {
                        break;
                    }
                    if (r.any >> cell::code(c)) & 1 != 0 {
                        from.add(Sq::new(s as usize));
                    }
                    first = Some(Sq::new(s as usize));
                    continue;
                };
                if c == cell::EMPTY {
                    continue;
                }
                if rides_to(preset, r, c, dist, s as usize) {
                    from.add(f);
                }
                break;
            }
        }
        true
    }

    /// Whether the piece on `watch` (where the move takes it, if it moves it) is attacked by `by`
    /// once `m` is played on the cells alone, which are then put back; `None` when only a full
    /// make tells (a castling whose royal rook is not the watched piece).
    fn attacked_after_cells(&mut self, preset: &Preset, m: Move, watch: Sq, by: Side) -> Option<bool> {
        let mut saved = Saved { cells: [(Sq::NONE, 0); 4], n: 0 };
        let mut royal = watch;
        if m.flags & mflag::CASTLE != 0 {
            let c = &preset.castles[m.extra as usize];
            if self.is_royal_code(c.rook) && c.rook_from != watch {
                return None;
            }
            if c.king_from == watch {
                royal = c.king_to;
            } else if c.rook_from == watch {
                royal = c.rook_to;
            }
            self.put(&mut saved, c.king_from, cell::EMPTY);
            self.put(&mut saved, c.rook_from, cell::EMPTY);
            self.put(&mut saved, c.king_to, c.king);
            self.put(&mut saved, c.rook_to, c.rook);
        } else {
            let piece = cell::code(self.cells[m.from.idx()]);
            if m.from == watch {
                royal = m.to;
            }
            self.put(&mut saved, m.from, cell::EMPTY);
            if m.flags & mflag::EP != 0 {
                self.put(&mut saved, self.ep.victim, cell::EMPTY);
            }
            self.put(&mut saved, m.to, if m.promo != 0 { m.promo } else { piece });
        }
        let attacked = self.attacked_after_saved(preset, &saved, royal, by);
        for &(sq, old) in saved.cells[..saved.n].iter().rev() {
            self.cells[sq.idx()] = old;
        }
        Some(attacked)
    }

    /// [`Self::attacked`] on the cells as a trial left them (`saved` holds what it changed), by
    /// the preset's [`AttackBits`] when it has them: the occupancy bits, still the board's before
    /// the trial, are corrected for the squares it changed (none of which may then hold a piece
    /// of `by`: its pieces are read from the bits).
    #[inline]
    fn attacked_after_saved(&self, preset: &Preset, saved: &Saved, sq: Sq, by: Side) -> bool {
        if let Some(ab) = &preset.attack_bits {
            let mut occ = self.side_bits[Side::White] | self.side_bits[Side::Black];
            let mut gone = 0;
            let mut known = true;
            for &(s, _) in &saved.cells[..saved.n] {
                let b = ab.bit_of[s.idx()];
                // A piece of `by` brought by the trial (a check test's mover) is not in the bits.
                known &= b != 255 && !cell::is_side(self.cells[s.idx()], by);
                let bit = 1u64 << (b & 63);
                gone |= bit;
                if cell::is_piece(self.cells[s.idx()]) {
                    occ |= bit;
                } else {
                    occ &= !bit;
                }
            }
            if known && let Some(a) = self.attacked_bits(preset, ab, sq, by, occ, gone) {
                return a;
            }
        }
        self.attacked(preset, sq, by)
    }

    /// Whether a piece of `by` could capture on `sq`, as [`Self::attacked`] tells from the cells,
    /// told from the preset's [`AttackBits`]: `occ` the board's pieces and none of `by`'s on
    /// `gone` (squares whose cells no longer hold what the occupancy bits say). `None` when the
    /// bits cannot tell (holes on the board).
    pub(crate) fn attacked_bits(
        &self,
        preset: &Preset,
        ab: &AttackBits,
        sq: Sq,
        by: Side,
        occ: u64,
        gone: u64,
    ) -> Option<bool> {
        self.attacks_bits(preset, ab, sq, by, occ, gone, true, |_| true)
    }

    /// The squares where one more piece would block every attack of `by` on `sq` (all of them when
    /// there is none; none for a leap's), read from the bits as [`Self::attacked_bits`] reads them;
    /// `None` when they cannot tell, or an attack is a lame leap's or along a hopper's line (the
    /// general tables': a piece put on its line may also serve as a screen).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn blocking_bits(
        &self,
        preset: &Preset,
        ab: &AttackBits,
        sq: Sq,
        by: Side,
        occ: u64,
        gone: u64,
    ) -> Option<u64> {
        let mut block = !0u64;
        let mut known = true;
        self.attacks_bits(preset, ab, sq, by, occ, gone, true, |squares| {
            match squares {
                Some(b) => block &= b,
                None => known = false,
            }
            !known || block == 0
        })?;
        known.then_some(block)
    }

    /// The squares on the ways of `by`'s attacks on `sq`, blocked now or not: each rider line with
    /// one of its riders on it, each line of [`super::movement::AttackTables::back_lines`] with a
    /// piece of its code, each lame leap's path from a piece of its codes and each shaped path from
    /// a piece of its code. A piece of the other side off them neither opens nor shields an attack
    /// on `sq` by leaving its square. `None` when the bits cannot tell (holes on the board).
    pub(crate) fn attack_routes(&self, preset: &Preset, ab: &AttackBits, sq: Sq, by: Side) -> Option<u64> {
        let tb = *ab.bit_of.get(sq.idx()).filter(|&&b| b != 255 && self.counts[cell::HOLE as usize] == 0)?;
        let tb = tb as usize & 63;
        let t = &preset.movement.attacks[by];
        let s = &ab.sides[by];
        let mut routes = 0;
        s.any_rider_line(tb, &self.code_bits, 0, |line, _, _, _| {
            routes |= line;
            false
        });
        for &i in &s.limited_rides {
            let ray = s.rides[i as usize].0[tb];
            if ray & self.side_bits[by] != 0 {
                routes |= ray;
            }
        }
        if !t.back_at.is_empty() {
            let k = sq.idx();
            for l in &t.back_leaps[t.back_at[k] as usize..t.back_at[k + 1] as usize] {
                if (l.codes >> cell::code(self.cells[l.origin.idx()])) & 1 != 0 {
                    let mut marks = BitMarks { bits: 0, bit_of: &ab.bit_of };
                    l.path[..l.path_len as usize].iter().for_each(|&p| marks.add(p));
                    routes |= marks.bits;
                }
            }
            for (i, l) in t.back_lines.iter().enumerate().take(t.line_at[k + 1] as usize).skip(t.line_at[k] as usize) {
                if s.line_squares[i] & self.code_bits[l.code as usize & 127] != 0 {
                    routes |= s.line_squares[i];
                }
            }
        }
        let n = t.ray_codes.len();
        for (j, &code) in t.ray_codes.iter().enumerate() {
            s.any_path(tb * n + j, self.code_bits[code as usize & 127], |p| {
                routes |= p.empty;
                false
            });
        }
        Some(routes)
    }

    /// The attacks of `by` on `sq` by the bits, each told to `hit` with the squares that would
    /// block it (`None`: the general tables' lame leaps and lines, not told apart) until `hit`
    /// answers true (then `Some(true)`); `Some(false)` when none stopped it, `None` when the bits
    /// cannot tell (holes on the board). Without `groups`, the lines of [`SideBits::ride_groups`]
    /// are left to the caller.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn attacks_bits(
        &self,
        preset: &Preset,
        ab: &AttackBits,
        sq: Sq,
        by: Side,
        occ: u64,
        gone: u64,
        groups: bool,
        mut hit: impl FnMut(Option<u64>) -> bool,
    ) -> Option<bool> {
        if self.counts[cell::HOLE as usize] != 0 {
            return None;
        }
        let tb = ab.bit_of[sq.idx()];
        if tb == 255 {
            return None;
        }
        let tb = tb as usize & 63;
        let t = &preset.movement.attacks[by];
        let s = &ab.sides[by];
        let code_bits = &self.code_bits;
        // `by`'s pieces: a leap or a line with none of them on its squares is passed over.
        let theirs = self.side_bits[by] & !gone;
        // The few pieces on a leap's origin are each asked of their own code's leaps.
        let mut near = s.leap_any[tb] & theirs;
        while near != 0 {
            let b = near.trailing_zeros() as usize & 63;
            near &= near - 1;
            let code = cell::code(self.cells[ab.square_of[b].idx()]) as usize;
            if let Some((_, from)) = s.leaps.get(s.leap_index[code & 127] as usize)
                && (from[tb] >> b) & 1 != 0
                && hit(Some(0))
            {
                return Some(true);
            }
        }
        if groups
            && s.any_rider_line(tb, code_bits, gone, |line, ray, up, riders| {
                let b = nearest(line & occ, up);
                (riders >> b) & 1 != 0 && hit(Some(line & !ray[b] & !(1 << b)))
            })
        {
            return Some(true);
        }
        for &i in &s.limited_rides {
            let (r, (ray, up)) = (&t.rides[i as usize], &s.rides[i as usize]);
            if ray[tb] & theirs == 0 {
                continue;
            }
            let b = nearest(ray[tb] & occ, *up);
            if (theirs >> b) & 1 == 0 {
                continue;
            }
            let at = ab.square_of[b];
            let c = self.cells[at.idx()];
            if (r.any >> cell::code(c)) & 1 == 0 {
                continue;
            }
            let dist = (ray[tb] & !ray[b]).count_ones() as u8;
            if rides_to(preset, r, c, dist, at.idx()) && hit(Some(ray[tb] & !ray[b] & !(1 << b))) {
                return Some(true);
            }
        }
        if !t.back_at.is_empty() {
            let k = sq.idx();
            let near = s.leap_origins[tb] & theirs != 0
                || (s.line_any[tb] & SideBits::pieces(&s.line_codes, code_bits) & !gone != 0
                    && (t.line_at[k] as usize..t.line_at[k + 1] as usize)
                        .any(|i| s.line_squares[i] & code_bits[t.back_lines[i].code as usize & 127] & !gone != 0));
            if near && self.back_attack(preset, t, k) && hit(None) {
                return Some(true);
            }
        }
        if s.path_any[tb] & theirs == 0 {
            return Some(false);
        }
        let n = t.ray_codes.len();
        for (j, &code) in t.ray_codes.iter().enumerate() {
            let pieces = code_bits[code as usize & 127] & !gone;
            if pieces & s.path_origins[tb * n + j] == 0 {
                continue;
            }
            if s.any_path(tb * n + j, pieces, |p| p.empty & occ == 0 && hit(Some(p.empty))) {
                return Some(true);
            }
        }
        Some(false)
    }

    #[inline]
    fn put(&mut self, saved: &mut Saved, sq: Sq, new: u8) {
        saved.cells[saved.n] = (sq, self.cells[sq.idx()]);
        saved.n += 1;
        self.cells[sq.idx()] = new;
    }

    /// Whether putting a piece on an empty square could never expose the royal piece of `us`: no
    /// enemy piece attacks over a screen.
    pub(crate) fn adding_keeps_safe(&self, preset: &Preset, us: Side) -> bool {
        let t = &preset.movement.attacks[us.other()];
        t.special.iter().all(|(_, s)| s.flags & super::movement::flag::HOP == 0)
    }

    /// The squares whose piece (of either side) alone stands between the royal piece of `us` and an
    /// enemy rider: emptying any other square cannot expose it, if it is not attacked now. `None`
    /// when that is not so simple to tell (several royals, lame or hopping attackers).
    pub(crate) fn sole_blockers(&self, preset: &Preset, us: Side) -> Option<Pins> {
        let k = self.royal_square(us)?;
        let t = &preset.movement.attacks[us.other()];
        if !t.special.is_empty() || !t.ray_codes.is_empty() {
            return None;
        }
        self.blockers(preset, k, us, true)
    }

    /// The holes whose building could expose the royal piece of `us`, which is not attacked now: on
    /// each line an enemy rider attacks along, the first cell from the royal piece that is not
    /// empty, when it is a hole (a new square is empty: it opens a line and holds no attacker) and
    /// the next cell past it that is not empty holds an enemy piece riding that line that far (one
    /// square built at a time: past a second hole the line stays shut).
    /// `None` when that is not so simple to tell (several royals, lame, hopping, confined or shaped
    /// attackers, facing royals).
    pub(crate) fn hole_openers(&self, preset: &Preset, us: Side) -> Option<Pins> {
        let k = self.royal_square(us)?;
        let t = &preset.movement.attacks[us.other()];
        if !t.special.is_empty() || !t.ray_codes.is_empty() || preset.facing_break {
            return None;
        }
        let mut holes = Pins { squares: [Sq::NONE; 16], n: 0 };
        for r in &t.rides {
            let mut s = k.idx() as i32;
            loop {
                s -= r.delta as i32;
                if self.cells[s as usize] != cell::EMPTY {
                    break;
                }
            }
            if self.cells[s as usize] != cell::HOLE {
                continue;
            }
            // Built, the hole opens the line only as far as the next cell that is not empty: an
            // opener only if that holds an enemy piece riding this line that far.
            let hole = s;
            let mut dist = ((k.idx() as i32 - hole) / r.delta as i32) as u8;
            loop {
                s -= r.delta as i32;
                dist = dist.saturating_add(1);
                if self.cells[s as usize] != cell::EMPTY {
                    break;
                }
            }
            let c = self.cells[s as usize];
            if cell::is_side(c, us.other()) && rides_to(preset, r, c, dist, s as usize) {
                if holes.n == holes.squares.len() {
                    return None;
                }
                holes.squares[holes.n] = Sq::new(hole as usize);
                holes.n += 1;
            }
        }
        Some(holes)
    }

    /// The pieces of `us` that alone stand between the royal piece on `k` and an enemy rider, or
    /// `None` when it is attacked (by anything) or they are too many to list: [`Self::attacked`]
    /// and [`Self::blockers`] in one walk along the rider lines.
    fn pins_unless_attacked(&self, preset: &Preset, k: Sq, us: Side) -> Option<Pins> {
        let them = us.other();
        let t = &preset.movement.attacks[them];
        let cells = &self.cells;
        let mut pins = Pins { squares: [Sq::NONE; 16], n: 0 };
        let mut overflow = false;
        for r in &t.rides {
            let mut s = k.idx() as i32;
            let mut dist = 0u8;
            let mut blocker = None;
            loop {
                let c = next_on_line(cells, r, &mut s, &mut dist);
                match blocker {
                    None if rides_to(preset, r, c, dist, s as usize) => return None,
                    None if cell::is_side(c, us) => blocker = Some(Sq::new(s as usize)),
                    Some(b) if cell::is_side(c, them) && rides_to(preset, r, c, dist, s as usize) => {
                        if pins.n == pins.squares.len() {
                            overflow = true;
                        } else {
                            pins.squares[pins.n] = b;
                            pins.n += 1;
                        }
                        break;
                    }
                    _ => break,
                }
            }
        }
        let k = k.idx() as i32;
        for &(d, mask) in &t.leaps {
            if (mask >> cell::code(cells[(k - d as i32) as usize])) & 1 != 0 {
                return None;
            }
        }
        if !t.back_at.is_empty() && self.back_attack(preset, t, k as usize) {
            return None;
        }
        (!overflow).then_some(pins)
    }

    /// The pieces of `us` (or with `any`, of either side) that alone stand between the royal piece
    /// on `k` and an enemy rider.
    fn blockers(&self, preset: &Preset, k: Sq, us: Side, any: bool) -> Option<Pins> {
        Pins::of(
            preset.movement.attacks[us.other()].rides.iter().filter_map(|r| self.line_blocker(preset, r, k, us, any)),
        )
    }

    /// [`Self::blockers`] along one enemy rider line `r` to `k`: the piece that alone stands on it
    /// between `k` and an enemy piece riding it that far.
    #[inline]
    fn line_blocker(&self, preset: &Preset, r: &super::movement::RideAttack, k: Sq, us: Side, any: bool) -> Option<Sq> {
        let mut s = k.idx() as i32;
        let mut dist = 0u8;
        let mut blocker = None;
        loop {
            let c = next_on_line(&self.cells, r, &mut s, &mut dist);
            match blocker {
                None if cell::is_side(c, us) || (any && cell::is_piece(c)) => blocker = Some(Sq::new(s as usize)),
                Some(b) if cell::is_side(c, us.other()) && rides_to(preset, r, c, dist, s as usize) => return Some(b),
                _ => return None,
            }
        }
    }

    /// [`Self::sole_blockers`] along the enemy's rider line `line` alone (an index into its
    /// rides), for a caller that knows the other lines unchanged; `None` when the royal piece is
    /// not alone or the enemy attacks otherwise than along lines ([`Self::blockers_by_line`]).
    pub(crate) fn sole_blocker_on(&self, preset: &Preset, us: Side, line: usize) -> Option<Sq> {
        let k = self.royal_square(us)?;
        let r = preset.movement.attacks[us.other()].rides.get(line)?;
        self.line_blocker(preset, r, k, us, true)
    }

    /// Whether [`Self::sole_blockers`] looks along the enemy's rider lines alone, one by one.
    pub(crate) fn blockers_by_line(preset: &Preset, us: Side) -> bool {
        let t = &preset.movement.attacks[us.other()];
        t.special.is_empty() && t.ray_codes.is_empty()
    }
}

/// The next cell that is not empty along line `r` (towards its rider) from cell `s`, which it
/// moves to, `dist` counting the steps; the padding stops every walk.
#[inline(always)]
fn next_on_line(cells: &[u8], r: &super::movement::RideAttack, s: &mut i32, dist: &mut u8) -> u8 {
    loop {
        *s -= r.delta as i32;
        *dist = dist.saturating_add(1);
        let c = cells[*s as usize];
        if c != cell::EMPTY {
            return c;
        }
    }
}
