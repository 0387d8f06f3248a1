//! A position: the mailbox, side to move, en passant, clocks, hash; make/unmake without allocation.

use super::board::{Sq, cell};
use super::gameover::GameOver;
use super::side::{BySide, Side};
use super::zobrist::Zobrist;
use crate::preset::Preset;
use crate::script::{PartVal, Value};
use crate::syntax::ast::HandPick;
use std::sync::Arc;

/// The hash contribution of holding `n` pieces of one code in hand.
fn hand_key(code: u8, n: usize) -> u64 {
    if n == 0 { 0 } else { Value::Int(((code as i64) << 16 | n as i64) ^ 0x4841_4E44_0000_0000).digest() }
}

/// The hash contribution of `side` (index) having `n` checks left to give (`end checks N`).
fn checks_key(side: Side, n: u8) -> u64 {
    Value::Int((side as i64) << 8 | n as i64 ^ 0x4348_4543_4B00_0000).digest()
}

/// One move part: a piece from one square to another, maybe promoting, maybe castling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Sq,
    pub to: Sq,
    /// The piece code it becomes, or 0.
    pub promo: u8,
    pub flags: u8,
    /// The castling rule's index, for castling moves.
    pub extra: u8,
    /// `gating in REGION`: the piece (code) put from hand on the square the move leaves (for
    /// castling, the king's, or with `mflag::GATE_ROOK` the rook's), or 0.
    pub gate: u8,
}

pub mod mflag {
    pub const CAPTURE: u8 = 1;
    pub const EP: u8 = 2;
    pub const CASTLE: u8 = 4;
    /// Leaves squares behind that may be taken en passant.
    pub const DOUBLE: u8 = 8;
    /// Promotes to a piece taken from the mover's hand.
    pub const FROM_HAND: u8 = 16;
    /// A drop generated natively: the piece `promo` from hand onto `to` (`from` is `to`).
    pub const DROP: u8 = 32;
    /// A castling's gated piece enters on the rook's square, not the king's.
    pub const GATE_ROOK: u8 = 64;
}

/// Squares that may be captured en passant this turn, and where the piece that passed them stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EpState {
    /// 0 = none.
    pub squares: [Sq; 2],
    pub victim: Sq,
    /// Whether an enemy piece could take it (only then is it part of the position's identity).
    pub hashed: bool,
}

impl EpState {
    #[inline]
    pub fn contains(&self, sq: Sq) -> bool {
        sq != Sq::NONE && (self.squares[0] == sq || self.squares[1] == sq)
    }
}

/// Which position a cache was made in: the hash and the number of cell changes recorded.
type PositionKey = (u64, u32);

/// Everything needed to take a position back to an earlier moment: stack heights and scalars.
#[derive(Clone, Debug)]
pub struct Mark {
    pub(super) changes: u32,
    state_changes: u32,
    hand_changes: u32,
    log: u32,
    log_turns: u32,
    history: u32,
    ep: EpState,
    new_ep: Option<(Sq, Sq)>,
    reset: bool,
    in_turn: bool,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    royal: BySide<Sq>,
    side: Side,
    castle_rights: u64,
    over: Option<Arc<GameOver>>,
    last_drop: u8,
    checks: BySide<u8>,
}

/// One change to a hand, to undo: a piece added at the end, or removed from an index.
#[derive(Clone, Copy, Debug)]
enum HandChange {
    /// A piece added at an index (the end, or its place in a pool kept in kind order).
    Added(Side, usize),
    Removed(Side, u8, usize),
}

#[derive(Clone, Debug)]
pub struct Position {
    pub cells: Vec<u8>,
    pub side: Side,
    pub ep: EpState,
    pub halfmove: u32,
    pub fullmove: u32,
    pub hash: u64,
    /// Pieces on the board per cell code (virgin bit stripped).
    pub counts: [u16; 128],
    /// Per side, a bit per cell holding one of its pieces: move generation visits only these,
    /// in cell order (the order a scan of the board would give).
    occupied: BySide<Vec<u64>>,
    /// With the preset's bitboards (`engine::bitboard`): each cell's bit (empty without them), and
    /// per side and per piece code (unmoved flag stripped) the bits of the squares holding one.
    bit_map: Vec<u8>,
    pub(super) side_bits: BySide<u64>,
    pub(super) code_bits: [u64; 128],
    /// Pieces in hand, per side, in drop order.
    pub hands: BySide<Vec<u8>>,
    /// The preset's script variables (`state` and `var`), by index.
    pub state: Vec<Value>,
    /// A result a script declared (`win`, `draw`).
    pub over: Option<Arc<GameOver>>,
    /// Last known square of each side's royal piece.
    royal: BySide<Sq>,
    /// Which castling rules still have both pieces unmoved (bit per rule), as of the last turn's end.
    castle_rights: u64,
    /// The piece the last turn dropped natively, or 0 (for `drop KIND no_mate`).
    pub last_drop: u8,
    /// `end checks N`: the checks each side (by index) has still to give to win.
    pub checks: BySide<u8>,
    /// Codes of royal pieces (bits).
    royal_codes: u128,
    /// Royal pieces on the board per side.
    royal_n: BySide<u16>,
    /// Which state variables are part of the position's identity (hashed).
    state_hashed: Vec<bool>,
    /// The hash contribution of each hashed state variable's current value (0 for the others):
    /// a change then digests only the new value, which may be a whole set.
    state_keys: Vec<u64>,
    pub(super) changes: Vec<(Sq, u8)>,
    /// Undo records of state variables: the index, the old value and its hash contribution.
    state_changes: Vec<(u16, Value, u64)>,
    hand_changes: Vec<HandChange>,
    /// The parts played, as scripts see them, and where each turn's parts begin.
    log: Vec<PartVal>,
    log_turns: Vec<u32>,
    /// Parts logged so far, ever: a stamp that tells whether `turn_list` is still the turn's.
    log_pushes: u64,
    /// The parts of the turn in progress as a script list, shared by every `this_turn()` that asks
    /// (a script that changes its list gets a copy), and what it was made of: the stamp and the turn's
    /// bounds in `log` (parts are only pushed and taken back, so these fix its contents).
    turn_list: Arc<Vec<Value>>,
    turn_list_key: (u64, u32, u32),
    /// Each side's pieces as a script list of squares, shared by every `pieces(side)` asked in one
    /// position, with the position it was made in (hash and cell changes, as `cache_key`).
    pieces_lists: BySide<(Option<PositionKey>, Arc<Vec<Value>>)>,
    /// Within a turn: whether it is irreversible so far, and a double step's squares.
    reset: bool,
    new_ep: Option<(Sq, Sq)>,
    in_turn: bool,
    pub(super) undos: Vec<Mark>,
    /// The legal moves last generated for a turn part, and the position they belong to.
    moves_cache: Vec<Move>,
    cache_key: Option<(u64, u32)>,
    /// Hashes of the positions before each move made, oldest first.
    pub history: Vec<u64>,
}

impl Position {
    /// An empty position on the preset's board (every square existing, every cell off the board `OFF`).
    pub fn empty(preset: &Preset) -> Position {
        let mut cells = vec![cell::OFF; preset.geo.cells];
        for &sq in &preset.geo.squares {
            cells[sq.idx()] = cell::EMPTY;
        }
        let mut royal_codes = 0u128;
        for (k, kind) in preset.kinds.iter().enumerate() {
            if kind.royal {
                for s in Side::BOTH {
                    royal_codes |= 1u128 << cell::piece(k, s);
                }
            }
        }
        let mut counts = [0u16; 128];
        counts[cell::EMPTY as usize] = preset.geo.squares.len() as u16;
        let globals = &preset.script.globals;
        Position {
            cells,
            side: Side::White,
            ep: EpState::default(),
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            counts,
            occupied: BySide::new(vec![0; preset.geo.cells.div_ceil(64)], vec![0; preset.geo.cells.div_ceil(64)]),
            // Kept by the attack tables' bits too (`engine::attackbits`): the same squares as the bulk count's.
            bit_map: preset
                .bits
                .as_ref()
                .map(|t| t.bit_of.clone())
                .or_else(|| preset.attack_bits.as_ref().map(|t| t.bit_of.clone()))
                .unwrap_or_default(),
            side_bits: BySide::new(0, 0),
            code_bits: [0; 128],
            hands: BySide::default(),
            state: globals.iter().map(|g| g.init.clone()).collect(),
            over: None,
            royal: BySide::default(),
            castle_rights: 0,
            last_drop: 0,
            checks: BySide::new(preset.check_limit, preset.check_limit),
            royal_codes,
            royal_n: BySide::default(),
            state_hashed: globals.iter().map(|g| g.state).collect(),
            state_keys: globals
                .iter()
                .enumerate()
                .map(|(i, g)| if g.state { Self::state_key(i, &g.init) } else { 0 })
                .collect(),
            changes: Vec::with_capacity(256),
            state_changes: Vec::new(),
            hand_changes: Vec::new(),
            log: Vec::new(),
            log_turns: Vec::new(),
            log_pushes: 0,
            turn_list: Arc::default(),
            turn_list_key: (0, 0, 0),
            pieces_lists: BySide::default(),
            reset: false,
            new_ep: None,
            in_turn: false,
            undos: Vec::with_capacity(256),
            moves_cache: Vec::new(),
            cache_key: None,
            history: Vec::with_capacity(256),
        }
    }

    #[inline]
    pub fn is_royal_code(&self, c: u8) -> bool {
        (self.royal_codes >> cell::code(c)) & 1 != 0
    }

    /// Whether any kind of either side is royal.
    #[inline]
    pub fn has_royal_kinds(&self) -> bool {
        self.royal_codes != 0
    }

    /// Put a cell value on a square, keeping hash, counts and royal squares in step; recorded for unmake.
    #[inline]
    pub fn set(&mut self, z: &Zobrist, sq: Sq, new: u8) {
        let old = self.cells[sq.idx()];
        self.changes.push((sq, old));
        self.hash ^= z.piece(old, sq) ^ z.piece(new, sq);
        self.counts[cell::code(old) as usize] -= 1;
        self.counts[cell::code(new) as usize] += 1;
        self.cells[sq.idx()] = new;
        self.count_royal(old, new);
        self.occupy(sq, old, new);
        if self.is_royal_code(new) {
            self.royal[cell::side(new)] = sq;
        }
    }

    /// Keep the occupancy bits in step with a cell going from `old` to `new`.
    #[inline]
    fn occupy(&mut self, sq: Sq, old: u8, new: u8) {
        let (word, bit) = (sq.idx() >> 6, 1u64 << (sq.idx() & 63));
        if cell::is_piece(old) {
            self.occupied[cell::side(old)][word] &= !bit;
        }
        if cell::is_piece(new) {
            self.occupied[cell::side(new)][word] |= bit;
        }
        if let Some(&b) = self.bit_map.get(sq.idx())
            && b != 255
        {
            let bit = 1u64 << (b & 63);
            if cell::is_piece(old) {
                self.side_bits[cell::side(old)] &= !bit;
                self.code_bits[cell::code(old) as usize & 127] &= !bit;
            }
            if cell::is_piece(new) {
                self.side_bits[cell::side(new)] |= bit;
                self.code_bits[cell::code(new) as usize & 127] |= bit;
            }
        }
    }

    /// `side`'s pieces as bits, numbered as the preset's bitboards number squares (`bit_map`:
    /// `Preset::bits`, else `Preset::attack_bits`); 0 without them.
    #[inline]
    pub fn pieces_as_bits(&self, side: Side) -> u64 {
        self.side_bits[side]
    }

    /// Per piece code (unmoved flag stripped), the bits of the squares holding one, numbered as
    /// [`Position::pieces_as_bits`] numbers them; all 0 without the preset's bitboards.
    #[inline]
    pub fn code_bits(&self) -> &[u64; 128] {
        &self.code_bits
    }

    /// Each piece of `side` whose code (unmoved flag stripped) `wanted` accepts, with its square:
    /// kind by kind from the per-code bits where the position keeps them (bit `i` is the board's
    /// `i`th square, as the preset's bitboards number them), else cell by cell. For sums, whose
    /// order does not matter: the evaluation's terms walk the pieces at every node.
    #[inline]
    pub fn for_each_piece(&self, preset: &Preset, side: Side, wanted: impl Fn(u8) -> bool, mut f: impl FnMut(u8, Sq)) {
        if self.bit_map.is_empty() {
            for sq in self.occupied_by(side) {
                let code = cell::code(self.cells[sq.idx()]);
                if wanted(code) {
                    f(code, sq);
                }
            }
            return;
        }
        let squares = &preset.geo.squares;
        for kind in 0..preset.kinds.len() {
            let code = cell::piece(kind, side);
            let mut rest = self.code_bits[code as usize & 127];
            if rest == 0 || !wanted(code) {
                continue;
            }
            while rest != 0 {
                if let Some(&sq) = squares.get(rest.trailing_zeros() as usize) {
                    f(code, sq);
                }
                rest &= rest - 1;
            }
        }
    }

    /// How many pieces `side` has on the board.
    pub fn occupied_count(&self, side: Side) -> usize {
        self.occupied[side].iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The cells holding a piece of `side`, in increasing order.
    #[inline]
    pub fn occupied_by(&self, side: Side) -> impl Iterator<Item = Sq> + '_ {
        let words = &self.occupied[side][..];
        Occupied { words, base: 0, bits: words.first().copied().unwrap_or(0) }
    }

    #[inline]
    fn count_royal(&mut self, old: u8, new: u8) {
        if self.is_royal_code(old) {
            self.royal_n[cell::side(old)] -= 1;
        }
        if self.is_royal_code(new) {
            self.royal_n[cell::side(new)] += 1;
        }
    }

    /// Set up a square directly (FEN loading): no undo record.
    pub fn place(&mut self, z: &Zobrist, sq: Sq, new: u8) {
        self.set(z, sq, new);
        self.changes.clear();
    }

    fn state_key(i: usize, v: &Value) -> u64 {
        Value::Int(i as i64 + 0x5354_4154).digest() ^ v.digest()
    }

    /// Set a script variable, hashed if it is `state`; recorded for unmake.
    /// Setting a variable to the value it holds changes nothing and records nothing (a shared
    /// collection is recognised by its pointer before its items are compared).
    pub fn set_state(&mut self, _preset: &Preset, i: usize, v: Value) {
        if self.state[i].same(&v) {
            return;
        }
        self.replace_state(i, v);
    }

    /// [`Position::set_state`] from a borrowed value, copied only when it differs (a kept hook
    /// run's writes, most often already in place).
    #[inline]
    pub fn set_state_from(&mut self, i: usize, v: &Value) {
        if !self.state[i].same(v) {
            self.replace_state(i, v.clone());
        }
    }

    /// Put a variable back to its initial value, if it has another.
    #[inline]
    pub fn reset_state(&mut self, i: usize, init: &Value) {
        if !self.state[i].same(init) {
            self.replace_state(i, init.clone());
        }
    }

    fn replace_state(&mut self, i: usize, v: Value) {
        let old_key = self.state_keys[i];
        if self.state_hashed[i] {
            let key = Self::state_key(i, &v);
            self.hash ^= old_key ^ key;
            self.state_keys[i] = key;
        }
        let old = std::mem::replace(&mut self.state[i], v);
        self.state_changes.push((i as u16, old, old_key));
    }

    /// Add a piece of a kind to a side's hand; recorded for unmake.
    pub fn hand_add(&mut self, preset: &Preset, side: Side, kind: u8) {
        let n = self.hands[side].iter().filter(|&&c| c == kind).count();
        let code = cell::piece(kind as usize, side);
        self.hash ^= hand_key(code, n) ^ hand_key(code, n + 1);
        // A pool is kept in kind order, as its FEN writes it, so that a FEN reads back the same.
        let at =
            if preset.hand_pool { self.hands[side].partition_point(|&k| k <= kind) } else { self.hands[side].len() };
        self.hands[side].insert(at, kind);
        self.hand_changes.push(HandChange::Added(side, at));
    }

    /// Take a piece of a kind from a side's hand (the first such); false if there is none.
    pub fn hand_take(&mut self, _preset: &Preset, side: Side, kind: u8) -> bool {
        let Some(at) = self.hands[side].iter().position(|&c| c == kind) else { return false };
        self.hand_take_at(side, at);
        true
    }

    /// Take the piece at an index of a side's hand; recorded for unmake.
    fn hand_take_at(&mut self, side: Side, at: usize) {
        let kind = self.hands[side][at];
        let n = self.hands[side].iter().filter(|&&c| c == kind).count();
        let code = cell::piece(kind as usize, side);
        self.hash ^= hand_key(code, n) ^ hand_key(code, n - 1);
        self.hands[side].remove(at);
        self.hand_changes.push(HandChange::Removed(side, kind, at));
    }

    /// Record a result declared by a script.
    pub fn declare(&mut self, over: GameOver) {
        self.over = Some(Arc::new(over));
    }

    /// Recompute the hash from scratch (after loading).
    pub fn rehash(&mut self, preset: &Preset) {
        let z = &preset.zobrist;
        let mut h = 0u64;
        for &sq in &preset.geo.squares {
            h ^= z.piece(self.cells[sq.idx()], sq);
        }
        if self.side == Side::Black {
            h ^= z.black_to_move;
        }
        if self.ep.hashed {
            h ^= z.ep(self.ep.squares[0]);
        }
        self.castle_rights = self.castle_rights_now(preset);
        h ^= z.castle_rights(self.castle_rights);
        for (i, v) in self.state.iter().enumerate() {
            if self.state_hashed[i] {
                self.state_keys[i] = Self::state_key(i, v);
                h ^= self.state_keys[i];
            }
        }
        for side in Side::BOTH {
            let mut seen: Vec<u8> = Vec::new();
            for &k in &self.hands[side] {
                seen.push(k);
                let n = seen.iter().filter(|&&x| x == k).count();
                let code = cell::piece(k as usize, side);
                h ^= hand_key(code, n - 1) ^ hand_key(code, n);
            }
        }
        if preset.check_limit != 0 {
            h ^= checks_key(Side::White, self.checks[Side::White]) ^ checks_key(Side::Black, self.checks[Side::Black]);
        }
        self.hash = h;
    }

    #[inline]
    pub fn royal_count(&self, side: Side) -> u32 {
        self.royal_n[side] as u32
    }

    /// The square of `side`'s royal piece when it has exactly one.
    #[inline]
    pub fn royal_square(&self, side: Side) -> Option<Sq> {
        let sq = self.royal[side];
        let c = self.cells[sq.idx()];
        (self.is_royal_code(c) && cell::side(c) == side && self.royal_count(side) == 1).then_some(sq)
    }

    /// Every square holding a royal piece of `side`.
    pub fn royal_squares(&self, preset: &Preset, side: Side) -> Vec<Sq> {
        preset
            .geo
            .squares
            .iter()
            .copied()
            .filter(|&s| {
                let c = self.cells[s.idx()];
                self.is_royal_code(c) && cell::side(c) == side
            })
            .collect()
    }

    pub fn ply(&self) -> usize {
        self.undos.len()
    }

    /// This turn's number: 1 is White's first turn of a game.
    pub fn turn_number(&self) -> u32 {
        // Saturating: a FEN may give any move number a u32 holds.
        self.fullmove.saturating_sub(1).saturating_mul(2).saturating_add(self.side.index() as u32 + 1)
    }

    /// The parts of each completed turn since the position was set up.
    pub fn turn_log(&self) -> Vec<&[PartVal]> {
        let n = self.log_turns.len() - usize::from(self.in_turn);
        (0..n)
            .map(|i| {
                let a = self.log_turns[i] as usize;
                let b = self.log_turns.get(i + 1).map_or(self.log.len(), |&x| x as usize);
                &self.log[a..b]
            })
            .collect()
    }

    /// The parts of the turn in progress, played so far (none between turns).
    pub fn current_parts(&self) -> &[PartVal] {
        match self.log_turns.last() {
            Some(&start) if self.in_turn => &self.log[start as usize..],
            _ => &[],
        }
    }

    /// [`Position::current_parts`] as a script list, shared: made again only when a part was logged
    /// or taken back since it was last asked for, and then in the same buffer unless a script still
    /// holds the old list. Hooks ask for it several times per part (Ruddigore's curse).
    pub fn this_turn_list(&mut self) -> Arc<Vec<Value>> {
        let (start, end) = match self.log_turns.last() {
            Some(&start) if self.in_turn => (start, self.log.len() as u32),
            _ => (0, 0),
        };
        let key = (self.log_pushes, start, end);
        if self.turn_list_key != key {
            let parts = self.log[start as usize..end as usize].iter().map(|&p| Value::Part(p));
            match Arc::get_mut(&mut self.turn_list) {
                Some(list) => {
                    list.clear();
                    list.extend(parts);
                }
                None => self.turn_list = Arc::new(parts.collect()),
            }
            self.turn_list_key = key;
        }
        self.turn_list.clone()
    }

    /// The squares of `side`'s pieces, in increasing order, as a script list shared by every
    /// `pieces(side)` asked in this position: made again only when the board changed since.
    pub fn pieces_list(&mut self, side: Side) -> Arc<Vec<Value>> {
        let key = Some((self.hash, self.changes.len() as u32));
        if self.pieces_lists[side].0 != key {
            let mut list = std::mem::take(&mut self.pieces_lists[side].1);
            match Arc::get_mut(&mut list) {
                Some(items) => {
                    items.clear();
                    items.extend(self.occupied_by(side).map(Value::Square));
                }
                None => list = Arc::new(self.occupied_by(side).map(Value::Square).collect()),
            }
            self.pieces_lists[side] = (key, list);
        }
        self.pieces_lists[side].1.clone()
    }

    /// The moves [`Position::cached_legal_moves`] generated last (they may belong to another position).
    pub fn moves_cache(&self) -> &[Move] {
        &self.moves_cache
    }

    /// The legal moves, generated into the cache unless it already belongs to this position: the
    /// cache's buffer is reused from node to node, and a hook asking again gets them for free.
    pub fn cached_legal_moves(&mut self, preset: &Preset) -> &[Move] {
        if self.cache_key != Some((self.hash, self.changes.len() as u32)) {
            let mut buf = std::mem::take(&mut self.moves_cache);
            self.legal_moves(preset, &mut buf);
            self.moves_cache = buf;
            self.cache_key = Some((self.hash, self.changes.len() as u32));
        }
        &self.moves_cache
    }

    /// Cache the legal moves (as [`Position::cached_legal_moves`]) from `pseudo`, this position's
    /// moves as `pseudo_moves` gives them, unless the cache already belongs to this position: a
    /// caller that needs both lists generates the moves once.
    pub fn cache_legal_from(&mut self, preset: &Preset, pseudo: &[Move]) {
        if self.cache_key != Some((self.hash, self.changes.len() as u32)) {
            let mut buf = std::mem::take(&mut self.moves_cache);
            buf.clear();
            buf.extend_from_slice(pseudo);
            self.keep_legal(preset, &mut buf);
            self.moves_cache = buf;
            self.cache_key = Some((self.hash, self.changes.len() as u32));
        }
    }

    /// How many cell changes the undo record holds: it grows with every change to the board.
    #[inline]
    pub fn cell_changes(&self) -> usize {
        self.changes.len()
    }

    /// The squares set since the undo record held `at` cell changes (some maybe more than once).
    #[inline]
    pub fn cells_changed_since(&self, at: usize) -> impl Iterator<Item = Sq> + '_ {
        self.changes.get(at..).unwrap_or_default().iter().map(|&(sq, _)| sq)
    }

    /// Whether which squares exist (the board's shape) is as it was when the undo record held `at`
    /// cell changes: no change since then made or filled a hole.
    pub fn shape_kept_since(&self, at: usize) -> bool {
        self.changes
            .get(at..)
            .is_some_and(|c| c.iter().all(|&(sq, old)| old != cell::HOLE && self.cells[sq.idx()] != cell::HOLE))
    }

    pub fn log_part(&mut self, p: PartVal) {
        self.log.push(p);
        self.log_pushes += 1;
    }

    /// Where everything stands now, to come back to with [`Position::undo_to`].
    #[inline]
    pub fn mark(&self) -> Mark {
        Mark {
            changes: self.changes.len() as u32,
            state_changes: self.state_changes.len() as u32,
            hand_changes: self.hand_changes.len() as u32,
            log: self.log.len() as u32,
            log_turns: self.log_turns.len() as u32,
            history: self.history.len() as u32,
            ep: self.ep,
            new_ep: self.new_ep,
            reset: self.reset,
            in_turn: self.in_turn,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            royal: self.royal,
            side: self.side,
            castle_rights: self.castle_rights,
            over: self.over.clone(),
            last_drop: self.last_drop,
            checks: self.checks,
        }
    }

    /// Take back everything done since `m` was taken.
    #[inline]
    pub fn undo_to(&mut self, m: &Mark) {
        while self.changes.len() > m.changes as usize {
            if let Some((sq, old)) = self.changes.pop() {
                let cur = self.cells[sq.idx()];
                self.counts[cell::code(cur) as usize] -= 1;
                self.counts[cell::code(old) as usize] += 1;
                self.cells[sq.idx()] = old;
                self.count_royal(cur, old);
                self.occupy(sq, cur, old);
            }
        }
        if self.state_changes.len() == m.state_changes as usize && self.hand_changes.len() == m.hand_changes as usize {
            self.restore_scalars(m);
            return;
        }
        while self.state_changes.len() > m.state_changes as usize {
            if let Some((i, old, key)) = self.state_changes.pop() {
                self.state[i as usize] = old;
                self.state_keys[i as usize] = key;
            }
        }
        while self.hand_changes.len() > m.hand_changes as usize {
            match self.hand_changes.pop() {
                Some(HandChange::Added(side, at)) => {
                    self.hands[side].remove(at);
                }
                Some(HandChange::Removed(side, code, at)) => self.hands[side].insert(at, code),
                None => {}
            }
        }
        self.restore_scalars(m);
    }

    #[inline]
    fn restore_scalars(&mut self, m: &Mark) {
        self.log.truncate(m.log as usize);
        self.log_turns.truncate(m.log_turns as usize);
        self.history.truncate(m.history as usize);
        self.ep = m.ep;
        self.new_ep = m.new_ep;
        self.reset = m.reset;
        self.in_turn = m.in_turn;
        self.halfmove = m.halfmove;
        self.fullmove = m.fullmove;
        self.hash = m.hash;
        self.royal = m.royal;
        self.side = m.side;
        self.castle_rights = m.castle_rights;
        self.last_drop = m.last_drop;
        self.checks = m.checks;
        if self.over.is_some() || m.over.is_some() {
            self.over.clone_from(&m.over);
        }
    }

    /// Play one move for the side to move and pass the turn.
    #[inline]
    pub fn make(&mut self, preset: &Preset, m: Move) {
        self.begin_turn();
        self.apply_move(preset, m);
        self.end_turn(preset);
    }

    /// Start a turn: what [`Position::unmake`] returns to.
    #[inline]
    pub fn begin_turn(&mut self) {
        self.undos.push(self.mark());
        self.history.push(self.hash);
        self.log_turns.push(self.log.len() as u32);
        self.reset = false;
        self.new_ep = None;
        self.in_turn = true;
        self.last_drop = 0;
    }

    /// Move a piece (maybe capturing, promoting, castling) within the current turn.
    #[inline]
    pub fn apply_move(&mut self, preset: &Preset, m: Move) {
        if m.flags & mflag::DROP != 0 {
            // A native drop of a pawn resets the move-limit count, as its moves do (and as
            // Fairy-Stockfish counts it).
            self.reset |= preset.irreversible[cell::kind(m.promo)];
            self.last_drop = m.promo;
            return self.apply_drop(preset, m.promo, m.to);
        }
        let z = &preset.zobrist;
        let piece = cell::code(self.cells[m.from.idx()]);
        self.reset |= preset.irreversible[cell::kind(piece)];
        if m.flags & mflag::CASTLE != 0 {
            let c = &preset.castles[m.extra as usize];
            self.set(z, c.king_from, cell::EMPTY);
            self.set(z, c.rook_from, cell::EMPTY);
            self.set(z, c.king_to, c.king);
            self.set(z, c.rook_to, c.rook);
            if m.gate != 0 {
                let sq = if m.flags & mflag::GATE_ROOK != 0 { c.rook_from } else { c.king_from };
                self.gate(preset, m.gate, sq);
            }
            return;
        }
        if m.from == m.to {
            // A pass: the piece stays where it is.
            return;
        }
        let target = self.cells[m.to.idx()];
        self.reset |= cell::is_piece(target);
        if preset.captures_to_hand && cell::is_piece(target) {
            self.hand_add(preset, cell::side(piece), preset.demote[cell::kind(target)]);
        }
        self.set(z, m.from, cell::EMPTY);
        if m.flags & mflag::EP != 0 {
            if preset.captures_to_hand {
                let victim = self.cells[self.ep.victim.idx()];
                self.hand_add(preset, cell::side(piece), preset.demote[cell::kind(victim)]);
            }
            self.set(z, self.ep.victim, cell::EMPTY);
            self.reset = true;
        }
        if m.flags & mflag::FROM_HAND != 0 {
            self.promote_from_hand(preset, piece, m.promo);
        }
        let mut arrived = if m.promo != 0 { m.promo } else { piece };
        // With drops, a piece may come back to a square of its setup (a chessgi pawn dropped on its
        // first rank steps to its second): there it counts as unmoved, as a FEN reads it.
        if preset.drops
            && preset.kinds[cell::kind(arrived)].cares_virgin
            && preset.setup_cells.get(m.to.idx()) == Some(&arrived)
            && !preset.castles.iter().any(|c| c.king == arrived || c.rook == arrived)
            && preset.gating.as_ref().is_none_or(|g| !g[cell::side(arrived)][m.to.idx()])
        {
            arrived |= cell::VIRGIN;
        }
        self.set(z, m.to, arrived);
        if let Some(blast) = &preset.explode
            && (cell::is_piece(target) || m.flags & mflag::EP != 0)
        {
            self.explode(preset, blast, m.to);
        }
        if m.flags & mflag::DOUBLE != 0 {
            self.new_ep = Some((m.from, m.to));
        }
        if m.gate != 0 {
            self.gate(preset, m.gate, m.from);
        }
    }

    /// `captures explode`: the capturer, standing on `at`, and every piece around it but the
    /// spared kinds are destroyed. Out of line: chess's moves never come here.
    #[cold]
    #[inline(never)]
    fn explode(&mut self, preset: &Preset, blast: &crate::preset::Explosion, at: Sq) {
        self.set(&preset.zobrist, at, cell::EMPTY);
        for d in blast.around {
            let sq = at.offset(d);
            let c = self.cells[sq.idx()];
            if cell::is_piece(c) && (blast.spared >> cell::kind(c)) & 1 == 0 {
                self.set(&preset.zobrist, sq, cell::EMPTY);
            }
        }
    }

    /// `gating in REGION`: a piece from the mover's hand enters on the square a piece just left.
    fn gate(&mut self, preset: &Preset, code: u8, sq: Sq) {
        let side = cell::side(code);
        self.hand_take(preset, side, cell::kind(code) as u8);
        self.set(&preset.zobrist, sq, code);
    }

    /// An empty hand that captures cannot refill closes every gate, as Fairy-Stockfish's FEN then
    /// shows none: only pieces of castlings still possible stay unmoved.
    fn close_gates(&mut self, preset: &Preset, side: Side, g: &crate::engine::side::BySide<Vec<bool>>) {
        for &s in &preset.geo.squares {
            let c = self.cells[s.idx()];
            if !(g[side][s.idx()] && cell::is_side(c, side) && cell::unmoved(c)) {
                continue;
            }
            let castles = preset.castles.iter().any(|k| {
                (k.king_from == s || k.rook_from == s)
                    && self.cells[k.king_from.idx()] == cell::with_unmoved(k.king)
                    && self.cells[k.rook_from.idx()] == cell::with_unmoved(k.rook)
            });
            if !castles {
                self.set(&preset.zobrist, s, cell::code(c));
            }
        }
    }

    /// Take a promotion's new piece out of the hand, from the end its rule draws from.
    fn promote_from_hand(&mut self, preset: &Preset, piece: u8, promo: u8) {
        let side = cell::side(piece);
        let kind = cell::kind(promo) as u8;
        let last = preset.promotions[cell::kind(piece)].as_ref().is_some_and(|p| p.hand == Some(HandPick::Last));
        let at = if last {
            self.hands[side].iter().rposition(|&k| k == kind)
        } else {
            self.hands[side].iter().position(|&k| k == kind)
        };
        if let Some(at) = at {
            self.hand_take_at(side, at);
        }
    }

    /// Empty a square (huffing, sacrifice): irreversible, like a capture.
    pub fn apply_remove(&mut self, preset: &Preset, sq: Sq) {
        self.set(&preset.zobrist, sq, cell::EMPTY);
        self.reset = true;
    }

    /// Put a piece from the mover's hand on an empty square. Dropped where the setup puts the
    /// same piece, it counts as unmoved (a crazyhouse pawn dropped on its second rank may step
    /// twice), as a FEN reads it; castling pieces excepted, whose rights the castling field keeps
    /// (unless `castle dropped`), and pieces on gating squares (a dropped piece opens no gate).
    pub fn apply_drop(&mut self, preset: &Preset, code: u8, sq: Sq) {
        let kind = cell::kind(code) as u8;
        // `drop KIND also_as ...`: a piece dropped as another kind comes from its base kind in hand.
        if !self.hand_take(preset, cell::side(code), kind) {
            self.hand_take(preset, cell::side(code), preset.drop_base[kind as usize]);
        }
        let unmoved = preset.setup_cells.get(sq.idx()) == Some(&code)
            && !preset.castles.iter().any(|c| c.king == code || c.rook == code)
            && preset.gating.as_ref().is_none_or(|g| !g[cell::side(code)][sq.idx()])
            // `castle dropped`: a king or rook dropped where a castling rule starts it may castle.
            || preset.castle_dropped
                && preset.castles.iter().any(|c| (c.king, c.king_from) == (code, sq) || (c.rook, c.rook_from) == (code, sq));
        self.set(&preset.zobrist, sq, if unmoved { cell::with_unmoved(code) } else { code });
    }

    /// Take a piece out of its side's hand for good (a sacrifice from hand): irreversible.
    pub fn apply_discard(&mut self, preset: &Preset, code: u8) {
        self.hand_take(preset, cell::side(code), cell::kind(code) as u8);
        self.reset = true;
    }

    /// Create a missing square, or remove an empty one.
    pub fn apply_square(&mut self, preset: &Preset, sq: Sq, exists: bool) {
        self.set(&preset.zobrist, sq, if exists { cell::EMPTY } else { cell::HOLE });
        self.reset = true;
    }

    /// Finish the turn: clocks, en passant, and the move passes to the other side.
    #[inline]
    pub fn end_turn(&mut self, preset: &Preset) {
        let z = &preset.zobrist;
        if preset.check_limit != 0 {
            self.count_check(preset);
        }
        if self.ep.hashed {
            self.hash ^= z.ep(self.ep.squares[0]);
        }
        self.ep = match self.new_ep {
            Some((from, to)) => self.passed(preset, from, to),
            None => EpState::default(),
        };
        if self.ep.hashed {
            self.hash ^= z.ep(self.ep.squares[0]);
        }
        if let Some(g) = &preset.gating
            && !preset.captures_to_hand
        {
            for side in Side::BOTH {
                if self.hands[side].is_empty() {
                    self.close_gates(preset, side, g);
                }
            }
        }
        if !preset.castles.is_empty() {
            let rights = self.castle_rights_now(preset);
            if rights != self.castle_rights {
                self.hash ^= z.castle_rights(rights ^ self.castle_rights);
                self.castle_rights = rights;
            }
        }
        // Saturating: a FEN may start the counts at the largest u32.
        self.halfmove = if self.reset { 0 } else { self.halfmove.saturating_add(1) };
        if self.side == Side::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.other();
        self.hash ^= z.black_to_move;
        self.in_turn = false;
    }

    /// `end checks N`: if the mover gave check, one check fewer to give. Out of line: chess's
    /// turns never come here.
    #[cold]
    #[inline(never)]
    fn count_check(&mut self, preset: &Preset) {
        if self.in_check(preset, self.side.other()) {
            let side = self.side;
            let left = self.checks[side].saturating_sub(1);
            self.hash ^= checks_key(side, self.checks[side]) ^ checks_key(side, left);
            self.checks[side] = left;
        }
    }

    /// The castling rules whose king and rook both stand unmoved on their squares.
    fn castle_rights_now(&self, preset: &Preset) -> u64 {
        let mut rights = 0;
        for (i, c) in preset.castles.iter().enumerate() {
            if self.cells[c.king_from.idx()] == cell::with_unmoved(c.king)
                && self.cells[c.rook_from.idx()] == cell::with_unmoved(c.rook)
            {
                rights |= 1 << i;
            }
        }
        rights
    }

    /// Take back the last turn.
    #[inline]
    pub fn unmake(&mut self) {
        if let Some(u) = self.undos.pop() {
            self.undo_to(&u);
        }
    }

    /// The squares a double step passed over, and whether the side now to move could take one.
    fn passed(&self, preset: &Preset, from: Sq, to: Sq) -> EpState {
        let g = &preset.geo;
        let (ff, fr, tf, tr) = (g.file(from) as i32, g.rank(from) as i32, g.file(to) as i32, g.rank(to) as i32);
        let (dx, dy) = (tf - ff, tr - fr);
        let n = dx.abs().max(dy.abs());
        let mut ep = EpState { victim: to, ..Default::default() };
        if !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
            return ep;
        }
        let mover = cell::side(self.cells[to.idx()]);
        let mut i = 0;
        for k in (1..n).take(2) {
            let sq = g.square((ff + k * dx.signum()) as usize, (fr + k * dy.signum()) as usize);
            // `en_passant in REGION`: only the squares passed inside it may be taken.
            if preset.ep_zone.as_ref().is_none_or(|z| z[mover][sq.idx()]) {
                ep.squares[i] = sq;
                i += 1;
            }
        }
        ep.hashed = ep.squares[0] != Sq::NONE && self.can_take_ep(preset, &ep);
        ep
    }

    fn can_take_ep(&self, preset: &Preset, ep: &EpState) -> bool {
        let them = cell::side(self.cells[ep.victim.idx()]).other();
        let mv = &preset.movement;
        for (kind, steps) in mv.steps[them].iter().enumerate() {
            let code = cell::piece(kind, them);
            if (mv.ep_capturers >> code) & 1 == 0 {
                continue;
            }
            for s in steps.iter().filter(|s| s.flags & super::movement::flag::EP != 0) {
                for &target in ep.squares.iter().filter(|&&t| t != Sq::NONE) {
                    let origin = (target.idx() as i32 - s.delta as i32) as usize;
                    if self.cells.get(origin).is_some_and(|&c| cell::code(c) == code) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// The cells holding a piece of one side, in increasing order ([`Position::occupied_by`]): a
/// plain loop over the occupancy words, which the evaluation and move generation walk at every
/// node (a `flat_map` of `from_fn` compiled to about twice the instructions).
struct Occupied<'a> {
    /// The current word (first) and those after it.
    words: &'a [u64],
    /// The cell of the current word's bit 0.
    base: usize,
    /// The current word's bits not yet given.
    bits: u64,
}

impl Iterator for Occupied<'_> {
    type Item = Sq;

    #[inline]
    fn next(&mut self) -> Option<Sq> {
        while self.bits == 0 {
            let [_, rest @ ..] = self.words else { return None };
            let [next, ..] = rest else { return None };
            self.words = rest;
            self.base += 64;
            self.bits = *next;
        }
        let sq = Sq::new(self.base + self.bits.trailing_zeros() as usize);
        self.bits &= self.bits - 1;
        Some(sq)
    }
}
