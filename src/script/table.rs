//! The built-in table: one record per built-in (name, arity, family, flags, what it does). Script
//! data, below the preset: the compiler resolves names and arities with it, the interpreter reads a
//! built-in's flags from it and runs it by its family; the functions themselves are in `builtins.rs`.

/// A built-in, named by its place in [`TABLE`] (`Builtin::X as usize` is its row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Builtin {
    PieceAt,
    Empty,
    Exists,
    SideOf,
    KindOf,
    LabelOf,
    NameOf,
    IsRoyal,
    ValueOf,
    PieceOf,
    FileOf,
    RankOf,
    SquareAt,
    Neighbours,
    EdgeNeighbours,
    Frontier,
    Light,
    Attacks,
    Attacked,
    InCheck,
    LegalMoves,
    SafeMoves,
    Checkmates,
    Captures,
    History,
    LastTurn,
    TurnNumber,
    MoveNumber,
    ThisTurn,
    Halfmoves,
    Squares,
    Holes,
    Pieces,
    Count,
    Follow,
    Hand,
    Len,
    List,
    Set,
    Add,
    Discard,
    Keys,
    Get,
    Put,
    Abs,
    Min,
    Max,
    Str,
    Range,
    Kinds,
    Random,
    RandomOrder,
    RemovePiece,
    Place,
    Construct,
    Destroy,
    ToHand,
    FromHand,
    Promote,
}

/// The functions built-ins are grouped into, one per family in `builtins.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Pieces and kinds: what is on a square, a piece's side, kind, label, name, value.
    Piece,
    /// The board's squares: files, ranks, neighbours, which exist.
    Board,
    /// Attacks and moves: attacked squares, check, legal, safe and mating moves, captures.
    Moves,
    /// A side's pieces on the board and in hand.
    Material,
    /// The game so far and the turn in progress.
    Turn,
    /// Lists, sets and maps.
    Collection,
    /// Integers and text.
    Value,
    /// The game's seeded numbers (`on setup` only).
    Random,
    /// What changes the position (in hooks that may).
    Change,
}

/// One built-in: everything the compiler and the interpreter need to know of it.
#[derive(Clone, Copy, Debug)]
pub struct Def {
    pub name: &'static str,
    pub builtin: Builtin,
    /// Fewest and most arguments.
    pub min: usize,
    pub max: usize,
    pub family: Family,
    /// Whether it changes the position (only hooks that may change it may call it).
    pub changes: bool,
    /// Whether it reads one square or piece and gives a scalar: compiled to `Ex::Read`, run without
    /// the general dispatch.
    pub reader: bool,
    /// Whether every list or set it gives holds only scalars (squares, pieces, kinds, parts,
    /// integers): its weight is then its length and one, known without looking at the items.
    pub flat: bool,
    /// What it does, for the help text.
    pub doc: &'static str,
}

const fn def(name: &'static str, builtin: Builtin, min: usize, max: usize, family: Family, doc: &'static str) -> Def {
    let changes = matches!(family, Family::Change);
    Def { name, builtin, min, max, family, changes, reader: false, flat: false, doc }
}

impl Def {
    const fn reader(self) -> Def {
        Def { reader: true, ..self }
    }
    const fn flat(self) -> Def {
        Def { flat: true, ..self }
    }
}

impl Builtin {
    /// The built-in's record.
    #[inline(always)]
    pub fn def(self) -> &'static Def {
        &TABLE[self as usize]
    }
}

use Builtin as B;
use Family as F;

/// Every built-in, in the order of [`Builtin`] (checked below, when this compiles).
pub const TABLE: &[Def] = &[
    def("piece_at", B::PieceAt, 1, 1, F::Piece, "the piece on a square, or none").reader(),
    def("empty", B::Empty, 1, 1, F::Piece, "whether a square exists and holds no piece").reader(),
    def("exists", B::Exists, 1, 1, F::Piece, "whether a square is on the board (not a hole)").reader(),
    def("side_of", B::SideOf, 1, 1, F::Piece, "the side of a piece (or of the piece on a square)").reader(),
    def("kind_of", B::KindOf, 1, 1, F::Piece, "the kind of a piece").reader(),
    def("label_of", B::LabelOf, 1, 1, F::Piece, "the label of a piece, as in FEN"),
    def("name_of", B::NameOf, 1, 1, F::Piece, "the name of a piece or kind"),
    def("is_royal", B::IsRoyal, 1, 1, F::Piece, "whether a piece or kind is royal").reader(),
    def("value_of", B::ValueOf, 1, 1, F::Piece, "the declared value of a piece or kind").reader(),
    def("piece_of", B::PieceOf, 2, 2, F::Piece, "the piece of a kind and side: piece_of(Queen, white)"),
    def("file_of", B::FileOf, 1, 1, F::Board, "the file of a square, 1 for a"),
    def("rank_of", B::RankOf, 1, 2, F::Board, "the rank of a square, 1 first; with a side, counted from that side"),
    def("square_at", B::SquareAt, 2, 2, F::Board, "the square at file and rank (1-based), or none"),
    def("neighbours", B::Neighbours, 1, 1, F::Board, "the existing squares sharing an edge or corner").flat(),
    def("edge_neighbours", B::EdgeNeighbours, 1, 1, F::Board, "the existing squares sharing an edge").flat(),
    def("frontier", B::Frontier, 0, 0, F::Board, "the missing squares that share an edge with an existing square")
        .flat(),
    def("light", B::Light, 1, 1, F::Board, "whether a square (existing or not) is light in the checkered pattern")
        .reader(),
    def("attacks", B::Attacks, 1, 1, F::Moves, "the squares the piece on a square could capture on").flat(),
    def("attacked", B::Attacked, 2, 2, F::Moves, "whether a side attacks a square"),
    def("in_check", B::InCheck, 1, 1, F::Moves, "whether a side's royal piece is attacked"),
    def("legal_moves", B::LegalMoves, 0, 0, F::Moves, "the legal moves of the side to move, as parts").flat(),
    def(
        "safe_moves",
        B::SafeMoves,
        1,
        1,
        F::Moves,
        "the moves a side could make now that leave its royal piece unattacked (chess-legal), whoever is to move",
    )
    .flat(),
    def(
        "checkmates",
        B::Checkmates,
        1,
        1,
        F::Moves,
        "the moves of a side (as if it were to move) after which the other side is in check with no legal move",
    )
    .flat(),
    def(
        "captures",
        B::Captures,
        0,
        1,
        F::Moves,
        "the legal capturing moves of the side to move, or of the piece on a square",
    )
    .flat(),
    def("history", B::History, 0, 0, F::Turn, "the turns played, each a list of parts"),
    def("last_turn", B::LastTurn, 0, 0, F::Turn, "the parts of the turn before this one").flat(),
    def("turn_number", B::TurnNumber, 0, 0, F::Turn, "this turn's number: 1 is White's first"),
    def("move_number", B::MoveNumber, 0, 0, F::Turn, "the FEN's full-move number: 1 for both sides' first turns"),
    def("this_turn", B::ThisTurn, 0, 0, F::Turn, "the parts of the turn in progress played so far").flat(),
    def("halfmoves", B::Halfmoves, 0, 0, F::Turn, "turns since the last capture or irreversible move"),
    def("squares", B::Squares, 0, 0, F::Board, "every existing square").flat(),
    def("holes", B::Holes, 0, 0, F::Board, "every missing square").flat(),
    def(
        "pieces",
        B::Pieces,
        1,
        2,
        F::Material,
        "the squares holding a side's pieces; with kinds (one, or a list or set), only pieces of those kinds",
    )
    .flat(),
    def(
        "count",
        B::Count,
        1,
        2,
        F::Material,
        "how many pieces of a kind (and side) or exactly this piece are on the board",
    ),
    def(
        "follow",
        B::Follow,
        1,
        1,
        F::Turn,
        "where the piece that stood on a square before this part stands now (of squares: the set of where they stand)",
    )
    .flat(),
    def("hand", B::Hand, 1, 1, F::Material, "the pieces in a side's hand").flat(),
    def("len", B::Len, 1, 1, F::Collection, "the length of a list, set, map or string"),
    def("list", B::List, 1, 1, F::Collection, "a list of the items"),
    def("set", B::Set, 1, 1, F::Collection, "a set of the items"),
    def("add", B::Add, 2, 2, F::Collection, "a list or set with one more item"),
    def("discard", B::Discard, 2, 2, F::Collection, "a list or set without an item, a map without a key"),
    def("keys", B::Keys, 1, 1, F::Collection, "the keys of a map"),
    def("get", B::Get, 2, 3, F::Collection, "a map's value for a key, or the default (none)"),
    def("put", B::Put, 3, 3, F::Collection, "a map with a key set to a value"),
    def("abs", B::Abs, 1, 1, F::Value, "absolute value"),
    def("min", B::Min, 1, 8, F::Collection, "the least of the arguments (or of one list)"),
    def("max", B::Max, 1, 8, F::Collection, "the greatest of the arguments (or of one list)"),
    def("str", B::Str, 1, 1, F::Value, "a value as text"),
    def("range", B::Range, 2, 2, F::Collection, "the integers from a up to b - 1").flat(),
    def("kinds", B::Kinds, 0, 0, F::Piece, "every kind of piece the preset declares, in order").flat(),
    def("random", B::Random, 1, 1, F::Random, "a number from 0 to n - 1, from the game's seed; only in `on setup`"),
    def(
        "random_order",
        B::RandomOrder,
        1,
        1,
        F::Random,
        "a list's items in an order drawn from the game's seed; only in `on setup`",
    ),
    def("remove_piece", B::RemovePiece, 1, 1, F::Change, "empty a square"),
    def("place", B::Place, 2, 2, F::Change, "put a piece on a square: place(piece_of(Queen, white), e4)"),
    def("construct", B::Construct, 1, 1, F::Change, "create a missing square, empty"),
    def("destroy", B::Destroy, 1, 1, F::Change, "remove an empty square from the board"),
    def("to_hand", B::ToHand, 2, 2, F::Change, "put a piece of a kind into a side's hand"),
    def("from_hand", B::FromHand, 2, 2, F::Change, "take a piece of a kind from a side's hand; false if none"),
    def("promote", B::Promote, 2, 2, F::Change, "turn the piece on a square into a kind, same side"),
];

const _: () = {
    let mut i = 0;
    while i < TABLE.len() {
        assert!(TABLE[i].builtin as usize == i, "TABLE is not in the order of Builtin");
        // A reader is run by `Interp::read`: one argument, nothing changed.
        assert!(!TABLE[i].reader || (TABLE[i].min == 1 && TABLE[i].max == 1 && !TABLE[i].changes));
        i += 1;
    }
};

pub fn lookup(name: &str) -> Option<&'static Def> {
    TABLE.iter().find(|t| t.name == name)
}

pub(super) fn name_of(b: Builtin) -> &'static str {
    b.def().name
}
