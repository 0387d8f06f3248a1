//! Move generation from the compiled tables: pseudo-legal moves, attacks, and the royal-safety filter.

use super::board::{Sq, cell};
use super::movement::{AttackTables, Hop, QuickTable, Ray, RideAttack, Step, flag};
use super::position::{Move, Position, mflag};
use super::side::Side;
use crate::preset::Preset;

impl Position {
    /// Every move the side to move's pieces can make, ignoring royal safety.
    pub fn pseudo_moves(&self, preset: &Preset, out: &mut Vec<Move>) {
        let us = self.side;
        // `unless_checked` moves: whether the mover is in check, asked once and only if one is met.
        let mut checked = None;
        for sq in self.occupied_by(us) {
            let c = self.cells[sq.idx()];
            let start = out.len();
            self.square_moves(preset, sq, c, &mut checked, out);
            if let Some(g) = &preset.gating
                && cell::unmoved(c)
                && g[us][sq.idx()]
                && !self.hands[us].is_empty()
            {
                self.gate_moves(preset, start, sq, 0, out);
            }
        }
        self.castling_moves(preset, out);
        if preset.drops {
            self.drop_moves(preset, out);
        }
        if preset.movement.pass_kinds != 0 {
            self.pass_moves(preset, out);
        }
        self.promotion_rules(preset, out);
    }

    /// Promotions from hand made into one move per piece offered, and `to lost` applied: no
    /// promotion to a kind the side still has all of.
    fn promotion_rules(&self, preset: &Preset, out: &mut Vec<Move>) {
        if preset.hand_promotion {
            self.hand_promotions(preset, out);
        }
        if !preset.promo_limit.is_empty() {
            out.retain(|m| {
                m.promo == 0
                    || m.flags & mflag::DROP != 0
                    || self.counts[cell::code(m.promo) as usize] < preset.promo_limit[cell::code(m.promo) as usize]
            });
        }
    }

    /// Replace each promotion from hand by one move per piece the hand offers (or the fallback choices).
    fn hand_promotions(&self, preset: &Preset, out: &mut Vec<Move>) {
        if !out.iter().any(|m| m.promo == HAND_PROMO) {
            return;
        }
        let us = self.side;
        let moves = std::mem::take(out);
        for m in moves {
            if m.promo != HAND_PROMO {
                out.push(m);
                continue;
            }
            let Some(p) = &preset.promotions[cell::kind(self.cells[m.from.idx()])] else { continue };
            let offered = p.from_hand(&self.hands[us]);
            if offered.is_empty() {
                out.extend(p.choices.iter().map(|&k| Move { promo: cell::piece(k, us), ..m }));
            } else {
                let flags = m.flags | mflag::FROM_HAND;
                out.extend(offered.iter().map(|&k| Move { promo: cell::piece(k as usize, us), flags, ..m }));
            }
        }
    }

    /// `gating in REGION`: beside each plain move from `start` on (not promoting), the same move with
    /// each kind in hand entering on `square`, the square an unmoved piece leaves.
    fn gate_moves(&self, preset: &Preset, start: usize, square: Sq, flag: u8, out: &mut Vec<Move>) {
        let us = self.side;
        let in_hand = self.hands[us].iter().fold(0u64, |m, &k| m | 1u64 << k);
        for i in start..out.len() {
            let m = out[i];
            if m.promo != 0 || m.gate != 0 {
                continue;
            }
            let mut kinds = in_hand;
            while kinds != 0 {
                let k = kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                let code = cell::piece(k, us);
                if preset.drop_zones[k].as_ref().is_none_or(|z| z[us][square.idx()]) && preset.may_stand(code, square) {
                    out.push(Move { gate: code, flags: m.flags | flag, ..m });
                }
            }
        }
    }

    /// Each kind in the mover's hand on each empty square its drop rules allow.
    fn drop_moves(&self, preset: &Preset, out: &mut Vec<Move>) {
        let start = out.len();
        self.drop_candidates(preset, out);
        if preset.drop_opposite_colours != 0 {
            self.keep_opposite_colours(preset, out, start);
        }
    }

    /// `drop KIND opposite_colours` (for the moves from `start` on): a piece of such a kind may
    /// not be dropped on the colour where another of the side's stands, and no other drop may
    /// take the last square of a colour the pieces of that kind still in hand need (as
    /// Fairy-Stockfish's placement chess judges its bishops).
    fn keep_opposite_colours(&self, preset: &Preset, out: &mut Vec<Move>, start: usize) {
        let us = self.side;
        let g = &preset.geo;
        let mut kinds = preset.drop_opposite_colours;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let code = cell::piece(k, us);
            let in_hand = self.hands[us].iter().filter(|&&h| h as usize == k).count();
            // Per colour (light = 1): whether one stands there, and the empty squares it may drop on.
            let (mut stands, mut free) = ([false; 2], [0usize; 2]);
            let zone = preset.drop_zones[k].as_ref().map(|z| &z[us]);
            for &sq in &g.squares {
                let c = self.cells[sq.idx()];
                let light = usize::from(g.is_light(sq));
                if cell::is_piece(c) && cell::code(c) == code {
                    stands[light] = true;
                } else if c == cell::EMPTY && zone.is_none_or(|z| z[sq.idx()]) {
                    free[light] += 1;
                }
            }
            let mut i = start;
            while i < out.len() {
                let m = out[i];
                let light = usize::from(g.is_light(m.to));
                let ok = if cell::kind(m.promo) == k {
                    !stands[light]
                } else {
                    let mut left = free;
                    if zone.is_none_or(|z| z[m.to.idx()]) {
                        left[light] -= 1;
                    }
                    let needed = (0..2).filter(|&c| !stands[c] && left[c] > 0).count();
                    needed >= in_hand
                };
                if ok {
                    i += 1;
                } else {
                    out.swap_remove(i);
                }
            }
        }
    }

    /// Each kind in the mover's hand on each empty square its drop zones allow.
    fn drop_candidates(&self, preset: &Preset, out: &mut Vec<Move>) {
        let us = self.side;
        let g = &preset.geo;
        let mut kinds = self.hands[us].iter().fold(0u64, |m, &k| m | 1u64 << k);
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let code = cell::piece(k, us);
            let zone = preset.drop_zones[k].as_ref().map(|z| &z[us]);
            // `one_per_file`: the files already holding one of the mover's pieces of this kind.
            let mut banned = 0u32;
            if (preset.drop_one_per_file >> k) & 1 != 0 {
                for sq in self.occupied_by(us) {
                    if cell::code(self.cells[sq.idx()]) == code {
                        banned |= 1 << g.file(sq);
                    }
                }
            }
            for &sq in &g.squares {
                if self.cells[sq.idx()] == cell::EMPTY
                    && zone.is_none_or(|z| z[sq.idx()])
                    && (banned >> g.file(sq)) & 1 == 0
                    && preset.may_stand(code, sq)
                {
                    out.push(Move { from: sq, to: sq, promo: code, flags: mflag::DROP, extra: 0, gate: 0 });
                }
            }
            // `drop KIND also_as ...`: the same piece dropped as another kind (Kyoto shogi's flipped side).
            for &other in &preset.drop_as[k] {
                let code = cell::piece(other as usize, us);
                for &sq in &g.squares {
                    if self.cells[sq.idx()] == cell::EMPTY
                        && zone.is_none_or(|z| z[sq.idx()])
                        && preset.may_stand(code, sq)
                    {
                        out.push(Move { from: sq, to: sq, promo: code, flags: mflag::DROP, extra: 0, gate: 0 });
                    }
                }
            }
        }
    }

    /// The moves of the piece in cell `c` on `from` along its steps that go somewhere from there
    /// ([`Movement::quick`]); plain leaps and rides in a tight loop, the rest by [`Self::step_moves`].
    #[inline]
    fn quick_moves(
        &self,
        preset: &Preset,
        from: Sq,
        c: u8,
        q: &QuickTable,
        checked: &mut Option<bool>,
        out: &mut Vec<Move>,
    ) {
        let us = self.side;
        let them = us.other();
        let kind = cell::kind(c);
        let mv = &preset.movement;
        let unmoved = cell::unmoved(c);
        // Whether this kind's moves go straight in (no promotion, may stand anywhere) and may take
        // any enemy piece: then a step needs no more than the cells it looks at.
        let plain = preset.promotions[kind].is_none() && preset.mobile.is_empty();
        let takes_all = mv.hop_limits.get(kind).is_none_or(|l| l.1 == 0);
        let cells = &self.cells[..];
        let at = from.idx();
        if q.simple && plain && takes_all {
            return simple_moves(cells, from, them, q, out);
        }
        for e in &q.list[q.at[at] as usize..q.at[at + 1] as usize] {
            if e.flags & flag::INITIAL != 0 && !unmoved {
                continue;
            }
            if e.slow || e.flags & flag::FRIENDLY != 0 || !takes_all {
                let s = &mv.steps[us][kind][e.step as usize];
                if s.calm && *checked.get_or_insert_with(|| self.in_check(preset, us)) {
                    continue;
                }
                self.step_moves(preset, from, kind, s, e.n, out);
                continue;
            }
            if e.lame {
                let s = &mv.steps[us][kind][e.step as usize];
                if !s.path[..s.path_len as usize]
                    .iter()
                    .all(|&p| cells[(at as isize + p as isize) as usize] == cell::EMPTY)
                {
                    continue;
                }
            }
            let quiet = if e.flags & flag::CREATES_EP != 0 { mflag::DOUBLE } else { 0 };
            let (moves, takes, ep) = (e.flags & flag::MOVE != 0, e.flags & flag::CAPTURE != 0, e.flags & flag::EP != 0);
            let mut to = from;
            for _ in 0..e.n {
                to = to.offset(e.delta as i32);
                let t = cells[to.idx()];
                let m = Move { from, to, promo: 0, flags: 0, extra: 0, gate: 0 };
                if t == cell::EMPTY {
                    if moves {
                        emit(preset, plain, us, kind, Move { flags: quiet, ..m }, out);
                    }
                    if ep && self.ep.contains(to) && cell::is_side(cells[self.ep.victim.idx()], them) {
                        emit(preset, plain, us, kind, Move { flags: mflag::EP, ..m }, out);
                    }
                    continue;
                }
                if takes && cell::is_side(t, them) {
                    emit(preset, plain, us, kind, Move { flags: mflag::CAPTURE, ..m }, out);
                }
                break;
            }
        }
    }

    /// The moves of one step from `from`, which may go `n` squares ([`Movement::reach`]: its
    /// region and the board's edges are resolved).
    #[inline]
    fn step_moves(&self, preset: &Preset, from: Sq, kind: usize, s: &Step, n: u8, out: &mut Vec<Move>) {
        let us = self.side;
        let mv = &preset.movement;
        if s.path_len > 0
            && !s.path[..s.path_len as usize].iter().all(|&p| self.cells[from.offset(p as i32).idx()] == cell::EMPTY)
        {
            return;
        }
        if s.flags & flag::HOP != 0 {
            return self.hop_moves(preset, from, kind, s, n, out);
        }
        let mut to = from;
        for _ in 0..n {
            to = to.offset(s.delta as i32);
            let c = self.cells[to.idx()];
            if c == cell::EMPTY {
                if s.flags & flag::MOVE != 0 {
                    let f = if s.flags & flag::CREATES_EP != 0 { mflag::DOUBLE } else { 0 };
                    push(preset, us, kind, Move { from, to, promo: 0, flags: f, extra: 0, gate: 0 }, out);
                }
                if s.flags & flag::EP != 0
                    && self.ep.contains(to)
                    && cell::is_side(self.cells[self.ep.victim.idx()], us.other())
                {
                    push(preset, us, kind, Move { from, to, promo: 0, flags: mflag::EP, extra: 0, gate: 0 }, out);
                }
                continue;
            }
            if self.may_take(s.flags, c) && mv.hop_allows(kind, c, false) {
                push(preset, us, kind, Move { from, to, promo: 0, flags: mflag::CAPTURE, extra: 0, gate: 0 }, out);
            }
            break;
        }
    }

    /// Whether a confined step's origin and the squares its lame leap passes lie in its region.
    #[inline]
    fn path_inside(&self, mv: &super::movement::Movement, s: &Step, from: Sq, side: Side) -> bool {
        mv.inside(s.region, side, from.idx())
            && (0..s.path_len as usize).all(|i| mv.inside(s.region, side, from.offset(s.path[i] as i32).idx()))
    }

    /// The moves along one compiled path: past its first squares (which must be empty), then as a
    /// rider. Returns how many of the next paths are stopped where this one was ([`Ray::skip`]).
    fn ray_moves(&self, preset: &Preset, from: Sq, kind: usize, r: &Ray, out: &mut Vec<Move>) -> usize {
        for (i, &to) in r.squares.iter().enumerate() {
            let c = self.cells[to.idx()];
            if i < r.first_dest as usize {
                if c != cell::EMPTY {
                    return r.skip.get(i).map_or(0, |&n| n as usize);
                }
                continue;
            }
            if c == cell::EMPTY {
                if r.flags & flag::MOVE != 0 {
                    push(preset, self.side, kind, Move { from, to, promo: 0, flags: 0, extra: 0, gate: 0 }, out);
                }
                continue;
            }
            if self.may_take(r.flags, c) {
                push(
                    preset,
                    self.side,
                    kind,
                    Move { from, to, promo: 0, flags: mflag::CAPTURE, extra: 0, gate: 0 },
                    out,
                );
            }
            return 0;
        }
        0
    }

    /// Whether a path could capture on `target` (whatever stands there now).
    fn ray_reaches(&self, r: &Ray, target: Sq) -> bool {
        for (i, &to) in r.squares.iter().enumerate() {
            if to == target && i >= r.first_dest as usize {
                return true;
            }
            if self.cells[to.idx()] != cell::EMPTY {
                return false;
            }
        }
        false
    }

    /// Whether a step with these flags may capture what stands in cell `c` (a piece or not).
    #[inline]
    fn may_take(&self, flags: u8, c: u8) -> bool {
        if !cell::is_piece(c) {
            return false;
        }
        if cell::side(c) != self.side {
            return flags & flag::CAPTURE != 0;
        }
        flags & flag::FRIENDLY != 0 && !self.is_royal_code(c)
    }

    /// A hopper: past exactly one piece (the screen), then moves to empty squares and captures the next piece.
    fn hop_moves(&self, preset: &Preset, from: Sq, kind: usize, s: &Step, n: u8, out: &mut Vec<Move>) {
        let mv = &preset.movement;
        let mut to = from;
        let mut screened = false;
        for _ in 0..n {
            to = to.offset(s.delta as i32);
            let c = self.cells[to.idx()];
            if c == cell::HOLE {
                return;
            }
            if !screened {
                if c != cell::EMPTY && !mv.hop_allows(kind, c, true) {
                    return;
                }
                screened = c != cell::EMPTY;
                continue;
            }
            if c == cell::EMPTY {
                if s.flags & flag::MOVE != 0 {
                    push(preset, self.side, kind, Move { from, to, promo: 0, flags: 0, extra: 0, gate: 0 }, out);
                }
                if s.grasshopper {
                    return;
                }
                continue;
            }
            if self.may_take(s.flags, c) && mv.hop_allows(kind, c, false) {
                let m = Move { from, to, promo: 0, flags: mflag::CAPTURE, extra: 0, gate: 0 };
                push(preset, self.side, kind, m, out);
            }
            return;
        }
    }

    fn castling_moves(&self, preset: &Preset, out: &mut Vec<Move>) {
        for (i, c) in preset.castles.iter().enumerate() {
            if c.side != self.side
                || self.cells[c.king_from.idx()] != cell::with_unmoved(c.king)
                || self.cells[c.rook_from.idx()] != cell::with_unmoved(c.rook)
                || !c.empty.iter().all(|&s| self.cells[s.idx()] == cell::EMPTY)
                || c.safe.iter().any(|&s| {
                    self.attacked_now(preset, s, self.side.other()) && !self.shielded(preset, s, self.side.other())
                })
            {
                continue;
            }
            let at = out.len();
            out.push(Move {
                from: c.king_from,
                to: c.king_to,
                promo: 0,
                flags: mflag::CASTLE,
                extra: i as u8,
                gate: 0,
            });
            if let Some(g) = &preset.gating
                && !self.hands[self.side].is_empty()
            {
                // The gated piece may enter on the king's square or on the rook's.
                for (sq, flag) in [(c.king_from, 0), (c.rook_from, mflag::GATE_ROOK)] {
                    if g[self.side][sq.idx()] {
                        self.gate_moves(preset, at, sq, flag, out);
                    }
                }
            }
        }
    }

    /// [`Self::attacked`], told from the attack bitboards where the preset has them (a few ANDs
    /// per enemy code instead of every leap and ride walked on the cells: a search lists
    /// castlings, and so tries their squares, at most of its nodes).
    fn attacked_now(&self, preset: &Preset, sq: Sq, by: Side) -> bool {
        self.attacked_by_bits(preset, sq, by).unwrap_or_else(|| self.attacked(preset, sq, by))
    }

    /// Whether a piece of `by` could capture on `sq` on the board as it stands, from the
    /// preset's attack bitboards; `None` when it has none or they cannot tell (holes).
    fn attacked_by_bits(&self, preset: &Preset, sq: Sq, by: Side) -> Option<bool> {
        let ab = preset.attack_bits.as_ref()?;
        let occ = self.side_bits[Side::White] | self.side_bits[Side::Black];
        self.attacked_bits(preset, ab, sq, by, occ, 0)
    }

    /// Whether any piece of `by` could capture on `sq`.
    pub fn attacked(&self, preset: &Preset, sq: Sq, by: Side) -> bool {
        let t = &preset.movement.attacks[by];
        let cells = &self.cells;
        let at = sq.idx() as i32;
        for &(d, mask) in &t.leaps {
            let c = cells[(at - d as i32) as usize];
            if (mask >> cell::code(c)) & 1 != 0 {
                return true;
            }
        }
        for r in &t.rides {
            let mut s = at;
            let mut dist = 0u8;
            loop {
                s -= r.delta as i32;
                dist += 1;
                let c = cells[s as usize];
                if c == cell::EMPTY {
                    continue;
                }
                if rides_to(preset, r, c, dist, s as usize) {
                    return true;
                }
                break;
            }
        }
        if !t.back_at.is_empty() && self.back_attack(preset, t, sq.idx()) {
            return true;
        }
        !t.ray_codes.is_empty() && self.path_attack(preset, t, sq.idx(), by)
    }

    /// A capture along a shaped path onto cell `target`, from the reverse table compiled at load:
    /// only the paths that end there, of the codes on the board.
    pub(super) fn path_attack(&self, preset: &Preset, t: &AttackTables, target: usize, by: Side) -> bool {
        let cells = &self.cells;
        let n = t.ray_codes.len();
        for (j, &code) in t.ray_codes.iter().enumerate() {
            if self.counts[code as usize] == 0 {
                continue;
            }
            let rays = &preset.movement.rays[by][cell::kind(code)];
            let b = target * n + j;
            let (mut i, end) = (t.path_at[b] as usize, t.path_at[b + 1] as usize);
            while i < end {
                let e = &t.back_paths[i];
                if cell::code(cells[e.origin.idx()]) != code {
                    // No such piece there: none of its paths from there.
                    i = e.next as usize;
                    continue;
                }
                if rays[e.origin.idx()][e.ray as usize].squares[..e.at as usize]
                    .iter()
                    .all(|&s| cells[s.idx()] == cell::EMPTY)
                {
                    return true;
                }
                i += 1;
            }
        }
        false
    }

    /// The special captures (lame, confined, hopping, initial-only, restricted) onto cell `target`,
    /// from the reverse tables compiled at load.
    pub(super) fn back_attack(&self, preset: &Preset, t: &AttackTables, target: usize) -> bool {
        let cells = &self.cells;
        let prey = cells[target];
        if prey == cell::HOLE || prey == cell::OFF {
            return false;
        }
        let mv = &preset.movement;
        // What the capturer in cell `c` may take: not the piece its `spares` exempts.
        let takes =
            |restricted: bool, c: u8| !restricted || !cell::is_piece(prey) || mv.hop_allows(cell::kind(c), prey, false);
        for l in &t.back_leaps[t.back_at[target] as usize..t.back_at[target + 1] as usize] {
            let c = cells[l.origin.idx()];
            if (l.codes >> cell::code(c)) & 1 == 0 || (l.initial && !cell::unmoved(c)) {
                continue;
            }
            if l.path[..l.path_len as usize].iter().all(|&p| cells[p.idx()] == cell::EMPTY) && takes(l.restricted, c) {
                return true;
            }
        }
        for l in &t.back_lines[t.line_at[target] as usize..t.line_at[target + 1] as usize] {
            if self.counts[l.code as usize] == 0 {
                continue;
            }
            // Back from the target: for a hop, past empty squares to the screen first.
            let screen = |j: usize| {
                let c = cells[l.squares[j].idx()];
                cell::is_piece(c) && mv.hop_allows(cell::kind(l.code), c, true)
            };
            let at = match l.hop {
                Hop::No => 0,
                Hop::Screen => match l.squares.iter().position(|&s| cells[s.idx()] != cell::EMPTY) {
                    Some(j) if screen(j) => j + 1,
                    _ => continue,
                },
                Hop::Grasshopper if screen(0) => 1,
                Hop::Grasshopper => continue,
            };
            let Some(rest) = l.squares.get(at..) else { continue };
            let Some(i) = rest.iter().position(|&s| cells[s.idx()] != cell::EMPTY) else { continue };
            let from = rest[i].idx();
            let c = cells[from];
            if cell::code(c) == l.code
                && (!l.initial || cell::unmoved(c))
                && (at + i + 1) as u32 <= mv.range_at(l.range, l.limit, from) as u32
                && takes(l.restricted, c)
            {
                return true;
            }
        }
        false
    }

    /// The squares the piece on `from` could capture on, were an enemy piece there.
    pub fn attacks_from(&self, preset: &Preset, from: Sq) -> Vec<Sq> {
        let c = self.cells[from.idx()];
        if !cell::is_piece(c) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for s in &preset.movement.steps[cell::side(c)][cell::kind(c)] {
            if s.flags & flag::CAPTURE == 0 || (s.flags & flag::INITIAL != 0 && !cell::unmoved(c)) {
                continue;
            }
            self.capture_squares(preset, from, s, &mut |to| {
                out.push(to);
                false
            });
        }
        for r in preset.movement.rays[cell::side(c)][cell::kind(c)][from.idx()].iter() {
            if r.flags & flag::CAPTURE != 0 {
                out.extend(r.squares.iter().copied().filter(|&t| self.ray_reaches(r, t)));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Call `found` with each square a step could capture on from `from` (whatever stands there);
    /// stops early when `found` says so, and then returns true.
    fn capture_squares(&self, preset: &Preset, from: Sq, s: &Step, found: &mut dyn FnMut(Sq) -> bool) -> bool {
        let mv = &preset.movement;
        let c = self.cells[from.idx()];
        let (side, kind) = (cell::side(c), cell::kind(c));
        if s.region != 0 && !self.path_inside(mv, s, from, side) {
            return false;
        }
        if !(0..s.path_len as usize).all(|i| self.cells[from.offset(s.path[i] as i32).idx()] == cell::EMPTY) {
            return false;
        }
        let mut to = from;
        let mut screened = s.flags & flag::HOP == 0;
        for _ in 0..s.range_from(mv, from.idx()) {
            to = to.offset(s.delta as i32);
            let t = self.cells[to.idx()];
            if t == cell::OFF || t == cell::HOLE || !mv.inside(s.region, side, to.idx()) {
                return false;
            }
            if !screened {
                if t != cell::EMPTY && !mv.hop_allows(kind, t, true) {
                    return false;
                }
                screened = t != cell::EMPTY;
                continue;
            }
            if (t == cell::EMPTY || mv.hop_allows(kind, t, false)) && found(to) {
                return true;
            }
            if t != cell::EMPTY || s.grasshopper {
                return false;
            }
        }
        false
    }

    /// Whether any royal piece of `side` is attacked.
    pub fn in_check(&self, preset: &Preset, side: Side) -> bool {
        // One royal piece on a board the reverse attack bitboards describe: a few ANDs per enemy
        // code instead of every leap and ride walked on the cells (hooks ask this at every node
        // of a scripted perft). With explosions an attack may be no threat: the cells tell.
        if let Some(sq) = self.royal_square(side)
            && preset.explode.is_none()
            && let Some(hit) = self.attacked_by_bits(preset, sq, side.other())
        {
            return hit;
        }
        self.in_check_cells(preset, side)
    }

    /// [`Position::in_check`] read from the cells alone: for a trial that changed cells without
    /// the occupancy bits.
    pub(crate) fn in_check_cells(&self, preset: &Preset, side: Side) -> bool {
        let them = side.other();
        let threat = |sq: Sq| self.attacked(preset, sq, them) && !self.shielded(preset, sq, them);
        match self.royal_square(side) {
            Some(sq) => threat(sq),
            None if self.royal_count(side) == 0 => false,
            None => self.royal_squares(preset, side).into_iter().any(threat),
        }
    }

    /// With `captures explode`, whether a capture by `by` on `sq` would destroy a royal piece of
    /// `by` standing next to it (a capture its own side may not make): then an attack on `sq` is
    /// no threat to a royal piece there (atomic chess's kings that touch are never in check).
    #[inline]
    pub fn shielded(&self, preset: &Preset, sq: Sq, by: Side) -> bool {
        match &preset.explode {
            None => false,
            Some(blast) => self.royal_beside(blast, sq, by),
        }
    }

    #[cold]
    #[inline(never)]
    fn royal_beside(&self, blast: &crate::preset::Explosion, sq: Sq, by: Side) -> bool {
        blast.around.iter().any(|&d| {
            let c = self.cells[sq.offset(d).idx()];
            self.is_royal_code(c) && cell::side(c) == by && (blast.spared >> cell::kind(c)) & 1 == 0
        })
    }
}

impl Position {
    /// The moves `side` could make now that leave its royal pieces unattacked, whoever is to move
    /// and whether or not the preset filters moves by royal safety (for "check" and "mate" messages).
    pub fn safe_moves_for(&mut self, preset: &Preset, side: Side) -> Vec<Move> {
        let saved = self.side;
        self.side = side;
        let mut pseudo = Vec::new();
        self.pseudo_moves(preset, &mut pseudo);
        pseudo.retain(|&m| {
            self.make(preset, m);
            let ok = !self.in_check(preset, side);
            self.unmake();
            ok
        });
        self.side = saved;
        pseudo
    }

    /// The moves of `side` (as if it were to move) after which the other side is in check and has
    /// no legal move: what a preset's pregame rule asks about a drawn setup.
    pub fn checkmates_by(&mut self, preset: &Preset, side: Side) -> Vec<Move> {
        let saved = self.side;
        let mut candidates = self.safe_moves_for(preset, side);
        self.side = side;
        let mut replies = Vec::new();
        candidates.retain(|&m| {
            self.make(preset, m);
            let mate = self.in_check(preset, side.other()) && {
                self.legal_moves(preset, &mut replies);
                replies.is_empty()
            };
            self.unmake();
            mate
        });
        self.side = saved;
        candidates
    }
}

/// Drop the moves after `start` that repeat an earlier one (two paths to the same square).
fn dedup_from(out: &mut Vec<Move>, start: usize) {
    let mut i = start + 1;
    while i < out.len() {
        let m = out[i];
        if out[start..i].iter().any(|o| o.to == m.to && o.promo == m.promo && o.flags == m.flags) {
            out.remove(i);
        } else {
            i += 1;
        }
    }
}

/// The moves of a piece whose quick steps are all [`QuickTable::simple`], that promotes nowhere and
/// may take any enemy piece: the loop of [`Position::quick_moves`] with its tests left out.
#[inline]
fn simple_moves(cells: &[u8], from: Sq, them: Side, q: &QuickTable, out: &mut Vec<Move>) {
    let at = from.idx();
    for e in &q.list[q.at[at] as usize..q.at[at + 1] as usize] {
        let mut to = from;
        for _ in 0..e.n {
            to = to.offset(e.delta as i32);
            let t = cells[to.idx()];
            if t == cell::EMPTY {
                out.push(Move { from, to, promo: 0, flags: 0, extra: 0, gate: 0 });
                continue;
            }
            if cell::is_side(t, them) {
                out.push(Move { from, to, promo: 0, flags: mflag::CAPTURE, extra: 0, gate: 0 });
            }
            break;
        }
    }
}

/// Stands for "a promotion from hand" in a move's `promo` until the hand is looked at (never a piece code).
const HAND_PROMO: u8 = cell::OFF;

/// Push a move, or one move per promotion choice when it ends in the piece's promotion zone.
#[inline(always)]
fn push(preset: &Preset, us: Side, kind: usize, m: Move, out: &mut Vec<Move>) {
    // Most moves promote nothing (no promotion, or not into the zone) and may stand anywhere:
    // they go straight in.
    let plain = match &preset.promotions[kind] {
        None => true,
        Some(p) => !p.leaving && !p.zone[us][m.to.idx()],
    };
    if plain && preset.mobile.is_empty() {
        out.push(m);
    } else {
        push_checked(preset, us, kind, m, out);
    }
}

/// [`push`], or straight in when the caller knows the kind's moves are `plain` (no promotion, may
/// stand anywhere).
#[inline(always)]
fn emit(preset: &Preset, plain: bool, us: Side, kind: usize, m: Move, out: &mut Vec<Move>) {
    if plain { out.push(m) } else { push(preset, us, kind, m, out) }
}

/// [`push`] for a piece that may promote or may not stand everywhere.
#[inline(never)]
fn push_checked(preset: &Preset, us: Side, kind: usize, m: Move, out: &mut Vec<Move>) {
    // `immobility illegal`: a piece may not stay where it could never move again.
    let stays = |code: u8| preset.may_stand(code, m.to);
    match &preset.promotions[kind] {
        Some(p)
            if (p.zone[us][m.to.idx()] || (p.leaving && p.zone[us][m.from.idx()]))
                && (!p.on_capture || m.flags & (mflag::CAPTURE | mflag::EP) != 0) =>
        {
            if p.optional && stays(cell::piece(kind, us)) {
                out.push(m);
            }
            if p.hand.is_some() {
                // The choices depend on the hand: `Position::hand_promotions` resolves this.
                return out.push(Move { promo: HAND_PROMO, ..m });
            }
            for &k in &p.choices {
                let promo = cell::piece(k, us);
                if stays(promo) {
                    out.push(Move { promo, ..m });
                }
            }
        }
        _ if !stays(cell::piece(kind, us)) => {}
        _ => out.push(m),
    }
}

/// Whether the piece in cell `c`, standing on cell `at`, `dist` steps back along a rider line, rides it that far.
#[inline]
pub(super) fn rides_to(preset: &Preset, r: &RideAttack, c: u8, dist: u8, at: usize) -> bool {
    let code = cell::code(c);
    if (r.any >> code) & 1 == 0 {
        return false;
    }
    (r.unlimited >> code) & 1 != 0
        || r.limited.iter().any(|&(k, range, limit)| k == code && dist <= preset.movement.range_at(range, limit, at))
}

impl Position {
    /// The pseudo-legal moves of the side to move's piece on `sq` alone, as [`Self::pseudo_moves`]
    /// lists them (promotions from hand and promotion limits applied); gating is left out (an
    /// evaluation that counts moves piece by piece does not use this where the preset gates), and
    /// so are castlings, drops and passes
    /// ([`Self::extra_pseudo_moves`]).
    pub fn piece_pseudo_moves(&self, preset: &Preset, sq: Sq, out: &mut Vec<Move>) {
        let us = self.side;
        let c = self.cells[sq.idx()];
        if !cell::is_side(c, us) {
            return;
        }
        self.square_moves(preset, sq, c, &mut None, out);
        self.promotion_rules(preset, out);
    }

    /// The moves of the side to move's piece `c` on `sq` by its steps and rays (no gating,
    /// promotions from hand or limits). `checked`: whether the mover is in check, asked once.
    #[inline(always)]
    fn square_moves(&self, preset: &Preset, sq: Sq, c: u8, checked: &mut Option<bool>, out: &mut Vec<Move>) {
        let us = self.side;
        let kind = cell::kind(c);
        let start = out.len();
        if let Some(q) = &preset.movement.quick[us][kind] {
            self.quick_moves(preset, sq, c, q, checked, out);
        } else {
            let reach = &preset.movement.reach[us][kind];
            for (i, s) in preset.movement.steps[us][kind].iter().enumerate() {
                let n = reach[i * preset.geo.cells + sq.idx()];
                if n == 0 || (s.flags & flag::INITIAL != 0 && !cell::unmoved(c)) {
                    continue;
                }
                if s.calm && *checked.get_or_insert_with(|| self.in_check(preset, us)) {
                    continue;
                }
                self.step_moves(preset, sq, kind, s, n, out);
            }
        }
        if (preset.movement.ray_pieces >> cell::code(c)) & 1 != 0 {
            let rays = &preset.movement.rays[us][kind][sq.idx()];
            let mut i = 0;
            while let Some(r) = rays.get(i) {
                i += 1 + self.ray_moves(preset, sq, kind, r, out);
            }
            dedup_from(out, start);
        }
    }

    /// The side to move's castlings, drops and passes, as [`Self::pseudo_moves`] lists them.
    pub fn extra_pseudo_moves(&self, preset: &Preset, out: &mut Vec<Move>) {
        self.castling_moves(preset, out);
        if preset.drops {
            self.drop_moves(preset, out);
        }
        if preset.movement.pass_kinds != 0 {
            self.pass_moves(preset, out);
        }
    }
}
