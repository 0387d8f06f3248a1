//! The built-in table: every built-in's name, arity, whether it changes the position, what it
//! does, and the per-built-in flags the interpreter checks at each call. Script data, below the
//! preset: the compiler resolves names with it and the IR names built-ins by it; the functions
//! themselves are in `builtins.rs`.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    RemovePiece,
    Place,
    Construct,
    Destroy,
    ToHand,
    FromHand,
    Promote,
    Random,
    RandomOrder,
    Kinds,
    Checkmates,
}

/// Per built-in, whether it changes the position (TABLE's fifth column), for a check at every call.
pub(super) const CHANGES_POSITION: [bool; 256] = {
    let mut out = [false; 256];
    let mut i = 0;
    while i < TABLE.len() {
        out[TABLE[i].1 as usize] = TABLE[i].4;
        i += 1;
    }
    out
};

/// Per built-in, whether every list or set it gives holds only scalars (squares, pieces, kinds,
/// parts, integers): its weight is then its length and one, known without looking at the items.
pub(super) const FLAT_LISTS: [bool; 256] = {
    let mut out = [false; 256];
    let flat = [
        Builtin::Neighbours,
        Builtin::EdgeNeighbours,
        Builtin::Frontier,
        Builtin::Attacks,
        Builtin::LegalMoves,
        Builtin::SafeMoves,
        Builtin::Captures,
        Builtin::LastTurn,
        Builtin::ThisTurn,
        Builtin::Squares,
        Builtin::Holes,
        Builtin::Pieces,
        Builtin::Hand,
        Builtin::Range,
        Builtin::Kinds,
        Builtin::Checkmates,
        Builtin::Follow,
    ];
    let mut i = 0;
    while i < flat.len() {
        out[flat[i] as usize] = true;
        i += 1;
    }
    out
};

/// Per built-in, whether `Interp::read` runs it.
pub(super) const READERS: [bool; 256] = {
    let mut out = [false; 256];
    let readers = [
        Builtin::PieceAt,
        Builtin::Empty,
        Builtin::Exists,
        Builtin::SideOf,
        Builtin::KindOf,
        Builtin::IsRoyal,
        Builtin::ValueOf,
        Builtin::Light,
    ];
    let mut i = 0;
    while i < readers.len() {
        out[readers[i] as usize] = true;
        i += 1;
    }
    out
};

/// Name, built-in, fewest and most arguments, whether it changes the position, what it does.
pub const TABLE: &[(&str, Builtin, usize, usize, bool, &str)] = &[
    ("piece_at", Builtin::PieceAt, 1, 1, false, "the piece on a square, or none"),
    ("empty", Builtin::Empty, 1, 1, false, "whether a square exists and holds no piece"),
    ("exists", Builtin::Exists, 1, 1, false, "whether a square is on the board (not a hole)"),
    ("side_of", Builtin::SideOf, 1, 1, false, "the side of a piece (or of the piece on a square)"),
    ("kind_of", Builtin::KindOf, 1, 1, false, "the kind of a piece"),
    ("label_of", Builtin::LabelOf, 1, 1, false, "the label of a piece, as in FEN"),
    ("name_of", Builtin::NameOf, 1, 1, false, "the name of a piece or kind"),
    ("is_royal", Builtin::IsRoyal, 1, 1, false, "whether a piece or kind is royal"),
    ("value_of", Builtin::ValueOf, 1, 1, false, "the declared value of a piece or kind"),
    ("piece_of", Builtin::PieceOf, 2, 2, false, "the piece of a kind and side: piece_of(Queen, white)"),
    ("file_of", Builtin::FileOf, 1, 1, false, "the file of a square, 1 for a"),
    ("rank_of", Builtin::RankOf, 1, 2, false, "the rank of a square, 1 first; with a side, counted from that side"),
    ("square_at", Builtin::SquareAt, 2, 2, false, "the square at file and rank (1-based), or none"),
    ("neighbours", Builtin::Neighbours, 1, 1, false, "the existing squares sharing an edge or corner"),
    ("edge_neighbours", Builtin::EdgeNeighbours, 1, 1, false, "the existing squares sharing an edge"),
    ("frontier", Builtin::Frontier, 0, 0, false, "the missing squares that share an edge with an existing square"),
    ("light", Builtin::Light, 1, 1, false, "whether a square (existing or not) is light in the checkered pattern"),
    ("attacks", Builtin::Attacks, 1, 1, false, "the squares the piece on a square could capture on"),
    ("attacked", Builtin::Attacked, 2, 2, false, "whether a side attacks a square"),
    ("in_check", Builtin::InCheck, 1, 1, false, "whether a side's royal piece is attacked"),
    ("legal_moves", Builtin::LegalMoves, 0, 0, false, "the legal moves of the side to move, as parts"),
    (
        "safe_moves",
        Builtin::SafeMoves,
        1,
        1,
        false,
        "the moves a side could make now that leave its royal piece unattacked (chess-legal), whoever is to move",
    ),
    (
        "checkmates",
        Builtin::Checkmates,
        1,
        1,
        false,
        "the moves of a side (as if it were to move) after which the other side is in check with no legal move",
    ),
    (
        "captures",
        Builtin::Captures,
        0,
        1,
        false,
        "the legal capturing moves of the side to move, or of the piece on a square",
    ),
    ("history", Builtin::History, 0, 0, false, "the turns played, each a list of parts"),
    ("last_turn", Builtin::LastTurn, 0, 0, false, "the parts of the turn before this one"),
    ("turn_number", Builtin::TurnNumber, 0, 0, false, "this turn's number: 1 is White's first"),
    ("move_number", Builtin::MoveNumber, 0, 0, false, "the FEN's full-move number: 1 for both sides' first turns"),
    ("this_turn", Builtin::ThisTurn, 0, 0, false, "the parts of the turn in progress played so far"),
    ("halfmoves", Builtin::Halfmoves, 0, 0, false, "turns since the last capture or irreversible move"),
    ("squares", Builtin::Squares, 0, 0, false, "every existing square"),
    ("holes", Builtin::Holes, 0, 0, false, "every missing square"),
    (
        "pieces",
        Builtin::Pieces,
        1,
        2,
        false,
        "the squares holding a side's pieces; with kinds (one, or a list or set), only pieces of those kinds",
    ),
    (
        "count",
        Builtin::Count,
        1,
        2,
        false,
        "how many pieces of a kind (and side) or exactly this piece are on the board",
    ),
    (
        "follow",
        Builtin::Follow,
        1,
        1,
        false,
        "where the piece that stood on a square before this part stands now (of squares: the set of where they stand)",
    ),
    ("hand", Builtin::Hand, 1, 1, false, "the pieces in a side's hand"),
    ("len", Builtin::Len, 1, 1, false, "the length of a list, set, map or string"),
    ("list", Builtin::List, 1, 1, false, "a list of the items"),
    ("set", Builtin::Set, 1, 1, false, "a set of the items"),
    ("add", Builtin::Add, 2, 2, false, "a list or set with one more item"),
    ("discard", Builtin::Discard, 2, 2, false, "a list or set without an item, a map without a key"),
    ("keys", Builtin::Keys, 1, 1, false, "the keys of a map"),
    ("get", Builtin::Get, 2, 3, false, "a map's value for a key, or the default (none)"),
    ("put", Builtin::Put, 3, 3, false, "a map with a key set to a value"),
    ("abs", Builtin::Abs, 1, 1, false, "absolute value"),
    ("min", Builtin::Min, 1, 8, false, "the least of the arguments (or of one list)"),
    ("max", Builtin::Max, 1, 8, false, "the greatest of the arguments (or of one list)"),
    ("str", Builtin::Str, 1, 1, false, "a value as text"),
    ("range", Builtin::Range, 2, 2, false, "the integers from a up to b - 1"),
    ("kinds", Builtin::Kinds, 0, 0, false, "every kind of piece the preset declares, in order"),
    ("random", Builtin::Random, 1, 1, false, "a number from 0 to n - 1, from the game's seed; only in `on setup`"),
    (
        "random_order",
        Builtin::RandomOrder,
        1,
        1,
        false,
        "a list's items in an order drawn from the game's seed; only in `on setup`",
    ),
    ("remove_piece", Builtin::RemovePiece, 1, 1, true, "empty a square"),
    ("place", Builtin::Place, 2, 2, true, "put a piece on a square: place(piece_of(Queen, white), e4)"),
    ("construct", Builtin::Construct, 1, 1, true, "create a missing square, empty"),
    ("destroy", Builtin::Destroy, 1, 1, true, "remove an empty square from the board"),
    ("to_hand", Builtin::ToHand, 2, 2, true, "put a piece of a kind into a side's hand"),
    ("from_hand", Builtin::FromHand, 2, 2, true, "take a piece of a kind from a side's hand; false if none"),
    ("promote", Builtin::Promote, 2, 2, true, "turn the piece on a square into a kind, same side"),
];

pub fn lookup(name: &str) -> Option<&'static (&'static str, Builtin, usize, usize, bool, &'static str)> {
    TABLE.iter().find(|t| t.0 == name)
}

pub(super) fn name_of(b: Builtin) -> &'static str {
    TABLE.iter().find(|t| t.1 == b).map_or("?", |t| t.0)
}
