//! A loaded preset: names resolved to indices, movement compiled; what the engine runs on.

use crate::diag::Sources;
use crate::engine::board::{Geometry, Sq, cell};
use crate::engine::movement::Movement;
use crate::engine::side::{BySide, Side};
use crate::engine::zobrist::Zobrist;
use crate::script::ir::Script;
use crate::syntax::ast::{Direction, HandPick, Outcome};

/// One kind of piece.
#[derive(Clone, Debug)]
pub struct Kind {
    pub name: String,
    /// Labels per side as written in FEN and notation (`N` / `n`, `Ab` / `ab`).
    pub labels: BySide<String>,
    pub value: i32,
    pub royal: bool,
    pub betza: String,
    /// Whether having moved changes what the piece may do (initial moves), so it is hashed.
    pub cares_virgin: bool,
}

impl Kind {
    /// The label as written in a FEN board: one letter bare, longer ones in parentheses; a
    /// promoted kind's marker (`+P`, `Q~`) does not count, as Fairy-Stockfish writes them bare.
    pub fn fen_label(&self, side: Side) -> String {
        let l = &self.labels[side];
        if l.trim_start_matches('+').trim_end_matches('~').len() == 1 { l.clone() } else { format!("({l})") }
    }
}

#[derive(Clone, Debug)]
pub struct Promotion {
    /// zone[side][cell]: arriving there promotes.
    pub zone: BySide<Vec<bool>>,
    /// The kinds it may become (with `hand`: when the hand offers none).
    pub choices: Vec<usize>,
    pub optional: bool,
    /// `to hand ...`: the new piece is taken from the mover's hand.
    pub hand: Option<HandPick>,
    /// `in or from REGION`: a move that starts in the zone promotes too.
    pub leaving: bool,
    /// `to lost ...`: only to kinds the side has fewer of than its setup had.
    pub lost: bool,
    /// `on_capture`: only a capturing move promotes.
    pub on_capture: bool,
}

impl Promotion {
    /// The kinds the hand offers for this promotion, each once, in hand order.
    pub fn from_hand(&self, hand: &[u8]) -> Vec<u8> {
        let mut out: Vec<u8> = match self.hand {
            None => Vec::new(),
            Some(HandPick::Any) => hand.to_vec(),
            Some(HandPick::First) => hand.first().copied().into_iter().collect(),
            Some(HandPick::Last) => hand.last().copied().into_iter().collect(),
        };
        let mut seen = 0u64;
        out.retain(|&k| {
            let fresh = seen & (1 << k) == 0;
            seen |= 1 << k;
            fresh
        });
        out
    }
}

#[derive(Clone, Debug)]
pub struct Castle {
    pub side: Side,
    pub king: u8,
    pub rook: u8,
    pub king_from: Sq,
    pub king_to: Sq,
    pub rook_from: Sq,
    pub rook_to: Sq,
    /// Squares that must be empty (apart from the king and rook themselves).
    pub empty: Vec<Sq>,
    /// Squares the king stands on, passes or reaches: none may be attacked.
    pub safe: Vec<Sq>,
    pub flag: char,
}

/// One material pattern for insufficient material: kinds (with "one or more") and a colour rule.
#[derive(Clone, Debug)]
pub struct MaterialPattern {
    pub items: Vec<(usize, bool)>,
    pub same_colour: bool,
}

#[derive(Clone, Debug)]
pub enum EndRule {
    Checkmate(Outcome),
    /// With `true` (`fewer_pieces`): the outcome of a stalemated side with fewer pieces than the
    /// other, the opposite with more, a draw with as many.
    Stalemate(Outcome, bool),
    Repetition(u32, Outcome),
    /// Full moves without capture or pawn-like irreversible move (as the 50-move rule).
    MoveLimit(u32, Outcome),
    Insufficient(Vec<MaterialPattern>, Outcome),
    /// Both sides passed, one turn after the other.
    Passes(Outcome),
    /// The royal pieces face each other after a pass.
    Facing(Outcome),
    /// A piece of these kinds (the royal ones unless `by` names others) of a side on its squares of
    /// the region (per side, by cell): that side's outcome. With `answered`, judged only for the
    /// side to move (the other side has had its answer), and a draw when the side to move is White
    /// and Black stands in the region too.
    Reach(BySide<Vec<u16>>, Vec<usize>, bool, Outcome),
    /// A side with at most this many pieces left (`None`: all kinds together) or of one of these
    /// kinds: that side's outcome.
    Extinction(Option<Vec<usize>>, u32, Outcome),
    /// `end bare`: a side with no piece but its royal ones, on the board or in hand: that side's outcome.
    /// With `answered` (Fairy-Stockfish's extinction claim), only while the other side has another
    /// piece, and two or more when the bared side is to move (it may bare the other back).
    Bare(bool, Outcome),
    /// A side that has given this many checks: that side's outcome.
    Checks(u8, Outcome),
}

/// `captures explode sparing KIND...`: what a capture destroys besides the captured piece.
#[derive(Clone, Debug)]
pub struct Explosion {
    /// Bits per kind: pieces the blast leaves standing.
    pub spared: u64,
    /// The cell offsets of the squares around the capture square (a king's step away).
    pub around: [i32; 8],
}

#[derive(Clone, Debug)]
pub struct Preset {
    pub name: String,
    pub inventor: String,
    pub description: String,
    /// The path (or shipped name) it was loaded from.
    pub origin: String,
    pub sources: Sources,
    pub geo: Geometry,
    pub forward: BySide<Direction>,
    pub kinds: Vec<Kind>,
    pub setup: String,
    /// Per kind.
    pub promotions: Vec<Option<Promotion>>,
    /// Whether some promotion takes its piece from hand (move generation then looks at hands).
    pub hand_promotion: bool,
    pub castles: Vec<Castle>,
    pub ends: Vec<EndRule>,
    pub movement: Movement,
    pub zobrist: Zobrist,
    /// Kinds whose moves reset the move-limit counter (those that cannot move backwards).
    pub irreversible: Vec<bool>,
    /// Whether a turn must leave the mover's royal pieces unattacked.
    pub royal_safety: bool,
    /// `facing break`: royal pieces facing each other at a turn's start must be parted, or the turn is a pass.
    pub facing_break: bool,
    /// `captures to hand`: a captured piece joins the capturer's hand.
    pub captures_to_hand: bool,
    /// `captures compulsory`: when a capture is legal, only captures are.
    pub must_capture: bool,
    /// `captures explode`: a capture destroys the capturer and the pieces around (atomic chess).
    pub explode: Option<Explosion>,
    /// `en_passant in REGION`: per side, the cells a double step of that side leaves open to en
    /// passant (`None`: every square it passed).
    pub ep_zone: Option<BySide<Vec<bool>>>,
    /// `end checks N`: how many checks a side must give (0 when checks are not counted); each
    /// side's remaining count is part of the position.
    pub check_limit: u8,
    /// Per kind: where it may be dropped, per side (`None`: on any empty square).
    pub drop_zones: Vec<Option<BySide<Vec<bool>>>>,
    /// Per kind: the kind it joins a hand as when captured (itself, or its `promoted from` kind).
    pub demote: Vec<u8>,
    /// `turn { move or drop }` with no script: drops are generated natively beside the moves.
    pub drops: bool,
    /// Hands are pools (drops are native): the FEN always writes the
    /// brackets (`[]` when empty) and each side's pieces in the order the kinds are declared.
    pub hand_pool: bool,
    /// `gating in REGION`: per side, the cells where an unmoved piece leaving lets a piece from
    /// hand enter (Seirawan chess).
    pub gating: Option<BySide<Vec<bool>>>,
    /// `fen_unmoved in REGION`: per side, the cells whose unmoved pieces the FEN's castling field
    /// lists by file (as `gating` does).
    pub fen_unmoved: Option<BySide<Vec<bool>>>,
    /// Bits per kind: `frozen_in_check KIND` (in check, it moves only to take the sole checker).
    pub frozen_in_check: u64,
    /// Bits per kind: `drop KIND one_per_file`; `drop KIND no_mate` (a mate by such a drop loses).
    pub drop_one_per_file: u64,
    pub drop_no_mate: u64,
    /// Per kind: the other kinds a piece of it in hand may be dropped as (`drop KIND also_as ...`).
    pub drop_as: Vec<Vec<u8>>,
    /// Per kind: the kind in hand that dropping it takes (itself, or the kind whose `also_as` names it).
    pub drop_base: Vec<u8>,
    /// Bits per kind: `drop KIND opposite_colours` (a side's pieces of the kind must be able to
    /// stand on squares of both colours: no drop may make that impossible).
    pub drop_opposite_colours: u64,
    /// `checks illegal`: no turn may leave the opponent's royal piece attacked.
    pub no_checks: bool,
    /// `drops compulsory`: when the side to move has a legal drop, only drops are legal.
    pub must_drop: bool,
    /// `castle dropped`: a king or rook dropped where a castling rule starts it has not moved.
    pub castle_dropped: bool,
    /// Per piece code: how many the board may hold before promoting to it is refused (`to lost`:
    /// the setup's count), `u16::MAX` without such a rule. Empty when no rule says `lost`.
    pub promo_limit: Vec<u16>,
    /// `immobility illegal`: per piece code, per cell, whether the piece has a move from there
    /// on an empty board (empty when the rule is not declared).
    pub mobile: Vec<Vec<bool>>,
    /// The setup's board, to tell which pieces of a FEN have not moved yet.
    pub setup_cells: Vec<u8>,
    /// Rule scripts: state, functions, hooks and the structure of a turn.
    pub script: Script,
    /// Per kind, each side's picture (`image "knight.svg"`), read at load; only the web board draws them.
    pub images: Vec<BySide<Option<PieceImage>>>,
    /// Bitboards to count legal moves with, when the board and the rules allow (`engine::bulk`).
    pub bits: Option<crate::engine::bitboard::BitTables>,
    /// The attack tables as bitboards, on a board of at most 64 squares (`engine::attackbits`).
    pub attack_bits: Option<crate::engine::attackbits::AttackBits>,
}

/// A piece's picture as read from beside the preset: its type and bytes, and whether it is drawn
/// with its colours inverted (Black's, when one picture serves both sides).
#[derive(Clone, Debug)]
pub struct PieceImage {
    pub ty: crate::files::ImageType,
    pub bytes: std::sync::Arc<[u8]>,
    pub inverted: bool,
}

impl Preset {
    /// The preset without its end rules by repetition, move limit and insufficient material: what
    /// `perft --no-draws` counts with, as Fairy-Stockfish's perft and published suites count.
    pub fn without_static_ends(&self) -> Preset {
        let mut p = self.clone();
        p.ends.retain(|r| !matches!(r, EndRule::Repetition(..) | EndRule::MoveLimit(..) | EndRule::Insufficient(..)));
        p
    }

    pub fn kind_by_label(&self, label: &str) -> Option<(usize, Side)> {
        self.kinds
            .iter()
            .enumerate()
            .find_map(|(i, k)| Side::BOTH.into_iter().find(|&s| k.labels[s] == label).map(|s| (i, s)))
    }

    pub fn kind_by_name(&self, name: &str) -> Option<usize> {
        self.kinds.iter().position(|k| k.name.eq_ignore_ascii_case(name))
    }

    /// The label of the piece in cell `c`; `?` for a cell without one (a typed part naming an empty square).
    pub fn label_of(&self, c: u8) -> &str {
        if !cell::is_piece(c) {
            return "?";
        }
        &self.kinds[cell::kind(c)].labels[cell::side(c)]
    }

    /// Whether a piece (code) may stand on a cell under `immobility illegal`.
    #[inline]
    pub fn may_stand(&self, code: u8, sq: Sq) -> bool {
        self.mobile.is_empty() || self.mobile[cell::code(code) as usize][sq.idx()]
    }

    /// The cells whose unmoved pieces the FEN's castling field lists by file: `gating`'s or
    /// `fen_unmoved`'s region.
    pub fn unmoved_letters(&self) -> Option<&BySide<Vec<bool>>> {
        self.gating.as_ref().or(self.fen_unmoved.as_ref())
    }

    pub fn is_royal(&self, c: u8) -> bool {
        cell::is_piece(c) && self.kinds[cell::kind(c)].royal
    }
}

impl crate::script::value::Names for Preset {
    fn square_name(&self, sq: Sq) -> String {
        self.geo.name(sq)
    }
    fn kind_name(&self, kind: usize) -> &str {
        &self.kinds[kind].name
    }
    fn label(&self, code: u8) -> &str {
        self.label_of(code)
    }
}
