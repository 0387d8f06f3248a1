//! The preset AST: plain data read once from pest pairs; nothing after parsing sees a `Pair`.

use super::script::{FnDecl, HookDecl, TurnPartDecl, VarDecl};
use super::span::{Span, Spanned};

pub type Name = Spanned<String>;

#[derive(Clone, Debug, PartialEq)]
pub struct PresetAst {
    pub decls: Vec<Decl>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    Light,
    Dark,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Decl {
    Extends(Name),
    Name(Name),
    Inventor(Name),
    Description(Name),
    Board {
        files: Spanned<u32>,
        ranks: Spanned<u32>,
    },
    Colours {
        square: Name,
        shade: Shade,
    },
    Side {
        white: bool,
        dir: Direction,
        span: Span,
    },
    Piece(PieceDecl),
    Setup(Name),
    Region(RegionDecl),
    Promote(PromoteDecl),
    Castle(CastleDecl),
    End(EndDecl),
    Remove(RemoveDecl),
    /// Whether a turn may leave the mover's royal pieces attacked.
    RoyalSafety(bool),
    /// `state` and `var` declarations.
    Var(VarDecl),
    Fn(FnDecl),
    Hook(HookDecl),
    Turn(Vec<TurnPartDecl>, Span),
    /// `captures to hand`.
    CapturesToHand(Span),
    /// `facing break`: royal pieces that face each other must be parted, or the turn is a pass.
    FacingBreak(Span),
    /// `captures compulsory`.
    CapturesCompulsory(Span),
    /// `drop Pawn not in last_rank`: where a kind may be dropped.
    DropZone {
        piece: Name,
        negate: bool,
        region: Name,
    },
    /// `drop Pawn one_per_file no_mate`: restrictions on dropping a kind.
    DropRule {
        piece: Name,
        one_per_file: bool,
        no_mate: bool,
        /// `opposite_colours`: a side's pieces of the kind must be able to end on both colours.
        opposite_colours: bool,
    },
    /// `drop Pawn also_as Tokin`: a kind in hand may also be dropped as these kinds.
    DropAs {
        piece: Name,
        kinds: Vec<Name>,
    },
    /// `immobility illegal`: no piece may be left where it could never move again.
    Immobility(Span),
    /// `gating in REGION`: pieces from hand enter on the squares unmoved pieces leave there.
    Gating(Name),
    /// `captures explode sparing KIND...`: captures destroy the capturer and the pieces around.
    CapturesExplode(Vec<Name>, Span),
    /// `en_passant in REGION`: the only squares a double step leaves open to en passant.
    EnPassant(Name),
    /// `fen_unmoved in REGION`: the FEN's castling field lists the unmoved pieces there by file.
    FenUnmoved(Name),
    /// `frozen_in_check KIND`: in check, such a piece moves only to take the sole checker.
    FrozenInCheck(Name),
    /// `checks illegal`: no turn may leave the opponent's royal piece attacked.
    ChecksIllegal(Span),
    /// `drops compulsory`: when a drop is legal, only drops are.
    DropsCompulsory(Span),
    /// `castle dropped`: a castling piece dropped on its castling square counts as unmoved.
    CastleDropped(Span),
}

#[derive(Clone, Debug, PartialEq)]
pub struct PieceDecl {
    pub name: Name,
    pub label: Name,
    pub value: Option<Spanned<u32>>,
    pub royal: bool,
    /// The Betza string; its span covers the text inside the quotes.
    pub moves: Option<Name>,
    /// `range FN`: the script function giving a rider's range from the steps that fit on the board.
    pub range: Option<Name>,
    /// `promoted from Pawn`: the kind it was; captured, it goes to hand as that kind.
    pub promoted_from: Option<Name>,
    /// `moves "..." within REGION` and `attacks "..."`: moves beside the plain `moves`.
    pub more_moves: Vec<MoveGroup>,
    /// `hops_not_over KIND`: kinds it may not hop over.
    pub hops_not_over: Vec<Name>,
    /// `spares KIND`: kinds it never captures.
    pub spares: Vec<Name>,
    /// `passes`: it may stay on its square as a move (a pass).
    pub passes: bool,
    /// `image "FILE" ["FILE"]`: White's picture, then Black's, for the web board (each span inside
    /// the quotes); empty when none is named.
    pub image: Vec<Name>,
}

/// A group of Betza moves with a condition: confined to a region, or attacking only.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveGroup {
    pub betza: Name,
    pub within: Option<Name>,
    pub attack_only: bool,
    /// `unless_checked`: not made while the mover's royal piece is attacked.
    pub calm: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RegionItem {
    /// A rank counted from each side's own first rank.
    Rank(Spanned<u32>),
    /// Absolute squares, the same for both sides.
    Squares(Vec<Name>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct RegionDecl {
    pub name: Name,
    pub items: Vec<RegionItem>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PromoteDecl {
    pub piece: Name,
    pub region: Name,
    /// The kinds it may become; with `hand`, those it becomes when the hand offers nothing.
    pub choices: Vec<Name>,
    pub optional: bool,
    /// `to hand [first|last]`: the new piece is taken from the mover's hand.
    pub hand: Option<HandPick>,
    /// `in or from REGION`: a move that starts in the region promotes too.
    pub leaving: bool,
    /// `to lost ...`: only to kinds of which the side has fewer on the board than its setup had.
    pub lost: bool,
    /// `on_capture`: only a capturing move promotes.
    pub on_capture: bool,
}

/// Which pieces of the hand a promotion may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandPick {
    /// Any kind in hand (one choice per kind).
    Any,
    /// Only the first piece in hand.
    First,
    /// Only the last piece in hand.
    Last,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CastleDecl {
    pub king: Name,
    pub king_from: Name,
    pub king_to: Name,
    pub rook: Name,
    pub rook_from: Name,
    pub rook_to: Name,
    pub flag: Name,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins.
    Wins,
    /// The side to move loses.
    Loses,
    Draws,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MaterialItem {
    pub label: Name,
    /// `B+`: one or more.
    pub many: bool,
}

/// One pattern of combined non-royal material that cannot win; empty = bare kings.
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialPattern {
    pub items: Vec<MaterialItem>,
    pub same_colour: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum EndCond {
    Checkmate,
    /// `end stalemate` (`true`: `fewer_pieces`, the outcome of the side with fewer pieces).
    Stalemate(bool),
    Repetition(Spanned<u32>),
    MoveLimit(Spanned<u32>),
    Insufficient(Vec<MaterialPattern>),
    /// Both sides passed in a row.
    Passes,
    /// The royal pieces face each other after a pass.
    Facing,
    /// `end reach REGION [by KINDS] [answered]`: a royal piece (or one of the kinds) in the region.
    Reach(Name, Vec<Name>, bool),
    /// `end extinction all` (None) or `end extinction KINDS`, with `at_most N` (else 0).
    /// `end bare [answered]`: a side with no piece but its royal ones.
    Bare(bool),
    Extinction(Option<Vec<Name>>, Option<Spanned<u32>>),
    /// `end checks N`: a side that has given N checks.
    Checks(Spanned<u32>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct EndDecl {
    pub cond: EndCond,
    pub outcome: Outcome,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    Checkmate,
    Stalemate,
    Repetition,
    MoveLimit,
    Insufficient,
    Passes,
    Facing,
    Reach,
    Extinction,
    Checks,
    Bare,
}

impl EndCond {
    pub fn kind(&self) -> EndKind {
        match self {
            EndCond::Checkmate => EndKind::Checkmate,
            EndCond::Stalemate(_) => EndKind::Stalemate,
            EndCond::Repetition(_) => EndKind::Repetition,
            EndCond::MoveLimit(_) => EndKind::MoveLimit,
            EndCond::Insufficient(_) => EndKind::Insufficient,
            EndCond::Passes => EndKind::Passes,
            EndCond::Facing => EndKind::Facing,
            EndCond::Reach(..) => EndKind::Reach,
            EndCond::Extinction(..) => EndKind::Extinction,
            EndCond::Checks(_) => EndKind::Checks,
            EndCond::Bare(_) => EndKind::Bare,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum RemoveDecl {
    Piece(Name),
    Castling(Span),
    Promotion(Name),
    End(EndKind, Span),
    /// `remove facing`: undo `facing break`.
    Facing(Span),
}
