//! Board geometry: a padded mailbox so that leaps and rides need no bounds checks, and square names.

use super::side::Side;

/// A square: an index into the padded mailbox. A newtype, so a square is never mistaken for a count,
/// a piece code or a file; `idx()` is the one way back to an array index.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Sq(u16);

impl Sq {
    /// Cell 0, in the padding: no square; marks an unused slot (no en-passant square, no origin).
    pub const NONE: Sq = Sq(0);

    /// The square at mailbox index `index` (indices fit in 16 bits: at most 32 x 70 cells).
    #[inline]
    pub const fn new(index: usize) -> Sq {
        Sq(index as u16)
    }

    /// The mailbox index, for indexing cells and per-square tables.
    #[inline]
    pub const fn idx(self) -> usize {
        self.0 as usize
    }

    /// The cell `delta` mailbox steps away (a direction from `Geometry::delta`); the padding keeps a
    /// leap from a square inside the mailbox.
    #[inline]
    pub const fn offset(self, delta: i32) -> Sq {
        Sq((self.0 as i32 + delta) as u16)
    }
}

/// Printed as the bare index, as before squares had a type of their own.
impl std::fmt::Debug for Sq {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Cells beyond the edge, so a leap of up to this many files or ranks lands on `OFF`, never outside.
pub const PAD: usize = 3;
pub const MAX_FILES: usize = 26;
pub const MAX_RANKS: usize = 64;

/// What a mailbox cell holds: one byte.
pub mod cell {
    use super::Side;
    pub const EMPTY: u8 = 0;
    /// Outside the board: never a square.
    pub const OFF: u8 = 1;
    /// A square of the board that does not exist (now).
    pub const HOLE: u8 = 2;
    /// Set on a piece that has not moved yet.
    pub const VIRGIN: u8 = 0x80;
    pub const FIRST_PIECE: u8 = 4;
    /// Piece kinds that fit in a cell byte beside the side bit and the virgin flag.
    pub const MAX_KINDS: usize = 62;

    #[inline]
    pub fn piece(kind: usize, side: Side) -> u8 {
        FIRST_PIECE + (kind as u8) * 2 + side as u8
    }
    #[inline]
    pub fn is_piece(c: u8) -> bool {
        c & 0x7F >= FIRST_PIECE
    }
    /// The piece a cell holds, without its unmoved flag.
    #[inline]
    pub fn code(c: u8) -> u8 {
        c & !VIRGIN
    }
    /// Whether the piece in a cell has not moved yet.
    #[inline]
    pub fn unmoved(c: u8) -> bool {
        c & VIRGIN != 0
    }
    /// A piece code marked as not moved yet.
    #[inline]
    pub fn with_unmoved(code: u8) -> u8 {
        code | VIRGIN
    }
    #[inline]
    pub fn kind(c: u8) -> usize {
        ((c & 0x7F) - FIRST_PIECE) as usize >> 1
    }
    #[inline]
    pub fn side(c: u8) -> Side {
        if c & 1 == 0 { Side::White } else { Side::Black }
    }
    #[inline]
    pub fn is_side(c: u8, s: Side) -> bool {
        is_piece(c) && (c & 1) == s as u8
    }
}

/// The shape of the board and the mapping between squares, files and ranks.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub files: usize,
    pub ranks: usize,
    pub stride: usize,
    pub cells: usize,
    /// Every square of the rectangle (existing or a hole), in rank-major order from a1.
    pub squares: Vec<Sq>,
    file_of: Vec<i8>,
    rank_of: Vec<i8>,
    light: Vec<bool>,
}

impl Geometry {
    /// `a1_light` anchors the checkered pattern.
    pub fn new(files: usize, ranks: usize, a1_light: bool) -> Geometry {
        let stride = files + 2 * PAD;
        let cells = stride * (ranks + 2 * PAD);
        let mut g = Geometry {
            files,
            ranks,
            stride,
            cells,
            squares: Vec::with_capacity(files * ranks),
            file_of: vec![-1; cells],
            rank_of: vec![-1; cells],
            light: vec![false; cells],
        };
        for r in 0..ranks {
            for f in 0..files {
                let sq = g.square(f, r);
                g.squares.push(sq);
                g.file_of[sq.idx()] = f as i8;
                g.rank_of[sq.idx()] = r as i8;
                g.light[sq.idx()] = ((f + r) % 2 == 0) == a1_light;
            }
        }
        g
    }

    #[inline]
    pub fn square(&self, file: usize, rank: usize) -> Sq {
        Sq::new((rank + PAD) * self.stride + file + PAD)
    }

    /// The square at file/rank, if it lies on the rectangle.
    pub fn square_checked(&self, file: i32, rank: i32) -> Option<Sq> {
        if file < 0 || rank < 0 || file as usize >= self.files || rank as usize >= self.ranks {
            return None;
        }
        Some(self.square(file as usize, rank as usize))
    }

    #[inline]
    pub fn delta(&self, dx: i32, dy: i32) -> i32 {
        dx + dy * self.stride as i32
    }

    #[inline]
    pub fn on_board(&self, sq: Sq) -> bool {
        self.file_of.get(sq.idx()).is_some_and(|&f| f >= 0)
    }

    #[inline]
    pub fn file(&self, sq: Sq) -> usize {
        self.file_of[sq.idx()] as usize
    }

    #[inline]
    pub fn rank(&self, sq: Sq) -> usize {
        self.rank_of[sq.idx()] as usize
    }

    /// The rank counted from `side`'s own first rank (0-based).
    pub fn relative_rank(&self, sq: Sq, side: Side) -> usize {
        match side {
            Side::White => self.rank(sq),
            Side::Black => self.ranks - 1 - self.rank(sq),
        }
    }

    pub fn is_light(&self, sq: Sq) -> bool {
        self.light[sq.idx()]
    }

    /// The square's name; `-` for a cell that is no square (a part without one, such as a discard).
    pub fn name(&self, sq: Sq) -> String {
        if !self.on_board(sq) {
            return "-".into();
        }
        format!("{}{}", (b'a' + self.file(sq) as u8) as char, self.rank(sq) + 1)
    }

    /// Parse `e4`; `None` when the text is no square of this board.
    pub fn parse_square(&self, s: &str) -> Option<Sq> {
        let b = s.as_bytes();
        let f = *b.first()?;
        if !f.is_ascii_lowercase() || b.len() < 2 || !b[1..].iter().all(u8::is_ascii_digit) || b[1] == b'0' {
            return None;
        }
        let rank: usize = s[1..].parse().ok()?;
        self.square_checked((f - b'a') as i32, rank as i32 - 1)
    }
}
