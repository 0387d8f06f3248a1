//! Counting the legal moves of a position with bitboards, for the last ply of a perft: per piece its
//! targets as a set, pinned pieces kept to their pin line, the royal piece kept off attacked
//! squares, and a popcount; no move is listed or tried. Only where every piece on the board moves
//! plainly ([`super::bitboard`]); en passant and castling are tried as the move list's are.

use super::attackbits::SideBits;
use super::bitboard::{BitTables, Bits, KindBits, compile};
use super::board::{Sq, cell};
use super::movement::flag;
use super::position::{Move, Position, mflag};
use super::side::Side;
use super::slides::Table;
use crate::preset::Preset;

/// The preset's bitboard tables, when its rules let legal moves be counted with them: royal safety
/// and nothing that adds moves or removes moves. A scripted preset gets them too, for the move
/// parts of its turns ([`Position::count_moves`]); its whole turns are never counted here.
pub fn tables(preset: &Preset) -> Option<BitTables> {
    // Without royal safety every move the pieces can make is legal (castling is left to the list).
    let simple = (preset.royal_safety || preset.castles.is_empty())
        && !preset.facing_break
        && preset.explode.is_none()
        && !preset.drops
        && preset.gating.is_none()
        && preset.frozen_in_check == 0
        && !preset.no_checks
        && !preset.must_capture
        && !preset.must_drop
        && preset.promo_limit.is_empty()
        && preset.mobile.is_empty()
        && preset.movement.pass_kinds == 0;
    if !simple {
        return None;
    }
    let mut t = compile(&preset.geo, &preset.movement)?;
    // Kinds that promote from hand: their promoting moves depend on the hand, so no count takes
    // them (they are `unfit`), but their other moves are read from the tables where a move
    // part's quiet moves are counted ([`Position::split_moves`]).
    let mut from_hand = Vec::new();
    for side in Side::BOTH {
        for (kind, slot) in t.kinds[side].iter_mut().enumerate() {
            let (Some(k), Some(p)) = (slot.as_mut(), &preset.promotions[kind]) else { continue };
            // A promotion that makes or unmakes a royal piece is judged by playing it.
            if preset.kinds[kind].royal || p.choices.iter().any(|&c| preset.kinds[c].royal) {
                *slot = None;
                continue;
            }
            if p.hand.is_some() {
                from_hand.push(cell::piece(kind, side));
            }
            for (i, &sq) in preset.geo.squares.iter().enumerate() {
                if p.zone[side][sq.idx()] {
                    k.zone |= 1 << i;
                }
            }
            k.mult = p.choices.len() as u32 + u32::from(p.optional);
            k.leaving = p.leaving;
            k.on_capture = p.on_capture;
            for s in &k.shifts {
                let reach = k.zone.rotate_right(u32::from(s.delta)) | if k.leaving { k.zone } else { 0 };
                k.promo_from |= s.from & reach;
            }
        }
    }
    // Each castling's squares that must be empty, to turn most castlings down with one test.
    t.castle_empty = preset
        .castles
        .iter()
        .map(|c| {
            c.empty.iter().filter_map(|s| t.bit_of.get(s.idx())).filter(|&&b| b != 255).fold(0, |m, &b| m | 1 << b)
        })
        .collect();
    for side in Side::BOTH {
        for (kind, k) in t.kinds[side].iter().enumerate() {
            if k.is_none() {
                t.unfit.push(cell::piece(kind, side));
            }
        }
    }
    t.unfit.extend(from_hand);
    // A kind described for its moves alone that promotes is listed (its promotions are not in
    // its tables).
    for side in Side::BOTH {
        for (kind, slot) in t.moving[side].iter_mut().enumerate() {
            if preset.promotions[kind].is_some() {
                *slot = None;
            }
        }
    }
    Some(t)
}

/// What [`Position::split_moves`] gives: the legal quiet moves counted, and a quiet move to judge
/// them by; `None` when the moves are not split.
pub type Split = Option<(u64, Option<Move>)>;

impl Position {
    /// Whether the piece on bit `b` has not moved yet.
    #[inline(always)]
    fn unmoved_at(&self, t: &BitTables, b: usize) -> bool {
        t.square_of.get(b).is_some_and(|sq| cell::unmoved(self.cells[sq.idx()]))
    }

    /// The number of legal moves, counted with the preset's bitboards; `None` when this position
    /// needs them listed: no tables, a piece they do not describe, a hole, or not exactly one royal
    /// piece of the mover's.
    pub fn count_legal(&mut self, preset: &Preset) -> Option<u64> {
        if preset.script.active {
            return None;
        }
        self.count_moves(preset)
    }

    /// The number of legal moves as [`Position::legal_moves`] lists them, counted with the
    /// preset's bitboards, scripts or not: for a scripted preset, the candidates of a move part
    /// (see `play::leafcount`). `None` as for [`Position::count_legal`].
    pub fn count_moves(&mut self, preset: &Preset) -> Option<u64> {
        #[cfg(target_arch = "x86_64")]
        if super::slides::fast_cpu() {
            // SAFETY: `fast_cpu` found the features this build of the count uses.
            return unsafe { self.count_moves_fast(preset) };
        }
        self.count_moves_in(preset)
    }

    /// [`Position::count_moves`] compiled for a CPU with POPCNT, BMI1/2 and LZCNT: the popcounts,
    /// bit scans and the ride tables' PEXT become single instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn count_moves_fast(&mut self, preset: &Preset) -> Option<u64> {
        self.count_moves_in(preset)
    }

    #[inline(always)]
    fn count_moves_in(&mut self, preset: &Preset) -> Option<u64> {
        let t = preset.bits.as_ref()?;
        if self.counts[cell::HOLE as usize] != 0 {
            return None;
        }
        if t.unfit.iter().any(|&c| self.counts[c as usize] != 0) {
            return None;
        }
        // With no royal kind at all (and no castling, which the pseudo count leaves to the list)
        // every move the pieces can make is legal too.
        if !preset.royal_safety || (preset.castles.is_empty() && !self.has_royal_kinds()) {
            return self.count_pseudo(preset, t);
        }
        let us = self.side;
        let them = us.other();
        let royal = self.royal_square(us)?;
        let kb = t.bit_of[royal.idx()] as usize & 63;
        let (own, enemy) = (self.side_bits[us], self.side_bits[them]);
        let occ = own | enemy;
        let board = t.board();
        let empty = board & !occ;
        // The royal piece's destinations and castling's squares are asked one by one (with the
        // royal piece lifted: a rider's line goes on past it) rather than the enemy's whole attack
        // set built: most positions leave the royal piece few moves.
        let lifted = occ & !(1 << kb);
        // The enemy's pieces that ride (and so may pin).
        let mut riders: Bits = 0;
        for (kind, k) in t.kinds[them].iter().enumerate() {
            if k.as_ref().is_some_and(|k| k.cap_dirs != 0) {
                riders |= self.code_bits[cell::piece(kind, them) as usize & 127];
            }
        }
        // In check, the other pieces' moves must break every attack on the royal piece.
        let tb = t.slides();
        let in_check = self.hit_on(t, tb, them, kb, occ);
        let block = if in_check { self.blocks(t, them, kb, occ) } else { !0 };
        // Pinned pieces: the mover's piece nearest the royal piece along a line an enemy rides to it.
        let mut pinned: Bits = 0;
        let mut lines = [(0u8, 0 as Bits); 16];
        let mut np = 0;
        let mut dirs = t.ride_dirs[them];
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let back = t.dirs[d & 63].back as usize;
            if t.dirs[back & 63].ray[kb] & riders == 0 {
                continue;
            }
            let near = t.ride(back, kb, occ);
            let first = near & own;
            if first == 0 {
                continue;
            }
            let fb = first.trailing_zeros() as usize;
            let far = t.ride(back, fb, occ);
            let second = far & enemy;
            if second == 0 {
                continue;
            }
            let sq = t.square_of[second.trailing_zeros() as usize];
            let c = self.cells[sq.idx()];
            let rides = t.kinds[them][cell::kind(c)].as_ref().is_some_and(|k| (k.cap_dirs >> d) & 1 != 0);
            if !rides {
                continue;
            }
            if np == lines.len() {
                return None;
            }
            pinned |= 1 << fb;
            lines[np] = (fb as u8, near | far);
            np += 1;
        }
        // A lone piece of the mover's on the path of an enemy's lame capture of the royal piece:
        // it may only move along that path or take the capturer.
        if t.lame_caps[them] {
            for (kind, k) in t.kinds[them].iter().enumerate() {
                let Some(k) = k.as_ref().filter(|k| k.lame_caps) else { continue };
                let mut at = self.code_bits[cell::piece(kind, them) as usize & 127];
                while at != 0 {
                    let a = at.trailing_zeros() as usize & 63;
                    at &= at - 1;
                    for sp in t.specials(k, a) {
                        let on = sp.path & occ;
                        if sp.to as usize != kb
                            || sp.flags & flag::CAPTURE == 0
                            || on & own == 0
                            || on.count_ones() != 1
                            || (sp.initial && !self.unmoved_at(t, a))
                        {
                            continue;
                        }
                        if np == lines.len() {
                            return None;
                        }
                        pinned |= on;
                        lines[np] = (on.trailing_zeros() as u8, sp.path | 1 << a);
                        np += 1;
                    }
                }
            }
        }
        let mut n = 0u64;
        for (kind, k) in t.kinds[us].iter().enumerate() {
            let mut at = self.code_bits[cell::piece(kind, us) as usize & 127];
            let Some(k) = k else { continue };
            // A kind that moves by shifts counts the moves of its free pieces together.
            // (Unless it has fewer pieces than half its shifts: a knight's eight for two pieces.)
            if k.shifted {
                let free = at & !pinned & !(1 << kb);
                if free != 0 && 2 * free.count_ones() as usize >= k.shifts.len() {
                    n += self.count_shifts(t, k, free, own, enemy, empty, block);
                    at &= !free;
                }
            }
            while at != 0 {
                let b = at.trailing_zeros() as usize & 63;
                at &= at - 1;
                // Leaps onto the mover's own pieces spare its royal one (the only one: see above).
                let mut to = t.targets_in(tb, k, b, || self.unmoved_at(t, b), own, enemy, empty, 1 << kb);
                if b == kb {
                    let mut left = to;
                    while left != 0 {
                        let s = left.trailing_zeros() as usize;
                        left &= left - 1;
                        if self.hit_on(t, tb, them, s, lifted) {
                            to &= !(1 << s);
                        }
                    }
                } else {
                    to &= block;
                }
                if b != kb && (pinned >> b) & 1 != 0 {
                    for &(p, line) in &lines[..np] {
                        if p as usize == b {
                            to &= line;
                        }
                    }
                }
                n += u64::from(to.count_ones());
                let promo = BitTables::promotions(k, b, to, enemy);
                if promo != 0 {
                    n = n + u64::from(promo.count_ones()) * u64::from(k.mult) - u64::from(promo.count_ones());
                }
            }
        }
        // Castling's squares: asked with the royal piece lifted as above, unless a lame capture's
        // path runs over the royal piece (lifted there, not in the castling's test).
        if self.ep.hashed {
            n += self.count_en_passant(preset, t, royal)?;
        }
        Some(n + self.count_castlings(preset, t, tb, royal, lifted, in_check))
    }

    /// The moves of the pieces `free` of kind `k` by its shifts ([`super::bitboard::Shift`]) onto
    /// the squares `onto`, promotions counted as their choices.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn count_shifts(
        &self,
        t: &BitTables,
        k: &KindBits,
        free: Bits,
        own: Bits,
        enemy: Bits,
        empty: Bits,
        onto: Bits,
    ) -> u64 {
        // Where a shift's moves may land, by its flags: nowhere, empty squares, enemy pieces, either.
        let allowed = [0, empty & onto, enemy & onto, !own & onto];
        let mut n = 0u64;
        for s in &k.shifts {
            let mut movers = free & s.from;
            // The path's squares, each turned back onto the movers that need it empty.
            for &p in &s.path[..(s.path_len as usize).min(4)] {
                movers &= empty.rotate_right(u32::from(p));
            }
            if movers == 0 {
                continue;
            }
            let mut to = movers.rotate_left(u32::from(s.delta)) & allowed[usize::from(s.flags & 3)];
            if s.initial {
                let mut left = movers;
                while left != 0 {
                    let b = left.trailing_zeros() & 63;
                    left &= left - 1;
                    if !self.unmoved_at(t, b as usize) {
                        to &= !(1u64 << b).rotate_left(u32::from(s.delta));
                    }
                }
            }
            n += u64::from(to.count_ones());
            if k.zone != 0 {
                let mut promo = to & k.zone;
                if k.leaving {
                    promo |= (movers & k.zone).rotate_left(u32::from(s.delta)) & to;
                }
                if k.on_capture {
                    promo &= enemy;
                }
                n = n + u64::from(promo.count_ones()) * u64::from(k.mult) - u64::from(promo.count_ones());
            }
        }
        n
    }

    /// [`Position::count_moves`] without royal safety: every move the pieces can make (a royal
    /// piece may be left attacked or taken); `None` with an en-passant square (left to the list).
    #[inline(always)]
    fn count_pseudo(&self, preset: &Preset, t: &BitTables) -> Option<u64> {
        if self.ep.hashed {
            return None;
        }
        let us = self.side;
        let (own, enemy) = (self.side_bits[us], self.side_bits[us.other()]);
        let occ = own | enemy;
        let board = t.board();
        let empty = board & !occ;
        let mut royals: Bits = 0;
        for kind in 0..preset.kinds.len() {
            let code = cell::piece(kind, us);
            if self.is_royal_code(code) {
                royals |= self.code_bits[code as usize & 127];
            }
        }
        let mut n = 0u64;
        for (kind, k) in t.kinds[us].iter().enumerate() {
            let mut at = self.code_bits[cell::piece(kind, us) as usize & 127];
            let Some(k) = k else { continue };
            while at != 0 {
                let b = at.trailing_zeros() as usize & 63;
                at &= at - 1;
                let to = t.targets(k, b, || self.unmoved_at(t, b), own, enemy, empty, royals);
                n += u64::from(to.count_ones());
                let promo = BitTables::promotions(k, b, to, enemy);
                if promo != 0 {
                    n = n + u64::from(promo.count_ones()) * u64::from(k.mult) - u64::from(promo.count_ones());
                }
            }
        }
        Some(n)
    }

    /// A scripted move part's moves split for the last ply of a perft: the legal quiet moves (no
    /// capture, promotion, castling, en passant or drop; as `play::turngen` tells them) counted,
    /// and the other pseudo-legal moves pushed onto `out` (the legal ones among them onto
    /// `legal`, as [`Position::keep_legal`] keeps them); with one quiet pseudo-legal move, if
    /// there is any, as the moves list it (the generator judges the quiet moves' hooks by one).
    /// The pieces the bitboards describe count their quiet moves with a popcount, outside the
    /// squares where a move could expose the royal piece ([`Position::guard_bits`]; those are
    /// tried); the others are listed, their quiet moves judged as the legal moves are.
    /// When the royal piece is attacked, every move is tried. `None` (and the lists as they were)
    /// when the legal moves are not simply the safe ones, the mover has not exactly one royal
    /// piece, or the preset has no [`crate::engine::attackbits::AttackBits`].
    pub fn split_moves(&mut self, preset: &Preset, out: &mut Vec<Move>, legal: &mut Vec<Move>) -> Split {
        #[cfg(target_arch = "x86_64")]
        if super::slides::fast_cpu() {
            // SAFETY: `fast_cpu` found the features this build of the split uses.
            return unsafe { self.split_moves_fast(preset, out, legal) };
        }
        self.split_moves_in(preset, out, legal)
    }

    /// [`Position::split_moves`] compiled as [`Position::count_moves_fast`] is.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn split_moves_fast(&mut self, preset: &Preset, out: &mut Vec<Move>, legal: &mut Vec<Move>) -> Split {
        self.split_moves_in(preset, out, legal)
    }

    #[inline(always)]
    fn split_moves_in(&mut self, preset: &Preset, out: &mut Vec<Move>, legal: &mut Vec<Move>) -> Split {
        let t = preset.bits.as_ref()?;
        if !preset.royal_safety
            || preset.explode.is_some()
            || preset.facing_break
            || preset.frozen_in_check != 0
            || preset.no_checks
            || preset.must_capture
            || preset.must_drop
            || preset.drops
            || preset.gating.is_some()
            || !preset.mobile.is_empty()
            || preset.movement.pass_kinds != 0
            || self.counts[cell::HOLE as usize] != 0
        {
            return None;
        }
        let us = self.side;
        let k = self.royal_square(us)?;
        // Attacked now (no guard), every quiet move is tried, as the legal moves' are; a square
        // may be a screen only if the enemy has a piece that hops.
        let (guard, screens) = match self.guard_bits(preset, k, us) {
            Some(g) => g,
            None if let Some(ab) = &preset.attack_bits => {
                let hoppers = SideBits::pieces(&ab.sides[us.other()].hop_codes, &self.code_bits);
                (!0, if hoppers != 0 { !0 } else { 0 })
            }
            None => return None,
        };
        let kb = t.bit_of[k.idx()] as usize & 63;
        let (own, enemy) = (self.side_bits[us], self.side_bits[us.other()]);
        let occ = own | enemy;
        let board = t.board();
        let empty = board & !occ;
        let tb = t.slides();
        // With no guard (in check) and no screen: the squares that block every attack, and the
        // squares on the attacks' ways. A piece off those ways moves onto the blocking squares
        // alone, as it would once lifted ([`Position::blocks_lifted`]): none of its moves is tried.
        let checked = match &preset.attack_bits {
            Some(ab) if guard == !0 && screens == 0 => {
                self.blocking_bits(preset, ab, k, us.other(), occ, 0).zip(self.attack_routes(preset, ab, k, us.other()))
            }
            _ => None,
        };
        let (exposed, block) = checked.map_or((guard, !0), |(block, routes)| (routes, block));
        // En passant is looked for in the moves list: the kinds that may take so are listed.
        let ep = self.ep.hashed;
        let (mut n, mut sample, mut quiet_from) = (0u64, None, None);
        // Most kinds have no piece on the board (Universal's 25 kinds, 8 of them present): those
        // that have are gathered first, without a branch per kind (at most `cell::MAX_KINDS`).
        let mut present = 0u64;
        for kind in 0..preset.kinds.len().min(64) {
            present |= u64::from(self.code_bits[cell::piece(kind, us) as usize & 127] != 0) << kind;
        }
        while present != 0 {
            let kind = present.trailing_zeros() as usize;
            present &= present - 1;
            let code = cell::piece(kind, us);
            let mut at = self.code_bits[code as usize & 127];
            if at == 0 {
                continue;
            }
            let described = t.kinds[us].get(kind).and_then(Option::as_ref);
            let fit = match described.or_else(|| t.moving[us].get(kind).and_then(Option::as_ref)) {
                Some(k) if !(ep && (preset.movement.ep_capturers >> code) & 1 != 0) => Some(k),
                _ => None,
            };
            // A kind that moves by shifts splits the moves of its pieces off the guarded squares
            // (that cannot promote) together: a pawn's eight at once. The lowest of them with a
            // quiet move stands for them in the sample's choice, in its turn among the others.
            let mut batch = 64;
            if let Some(kbits) = fit
                && kbits.shifted
                && kbits.paths.is_empty()
            {
                let free = at & !exposed & !(1 << kb) & !kbits.promo_from;
                if free != 0 && 2 * free.count_ones() as usize >= kbits.shifts.len() {
                    at &= !free;
                    let onto = (block, screens);
                    let quiet =
                        self.split_shifts(preset, t, kbits, free, empty, onto, (k, kb), guard, &mut n, (out, legal));
                    batch = if sample.is_none() { quiet.trailing_zeros() as usize } else { 64 };
                }
            }
            while at != 0 || batch < 64 {
                let b = if at != 0 { at.trailing_zeros() as usize & 63 } else { 64 };
                if batch < b {
                    if sample.is_none() {
                        let from = t.square_of[batch];
                        if preset.movement.steps[us][kind].iter().all(|s| s.flags & flag::CREATES_EP == 0) {
                            let moved =
                                |k| t.targets_in(tb, k, batch, || self.unmoved_at(t, batch), own, enemy, empty, 0);
                            let to = fit.map_or(0, moved);
                            let to = t.square_of[(to & empty).trailing_zeros() as usize & 63];
                            sample = Some(Move { from, to, promo: 0, flags: 0, extra: 0, gate: 0 });
                        } else {
                            quiet_from.get_or_insert(from);
                        }
                    }
                    batch = 64;
                    continue;
                }
                at &= at - 1;
                let from = t.square_of[b];
                if let Some(kbits) = fit {
                    let mut to = t.targets_in(tb, kbits, b, || self.unmoved_at(t, b), own, enemy, empty, 1 << kb);
                    if !kbits.paths.is_empty() {
                        to |= t.path_targets(kbits, b, own, enemy, empty);
                    }
                    // A piece that may promote here is listed (its promotions are moves of their own).
                    if BitTables::promotions(kbits, b, to, enemy) == 0 {
                        let quiet = to & empty;
                        let mut takes = to & occ;
                        while takes != 0 {
                            let s = takes.trailing_zeros() as usize & 63;
                            takes &= takes - 1;
                            let m =
                                Move { from, to: t.square_of[s], promo: 0, flags: mflag::CAPTURE, extra: 0, gate: 0 };
                            out.push(m);
                            self.judge(preset, t, m, (b, s), (k, kb), guard, legal);
                        }
                        if quiet != 0 && sample.is_none() {
                            // A quiet move that promotes nothing is listed as a move with no flags
                            // (unless the kind has a step that creates an en-passant square: its
                            // piece is listed for one, if no other gives one). Which quiet move
                            // stands for them does not matter: the generator takes the sample's
                            // judgement for all of them only from a hook run that would fit any.
                            if preset.movement.steps[us][kind].iter().all(|s| s.flags & flag::CREATES_EP == 0) {
                                let to = t.square_of[quiet.trailing_zeros() as usize & 63];
                                sample = Some(Move { from, to, promo: 0, flags: 0, extra: 0, gate: 0 });
                            } else {
                                quiet_from.get_or_insert(from);
                            }
                        }
                        if quiet != 0 {
                            // Off the guarded squares (and not the royal piece) a move keeps it safe;
                            // a quiet move fills its square, which exposes nothing but a screen.
                            if checked.is_some() && b != kb && (exposed >> b) & 1 == 0 {
                                n += u64::from((quiet & block).count_ones());
                                continue;
                            }
                            let mut tried = if b == kb || (guard >> b) & 1 != 0 { quiet } else { quiet & screens };
                            n += u64::from((quiet & !tried).count_ones());
                            // A guarded piece with several such moves: lifted, the squares that
                            // block every attack then are asked once (a screen's square is tried).
                            let sure = tried & !screens;
                            if b != kb
                                && sure & sure.wrapping_sub(1) != 0
                                && let Some(ab) = &preset.attack_bits
                                && let Some(block) = self.blocks_lifted(preset, ab, from, k)
                            {
                                n += u64::from((sure & block).count_ones());
                                tried &= screens;
                            }
                            let mut left = tried;
                            while left != 0 {
                                let s = left.trailing_zeros() as usize & 63;
                                left &= left - 1;
                                let m = Move { from, to: t.square_of[s], promo: 0, flags: 0, extra: 0, gate: 0 };
                                n += u64::from(self.safe_by_cells(preset, m, k));
                            }
                        }
                        continue;
                    }
                }
                let start = out.len();
                self.piece_pseudo_moves(preset, from, out);
                let mut kept = start;
                for i in start..out.len() {
                    let m = out[i];
                    if !self.quiet_move(m) {
                        out[kept] = m;
                        kept += 1;
                        if self.safe_off_guard(preset, m, k, guard, &t.bit_of) {
                            legal.push(m);
                        }
                        continue;
                    }
                    sample.get_or_insert(m);
                    n += u64::from(self.safe_off_guard(preset, m, k, guard, &t.bit_of));
                }
                out.truncate(kept);
            }
        }
        if sample.is_none()
            && let Some(from) = quiet_from
        {
            sample = self.first_quiet(preset, from, out);
        }
        // The moves listed so far are judged (in their order, as they were listed).
        let judged = out.len();
        self.extra_pseudo_moves(preset, out);
        for &m in &out[judged..] {
            if self.safe_off_guard(preset, m, k, guard, &t.bit_of) {
                legal.push(m);
            }
        }
        Some((n, sample))
    }

    /// [`Position::split_moves`] for the pieces `free` of kind `k`, none of them the royal piece,
    /// on a guarded square or able to promote, moved by its shifts: their quiet moves counted
    /// (onto `onto.0`, the squares that block every attack; those onto a screen's square,
    /// `onto.1`, tried), their captures pushed onto `out`. Gives the pieces that have a quiet move.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn split_shifts(
        &mut self,
        preset: &Preset,
        t: &BitTables,
        k: &KindBits,
        free: Bits,
        empty: Bits,
        (block, screens): (Bits, Bits),
        (royal, kb): (Sq, usize),
        guard: Bits,
        n: &mut u64,
        (out, legal): (&mut Vec<Move>, &mut Vec<Move>),
    ) -> Bits {
        let enemy = self.side_bits[self.side.other()];
        // Where a shift's moves may land, by its flags: nowhere, empty squares, enemy pieces, either.
        let allowed = [0, empty, enemy, empty | enemy];
        let mut with_quiet = 0;
        for s in &k.shifts {
            let mut movers = free & s.from;
            for &p in &s.path[..(s.path_len as usize).min(4)] {
                movers &= empty.rotate_right(u32::from(p));
            }
            if s.initial {
                let mut left = movers;
                while left != 0 {
                    let b = left.trailing_zeros() as usize & 63;
                    left &= left - 1;
                    if !self.unmoved_at(t, b) {
                        movers &= !(1 << b);
                    }
                }
            }
            if movers == 0 {
                continue;
            }
            let delta = u32::from(s.delta);
            let to = movers.rotate_left(delta) & allowed[usize::from(s.flags & 3)];
            let quiet = to & empty;
            with_quiet |= quiet.rotate_right(delta);
            *n += u64::from((quiet & !screens & block).count_ones());
            let mut tried = quiet & screens;
            while tried != 0 {
                let b = tried.trailing_zeros();
                tried &= tried - 1;
                let from = t.square_of[b.wrapping_sub(delta) as usize & 63];
                let m = Move { from, to: t.square_of[b as usize & 63], promo: 0, flags: 0, extra: 0, gate: 0 };
                *n += u64::from(self.safe_by_cells(preset, m, royal));
            }
            let mut takes = to & enemy;
            while takes != 0 {
                let b = takes.trailing_zeros();
                takes &= takes - 1;
                let (fb, tb) = (b.wrapping_sub(delta) as usize & 63, b as usize & 63);
                let m = Move {
                    from: t.square_of[fb],
                    to: t.square_of[tb],
                    promo: 0,
                    flags: mflag::CAPTURE,
                    extra: 0,
                    gate: 0,
                };
                out.push(m);
                self.judge(preset, t, m, (fb, tb), (royal, kb), guard, legal);
            }
        }
        with_quiet
    }

    /// Onto `legal` if it keeps the royal piece (on `k`, bit `kb`) safe: a capture `m` from bit
    /// `fb` to bit `tb` of a piece that promotes nothing, judged as [`Position::safe_off_guard`]
    /// judges it (a plain one, off the guarded squares and not the royal piece's, at once).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn judge(
        &mut self,
        preset: &Preset,
        t: &BitTables,
        m: Move,
        (fb, tb): (usize, usize),
        (k, kb): (Sq, usize),
        guard: Bits,
        legal: &mut Vec<Move>,
    ) {
        let plain = fb != kb && (guard >> (fb & 63)) & 1 == 0 && (guard >> (tb & 63)) & 1 == 0;
        if plain || self.safe_off_guard(preset, m, k, guard, &t.bit_of) {
            legal.push(m);
        }
    }

    /// Whether a move is quiet as `play::turngen` tells: it takes nothing, promotes nothing and is
    /// no castling, en passant or drop.
    #[inline]
    fn quiet_move(&self, m: Move) -> bool {
        m.flags & (mflag::DROP | mflag::EP | mflag::CASTLE) == 0
            && m.promo == 0
            && !cell::is_piece(self.cells[m.to.idx()])
    }

    /// The first quiet move of the piece on `from` as the moves list it (`out` is left as it was).
    fn first_quiet(&self, preset: &Preset, from: Sq, out: &mut Vec<Move>) -> Option<Move> {
        let start = out.len();
        self.piece_pseudo_moves(preset, from, out);
        let m = out[start..].iter().copied().find(|&m| self.quiet_move(m));
        out.truncate(start);
        m
    }

    /// The drops of a scripted turn's drop part: each kind of `kinds` (a bit per kind) on each
    /// empty square its drop zone allows, counted with the preset's bitboards as
    /// `play::turngen` lists them: all of them (the candidates), and those that leave the mover's
    /// royal piece unattacked (a drop opens no line, so only one that blocks every check when in
    /// check). `None` when the bitboards cannot tell (see [`Position::count_moves`]), when a piece
    /// put down could expose the royal piece (a hopper's screen), or a royal kind is to be dropped.
    pub fn count_drops(&self, preset: &Preset, kinds: u64) -> Option<(u64, u64)> {
        if kinds == 0 {
            return Some((0, 0));
        }
        let t = preset.bits.as_ref()?;
        if self.counts[cell::HOLE as usize] != 0 || t.unfit.iter().any(|&c| self.counts[c as usize] != 0) {
            return None;
        }
        let us = self.side;
        let them = us.other();
        if !self.adding_keeps_safe(preset, us) {
            return None;
        }
        let royal = self.royal_square(us)?;
        let kb = t.bit_of[royal.idx()] as usize & 63;
        let occ = self.side_bits[us] | self.side_bits[them];
        let board = t.board();
        let empty = board & !occ;
        let target = 1u64 << kb;
        let safe = if self.hit_by(t, them, target, occ, 0) { self.blocks(t, them, kb, occ) } else { !0 };
        let (mut legal, mut all) = (0, 0);
        let mut left = kinds;
        while left != 0 {
            let k = left.trailing_zeros() as usize;
            left &= left - 1;
            if preset.kinds.get(k).is_none_or(|d| d.royal) {
                return None;
            }
            let zone = match preset.drop_zones.get(k)?.as_ref() {
                Some(z) => {
                    let z = &z[us];
                    let mut bits = 0u64;
                    for (b, sq) in t.square_of.iter().enumerate() {
                        if z[sq.idx()] {
                            bits |= 1 << (b & 63);
                        }
                    }
                    bits
                }
                None => !0,
            };
            all += u64::from((empty & zone).count_ones());
            legal += u64::from((empty & zone & safe).count_ones());
        }
        Some((legal, all))
    }

    /// The squares where a move of another piece than the royal one (on bit `kb`) breaks every
    /// attack of `by` on it: on each attack's checker or the squares it must pass.
    fn blocks(&self, t: &BitTables, by: Side, kb: usize, occ: Bits) -> Bits {
        let target = 1u64 << (kb & 63);
        let mut block = !0;
        for (kind, k) in t.kinds[by].iter().enumerate() {
            let mut at = self.code_bits[cell::piece(kind, by) as usize & 127];
            let Some(k) = k else { continue };
            while at != 0 {
                let b = at.trailing_zeros() as usize & 63;
                at &= at - 1;
                let from = 1u64 << b;
                if (k.any[b] | k.take[b]) & target != 0 {
                    block &= from;
                }
                for &(d, fl) in &k.rides {
                    if fl & flag::CAPTURE != 0 && t.dirs[d as usize & 63].ray[b] & target != 0 {
                        let r = t.ride(d as usize, b, occ);
                        if r & target != 0 {
                            block &= (r & !target) | from;
                        }
                    }
                }
                for sp in t.specials(k, b) {
                    if sp.flags & flag::CAPTURE != 0
                        && 1 << sp.to == target
                        && sp.path & occ == 0
                        && (!sp.initial || self.unmoved_at(t, b))
                    {
                        block &= sp.path | from;
                    }
                }
            }
        }
        block
    }

    /// The en-passant captures the mover may make, each tried on the cells as the move list's
    /// are; `None` for one that rides there (not described here).
    fn count_en_passant(&mut self, preset: &Preset, t: &BitTables, royal: Sq) -> Option<u64> {
        let us = self.side;
        let mv = &preset.movement;
        if !cell::is_side(self.cells[self.ep.victim.idx()], us.other()) {
            return Some(0);
        }
        let mut n = 0;
        for (kind, steps) in mv.steps[us].iter().enumerate() {
            let code = cell::piece(kind, us);
            if (mv.ep_capturers >> code) & 1 == 0 || self.counts[code as usize] == 0 {
                continue;
            }
            for s in steps.iter().filter(|s| s.flags & flag::EP != 0) {
                if s.range != 1 {
                    return None;
                }
                for to in self.ep.squares {
                    if to == Sq::NONE {
                        continue;
                    }
                    let from = to.offset(-(s.delta as i32));
                    let c = self.cells.get(from.idx()).copied().unwrap_or(cell::OFF);
                    if !cell::is_piece(c)
                        || cell::code(c) != code
                        || (s.flags & flag::INITIAL != 0 && !cell::unmoved(c))
                        || !s.path[..s.path_len as usize]
                            .iter()
                            .all(|&p| self.cells[from.offset(p as i32).idx()] == cell::EMPTY)
                    {
                        continue;
                    }
                    let m = Move { from, to, promo: 0, flags: mflag::EP, extra: 0, gate: 0 };
                    if self.safe_by_cells(preset, m, royal) {
                        let k = t.kinds[us][kind].as_ref()?;
                        let (fb, tb) = (t.bit_of[from.idx()] & 63, t.bit_of[to.idx()] & 63);
                        let promotes = (k.zone >> tb) & 1 != 0 || (k.leaving && (k.zone >> fb) & 1 != 0);
                        n += if promotes { u64::from(k.mult) } else { 1 };
                    }
                }
            }
        }
        Some(n)
    }

    /// Whether an enemy (`by`) rider attacks bit `w` along a line through `through` (a bit), with
    /// `occ` the pieces on the board.
    fn opened(&self, t: &BitTables, by: Side, w: usize, through: Bits, occ: Bits) -> bool {
        let mut dirs = t.ride_dirs[by];
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let back = t.dirs[d & 63].back as usize;
            if t.dirs[back & 63].ray[w & 63] & through == 0 {
                continue;
            }
            let first = t.ride(back, w, occ) & occ & self.side_bits[by];
            if first != 0 {
                let c = self.cells[t.square_of[first.trailing_zeros() as usize].idx()];
                if t.kinds[by][cell::kind(c)].as_ref().is_some_and(|k| (k.cap_dirs >> d) & 1 != 0) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether a piece of `by` could capture on bit `s` with `occ` the pieces on the board, asked
    /// from `s`: its leaps taken backwards, its rides looked up or walked from `s` the other way.
    #[inline(always)]
    fn hit_on(&self, t: &BitTables, tb: Option<&Table>, by: Side, s: usize, occ: Bits) -> bool {
        let s = s & 63;
        for (kind, k) in t.kinds[by].iter().enumerate() {
            let Some(k) = k else { continue };
            let at = self.code_bits[cell::piece(kind, by) as usize & 127];
            if at == 0 {
                continue;
            }
            if k.hit_from[s] & at != 0 {
                return true;
            }
            if k.cap_dirs != 0 {
                let mut walk = k.cap_dirs;
                // A group holds both ways of its lines, so what rides from `s` meets what rides to it.
                if k.slide.n != 0
                    && let Some(tb) = tb
                {
                    if tb.slide(&k.slide, s, occ) & at != 0 {
                        return true;
                    }
                    walk &= k.slide.rest;
                }
                while walk != 0 {
                    let d = walk.trailing_zeros() as usize;
                    walk &= walk - 1;
                    if t.ride(t.dirs[d & 63].back as usize, s, occ) & at != 0 {
                        return true;
                    }
                }
            }
            if k.special_caps {
                let mut left = at;
                while left != 0 {
                    let a = left.trailing_zeros() as usize & 63;
                    left &= left - 1;
                    for sp in t.specials(k, a) {
                        if sp.flags & flag::CAPTURE != 0
                            && sp.to as usize == s
                            && sp.path & occ == 0
                            && (!sp.initial || self.unmoved_at(t, a))
                        {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Every square a piece of `by` could capture on, with `occ` the pieces on the board: what
    /// [`Position::hit_on`] tells of one square, for all squares at once.
    fn attack_set(&self, t: &BitTables, tb: Option<&Table>, by: Side, occ: Bits) -> Bits {
        let mut a: Bits = 0;
        for (kind, k) in t.kinds[by].iter().enumerate() {
            let Some(k) = k else { continue };
            let mut at = self.code_bits[cell::piece(kind, by) as usize & 127];
            while at != 0 {
                let b = at.trailing_zeros() as usize & 63;
                at &= at - 1;
                a |= k.any[b] | k.take[b];
                if k.cap_dirs != 0 {
                    let mut walk = k.cap_dirs;
                    if k.slide.n != 0
                        && let Some(tb) = tb
                    {
                        a |= tb.slide(&k.slide, b, occ);
                        walk &= k.slide.rest;
                    }
                    while walk != 0 {
                        let d = walk.trailing_zeros() as usize;
                        walk &= walk - 1;
                        a |= t.ride(d, b, occ);
                    }
                }
                if k.special_caps {
                    for sp in t.specials(k, b) {
                        if sp.flags & flag::CAPTURE != 0 && sp.path & occ == 0 && (!sp.initial || self.unmoved_at(t, b))
                        {
                            a |= 1 << sp.to;
                        }
                    }
                }
            }
        }
        a
    }

    /// Whether a piece of `by` (none on `gone`) could capture on the square `target` (a bit) with
    /// `occ` the pieces on the board.
    fn hit_by(&self, t: &BitTables, by: Side, target: Bits, occ: Bits, gone: Bits) -> bool {
        for (kind, k) in t.kinds[by].iter().enumerate() {
            let mut at = self.code_bits[cell::piece(kind, by) as usize & 127] & !gone;
            let Some(k) = k else { continue };
            while at != 0 {
                let b = at.trailing_zeros() as usize & 63;
                at &= at - 1;
                if (k.any[b] | k.take[b]) & target != 0 {
                    return true;
                }
                for &(d, fl) in &k.rides {
                    if fl & flag::CAPTURE != 0
                        && t.dirs[d as usize & 63].ray[b] & target != 0
                        && t.ride(d as usize, b, occ) & target != 0
                    {
                        return true;
                    }
                }
                for sp in t.specials(k, b) {
                    if sp.flags & flag::CAPTURE != 0
                        && 1 << sp.to == target
                        && sp.path & occ == 0
                        && (!sp.initial || self.unmoved_at(t, b))
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The castlings the mover may make, as castling moves are generated and judged. `lifted`: the
    /// pieces on the board but the mover's royal one, with which the bitboards ask a square (unless
    /// a lame capture could be shielded by the royal piece: then each square is asked on the cells).
    /// In check, a square behind the royal piece is attacked with it lifted and not with it there:
    /// each square is asked then.
    fn count_castlings(
        &mut self,
        preset: &Preset,
        t: &BitTables,
        tb: Option<&Table>,
        royal: Sq,
        lifted: Bits,
        in_check: bool,
    ) -> u64 {
        let mut n = 0;
        let them = self.side.other();
        let lame = t.lame_caps[them] || in_check;
        let bit = |s: Sq| 1u64 << (t.bit_of[s.idx()] & 63);
        let hit_lifted = |pos: &Position, s: Sq| pos.hit_on(t, tb, them, t.bit_of[s.idx()] as usize & 63, lifted);
        // Castling asks several squares: the enemy's attack set is built once, at the first
        // castling that gets as far as asking (asking each square alone cost 5 times as much on
        // Kiwipete, where castlings stay open).
        let mut set: Option<Bits> = None;
        let mut hit = |pos: &Position, s: Sq| {
            if lame {
                pos.attacked(preset, s, them)
            } else {
                *set.get_or_insert_with(|| pos.attack_set(t, tb, them, lifted)) & bit(s) != 0
            }
        };
        let occ = self.side_bits[self.side] | self.side_bits[them];
        for (i, c) in preset.castles.iter().enumerate() {
            if c.side != self.side
                || t.castle_empty.get(i).is_some_and(|&e| e & occ != 0)
                || self.cells[c.king_from.idx()] != cell::with_unmoved(c.king)
                || self.cells[c.rook_from.idx()] != cell::with_unmoved(c.rook)
                || !c.empty.iter().all(|&s| self.cells[s.idx()] == cell::EMPTY)
                // In check, the royal piece's own square is attacked.
                || (in_check && c.safe.contains(&royal))
                || c.safe.iter().any(|&s| hit(self, s))
            {
                continue;
            }
            if self.is_royal_code(c.rook) && c.rook_from != royal {
                let m =
                    Move { from: c.king_from, to: c.king_to, promo: 0, flags: mflag::CASTLE, extra: i as u8, gate: 0 };
                n += u64::from(self.safe_by_cells(preset, m, royal));
                continue;
            }
            // The royal piece after castling, on the board after it.
            let watch = if c.king_from == royal {
                c.king_to
            } else if c.rook_from == royal {
                c.rook_to
            } else {
                royal
            };
            let arrived = bit(c.king_to) | bit(c.rook_to);
            let occ =
                (self.side_bits[self.side] | self.side_bits[them]) & !bit(c.king_from) & !bit(c.rook_from) | arrived;
            // Unattacked with the royal piece lifted, only a line through the rook's square can open.
            let safe = if lame || hit_lifted(self, watch) {
                !self.hit_by(t, them, bit(watch), occ, arrived)
            } else {
                !self.opened(t, them, t.bit_of[watch.idx()] as usize & 63, bit(c.rook_from), occ)
            };
            n += u64::from(safe);
        }
        n
    }
}
