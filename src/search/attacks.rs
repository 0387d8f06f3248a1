//! What the evaluation counts in both sides' pseudo-legal moves (mobility, moves near the enemy
//! royal piece, a capture for the side to move), by listing the moves or, where the board has at
//! most 64 squares and the pieces move plainly ([`crate::engine::bitboard`]), by popcounts of
//! each piece's target set: the same figures without the two move generations. The same sets
//! give a static exchange evaluation ([`AttackSets::see`]): what a move onto a square wins or
//! loses when both sides then take on it with their least valuable piece.

use crate::engine::bitboard::{BitTables, Bits, KindBits, compile};
use crate::engine::board::{Sq, cell};
use crate::engine::position::mflag;
use crate::engine::slides;
use crate::engine::{Move, Position, Side};
use crate::preset::Preset;

/// What the evaluation counts, per side (by [`Side::index`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Pseudo-legal moves (each promotion choice a move, castlings, drops and passes included).
    pub moves: [i32; 2],
    /// The same moves, each weighed by its mover's cell code (`weights[code]`, see
    /// [`Weights`]): a drop's mover is the empty square it lands on.
    pub weighted: [i32; 2],
    /// Moves of the side's non-royal pieces (drops included) onto the enemy royal piece's square
    /// or its neighbours; 0 when the enemy has not exactly one royal piece.
    pub near_royal: [i32; 2],
    /// Whether the side to move has a capturing move (en passant included).
    pub could_capture: bool,
    /// The side to move's pieces that have a capturing move, by bit ([`AttackSets::count`]
    /// only: [`AttackSets::capturers_moves`] lists their moves).
    pub capturers: Bits,
    /// Per side, what its threats on enemy pieces could win, summed over the threatened pieces
    /// ([`AttackSets::count`] only, with values set: [`AttackSets::set_values`]): a piece
    /// attacked by a less valuable one counts the difference, an attacked piece its side does not
    /// defend its whole value (royal pieces are never victims and never lesser attackers).
    pub threats: [i32; 2],
    /// Per side, the squares from which one of its non-royal pieces could check the enemy royal
    /// piece next turn where no enemy piece attacks them (safe checks), counted
    /// ([`AttackSets::count`] only; 0 when the enemy has not exactly one royal piece).
    pub safe_checks: [i32; 2],
}

/// Per cell code: the weight of one move of the piece (what [`Counts::weighted`] sums).
pub type Weights = [i32; 128];

/// The weight of the move `m` by its mover (before it is played).
#[inline]
fn weight_of(pos: &Position, weights: &Weights, m: &Move) -> i32 {
    weights[cell::code(pos.cells[m.from.idx()]) as usize & 127]
}

/// A lone piece `code` on each square of an otherwise empty board, its side to move: `visit`
/// gets the position, the square and the piece's pseudo-legal moves there. What the evaluation's
/// and the values' tables derive from a kind's movement alone starts here.
pub fn alone_on_each_square(preset: &Preset, code: u8, mut visit: impl FnMut(&Position, Sq, &[Move])) {
    let mut pos = Position::empty(preset);
    pos.side = cell::side(code);
    let mut buf = Vec::new();
    for &sq in &preset.geo.squares {
        pos.place(&preset.zobrist, sq, code);
        buf.clear();
        pos.pseudo_moves(preset, &mut buf);
        visit(&pos, sq, &buf);
        pos.place(&preset.zobrist, sq, cell::EMPTY);
    }
}

/// The counts from the move lists: [`Position::pseudo_moves`] for each side.
pub fn listed(preset: &Preset, pos: &mut Position, buf: &mut Vec<Move>, weights: &Weights) -> Counts {
    let us = pos.side;
    let mut c = Counts::default();
    for side in [us, us.other()] {
        pos.side = side;
        buf.clear();
        pos.pseudo_moves(preset, buf);
        c.moves[side.index()] = buf.len() as i32;
        c.weighted[side.index()] = buf.iter().map(|m| weight_of(pos, weights, m)).sum();
        if side == us {
            c.could_capture = buf.iter().any(|m| m.flags & (mflag::CAPTURE | mflag::EP) != 0);
        }
        c.near_royal[side.index()] = near_royal(preset, pos, buf, side.other());
    }
    pos.side = us;
    c
}

/// How many moves in `buf`, of non-royal pieces (drops included), land on or next to `side`'s
/// royal piece (none when it has not exactly one).
fn near_royal(preset: &Preset, pos: &Position, buf: &[Move], side: Side) -> i32 {
    let Some(k) = pos.royal_square(side) else {
        return 0;
    };
    let g = &preset.geo;
    let (kf, kr) = (g.file(k) as i32, g.rank(k) as i32);
    buf.iter()
        .filter(|m| {
            (g.file(m.to) as i32 - kf).abs() <= 1
                && (g.rank(m.to) as i32 - kr).abs() <= 1
                && (m.flags & mflag::DROP != 0 || !pos.is_royal_code(pos.cells[m.from.idx()]))
        })
        .count() as i32
}

/// A position's pieces in [`AttackSets`]' numbering of squares, gathered piece by piece (see
/// [`AttackSets::gather`]).
struct Gathered {
    sides: [Bits; 2],
    codes: [Bits; 128],
}

/// The preset's pieces as bitboards, for [`AttackSets::count`].
pub struct AttackSets {
    t: BitTables,
    /// Per bit: the square and its king-step neighbours.
    near: Vec<Bits>,
    /// The board's squares.
    board: Bits,
    /// Whether some kind leaps onto the mover's own pieces (`d`).
    friendly: bool,
    /// Per side, kind and bit: the squares from which the kind's piece could take there were the
    /// board empty (all its leaps, full rides and specials), so that a static exchange asks only
    /// the pieces that may reach its square for their target sets.
    reach_to: [Vec<[Bits; 64]>; 2],
    /// Whether positions keep their pieces as bits numbered as these tables number squares
    /// ([`Position::pieces_as_bits`]): then they are read, not gathered piece by piece.
    native: bool,
    /// Per side, the cell codes of its kinds the tables do not describe (none on the board: a
    /// static exchange may be judged).
    unlisted: [Vec<u8>; 2],
    /// Per cell code, the piece's value for [`Counts::threats`] (all 0 until
    /// [`AttackSets::set_values`]: then there are no threats).
    values: [i32; 128],
}

impl AttackSets {
    /// The tables, where the preset's moves can be counted piece by piece: a board of at most 64
    /// squares, some kind that moves plainly, no gating and no immobility rules.
    pub fn new(preset: &Preset) -> Option<AttackSets> {
        if preset.gating.is_some() || !preset.mobile.is_empty() {
            return None;
        }
        // Promotions that depend on the hand or on the pieces left: such kinds are listed.
        let promotion_listed = preset.hand_promotion || !preset.promo_limit.is_empty();
        let g = &preset.geo;
        let mut t = compile(g, &preset.movement)?;
        for side in Side::BOTH {
            for (kind, slot) in t.kinds[side].iter_mut().enumerate() {
                let (Some(k), Some(Some(p))) = (slot.as_mut(), preset.promotions.get(kind)) else { continue };
                if p.hand.is_some() || promotion_listed {
                    *slot = None;
                    continue;
                }
                for (i, &sq) in g.squares.iter().enumerate() {
                    if p.zone[side][sq.idx()] {
                        k.zone |= 1 << i;
                    }
                }
                k.mult = p.choices.len() as u32 + u32::from(p.optional);
                k.leaving = p.leaving;
                k.on_capture = p.on_capture;
            }
        }
        let mut near = vec![0; g.squares.len()];
        for (i, &sq) in g.squares.iter().enumerate() {
            let (f, r) = (g.file(sq) as i32, g.rank(sq) as i32);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(n) = g.square_checked(f + dx, r + dy) {
                        near[i] |= 1u64 << (t.bit_of[n.idx()] & 63);
                    }
                }
            }
        }
        let board = t.board();
        let friendly = t.kinds.0.iter().flatten().flatten().any(|k| k.friendly);
        let reach_to = Side::BOTH.map(|side| {
            let kinds = &t.kinds[side];
            kinds
                .iter()
                .map(|k| {
                    let mut r = [board; 64];
                    if let Some(k) = k {
                        for (b, rb) in r.iter_mut().enumerate() {
                            *rb = t.targets(k, b, || true, 0, 0, board, 0) | k.any[b] | k.take[b];
                            for &(d, _) in &k.rides {
                                *rb |= t.ride(d as usize, b, 0);
                            }
                            for sp in t.specials(k, b) {
                                *rb |= 1u64 << (sp.to & 63);
                            }
                        }
                    }
                    // Turned around: per target bit, the bits it is reached from.
                    let mut to = [0; 64];
                    for (b, &rb) in r.iter().enumerate() {
                        let mut hits = rb;
                        while hits != 0 {
                            to[hits.trailing_zeros() as usize & 63] |= 1u64 << b;
                            hits &= hits - 1;
                        }
                    }
                    to
                })
                .collect()
        });
        let kept = preset.bits.as_ref().map(|b| &b.bit_of).or(preset.attack_bits.as_ref().map(|a| &a.bit_of));
        let native = kept == Some(&t.bit_of);
        let unlisted = Side::BOTH.map(|side| {
            (0..preset.kinds.len())
                .filter(|&k| t.kinds[side].get(k).is_none_or(|k| k.is_none()))
                .map(|k| cell::piece(k, side))
                .collect()
        });
        Some(AttackSets { t, near, board, friendly, reach_to, native, unlisted, values: [0; 128] })
    }

    /// The piece values (per cell code) that [`Counts::threats`] weighs its victims and attackers by.
    pub fn set_values(&mut self, values: &[i32; 128]) {
        self.values = *values;
    }

    /// The counts [`listed`] gives, with each plainly moving piece's moves counted from its target
    /// set and the others' listed piece by piece; `None` where the board has holes now (then
    /// list). Holds to the move lists exactly (`tests/search.rs` compares them).
    pub fn count(&self, preset: &Preset, pos: &mut Position, buf: &mut Vec<Move>, weights: &Weights) -> Option<Counts> {
        #[cfg(target_arch = "x86_64")]
        if crate::engine::slides::fast_cpu() {
            // SAFETY: `fast_cpu` found the features this build of the count uses.
            return unsafe { self.count_fast(preset, pos, buf, weights) };
        }
        self.count_in(preset, pos, buf, weights)
    }

    /// [`AttackSets::count`] compiled for a CPU with POPCNT, BMI1/2 and LZCNT, as perft's bulk
    /// count is (`Position::count_moves`): the release build targets no CPU, so without this its
    /// popcounts are software loops, about 3% of a search's instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn count_fast(
        &self,
        preset: &Preset,
        pos: &mut Position,
        buf: &mut Vec<Move>,
        weights: &Weights,
    ) -> Option<Counts> {
        self.count_in(preset, pos, buf, weights)
    }

    #[inline(always)]
    fn count_in(&self, preset: &Preset, pos: &mut Position, buf: &mut Vec<Move>, weights: &Weights) -> Option<Counts> {
        if pos.counts[cell::HOLE as usize] != 0 {
            return None;
        }
        let t = &self.t;
        let us = pos.side;
        let gathered = self.gather(pos);
        let bits = Self::sides(pos, gathered.as_ref());
        let occ = bits[0] | bits[1];
        let empty = self.board & !occ;
        // Pieces that may take en passant now are listed (their target sets lack it).
        let ep = pos.ep.squares.iter().any(|&s| s != crate::engine::board::Sq::NONE);
        let slides = t.slides();
        let mut c = Counts::default();
        // What each side attacks (its own pieces included: those it defends), and per enemy
        // piece attacked by a less valuable one the most such an attack gains (by the victim's bit).
        let mut threats = Threats { attacked: [0; 2], lesser: [0; 2], gain: [0; 64] };
        // Per side, the squares its pieces' moves reach from which they would check.
        let mut checks = [0 as Bits; 2];
        for side in [us, us.other()] {
            let (own, enemy) = (bits[side.index()], bits[side.other().index()]);
            let ep = ep && cell::is_side(pos.cells[pos.ep.victim.idx()], side.other());
            let royal_bit = pos.royal_square(side.other()).map(|k| t.bit_of[k.idx()] as usize & 63);
            let zone = royal_bit.map_or(0, |b| self.near[b]);
            let (mut moves, mut weighted, mut near, mut takes) = (0i32, 0i32, 0i32, false);
            let mut capturers = 0;
            pos.side = side;
            // Leaps that take the mover's own pieces (`d`) never take its royal pieces.
            let mut royals = 0u64;
            if self.friendly {
                for sq in pos.occupied_by(side) {
                    if pos.is_royal_code(pos.cells[sq.idx()]) {
                        royals |= 1u64 << (t.bit_of[sq.idx()] & 63);
                    }
                }
            }
            // The side's pieces kind by kind, from their bits: a kind's tables, value, weight and
            // royalty are looked up once for all its pieces, and no piece's cell is read but for
            // an initial move (the counts are sums, so the order does not matter).
            for kind in 0..preset.kinds.len() {
                let code = cell::piece(kind, side);
                // Read per kind, not held: `pos` is changed (its side to move) in this loop.
                let mut rest = gathered.as_ref().map_or(pos.code_bits(), |g| &g.codes)[code as usize & 127];
                if rest == 0 {
                    continue;
                }
                let royal = pos.is_royal_code(code);
                let attacker = if royal { i32::MAX } else { self.values[code as usize & 127] };
                let weight = weights[code as usize & 127];
                let kb = t.kinds[side].get(kind).and_then(Option::as_ref);
                let k = match kb {
                    Some(k) if !(ep && (preset.movement.ep_capturers >> code) & 1 != 0) => k,
                    _ => {
                        while rest != 0 {
                            let b = rest.trailing_zeros() as usize & 63;
                            rest &= rest - 1;
                            let sq = t.square_of[b];
                            // Its attacks from its target set where it has one (en passant aside),
                            // else from its captures.
                            let attacks = match kb {
                                Some(k) => t.targets_in(slides, k, b, || unmoved(pos, sq), 0, occ, empty, royals),
                                None => 0,
                            };
                            threats.note(self, pos, side, attacks, enemy, attacker);
                            buf.clear();
                            pos.piece_pseudo_moves(preset, sq, buf);
                            moves += buf.len() as i32;
                            for m in buf.iter() {
                                weighted += weight_of(pos, weights, m);
                                let to = 1u64 << (t.bit_of[m.to.idx()] & 63);
                                if !royal && to & zone != 0 {
                                    near += 1;
                                }
                                if m.flags & (mflag::CAPTURE | mflag::EP) != 0 {
                                    takes = true;
                                    capturers |= 1u64 << b;
                                    if kb.is_none() && m.flags & mflag::CAPTURE != 0 {
                                        threats.note(self, pos, side, to, enemy, attacker);
                                    }
                                }
                            }
                        }
                        continue;
                    }
                };
                let more = k.mult as i32 - 1;
                let checking = match royal_bit {
                    Some(r) if !royal => check_squares(t, slides, k, r, occ),
                    _ => 0,
                };
                while rest != 0 {
                    let b = rest.trailing_zeros() as usize & 63;
                    rest &= rest - 1;
                    // Its target set with every piece as a victim: the moves and what it defends,
                    // from one look-up (only a leap onto its own pieces, `d`, needs them as its own).
                    let all = t.targets_in(slides, k, b, || unmoved(pos, t.square_of[b]), 0, occ, empty, royals);
                    let mut to = all & !own;
                    if k.friendly {
                        to |= k.friend[b] & own & !royals;
                    }
                    threats.note(self, pos, side, all, enemy, attacker);
                    checks[side.index()] |= to & checking;
                    // Leaps onto the mover's own pieces (`d`) are captures too.
                    if to & occ != 0 {
                        takes = true;
                        capturers |= 1u64 << b;
                    }
                    let promo = BitTables::promotions(k, b, to, enemy);
                    // Popcounts only where there is something to count (most pieces are far from
                    // the enemy royal piece and from promotion).
                    let mut n = to.count_ones() as i32;
                    if promo != 0 {
                        n += promo.count_ones() as i32 * more;
                    }
                    moves += n;
                    weighted += n * weight;
                    if !royal && to & zone != 0 {
                        near += (to & zone).count_ones() as i32 + (promo & zone).count_ones() as i32 * more;
                    }
                }
            }
            buf.clear();
            pos.extra_pseudo_moves(preset, buf);
            moves += buf.len() as i32;
            for m in buf.iter() {
                weighted += weight_of(pos, weights, m);
                let to = 1u64 << (t.bit_of[m.to.idx()] & 63);
                if to & zone != 0 && (m.flags & mflag::DROP != 0 || !pos.is_royal_code(pos.cells[m.from.idx()])) {
                    near += 1;
                }
                if m.flags & (mflag::CAPTURE | mflag::EP) != 0 {
                    takes = true;
                }
            }
            c.moves[side.index()] = moves;
            c.weighted[side.index()] = weighted;
            c.near_royal[side.index()] = near;
            if side == us {
                c.could_capture = takes;
                c.capturers = capturers;
            }
        }
        pos.side = us;
        for side in Side::BOTH {
            c.threats[side.index()] = threats.sum(self, pos, side, bits[side.other().index()]);
            c.safe_checks[side.index()] =
                (checks[side.index()] & !threats.attacked[side.other().index()]).count_ones() as i32;
        }
        Some(c)
    }
}

/// The squares from which a piece of `k` would attack the royal piece on bit `r`: where its
/// leaps capture from ([`KindBits::hit_from`]), and its capturing rides walked back from `r`
/// (only where each ride direction's opposite is one too, so that the way out is the way back;
/// specials and lame paths aside: a cheap estimate for royal safety, not a rule).
#[inline(always)]
fn check_squares(t: &BitTables, slides: Option<&slides::Table>, k: &KindBits, r: usize, occ: Bits) -> Bits {
    let mut from = k.hit_from[r];
    const EVEN: u64 = 0x5555_5555_5555_5555;
    let dirs = k.cap_dirs;
    if dirs != 0 && (dirs & EVEN) << 1 == dirs & !EVEN {
        from |= if k.rides_any && dirs == k.slide.dirs {
            t.ride_squares(slides, k, r, occ)
        } else {
            t.rides_walked(dirs, r, occ)
        };
    }
    from
}

/// Whether the piece on `sq` has not moved yet (asked only for initial moves).
#[inline(always)]
fn unmoved(pos: &Position, sq: Sq) -> bool {
    cell::unmoved(pos.cells[sq.idx()])
}

/// The attacks [`AttackSets::count`] gathers for [`Counts::threats`].
struct Threats {
    /// Per side, the squares its pieces attack.
    attacked: [Bits; 2],
    /// Per side, the enemy pieces it attacks with a less valuable piece, by bit.
    lesser: [Bits; 2],
    /// Per victim bit in `lesser`: the most a lesser attacker gains taking it.
    gain: [i32; 64],
}

impl Threats {
    /// A piece of `side` worth `attacker` attacks the squares `attacks`.
    #[inline(always)]
    fn note(&mut self, sets: &AttackSets, pos: &Position, side: Side, attacks: Bits, enemy: Bits, attacker: i32) {
        self.attacked[side.index()] |= attacks;
        let mut hits = attacks & enemy;
        while hits != 0 {
            let vb = hits.trailing_zeros() as usize & 63;
            hits &= hits - 1;
            let victim = sets.values[cell::code(pos.cells[sets.t.square_of[vb].idx()]) as usize & 127];
            if victim > attacker {
                let g = victim - attacker;
                if self.lesser[side.index()] & (1 << vb) == 0 || self.gain[vb] < g {
                    self.gain[vb] = g;
                }
                self.lesser[side.index()] |= 1 << vb;
            }
        }
    }

    /// What `side`'s threats on the enemy pieces `enemy` could win, summed over its victims.
    #[inline(always)]
    fn sum(&self, sets: &AttackSets, pos: &Position, side: Side, enemy: Bits) -> i32 {
        let defended = self.attacked[side.other().index()];
        let mut victims = self.attacked[side.index()] & enemy;
        let mut total = 0;
        while victims != 0 {
            let vb = victims.trailing_zeros() as usize & 63;
            victims &= victims - 1;
            let cl = pos.cells[sets.t.square_of[vb].idx()];
            if pos.is_royal_code(cl) {
                continue;
            }
            let mut g = if self.lesser[side.index()] & (1 << vb) != 0 { self.gain[vb] } else { 0 };
            if defended & (1 << vb) == 0 {
                g = g.max(sets.values[cell::code(cl) as usize & 127]);
            }
            total += g;
        }
        total
    }
}

impl AttackSets {
    /// Where positions do not keep their pieces numbered as these tables number squares (see
    /// `native`): both sides' pieces and each piece code's, gathered in one walk of the board.
    /// `None` where they do: then [`AttackSets::sides`] and [`Position::code_bits`] read them.
    fn gather(&self, pos: &Position) -> Option<Gathered> {
        if self.native {
            return None;
        }
        let mut g = Gathered { sides: [0; 2], codes: [0; 128] };
        for side in Side::BOTH {
            for sq in pos.occupied_by(side) {
                let bit = 1u64 << (self.t.bit_of[sq.idx()] & 63);
                g.sides[side.index()] |= bit;
                g.codes[cell::code(pos.cells[sq.idx()]) as usize & 127] |= bit;
            }
        }
        Some(g)
    }

    /// Both sides' pieces as bits (by [`Side::index`]): gathered, or read from the position.
    #[inline]
    fn sides(pos: &Position, gathered: Option<&Gathered>) -> [Bits; 2] {
        match gathered {
            Some(g) => g.sides,
            None => [pos.pieces_as_bits(Side::White), pos.pieces_as_bits(Side::Black)],
        }
    }

    /// The side to move's pseudo-legal moves from its pieces in `capturers` (as
    /// [`Counts::capturers`] gives them for this position) appended to `out`, as
    /// [`Position::pseudo_moves`] lists them and in its order. Castlings, drops and passes never
    /// capture and are left out: quiescence wants only the captures at every node, and most
    /// pieces have none.
    pub fn capturers_moves(&self, preset: &Preset, pos: &Position, capturers: Bits, out: &mut Vec<Move>) {
        for sq in pos.occupied_by(pos.side) {
            if capturers & (1u64 << (self.t.bit_of[sq.idx()] & 63)) != 0 {
                pos.piece_pseudo_moves(preset, sq, out);
            }
        }
    }
}

/// The value [`AttackSets::see`] gives a royal piece: taking one ends the exchange's sense.
const ROYAL_SEE: i32 = 1 << 20;

impl AttackSets {
    /// The static exchange evaluation of the move `from`-`to` (a capture or a quiet move): the
    /// material its side wins when, after it, both sides take on `to` in turn with their least
    /// valuable piece that reaches it (through the pieces that left: x-rays), each free to stop.
    /// `value` gives a cell's value. `None` where some piece on the board moves in ways the
    /// tables do not describe, or the board has holes now: then the caller judges otherwise.
    /// A royal mover is not taken back (the move is legal); promotions are not counted.
    pub fn see(&self, pos: &Position, from: Sq, to: Sq, value: impl Fn(u8) -> i32) -> Option<i32> {
        if pos.counts[cell::HOLE as usize] != 0 {
            return None;
        }
        let t = &self.t;
        let mover = pos.cells[from.idx()];
        let victim = pos.cells[to.idx()];
        let first = if cell::is_piece(victim) { value(victim) } else { 0 };
        if pos.is_royal_code(mover) {
            return Some(first);
        }
        if Side::BOTH.iter().any(|&s| self.unlisted[s.index()].iter().any(|&c| pos.counts[c as usize] != 0)) {
            return None;
        }
        let gathered = self.gather(pos);
        let codes = gathered.as_ref().map_or(pos.code_bits(), |g| &g.codes);
        let mut bits = Self::sides(pos, gathered.as_ref());
        let slides = t.slides();
        let tbi = t.bit_of[to.idx()] as usize & 63;
        let tb = 1u64 << tbi;
        let mut occ = (bits[0] | bits[1]) & !(1u64 << (t.bit_of[from.idx()] & 63));
        // `to` holds the last piece to arrive; it is counted apart from both sides' sets.
        bits[0] &= !tb;
        bits[1] &= !tb;
        occ &= !tb;
        let mut gain = [0i32; 40];
        gain[0] = first;
        let mut on_to = value(mover);
        let mut side = cell::side(mover).other();
        let mut d = 0;
        while d + 1 < gain.len() {
            // The least valuable piece of `side` that takes on `to` now.
            let own = bits[side.index()] & occ;
            let enemy = (bits[side.other().index()] & occ) | tb;
            let empty = self.board & !(own | enemy);
            // Kind by kind, only its pieces that may reach `to` at all; among equal values the
            // lowest bit, as a walk of the pieces in bit order finds it.
            let mut best: Option<(i32, u64)> = None;
            for (kind, k) in t.kinds[side].iter().enumerate() {
                let Some(k) = k else { continue };
                let code = cell::piece(kind, side);
                let mut rest = codes[code as usize & 127] & own & self.reach_to[side.index()][kind][tbi];
                if rest == 0 {
                    continue;
                }
                let v = if pos.is_royal_code(code) { ROYAL_SEE } else { value(code) };
                if best.is_some_and(|(bv, _)| bv < v) {
                    continue;
                }
                while rest != 0 {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if t.targets_in(slides, k, b, || unmoved(pos, t.square_of[b]), own, enemy, empty, 0) & tb != 0 {
                        if best.is_none_or(|(bv, bb)| v < bv || 1u64 << b < bb) {
                            best = Some((v, 1u64 << b));
                        }
                        break;
                    }
                }
            }
            let Some((v, b)) = best else { break };
            d += 1;
            gain[d] = on_to - gain[d - 1];
            if (-gain[d - 1]).max(gain[d]) < 0 {
                break;
            }
            on_to = v;
            occ &= !b;
            side = side.other();
        }
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        Some(gain[0])
    }
}
